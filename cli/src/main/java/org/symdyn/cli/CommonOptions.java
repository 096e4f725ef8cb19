package org.symdyn.cli;

import org.symdyn.io.ModelFileReader;
import org.symdyn.model.Model;
import picocli.CommandLine.Option;

/**
 * The options every command has: how it reads its model files ({@code --floating}, {@code --strict},
 * {@code --ignore-tendons}) and
 * {@code -h}, {@code --help}.
 */
final class CommonOptions {
    @Option(names = "--floating", order = 90,
            description = "Give the root link a floating (6-dof) joint to the world (URDFs without a world link).")
    boolean floating;

    @Option(names = "--strict", order = 91, description = "Treat model warnings as errors.")
    boolean strict;

    @Option(names = "--ignore-tendons", order = 92, description = "MJCF: leave out tendons that couple joints"
            + " (through an equality or an actuator) instead of refusing the model; each is a warning.")
    boolean ignoreTendons;

    @Option(names = {"-h", "--help"}, usageHelp = true, order = 100, description = "Print this help and exit.")
    boolean help;

    /**
     * Reads the model file named {@code model} on the command line with these options ({@link ModelLoader#load}).
     *
     * @throws CliException the file's problems, one per line (exit code 2)
     */
    Model load(String model) throws CliException {
        return ModelLoader.load(SymDynCli.path(model), new ModelFileReader.Options(floating, strict,
                ignoreTendons));
    }

    /**
     * Reads the model file with its shapes and meshes, as {@code meshes} says.
     *
     * @param command the command's name, for a usage error
     * @throws CliException a bad {@code --missing-meshes} value, or the file's problems (exit code 2)
     */
    Model load(String model, MeshOptions meshes, String command) throws CliException {
        return ModelLoader.load(SymDynCli.path(model), new ModelFileReader.Options(floating, strict, ignoreTendons)
                .withMeshes(meshes.policy(command), meshes.packagePath()));
    }
}
