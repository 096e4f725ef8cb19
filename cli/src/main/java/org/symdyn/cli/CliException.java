package org.symdyn.cli;

import java.util.List;

/**
 * A command could not run: bad usage, a bad model or states file, or a refused backend. Carries the lines to print
 * on standard error (for files, {@code path:[line,col] message} lines) and the process exit code.
 */
final class CliException extends Exception {
    private static final long serialVersionUID = 1L;

    /** Exit code for bad usage and bad input files. */
    static final int BAD_INPUT = 2;

    private final int exitCode;
    private final List<String> lines;
    private final boolean showUsage;

    private CliException(int exitCode, List<String> lines, boolean showUsage) {
        super(String.join("\n", lines));
        this.exitCode = exitCode;
        this.lines = List.copyOf(lines);
        this.showUsage = showUsage;
    }

    /** A usage error: the message, then the usage text, on standard error; exit code 2. */
    static CliException usage(String message) {
        return new CliException(BAD_INPUT, List.of("symdyn: " + message), true);
    }

    /** Bad input (a file's diagnostics, an unknown backend): the lines alone on standard error; exit code 2. */
    static CliException badInput(List<String> lines) {
        return new CliException(BAD_INPUT, lines, false);
    }

    static CliException badInput(String line) {
        return badInput(List.of(line));
    }

    int exitCode() {
        return exitCode;
    }

    List<String> lines() {
        return lines;
    }

    boolean showUsage() {
        return showUsage;
    }
}
