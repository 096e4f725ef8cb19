package org.symdyn.generator.emit;

/**
 * Text from a model (robot, link, joint, frame names) made safe inside generated Javadoc. Java translates unicode
 * escapes (a backslash, u, four hex digits) before anything else, even in comments, so a name holding the text
 * backslash-u002a-slash would close the comment and one holding backslash-uZZZZ would not compile; a star followed
 * by a slash would close it directly. Such characters become HTML character references: the backslash
 * &amp;#92;, the slash after a star &amp;#47;, the Javadoc tag characters at-sign and braces &amp;#64;, &amp;#123;,
 * &amp;#125;, and control characters, unpaired surrogates and line or paragraph separators &amp;#xHHHH;. Ordinary
 * names come out unchanged.
 */
public final class JavadocText {
    private JavadocText() {
    }

    /** The text, escaped for a Javadoc comment. */
    public static String escape(String text) {
        if (text == null) {
            return "null";
        }
        StringBuilder sb = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            int type = Character.getType(c);
            if (c == '\\') {
                sb.append("&#92;");
            } else if (c == '/' && i > 0 && text.charAt(i - 1) == '*') {
                sb.append("&#47;");
            } else if (c == '@') {
                sb.append("&#64;");
            } else if (c == '{') {
                sb.append("&#123;");
            } else if (c == '}') {
                sb.append("&#125;");
            } else if (Character.isISOControl(c) || type == Character.LINE_SEPARATOR
                    || type == Character.PARAGRAPH_SEPARATOR || Character.isSurrogate(c)
                    && !(Character.isHighSurrogate(c) && i + 1 < text.length()
                            && Character.isLowSurrogate(text.charAt(i + 1)))
                    && !(Character.isLowSurrogate(c) && i > 0 && Character.isHighSurrogate(text.charAt(i - 1)))) {
                sb.append(String.format("&#x%04X;", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
