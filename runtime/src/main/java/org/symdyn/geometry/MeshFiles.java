package org.symdyn.geometry;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Readers of triangle mesh files: STL (binary and ASCII) and Wavefront OBJ, chosen by the file's extension
 * ({@code .stl}, {@code .obj}, any case). Each vertex x of the file becomes (s_x x, s_y y, s_z z), the per-axis
 * scale of a URDF {@code <mesh scale>} (finite and non-zero; a negative product mirrors the mesh, and the triangles'
 * winding is reversed so that their normals keep pointing out).
 *
 * <p>Bounded memory: a file larger than {@link #MAX_FILE_BYTES} or holding more than {@link #MAX_TRIANGLES}
 * triangles (or {@link #MAX_VERTICES} OBJ vertices) is refused before it is stored. Errors are
 * {@link MeshFileException}s naming the file, the line (text) or byte offset (binary) and the cause: truncated data,
 * a NaN or infinite coordinate, a malformed number or statement, an OBJ index 0 or out of range, a face of fewer than
 * three vertices, a file without triangles. Zero-area triangles (area at most {@link TriangleMesh#MIN_RELATIVE_AREA}
 * times the square of the longest edge: their normal is undefined) are left out with a warning in
 * {@link LoadedMesh#warnings()}. STL vertices are not merged: each triangle has its own three.
 *
 * <p>OBJ: {@code v x y z [w]} (w ignored), {@code f} with indices {@code i}, {@code i/t}, {@code i//n} or
 * {@code i/t/n} (1-based; negative counts back from the last vertex read), a polygon fanned into triangles from its
 * first vertex; {@code vn vt vp o g s l p usemtl mtllib} and comments ignored; any other statement ignored with a
 * warning.
 */
public final class MeshFiles {
    /** The largest file read (bytes). */
    public static final long MAX_FILE_BYTES = 256L << 20;
    /** The most triangles kept from one file. */
    public static final int MAX_TRIANGLES = 4_000_000;
    /** The most vertices read from one OBJ file. */
    public static final int MAX_VERTICES = 4_000_000;

    private static final List<String> OBJ_IGNORED = List.of("vn", "vt", "vp", "o", "g", "s", "l", "p", "usemtl",
            "mtllib");

    private MeshFiles() {
    }

    /** Reads an STL or OBJ file (by extension) with the per-axis scale (sx, sy, sz). */
    public static LoadedMesh read(Path file, double sx, double sy, double sz) throws IOException {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".stl")) {
            return readStl(file, sx, sy, sz);
        }
        if (name.endsWith(".obj")) {
            return readObj(file, sx, sy, sz);
        }
        throw new MeshFileException(file + ": unknown mesh format (expected .stl or .obj)");
    }

    /**
     * Reads an STL file: binary if its size is 84 + 50 n bytes for the n its header states, else ASCII if it
     * begins with {@code solid}, else a binary file of the wrong size (truncated or with trailing bytes).
     */
    public static LoadedMesh readStl(Path file, double sx, double sy, double sz) throws IOException {
        TriangleSoup b = new TriangleSoup(String.valueOf(file), sx, sy, sz);
        long size = checkSize(file);
        byte[] head = new byte[84];
        int got;
        try (InputStream in = Files.newInputStream(file)) {
            got = in.readNBytes(head, 0, 84);
        }
        long stated = got == 84 ? Integer.toUnsignedLong(
                (head[80] & 0xff) | (head[81] & 0xff) << 8 | (head[82] & 0xff) << 16 | (head[83] & 0xff) << 24) : -1;
        if (stated >= 0 && size == 84 + 50 * stated) {
            readBinaryStl(file, stated, b);
        } else if (new String(head, 0, Math.min(got, 5), StandardCharsets.US_ASCII).equals("solid")) {
            readAsciiStl(file, b);
        } else if (got < 84) {
            throw new MeshFileException(file + ": byte " + got + ": truncated: a binary STL has an 84-byte header, "
                    + "the file has " + size + " bytes");
        } else {
            long whole = (size - 84) / 50;
            throw new MeshFileException(file + ": byte " + (84 + 50 * Math.min(whole, stated)) + ": "
                    + (size < 84 + 50 * stated ? "truncated" : "trailing bytes") + ": the header states " + stated
                    + " triangles (" + (84 + 50 * stated) + " bytes), the file has " + size + " bytes");
        }
        return b.build();
    }

    private static void readBinaryStl(Path file, long count, TriangleSoup b) throws IOException {
        if (count > MAX_TRIANGLES) {
            throw new MeshFileException(file + ": byte 80: " + count + " triangles, more than the limit "
                    + MAX_TRIANGLES);
        }
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16))) {
            in.skipNBytes(84);
            double[] v = new double[9];
            for (long t = 0; t < count; t++) {
                long offset = 84 + 50 * t;
                in.skipNBytes(12); // the stated normal: recomputed from the vertices
                for (int k = 0; k < 9; k++) {
                    float x = Float.intBitsToFloat(Integer.reverseBytes(in.readInt()));
                    if (!Float.isFinite(x)) {
                        throw new MeshFileException(file + ": byte " + (offset + 12 + 4 * k) + ": triangle " + t
                                + " vertex " + k / 3 + " coordinate " + "xyz".charAt(k % 3) + " is " + x);
                    }
                    v[k] = x;
                }
                in.skipNBytes(2);
                b.triangle(v, "byte " + offset + " (triangle " + t + ")");
            }
        } catch (EOFException e) {
            throw new MeshFileException(file + ": truncated while reading (the file changed?)");
        }
    }

    private static void readAsciiStl(Path file, TriangleSoup b) throws IOException {
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.ISO_8859_1)) {
            double[] v = new double[9];
            int vertices = -1; // -1: outside a facet
            int facetLine = 0;
            int lineNo = 0;
            boolean ended = false;
            String line;
            while ((line = in.readLine()) != null) {
                lineNo++;
                String[] tok = line.trim().split("\\s+");
                if (tok[0].isEmpty()) {
                    continue;
                }
                String key = tok[0].toLowerCase(Locale.ROOT);
                String where = file + ":" + lineNo;
                switch (key) {
                    case "solid" -> {
                        if (vertices >= 0) {
                            throw new MeshFileException(where + ": 'solid' inside a facet");
                        }
                        ended = false;
                    }
                    case "endsolid" -> ended = true;
                    case "facet" -> {
                        if (vertices >= 0) {
                            throw new MeshFileException(where + ": 'facet' before the previous facet's 'endfacet'");
                        }
                        vertices = 0;
                        facetLine = lineNo;
                    }
                    case "outer", "endloop" -> {
                        if (vertices < 0) {
                            throw new MeshFileException(where + ": '" + tok[0] + "' outside a facet");
                        }
                    }
                    case "vertex" -> {
                        if (vertices < 0 || vertices == 3) {
                            throw new MeshFileException(where + ": " + (vertices < 0 ? "'vertex' outside a facet"
                                    : "a fourth vertex in a facet"));
                        }
                        if (tok.length != 4) {
                            throw new MeshFileException(where + ": 'vertex' needs 3 coordinates, got "
                                    + (tok.length - 1));
                        }
                        for (int k = 0; k < 3; k++) {
                            v[3 * vertices + k] = number(tok[1 + k], where, "xyz".charAt(k) + " coordinate");
                        }
                        vertices++;
                    }
                    case "endfacet" -> {
                        if (vertices != 3) {
                            throw new MeshFileException(where + ": facet with " + Math.max(vertices, 0)
                                    + " vertices (3 needed)");
                        }
                        b.triangle(v, "line " + facetLine);
                        vertices = -1;
                    }
                    default -> throw new MeshFileException(where + ": unknown STL statement '" + tok[0] + "'");
                }
            }
            if (vertices >= 0) {
                throw new MeshFileException(file + ":" + lineNo + ": truncated: the facet of line " + facetLine
                        + " has no 'endfacet'");
            }
            if (!ended) {
                throw new MeshFileException(file + ":" + lineNo + ": truncated: no 'endsolid'");
            }
        }
    }

    /** Reads a Wavefront OBJ file. */
    public static LoadedMesh readObj(Path file, double sx, double sy, double sz) throws IOException {
        TriangleSoup b = new TriangleSoup(String.valueOf(file), sx, sy, sz);
        checkSize(file);
        double[] vertex = new double[3 * 1024];
        int count = 0;
        double[] v = new double[9];
        int[] polygon = new int[16];
        List<String> unknown = new ArrayList<>();
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            int lineNo = 0;
            while ((line = in.readLine()) != null) {
                lineNo++;
                int hash = line.indexOf('#');
                String[] tok = (hash >= 0 ? line.substring(0, hash) : line).trim().split("\\s+");
                if (tok[0].isEmpty()) {
                    continue;
                }
                String where = file + ":" + lineNo;
                if (tok[0].equals("v")) {
                    if (tok.length < 4 || tok.length > 5) {
                        throw new MeshFileException(where + ": 'v' needs 3 coordinates (and an optional w), got "
                                + (tok.length - 1));
                    }
                    if (count == MAX_VERTICES) {
                        throw new MeshFileException(where + ": more than " + MAX_VERTICES + " vertices");
                    }
                    if (3 * count == vertex.length) {
                        vertex = Arrays.copyOf(vertex, 2 * vertex.length);
                    }
                    for (int k = 0; k < 3; k++) {
                        vertex[3 * count + k] = number(tok[1 + k], where, "xyz".charAt(k) + " coordinate");
                    }
                    count++;
                } else if (tok[0].equals("f")) {
                    int n = tok.length - 1;
                    if (n < 3) {
                        throw new MeshFileException(where + ": a face needs at least 3 vertices, got " + n);
                    }
                    if (n > polygon.length) {
                        polygon = new int[n];
                    }
                    for (int k = 0; k < n; k++) {
                        polygon[k] = index(tok[1 + k], count, where);
                    }
                    for (int k = 1; k + 1 < n; k++) {
                        System.arraycopy(vertex, 3 * polygon[0], v, 0, 3);
                        System.arraycopy(vertex, 3 * polygon[k], v, 3, 3);
                        System.arraycopy(vertex, 3 * polygon[k + 1], v, 6, 3);
                        b.triangle(v, "line " + lineNo);
                    }
                } else if (!OBJ_IGNORED.contains(tok[0]) && !unknown.contains(tok[0])) {
                    unknown.add(tok[0]);
                    b.warn(where + ": OBJ statement '" + tok[0] + "' ignored (also on later lines)");
                }
            }
        }
        return b.build();
    }

    /** The 0-based vertex index of an OBJ face token i, i/t, i//n or i/t/n. */
    private static int index(String token, int count, String where) throws MeshFileException {
        int slash = token.indexOf('/');
        String text = slash >= 0 ? token.substring(0, slash) : token;
        int i;
        try {
            i = Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new MeshFileException(where + ": bad vertex index '" + token + "'");
        }
        int resolved = i > 0 ? i - 1 : count + i;
        if (i == 0 || resolved < 0 || resolved >= count) {
            throw new MeshFileException(where + ": vertex index " + i + " out of range (" + count
                    + " vertices read so far; 1-based, negative counts back)");
        }
        return resolved;
    }

    private static double number(String text, String where, String what) throws MeshFileException {
        double x;
        try {
            x = Double.parseDouble(text);
        } catch (NumberFormatException e) {
            throw new MeshFileException(where + ": " + what + " '" + text + "' is not a number");
        }
        if (!Double.isFinite(x)) {
            throw new MeshFileException(where + ": " + what + " is " + text);
        }
        return x;
    }

    private static long checkSize(Path file) throws IOException {
        long size = Files.size(file);
        if (size > MAX_FILE_BYTES) {
            throw new MeshFileException(file + ": " + size + " bytes, more than the limit " + MAX_FILE_BYTES);
        }
        return size;
    }
}
