package org.symdyn.cli;

import java.util.List;

/**
 * A command could not run: bad usage, a bad model or states file, or a refused backend. Carries the lines to print
 * on standard error (for files, {@code path:[line,col] message} lines), the process exit code and, for a usage
 * error, the command whose help the one-line hint points to.
 */
final class CliException extends Exception {
    private static final long serialVersionUID = 1L;

    /** Exit code for bad usage and bad input files. */
    static final int BAD_INPUT = 2;

    private final int exitCode;
    private final List<String> lines;
    private final String usageOf;

    private CliException(int exitCode, List<String> lines, String usageOf) {
        super(String.join("\n", lines));
        this.exitCode = exitCode;
        this.lines = List.copyOf(lines);
        this.usageOf = usageOf;
    }

    /**
     * A usage error: {@code symdyn: message}, then a hint at the help of {@code command} ({@code ""} for the top
     * level), on standard error; exit code 2.
     */
    static CliException usage(String command, String message) {
        return new CliException(BAD_INPUT, List.of("symdyn: " + message), command);
    }

    /** Bad input (a file's diagnostics, an unknown backend): the lines alone on standard error; exit code 2. */
    static CliException badInput(List<String> lines) {
        return new CliException(BAD_INPUT, lines, null);
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

    /** For a usage error, the command whose help to point at ({@code ""}: the top level); null otherwise. */
    String usageOf() {
        return usageOf;
    }
}
