package org.symdyn.model;

/**
 * Where an element of a model came from: a file path and a 1-based line and column (0 when unknown). Printed as
 * {@code path:[line,col]}, the form every diagnostic uses.
 */
public record SourceLocation(String path, int line, int column) {
    /** For models built in code. */
    public static final SourceLocation UNKNOWN = new SourceLocation("<code>", 0, 0);

    @Override
    public String toString() {
        return path + ":[" + line + "," + column + "]";
    }
}
