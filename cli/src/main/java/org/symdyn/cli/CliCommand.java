package org.symdyn.cli;

import java.io.PrintStream;

/** A command of {@code symdyn}, its options set by picocli, run once. */
interface CliCommand {
    /**
     * Runs the command.
     *
     * @param out where results go
     * @param err where problems and warnings go
     * @throws CliException bad usage or bad input (exit code 2), with the lines to print
     */
    void run(PrintStream out, PrintStream err) throws CliException;
}
