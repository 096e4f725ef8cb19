package org.symdyn.io;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The {@code encoding} of a document's XML declaration, to locate an encoding the parser does not know. */
final class EncodingDeclaration {
    private static final Pattern ENCODING = Pattern.compile(
            "\\A\\s*<\\?xml\\s[^>]*?\\bencoding\\s*=\\s*([\"'])([^\"']*)\\1");

    private EncodingDeclaration() {
    }

    /** Line and column (1-based) of the encoding's name in the XML declaration, or {0, 0} if there is none. */
    static int[] position(String text) {
        Matcher m = ENCODING.matcher(text);
        if (!m.find()) {
            return new int[] {0, 0};
        }
        return new LinePositions(text).of(m.start(2));
    }

    /** The declared encoding name, or "" if there is none. */
    static String name(String text) {
        Matcher m = ENCODING.matcher(text);
        return m.find() ? m.group(2) : "";
    }
}
