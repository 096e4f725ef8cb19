package org.symdyn.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.symdyn.geometry.LoadedMesh;
import org.symdyn.geometry.MeshFileException;
import org.symdyn.geometry.MeshFiles;
import org.symdyn.geometry.TriangleMesh;
import org.symdyn.testing.SharedFiles;

/** Collada: hand-written files (node transforms, unit, polylist, polygons, errors) and the shared visual meshes. */
class ColladaFilesTest {
    @TempDir
    Path dir;

    /** One unit square in z = 0 as {@code primitive}, instanced by {@code nodes}. */
    private static String dae(String unit, String primitive, String nodes) {
        return "<?xml version=\"1.0\"?>\n<COLLADA xmlns=\"http://www.collada.org/2005/11/COLLADASchema\" version=\"1.4.1\">\n"
                + "<asset>" + unit + "<up_axis>Y_UP</up_axis></asset>\n"
                + "<library_geometries><geometry id=\"g\"><mesh>\n"
                + "<source id=\"pos\"><float_array id=\"pa\" count=\"12\">0 0 0  1 0 0  1 1 0  0 1 0</float_array>"
                + "<technique_common><accessor source=\"#pa\" count=\"4\" stride=\"3\"><param name=\"X\" type=\"float\"/>"
                + "<param name=\"Y\" type=\"float\"/><param name=\"Z\" type=\"float\"/></accessor></technique_common>"
                + "</source>\n<source id=\"nrm\"><float_array id=\"na\" count=\"3\">0 0 1</float_array></source>\n"
                + "<vertices id=\"v\"><input semantic=\"POSITION\" source=\"#pos\"/></vertices>\n"
                + primitive + "\n</mesh></geometry></library_geometries>\n"
                + "<library_nodes><node id=\"lib\"><translate>0 0 5</translate>"
                + "<instance_geometry url=\"#g\"/></node></library_nodes>\n"
                + "<library_visual_scenes><visual_scene id=\"s\">" + nodes + "</visual_scene></library_visual_scenes>\n"
                + "<scene><instance_visual_scene url=\"#s\"/></scene>\n</COLLADA>\n";
    }

    private static final String TRIANGLES = "<triangles count=\"2\"><input semantic=\"VERTEX\" source=\"#v\" offset=\"0\"/>"
            + "<input semantic=\"NORMAL\" source=\"#nrm\" offset=\"1\"/><p>0 0 1 0 2 0  0 0 2 0 3 0</p></triangles>";

    private LoadedMesh read(String text, double... scale) throws IOException {
        Path p = dir.resolve("m.dae");
        Files.writeString(p, text);
        double[] s = scale.length == 0 ? new double[] {1, 1, 1} : scale;
        return ColladaFiles.read(p, s[0], s[1], s[2]);
    }

    private static double[] bounds(TriangleMesh m) {
        double[] b = {Double.MAX_VALUE, Double.MAX_VALUE, Double.MAX_VALUE, -Double.MAX_VALUE, -Double.MAX_VALUE,
            -Double.MAX_VALUE};
        for (int i = 0; i < m.vertexCount(); i++) {
            for (int k = 0; k < 3; k++) {
                b[k] = Math.min(b[k], m.vertex(i, k));
                b[3 + k] = Math.max(b[3 + k], m.vertex(i, k));
            }
        }
        return b;
    }

    private static void assertBounds(double[] expected, TriangleMesh m) {
        double[] b = bounds(m);
        for (int k = 0; k < 6; k++) {
            assertEquals(expected[k], b[k], 1e-12, "bound " + k + " of " + java.util.Arrays.toString(b));
        }
    }

    @Test
    void trianglesUnderNodeTransformsAndUnit() throws IOException {
        String nodes = "<node><matrix>1 0 0 10  0 1 0 0  0 0 1 0  0 0 0 1</matrix>"
                + "<node><translate>0 2 0</translate><rotate>0 0 1 90</rotate><scale>2 2 2</scale>"
                + "<instance_geometry url=\"#g\"/></node><instance_node url=\"#lib\"/></node>";
        LoadedMesh m = read(dae("<unit name=\"cm\" meter=\"0.01\"/>", TRIANGLES, nodes));
        assertEquals(4, m.mesh().triangleCount());
        // first instance: scale 2, turn 90° about z (x -> y), + (10, 2, 0), then cm: x in [8, 10], y in [2, 4]
        // second: + (10, 0, 5): x in [10, 11], y in [0, 1], z 5; all times 0.01
        assertBounds(new double[] {0.08, 0, 0, 0.11, 0.04, 0.05}, m.mesh());
        assertEquals(List.of(), m.warnings());
        // up_axis (Y_UP here) is not applied; the URDF scale is
        LoadedMesh scaled = read(dae("", TRIANGLES, "<node><instance_geometry url=\"#g\"/></node>"), 1, 2, -3);
        assertBounds(new double[] {0, 0, 0, 1, 2, 0}, scaled.mesh());
    }

    @Test
    void polylistPolygonsAndStripsAreTriangulated() throws IOException {
        String node = "<node><instance_geometry url=\"#g\"/></node>";
        String polylist = "<polylist count=\"1\"><input semantic=\"VERTEX\" source=\"#v\" offset=\"0\"/>"
                + "<vcount>4</vcount><p>0 1 2 3</p></polylist>";
        assertEquals(2, read(dae("", polylist, node)).mesh().triangleCount());
        String polygons = "<polygons count=\"2\"><input semantic=\"VERTEX\" source=\"#v\" offset=\"0\"/>"
                + "<p>0 1 2 3</p><ph><p>0 1 2</p><h>0 1 3</h></ph></polygons>";
        LoadedMesh p = read(dae("", polygons, node));
        assertEquals(3, p.mesh().triangleCount());
        assertTrue(p.warnings().get(0).contains("holes"), p.warnings().toString());
        String strips = "<tristrips count=\"1\"><input semantic=\"VERTEX\" source=\"#v\" offset=\"0\"/>"
                + "<p>0 1 3 2</p></tristrips>";
        TriangleMesh s = read(dae("", strips, node)).mesh();
        assertEquals(2, s.triangleCount());
        // both triangles of the strip face +z, as the square does
        for (int t = 0; t < 2; t++) {
            double[] a = new double[3], b = new double[3];
            for (int k = 0; k < 3; k++) {
                a[k] = s.vertex(s.triangleVertex(t, 1), k) - s.vertex(s.triangleVertex(t, 0), k);
                b[k] = s.vertex(s.triangleVertex(t, 2), k) - s.vertex(s.triangleVertex(t, 0), k);
            }
            assertTrue(a[0] * b[1] - a[1] * b[0] > 0, "triangle " + t);
        }
    }

    @Test
    void malformedFilesAreMeshFileExceptionsNamingFileAndLine() {
        String node = "<node><instance_geometry url=\"#g\"/></node>";
        String[][] cases = {
            {dae("", TRIANGLES.replace("0 0 2 0 3 0", "0 0 2 0"), node), "holds"},
            {dae("", TRIANGLES.replace("<p>0 0", "<p>9 0"), node), "vertex index 9 out of range"},
            {dae("", TRIANGLES, node).replace("1 1 0  0 1 0", "1 NaN 0  0 1 0"), "is NaN"},
            {dae("", TRIANGLES, node).replace("count=\"12\"", "count=\"13\""), "float_array count"},
            {dae("", TRIANGLES, "<node><instance_geometry url=\"#nothing\"/></node>"), "no <geometry> with that id"},
            {dae("", TRIANGLES, "<node><instance_geometry url=\"other.dae#g\"/></node>"), "only references within"},
            {dae("", TRIANGLES, "<node id=\"loop\"><instance_node url=\"#loop\"/></node>"), "nested deeper"},
            {dae("", TRIANGLES, node).replace("</COLLADA>", ""), "malformed XML"},
            {dae("<unit meter=\"0\"/>", TRIANGLES, node), "unit meter"},
            {dae("", TRIANGLES.replace("0 0 1 0 2 0  0 0 2 0 3 0", "0 0 1 0 1 0"), node).replace("count=\"2\"",
                "count=\"1\""), "no triangles of non-zero area"},
            {"<robot/>", "expected <COLLADA>"},
            {"<!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><COLLADA>&e;</COLLADA>", "entity"},
        };
        for (String[] c : cases) {
            MeshFileException e = assertThrows(MeshFileException.class, () -> read(c[0]), c[1]);
            assertTrue(e.getMessage().startsWith(dir.resolve("m.dae") + ":"), e.getMessage());
            assertTrue(e.getMessage().contains(c[1]), c[1] + " in " + e.getMessage());
        }
    }

    @Test
    void truncatedFilesNeverThrowAnythingElse() throws IOException {
        String text = dae("<unit meter=\"0.5\"/>", TRIANGLES, "<node><instance_geometry url=\"#g\"/></node>");
        Random random = new Random(7);
        for (int k = 0; k < 150; k++) {
            String cut = text.substring(0, random.nextInt(text.length()));
            try {
                read(cut);
            } catch (MeshFileException e) {
                assertTrue(!e.getMessage().contains("internal error"), e.getMessage());
            }
        }
    }

    /** Every shared .dae reads; each whose part has a collision .stl of the same name lies within its bounds. */
    @Test
    void everySharedColladaFileReadsWithSensibleBounds() throws IOException {
        Path packages = SharedFiles.require("packages");
        List<Path> files;
        try (Stream<Path> s = Files.walk(packages)) {
            files = s.filter(p -> p.toString().endsWith(".dae")).sorted().toList();
        }
        assertEquals(21, files.size());
        List<String> compared = new ArrayList<>();
        for (Path f : files) {
            TriangleMesh m = MeshFormats.read(f, 1, 1, 1).mesh();
            double[] b = bounds(m);
            double size = Math.max(b[3] - b[0], Math.max(b[4] - b[1], b[5] - b[2]));
            assertTrue(size > 0.01 && size < 2, f + ": " + size + " m");
            String name = f.getFileName().toString().replace(".dae", ".stl");
            Path stl = f.getParent().getParent().resolve("collision").resolve(name);
            if (Files.isRegularFile(stl)) {
                double[] c = bounds(MeshFiles.read(stl, 1, 1, 1).mesh());
                for (int k = 0; k < 6; k++) {
                    // the collision mesh is the visual part, coarser or slightly inflated: same frame, same extent
                    assertEquals(c[k], b[k], 0.2 * size, f + " bound " + k);
                }
                compared.add(name);
            }
        }
        assertTrue(compared.size() >= 10, compared.toString());
    }
}
