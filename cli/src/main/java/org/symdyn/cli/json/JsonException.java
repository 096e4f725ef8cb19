package org.symdyn.cli.json;

/**
 * A JSON document could not be read: a syntax error, or a file that could not be read at all. The message is one
 * {@code path:[line,col] message} line, with line and column 1-based (0, 0 when the file itself could not be
 * read).
 */
public final class JsonException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String path;
    private final int line;
    private final int column;
    private final String detail;

    /**
     * @param path   the document's path as given (or a name such as {@code <input>})
     * @param line   1-based line, 0 when unknown
     * @param column 1-based column in code points, 0 when unknown
     * @param detail what is wrong, without the location
     */
    public JsonException(String path, int line, int column, String detail) {
        super(path + ":[" + line + "," + column + "] " + detail);
        this.path = path;
        this.line = line;
        this.column = column;
        this.detail = detail;
    }

    /** The document's path as given. */
    public String path() {
        return path;
    }

    /** 1-based line of the error, 0 when the file could not be read. */
    public int line() {
        return line;
    }

    /** 1-based column (in code points) of the error, 0 when the file could not be read. */
    public int column() {
        return column;
    }

    /** The message without the {@code path:[line,col]} prefix. */
    public String detail() {
        return detail;
    }
}
