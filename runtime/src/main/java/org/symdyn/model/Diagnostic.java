package org.symdyn.model;

/**
 * One problem found in a model: where, how bad, and what. {@link #toString()} gives the
 * {@code path:[line,col] message} line that the command line, the Maven plugin and the exceptions print; a
 * warning's message starts with "warning: ".
 */
public record Diagnostic(SourceLocation location, Severity severity, String message) {
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
