package org.symdyn.maven;

import java.io.File;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.symdyn.model.Diagnostic;

/**
 * A problem of a model, printed as {@code path:[line,col] message} (line and column 0 when unknown), with the
 * file, line and column kept apart for IDE markers.
 */
record Problem(File file, int line, int column, String message, boolean warning) {
    private static final Pattern LOCATED = Pattern.compile("(?s)(.*?):\\[(\\d+),(\\d+)\\] (.*)");

    static Problem of(File file, Diagnostic d) {
        return new Problem(file, d.location().line(), d.location().column(),
                (d.isError() ? "" : "warning: ") + d.message(), !d.isError());
    }

    /**
     * A problem from a message that may already start with {@code path:[line,col] } (as the generator's refusals
     * do); its position is kept, and the message without the prefix.
     */
    static Problem parse(File file, String message) {
        String text = message == null ? "(no message)" : message;
        Matcher m = LOCATED.matcher(text);
        if (m.matches()) {
            try {
                return new Problem(file, Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)), m.group(4),
                        false);
            } catch (NumberFormatException e) {
                // fall through: an absurd position is kept in the message
            }
        }
        return new Problem(file, 0, 0, text, false);
    }

    @Override
    public String toString() {
        return file.getPath() + ":[" + line + "," + column + "] " + message;
    }
}
