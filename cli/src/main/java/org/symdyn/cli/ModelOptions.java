package org.symdyn.cli;

import picocli.CommandLine.Option;

/** How every command reads its model files: {@code --floating} and {@code --strict}. */
final class ModelOptions {
    @Option(names = "--floating", order = 90,
            description = "Give the root link a floating (6-dof) joint to the world (URDFs without a world link).")
    boolean floating;

    @Option(names = "--strict", order = 91, description = "Treat model warnings as errors.")
    boolean strict;
}
