package org.symdyn.cli;

import org.symdyn.io.urdf.UrdfReader;
import org.symdyn.model.Model;
import picocli.CommandLine.Option;

/**
 * The options every command has: how it reads its model files ({@code --floating}, {@code --strict}) and
 * {@code -h}, {@code --help}.
 */
final class CommonOptions {
    @Option(names = "--floating", order = 90,
            description = "Give the root link a floating (6-dof) joint to the world (URDFs without a world link).")
    boolean floating;

    @Option(names = "--strict", order = 91, description = "Treat model warnings as errors.")
    boolean strict;

    @Option(names = {"-h", "--help"}, usageHelp = true, order = 100, description = "Print this help and exit.")
    boolean help;

    /**
     * Reads the model file named {@code model} on the command line with these options ({@link ModelLoader#load}).
     *
     * @throws CliException the file's problems, one per line (exit code 2)
     */
    Model load(String model) throws CliException {
        return ModelLoader.load(SymDynCli.path(model), floating, strict);
    }

    /**
     * Reads the model file with its shapes and meshes, as {@code meshes} says.
     *
     * @param command the command's name, for a usage error
     * @throws CliException a bad {@code --missing-meshes} value, or the file's problems (exit code 2)
     */
    Model load(String model, MeshOptions meshes, String command) throws CliException {
        return ModelLoader.load(SymDynCli.path(model), new UrdfReader.Options(floating, strict)
                .withMeshes(meshes.policy(command), meshes.packagePath()));
    }
}
