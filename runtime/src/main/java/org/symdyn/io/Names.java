package org.symdyn.io;

/**
 * Names (robot, links, joints, constraints) end up in generated Java code: in string literals and in Javadoc. The
 * generator escapes what Java needs escaped there; what no escaping makes sensible is refused here, at the
 * element: control characters (they reach a name only through character references such as {@code &#10;}), the
 * line and paragraph separators U+2028 and U+2029 (which tools, JavaPoet among them, take for line breaks), and names
 * longer than {@link #MAX_NAME_BYTES}.
 */
public final class Names {
    /**
     * The longest name, in UTF-8 bytes ({@link org.symdyn.model.ModelBuilder#MAX_NAME_BYTES}): generated code carries
     * each name as a string constant, which a class file holds to 65,535 bytes (a 70,000-character joint name gave a
     * class that did not compile).
     */
    public static final int MAX_NAME_BYTES = org.symdyn.model.ModelBuilder.MAX_NAME_BYTES;

    private Names() {
    }

    /**
     * Reports a name with a character no generated code can carry, as an error at {@code e}; returns the name
     * unchanged (null stays null), so that reading goes on.
     */
    public static String check(ValueReader values, XmlElement e, String what, String name) {
        if (name == null) {
            return null;
        }
        int bytes = name.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        if (bytes > MAX_NAME_BYTES) {
            values.error(e, what + " '" + Messages.cut(printable(name)) + "' is " + bytes + " bytes long (UTF-8), over"
                    + " the " + MAX_NAME_BYTES + " a name may have: generated code carries it as a string constant;"
                    + " rename it");
            return name;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            int type = Character.getType(c);
            if (Character.isISOControl(c) || type == Character.LINE_SEPARATOR
                    || type == Character.PARAGRAPH_SEPARATOR) {
                values.error(e, what + " '" + Messages.cut(printable(name)) + "' contains the character U+"
                        + String.format("%04X", (int) c) + " (a control character or line separator), which"
                        + " generated code cannot carry: rename it");
                break;
            }
        }
        return name;
    }

    /** The name with every control character and separator written as \\uXXXX, for messages. */
    public static String printable(String name) {
        StringBuilder sb = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            int type = Character.getType(c);
            if (Character.isISOControl(c) || type == Character.LINE_SEPARATOR
                    || type == Character.PARAGRAPH_SEPARATOR) {
                sb.append(String.format("\\u%04X", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
