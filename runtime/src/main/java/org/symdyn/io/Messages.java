package org.symdyn.io;

/** Text from the file quoted in messages is cut, so that a 50 MB attribute does not make a 50 MB message. */
public final class Messages {
    /** Quoted values longer than this are cut. */
    public static final int MAX_QUOTED = 80;

    private Messages() {
    }

    /**
     * The value, or its first {@value #MAX_QUOTED} characters followed by "... (N characters)" (never splitting a
     * surrogate pair).
     */
    public static String cut(String value) {
        if (value == null || value.length() <= MAX_QUOTED) {
            return value;
        }
        int end = MAX_QUOTED;
        if (Character.isHighSurrogate(value.charAt(end - 1))) {
            end--;
        }
        return value.substring(0, end) + "... (" + value.length() + " characters)";
    }

    /**
     * "the document element is &lt;x&gt; [in namespace 'n'], expected &lt;expected&gt; (what)": the refusal of a
     * document of another kind.
     */
    public static String unexpectedDocument(XmlElement root, String expected, String what) {
        return "the document element is <" + cut(root.name()) + ">" + (root.namespace().isEmpty() ? ""
                : " in namespace '" + cut(root.namespace()) + "'") + ", expected <" + expected + "> (" + what + ")";
    }

    /**
     * Why a file could not be read, in words and without a Java class name: "no such file", "access denied", "not
     * text in the expected encoding (binary data?)", else the exception's own message.
     */
    public static String ioReason(Exception e) {
        if (e instanceof java.nio.file.NoSuchFileException) {
            return "no such file";
        }
        if (e instanceof java.nio.file.AccessDeniedException) {
            return "access denied";
        }
        if (e instanceof java.nio.charset.CharacterCodingException) {
            return "not text in the expected encoding (binary data?)";
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
