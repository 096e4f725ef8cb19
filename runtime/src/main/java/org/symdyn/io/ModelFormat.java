package org.symdyn.io;

import java.nio.file.Path;
import java.util.Locale;

/** The model file formats, told apart by the file's extension ({@link #of(Path)}). */
public enum ModelFormat {
    /** URDF with SymDyn's extension elements: {@code .urdf}. */
    URDF("URDF"),
    /** MuJoCo's MJCF: {@code .xml} or {@code .mjcf}. */
    MJCF("MJCF"),
    /** SDFormat: {@code .sdf}. */
    SDF("SDFormat");

    private final String displayName;

    ModelFormat(String displayName) {
        this.displayName = displayName;
    }

    /** The format's usual name, for messages and reports ("URDF", "MJCF", "SDFormat"). */
    public String displayName() {
        return displayName;
    }

    /**
     * The format of a file by its extension, ignoring case: {@code .urdf} URDF; {@code .xml} and {@code .mjcf} MJCF;
     * {@code .sdf} SDFormat; null for any other name.
     */
    public static ModelFormat of(Path file) {
        Path name = file == null ? null : file.getFileName();
        if (name == null) {
            return null;
        }
        String n = name.toString().toLowerCase(Locale.ROOT);
        if (n.endsWith(".urdf")) {
            return URDF;
        }
        if (n.endsWith(".xml") || n.endsWith(".mjcf")) {
            return MJCF;
        }
        if (n.endsWith(".sdf")) {
            return SDF;
        }
        return null;
    }
}
