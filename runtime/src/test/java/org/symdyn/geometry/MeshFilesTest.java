package org.symdyn.geometry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.symdyn.testing.SharedFiles;

/**
 * STL (binary, ASCII) and OBJ files written here, read back with scale, against the coordinates written; each kind of
 * bad input (truncated, NaN, bad index, malformed statement, zero-area triangle, too large) gives its located error
 * or warning; the shared robots' STL collision meshes read and make convex hulls.
 */
class MeshFilesTest {
    @TempDir
    Path dir;

    /** A tetrahedron with corners (0,0,0), (1,0,0), (0,1,0), (0,0,1), faces wound outwards. */
    private static final double[][] TETRA = {{0, 0, 0, 0, 1, 0, 1, 0, 0}, {0, 0, 0, 1, 0, 0, 0, 0, 1},
        {0, 0, 0, 0, 0, 1, 0, 1, 0}, {1, 0, 0, 0, 1, 0, 0, 0, 1}};

    private Path binaryStl(String name, String header, double[][] triangles, int statedCount) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(84 + 50 * triangles.length).order(ByteOrder.LITTLE_ENDIAN);
        byte[] h = header.getBytes(StandardCharsets.US_ASCII);
        buf.put(h, 0, Math.min(80, h.length));
        buf.position(80);
        buf.putInt(statedCount);
        for (double[] t : triangles) {
            buf.putFloat(0).putFloat(0).putFloat(0);
            for (double x : t) {
                buf.putFloat((float) x);
            }
            buf.putShort((short) 0);
        }
        Path p = dir.resolve(name);
        Files.write(p, buf.array());
        return p;
    }

    private Path text(String name, String content) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, content);
        return p;
    }

    private static String asciiStl(double[][] triangles) {
        StringBuilder s = new StringBuilder("solid tetra\n");
        for (double[] t : triangles) {
            s.append("  facet normal 0 0 0\n    outer loop\n");
            for (int c = 0; c < 3; c++) {
                s.append("      vertex ").append(t[3 * c]).append(' ').append(t[3 * c + 1]).append(' ')
                        .append(t[3 * c + 2]).append('\n');
            }
            s.append("    endloop\n  endfacet\n");
        }
        return s.append("endsolid tetra\n").toString();
    }

    private static void assertScaledTetra(TriangleMesh m, double sx, double sy, double sz) {
        assertEquals(4, m.triangleCount());
        for (int t = 0; t < 4; t++) {
            for (int c = 0; c < 3; c++) {
                int v = m.triangleVertex(t, c);
                assertEquals(sx * TETRA[t][3 * c], m.vertex(v, 0));
                assertEquals(sy * TETRA[t][3 * c + 1], m.vertex(v, 1));
                assertEquals(sz * TETRA[t][3 * c + 2], m.vertex(v, 2));
            }
        }
    }

    private static String error(Path p) {
        return assertThrows(MeshFileException.class, () -> MeshFiles.read(p, 1, 1, 1)).getMessage();
    }

    @Test
    void binaryStlWithScale() throws IOException {
        Path p = binaryStl("tetra.stl", "binary", TETRA, 4);
        assertScaledTetra(MeshFiles.read(p, 2, 3, 4).mesh(), 2, 3, 4);
        // A binary header may begin with "solid": the size decides.
        Path q = binaryStl("solid.STL", "solid but binary", TETRA, 4);
        assertScaledTetra(MeshFiles.read(q, 1, 1, 1).mesh(), 1, 1, 1);
    }

    @Test
    void asciiStlWithScale() throws IOException {
        Path p = text("tetra.stl", asciiStl(TETRA));
        LoadedMesh m = MeshFiles.read(p, 0.5, 0.5, 0.5);
        assertScaledTetra(m.mesh(), 0.5, 0.5, 0.5);
        assertEquals(List.of(), m.warnings());
    }

    @Test
    void mirroringScaleKeepsTheNormalsOutward() throws IOException {
        Path p = binaryStl("tetra.stl", "binary", TETRA, 4);
        TriangleMesh m = MeshFiles.read(p, -1, 1, 1).mesh();
        // centroid of the mirrored tetrahedron
        double[] c = {-0.25, 0.25, 0.25};
        for (int t = 0; t < 4; t++) {
            double[][] v = new double[3][3];
            for (int k = 0; k < 3; k++) {
                for (int i = 0; i < 3; i++) {
                    v[k][i] = m.vertex(m.triangleVertex(t, k), i);
                }
            }
            double[] u = {v[1][0] - v[0][0], v[1][1] - v[0][1], v[1][2] - v[0][2]};
            double[] w = {v[2][0] - v[0][0], v[2][1] - v[0][1], v[2][2] - v[0][2]};
            double[] n = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]};
            double[] out = {v[0][0] - c[0], v[0][1] - c[1], v[0][2] - c[2]};
            assertTrue(Exact.dot(n, out) > 0, "triangle " + t + " faces out");
        }
    }

    @Test
    void badStlFilesAreLocated() throws IOException {
        Path whole = binaryStl("whole.stl", "binary", TETRA, 4);
        byte[] bytes = Files.readAllBytes(whole);
        Path cut = dir.resolve("cut.stl"); // 274 bytes: three whole triangles, the fourth from byte 234
        Files.write(cut, java.util.Arrays.copyOf(bytes, bytes.length - 10));
        assertEquals(cut + ": byte 234: truncated: the header states 4 triangles (284 bytes), the file has 274 bytes",
                error(cut));
        // triangle 1 starts at 84 + 50 = 134, its vertices at 134 + 12 = 146, vertex 1 y at 146 + 4 * 4 = 162
        Path nan = binaryStl("nan.stl", "binary", new double[][] {TETRA[0], {0, 0, 0, 1, Double.NaN, 0, 0, 0, 1}}, 2);
        assertEquals(nan + ": byte 162: triangle 1 vertex 1 coordinate y is NaN", error(nan));
        Path header = dir.resolve("short.stl");
        Files.write(header, new byte[] {1, 2, 3});
        assertTrue(error(header).startsWith(header + ": byte 3: truncated"));
        Path asciiNan = text("a.stl", asciiStl(TETRA).replace("vertex 1.0 0.0 0.0", "vertex 1.0 nan 0.0"));
        assertTrue(error(asciiNan).startsWith(asciiNan + ":6: y coordinate 'nan' is not a number"), error(asciiNan));
        String noEnd = asciiStl(TETRA);
        // cut before the first endloop: the last line, 7, holds only its indentation
        Path truncated = text("t.stl", noEnd.substring(0, noEnd.indexOf("endloop")));
        assertEquals(truncated + ":7: truncated: the facet of line 2 has no 'endfacet'", error(truncated));
        Path keyword = text("k.stl", asciiStl(TETRA).replace("outer loop", "inner loop"));
        assertEquals(keyword + ":3: unknown STL statement 'inner'", error(keyword));
        Path degenerate = text("d.stl", asciiStl(new double[][] {TETRA[0], {0, 0, 0, 1, 1, 1, 2, 2, 2}}));
        LoadedMesh m = MeshFiles.read(degenerate, 1, 1, 1);
        assertEquals(1, m.mesh().triangleCount());
        assertEquals(List.of(degenerate + ": 1 zero-area triangle left out (the first at line 9)"), m.warnings());
        Path onlyDegenerate = text("o.stl", asciiStl(new double[][] {{0, 0, 0, 1, 1, 1, 2, 2, 2}}));
        assertEquals(onlyDegenerate + ": no triangles of non-zero area", error(onlyDegenerate));
        assertThrows(MeshFileException.class, () -> MeshFiles.read(whole, 0, 1, 1));
        assertThrows(MeshFileException.class, () -> MeshFiles.read(dir.resolve("x.ply"), 1, 1, 1));
    }

    @Test
    void filesPastTheSizeLimitAreRefusedUnread() throws IOException {
        Path big = dir.resolve("big.stl");
        try (RandomAccessFile f = new RandomAccessFile(big.toFile(), "rw")) {
            f.setLength(MeshFiles.MAX_FILE_BYTES + 1); // sparse: nothing is written
        }
        assertEquals(big + ": " + (MeshFiles.MAX_FILE_BYTES + 1) + " bytes, more than the limit "
                + MeshFiles.MAX_FILE_BYTES, error(big));
    }

    @Test
    void objPolygonsNegativeIndicesAndErrors() throws IOException {
        Path p = text("square.obj", """
                # a unit square as one quad, and a triangle by negative indices
                mtllib x.mtl
                o square
                v 0 0 0
                v 1 0 0
                v 1 1 0
                v 0 1 0 1.0
                vn 0 0 1
                f 1/1/1 2/2/1 3//1 4
                v 0 0 1
                f -5 -4 -1
                cstype bspline
                cstype bspline
                """);
        LoadedMesh m = MeshFiles.read(p, 2, 2, 2);
        TriangleMesh mesh = m.mesh();
        assertEquals(3, mesh.triangleCount(), "a quad fanned into two triangles, and one more");
        double[][] expected = {{0, 0, 0, 2, 0, 0, 2, 2, 0}, {0, 0, 0, 2, 2, 0, 0, 2, 0}, {0, 0, 0, 2, 0, 0, 0, 0, 2}};
        for (int t = 0; t < 3; t++) {
            for (int c = 0; c < 3; c++) {
                for (int k = 0; k < 3; k++) {
                    assertEquals(expected[t][3 * c + k], mesh.vertex(mesh.triangleVertex(t, c), k));
                }
            }
        }
        assertEquals(List.of(p + ":12: OBJ statement 'cstype' ignored (also on later lines)"), m.warnings());
        assertEquals(dir.resolve("z.obj") + ":2: vertex index 0 out of range (1 vertices read so far; 1-based, "
                + "negative counts back)", error(text("z.obj", "v 0 0 0\nf 0 1 1\n")));
        assertEquals(dir.resolve("r.obj") + ":4: vertex index 4 out of range (3 vertices read so far; 1-based, "
                + "negative counts back)", error(text("r.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n")));
        assertEquals(dir.resolve("n.obj") + ":1: y coordinate is NaN", error(text("n.obj", "v 0 NaN 0\n")));
        assertEquals(dir.resolve("f.obj") + ":3: a face needs at least 3 vertices, got 2",
                error(text("f.obj", "v 0 0 0\nv 1 0 0\nf 1 2\n")));
        assertEquals(dir.resolve("b.obj") + ":2: bad vertex index 'x'", error(text("b.obj", "v 0 0 0\nf x 1 1\n")));
        assertEquals(dir.resolve("e.obj") + ": no triangles", error(text("e.obj", "v 0 0 0\n")));
        // lengths that overflow are named as such, not as "no triangles of non-zero area"
        assertEquals(dir.resolve("h.obj") + ": line 4: a vertex is too far from the origin (1.0E308 m after scaling): the"
                + " triangle's lengths overflow", error(text("h.obj", "v 0 0 0\nv 1e308 0 0\nv 0 1 0\nf 1 2 3\n")));
    }

    @Test
    void sharedRobotCollisionMeshesReadAndMakeHulls() throws IOException {
        Path root = SharedFiles.require("packages/example-robot-data/robots");
        List<Path> files;
        try (var walk = Files.walk(root)) {
            files = walk.filter(f -> f.toString().toLowerCase().endsWith(".stl")).sorted().toList();
        }
        assertTrue(files.size() >= 20, files.size() + " STL files");
        for (Path f : files) {
            LoadedMesh m = MeshFiles.read(f, 1, 1, 1);
            assertTrue(m.mesh().triangleCount() > 0, f.toString());
            ConvexHull hull = m.mesh().convexHull();
            // every mesh vertex inside the hull (within its tolerance)
            for (int v = 0; v < m.mesh().vertexCount(); v += 7) {
                double[] x = {m.mesh().vertex(v, 0), m.mesh().vertex(v, 1), m.mesh().vertex(v, 2)};
                assertTrue(Exact.signedDistance(hull, new Placement(), x) <= 1e-9, f + " vertex " + v);
            }
        }
    }
}
