package org.symdyn.io;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import org.symdyn.geometry.LoadedMesh;
import org.symdyn.geometry.MeshFileException;
import org.symdyn.geometry.MeshFiles;

/**
 * Reads a mesh file of any format the model readers take, chosen by its extension (any case): STL and OBJ
 * ({@link MeshFiles}), Collada {@code .dae} ({@link ColladaFiles}).
 */
public final class MeshFormats {
    private MeshFormats() {
    }

    /**
     * Reads {@code file} with the per-axis scale of a {@code <mesh scale>}.
     *
     * @throws MeshFileException an unknown extension, or a file its format's reader refuses
     * @throws IOException       the file cannot be read (missing, a directory, access denied)
     */
    public static LoadedMesh read(Path file, double sx, double sy, double sz) throws IOException {
        String name = String.valueOf(file.getFileName()).toLowerCase(Locale.ROOT);
        if (name.endsWith(".dae")) {
            return ColladaFiles.read(file, sx, sy, sz);
        }
        if (name.endsWith(".stl") || name.endsWith(".obj")) {
            return MeshFiles.read(file, sx, sy, sz);
        }
        int dot = name.lastIndexOf('.');
        throw new MeshFileException(file + ": unknown mesh format"
                + (dot >= 0 ? " '" + Messages.cut(name.substring(dot)) + "'" : " (no extension)")
                + " (expected .stl, .obj or .dae)");
    }
}
