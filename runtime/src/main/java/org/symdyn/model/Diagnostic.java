package org.symdyn.model;

/**
 * One problem found in a model: where, how bad, and what. {@link #toString()} gives the
 * {@code path:[line,col] message} line that the command line, the Maven plugin and the exceptions print; a
 * warning's message starts with "warning: ".
 */
public record Diagnostic(SourceLocation location, Severity severity, String message) {
    /** Longer messages are cut in the middle (a value quoted from a file can be megabytes long). */
    public static final int MAX_MESSAGE = 2000;

    /** Cuts a message longer than {@link #MAX_MESSAGE}, keeping its start and end. */
    public Diagnostic {
        if (message != null && message.length() > MAX_MESSAGE) {
            int head = MAX_MESSAGE / 2;
            int tail = MAX_MESSAGE / 4;
            if (Character.isHighSurrogate(message.charAt(head - 1))) {
                head--;
            }
            if (Character.isLowSurrogate(message.charAt(message.length() - tail))) {
                tail--;
            }
            message = message.substring(0, head) + " ... (" + (message.length() - head - tail)
                    + " characters cut) ... " + message.substring(message.length() - tail);
        }
    }

    /** How bad a problem is. */
    public enum Severity {
        /** The model is refused. */
        ERROR,
        /** The model is accepted (refused under strict reading). */
        WARNING
    }

    public static Diagnostic error(SourceLocation location, String message) {
        return new Diagnostic(location, Severity.ERROR, message);
    }

    public static Diagnostic warning(SourceLocation location, String message) {
        return new Diagnostic(location, Severity.WARNING, message);
    }

    public boolean isError() {
        return severity == Severity.ERROR;
    }

    @Override
    public String toString() {
        return location + " " + (severity == Severity.WARNING ? "warning: " : "") + message;
    }
}
