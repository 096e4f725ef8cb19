package org.symdyn.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.symdyn.io.MeshPolicy;
import org.symdyn.io.PackagePath;
import picocli.CommandLine.Option;

/**
 * The options of the commands that load a model's shapes ({@code inspect}, {@code simulate},
 * {@code rollouts}, {@code view}): where
 * {@code package://} meshes are found and what a mesh that cannot be had is. {@code generate} and {@code evaluate}
 * never load meshes ({@link MeshPolicy#SKIP}): generated classes and the dynamics never use shapes.
 */
final class MeshOptions {
    static final String ERROR = "error";
    static final String WARN = "warn";

    @Option(names = "--package-path", paramLabel = "DIR[" + ":" + "DIR...]", order = 80,
            description = "Where package://NAME/... meshes are found: for each DIR, DIR/NAME/... (or DIR/... when DIR"
                    + " is named NAME). Repeatable, or several directories separated by the path separator; the"
                    + " ROS_PACKAGE_PATH variable is searched after them.")
    List<String> packagePath = new ArrayList<>();

    @Option(names = "--missing-meshes", paramLabel = "error|warn", defaultValue = ERROR, order = 81,
            description = "A mesh that cannot be found or read: error (the default: exit 2 with its location) or warn"
                    + " (a warning, the shape left out). A package:// mesh while no package path is known at all is"
                    + " left out with a warning either way.")
    String missingMeshes = ERROR;

    /** The package path: the directories given, then ROS_PACKAGE_PATH. */
    PackagePath packagePath() {
        List<Path> dirs = new ArrayList<>();
        for (String list : packagePath) {
            dirs.addAll(PackagePath.split(list));
        }
        return PackagePath.of(dirs);
    }

    /** The policy {@code --missing-meshes} names. */
    MeshPolicy policy(String command) throws CliException {
        return switch (missingMeshes) {
            case ERROR -> MeshPolicy.REQUIRED;
            case WARN -> MeshPolicy.OPTIONAL;
            default -> throw CliException.usage(command, "--missing-meshes must be " + ERROR + " or " + WARN + ", not '"
                    + missingMeshes + "'");
        };
    }
}
