package org.symdyn.maven;

import java.io.File;
import org.symdyn.model.Diagnostic;

/**
 * A problem of a model, printed as {@code path:[line,col] message} (line and column 0 when unknown), with the
 * file, line and column kept apart for IDE markers.
 */
record Problem(File file, int line, int column, String message, boolean warning) {
    static Problem of(File file, Diagnostic d) {
        return new Problem(file, d.location().line(), d.location().column(),
                (d.isError() ? "" : "warning: ") + d.message(), !d.isError());
    }

    @Override
    public String toString() {
        return file.getPath() + ":[" + line + "," + column + "] " + message;
    }
}
