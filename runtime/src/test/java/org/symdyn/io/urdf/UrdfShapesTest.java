package org.symdyn.io.urdf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.symdyn.io.urdf.UrdfTesting.PATH;
import static org.symdyn.io.urdf.UrdfTesting.errorAt;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.symdyn.geometry.Box;
import org.symdyn.geometry.Capsule;
import org.symdyn.geometry.ConvexHull;
import org.symdyn.geometry.Cylinder;
import org.symdyn.geometry.Sphere;
import org.symdyn.geometry.TriangleMesh;
import org.symdyn.io.MeshPolicy;
import org.symdyn.io.PackagePath;
import org.symdyn.model.CollisionShapeModel;
import org.symdyn.model.ContactMaterial;
import org.symdyn.model.Diagnostic;
import org.symdyn.model.LidarModel;
import org.symdyn.model.Model;
import org.symdyn.model.ModelException;
import org.symdyn.model.VisualShapeModel;

/** The URDF shape elements: collision and visual geometry, materials, meshes, no_contact, lidar, and bad input. */
class UrdfShapesTest {
    @TempDir
    Path dir;

    private static final String HEAD = "<robot name=\"r\" xmlns:symdyn=\"urn:symdyn:1\">\n"
            + "<material name=\"blue\"><color rgba=\"0 0 1 1\"/></material>\n"
            + "<link name=\"world\"/>\n";
    private static final String ARM = "<link name=\"a\"><inertial><mass value=\"1\"/>"
            + "<inertia ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"1\" iyz=\"0\" izz=\"1\"/></inertial>\n%s</link>\n"
            + "<joint name=\"j\" type=\"revolute\"><parent link=\"world\"/><child link=\"a\"/>"
            + "<origin xyz=\"0 0 1\"/><axis xyz=\"0 0 1\"/></joint>\n";

    /** A robot whose moving link 'a' holds {@code link}, with {@code robot} at the robot level. */
    private static String robot(String link, String robot) {
        return HEAD + String.format(ARM, link) + robot + "</robot>\n";
    }

    private static UrdfReader.Options shapes(MeshPolicy policy, PackagePath path) {
        return UrdfReader.Options.DEFAULT.withMeshes(policy, path);
    }

    private static final UrdfReader.Options REQUIRED = shapes(MeshPolicy.REQUIRED, PackagePath.of(List.of(), null));

    @Test
    void primitivesWithOriginsMaterialsAndDefaults() {
        Model m = UrdfTesting.read(robot(
                "<collision name=\"c\"><origin xyz=\"0.1 0 0\" rpy=\"0 0 1.5707963267948966\"/>"
                        + "<geometry><box size=\"1 2 3\"/></geometry>"
                        + "<symdyn:contact friction=\"0.5\" restitution=\"0.25\"/></collision>\n"
                        + "<collision><geometry><cylinder radius=\"0.1\" length=\"0.4\"/></geometry></collision>\n"
                        + "<collision><geometry><sphere radius=\"0.2\"/></geometry></collision>\n"
                        + "<collision><geometry><symdyn:capsule radius=\"0.05\" length=\"0.3\"/></geometry></collision>\n"
                        + "<visual><geometry><sphere radius=\"1\"/></geometry><material name=\"blue\"/></visual>\n"
                        + "<visual><geometry><box size=\"1 1 1\"/></geometry>"
                        + "<material name=\"x\"><color rgba=\"1 0 0 0.5\"/></material></visual>\n"
                        + "<visual><geometry><box size=\"1 1 1\"/></geometry></visual>\n", ""), REQUIRED);
        List<CollisionShapeModel> c = m.collisionShapes();
        assertEquals(4, c.size());
        assertEquals(List.of("c", "a/collision1", "a/collision2", "a/collision3"),
                c.stream().map(CollisionShapeModel::name).toList());
        Box box = assertInstanceOf(Box.class, c.get(0).shape());
        assertEquals(List.of(0.5, 1.0, 1.5), List.of(box.halfExtent(0), box.halfExtent(1), box.halfExtent(2)));
        assertEquals(new ContactMaterial(0.5, 0.25), c.get(0).material());
        assertEquals(0.1, c.get(0).pose().translation(0), 0);
        assertEquals(1, c.get(0).pose().rotation(1, 0), 1e-15); // the yaw turns x to y
        assertEquals(0, c.get(0).body());
        Cylinder cyl = assertInstanceOf(Cylinder.class, c.get(1).shape());
        assertEquals(0.4, cyl.length());
        assertEquals(ContactMaterial.DEFAULT, c.get(1).material());
        assertEquals(0.2, assertInstanceOf(Sphere.class, c.get(2).shape()).radius());
        Capsule cap = assertInstanceOf(Capsule.class, c.get(3).shape());
        assertEquals(0.3, cap.length()); // the cylindrical part
        assertEquals(0.05, cap.radius());
        List<VisualShapeModel> v = m.scene().visualShapes();
        assertEquals(3, v.size());
        assertEquals(List.of(0.0, 0.0, 1.0, 1.0), List.of(v.get(0).rgba()[0], v.get(0).rgba()[1], v.get(0).rgba()[2],
                v.get(0).rgba()[3]));
        assertEquals(0.5, v.get(1).rgba()[3]);
        assertNull(v.get(2).rgba());
        assertEquals(List.of(), m.warnings());
    }

    @Test
    void noContactAndLidar() {
        Model m = UrdfTesting.read(robot("", "<symdyn:no_contact link1=\"world\" link2=\"a\"/>\n"
                + "<symdyn:lidar name=\"front\" link=\"a\" xyz=\"0 0 0.5\" samples=\"360\" min_angle=\"-3.1416\""
                + " max_angle=\"3.1416\" range_min=\"0.05\" range_max=\"10\" noise=\"0.01\" rows=\"4\""
                + " min_elevation=\"-0.2\" max_elevation=\"0.2\"/>\n"), REQUIRED);
        assertTrue(m.scene().excluded("a", "world"));
        LidarModel l = m.scene().lidars().get(0);
        assertEquals("front", l.name());
        assertEquals(0, l.body());
        assertEquals(0.5, l.pose().translation(2));
        assertEquals(1440, l.rayCount());
        assertEquals(0.01, l.noise());
        LidarModel d = UrdfTesting.read(robot("", "<symdyn:lidar name=\"l\" link=\"world\" samples=\"1\""
                + " min_angle=\"0\" max_angle=\"0\" range_max=\"5\"/>")).scene().lidars().get(0);
        assertEquals(List.of(1, 0.0, 0.0, 0.0, 0.0), List.of(d.rows(), d.minElevation(), d.maxElevation(),
                d.rangeMin(), d.noise()));
        assertEquals(-1, d.body());
    }

    @Test
    void badShapesAreLocatedErrors() {
        String[][] cases = {
            {"<collision><geometry><box size=\"1 -1 1\"/></geometry></collision>", "box size"},
            {"<collision><geometry><sphere radius=\"NaN\"/></geometry></collision>", "sphere radius"},
            {"<collision><geometry><sphere radius=\"-1\"/></geometry></collision>", "sphere radius"},
            {"<collision><geometry><cylinder radius=\"1\" length=\"-0.5\"/></geometry></collision>",
                "cylinder length"},
            {"<collision><geometry><cylinder radius=\"1\"/></geometry></collision>", "cylinder length"},
            {"<collision><geometry><symdyn:capsule radius=\"1\" length=\"0\"/></geometry></collision>", "capsule"},
            {"<collision><geometry><mesh filename=\"m.stl\" scale=\"1 0 1\"/></geometry></collision>", "zero entry"},
            {"<collision><geometry><mesh/></geometry></collision>", "no 'filename'"},
            {"<collision><geometry/></collision>", "has 0 shapes"},
            {"<collision><geometry><box size=\"1 1 1\"/><sphere radius=\"1\"/></geometry></collision>", "has 2 shapes"},
            {"<collision><geometry><cone radius=\"1\"/></geometry></collision>", "unknown geometry kind 'cone'"},
            {"<collision><geometry><plane normal=\"0 0 0\"/></geometry></collision>", "plane normal '0 0 0' is zero"},
            {"<collision><geometry><symdyn:cone/></geometry></collision>", "unknown geometry kind 'symdyn:cone'"},
            {"<collision><origin xyz=\"0 0\"/><geometry><box size=\"1 1 1\"/></geometry></collision>", "origin xyz"},
            {"<collision/>", "has no <geometry>"},
            {"<collision><geometry><box size=\"1 1 1\"/></geometry><symdyn:contact friction=\"-1\"/></collision>",
                "friction"},
            {"<collision><geometry><box size=\"1 1 1\"/></geometry><symdyn:contact restitution=\"2\"/></collision>",
                "restitution"},
            {"<visual><geometry><box size=\"1 1 1\"/></geometry><material><color rgba=\"1 1 1\"/></material></visual>",
                "rgba"},
            {"<visual><geometry><box size=\"1 1 1\"/></geometry><material><color rgba=\"2 1 1 1\"/></material></visual>",
                "outside [0, 1]"},
        };
        for (String[] c : cases) {
            ModelException e = UrdfTesting.failure(robot(c[0], ""));
            errorAt(e, 5, c[1]);
        }
    }

    @Test
    void badRobotLevelElementsAreLocatedErrors() {
        String[][] cases = {
            {"<symdyn:no_contact link1=\"a\" link2=\"nowhere\"/>", "no link named 'nowhere'"},
            {"<symdyn:no_contact link1=\"a\"/>", "'link2'"},
            {"<symdyn:no_contact link1=\"a\" link2=\"a\"/>", "twice"},
            {"<symdyn:lidar name=\"l\" link=\"nowhere\" samples=\"1\" min_angle=\"0\" max_angle=\"0\" range_max=\"1\"/>",
                "no link named 'nowhere'"},
            {"<symdyn:lidar name=\"l\" link=\"a\" samples=\"0\" min_angle=\"0\" max_angle=\"0\" range_max=\"1\"/>",
                "samples 0"},
            {"<symdyn:lidar name=\"l\" link=\"a\" samples=\"1.5\" min_angle=\"0\" max_angle=\"0\" range_max=\"1\"/>",
                "not an integer"},
            {"<symdyn:lidar name=\"l\" link=\"a\" samples=\"1\" rows=\"0\" min_angle=\"0\" max_angle=\"0\""
                + " range_max=\"1\"/>", "rows 0"},
            {"<symdyn:lidar name=\"l\" link=\"a\" samples=\"1\" min_angle=\"1\" max_angle=\"0\" range_max=\"1\"/>",
                "below min_angle"},
            {"<symdyn:lidar name=\"l\" link=\"a\" samples=\"1\" min_angle=\"0\" max_angle=\"0\" range_min=\"2\""
                + " range_max=\"1\"/>", "range_min < range_max"},
            {"<symdyn:lidar name=\"l\" link=\"a\" samples=\"1\" min_angle=\"0\" max_angle=\"0\" range_max=\"1\""
                + " noise=\"-1\"/>", "noise"},
            {"<symdyn:lidar name=\"l\" link=\"a\" samples=\"1\" min_angle=\"0\" max_angle=\"Inf\" range_max=\"1\"/>",
                "max_angle"},
            // the count of rays overflowed an int ("Illegal Capacity: -2147479015" when simulated)
            {"<symdyn:lidar name=\"l\" link=\"a\" samples=\"46341\" rows=\"46341\" min_angle=\"0\" max_angle=\"1\""
                + " range_max=\"1\"/>", "samples x rows = 2147488281 rays, more than 10000000"},
        };
        for (String[] c : cases) {
            ModelException e = UrdfTesting.failure(robot("", c[0]));
            errorAt(e, 7, c[1]);
        }
        ModelException dup = UrdfTesting.failure(robot("", "<symdyn:imu name=\"l\" link=\"a\"/>\n"
                + "<symdyn:lidar name=\"l\" link=\"a\" samples=\"1\" min_angle=\"0\" max_angle=\"0\" range_max=\"1\"/>"));
        errorAt(dup, 8, "duplicate device name 'l'");
        // a Lidar before the device of its name: the later element is the duplicate (it was the Lidar, "the first is
        // at" the later line)
        ModelException before = UrdfTesting.failure(robot("", "<symdyn:lidar name=\"l\" link=\"a\" samples=\"1\""
                + " min_angle=\"0\" max_angle=\"0\" range_max=\"1\"/>\n<symdyn:imu name=\"l\" link=\"a\"/>"));
        errorAt(before, 8, "duplicate device name 'l' (the first is at test.urdf:[7,");
        ModelException misplaced = UrdfTesting.failure(robot("<visual><symdyn:contact/><geometry><box size=\"1 1 1\"/>"
                + "</geometry></visual>", ""));
        errorAt(misplaced, 5, "must be a direct child of <robot>");
    }

    private Path stl(String name, double s) throws IOException {
        // a closed tetrahedron, ASCII STL
        double[][] v = {{0, 0, 0}, {s, 0, 0}, {0, s, 0}, {0, 0, s}};
        int[][] f = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
        StringBuilder b = new StringBuilder("solid t\n");
        for (int[] t : f) {
            b.append("facet normal 0 0 0\nouter loop\n");
            for (int i : t) {
                b.append("vertex ").append(v[i][0]).append(' ').append(v[i][1]).append(' ').append(v[i][2]).append('\n');
            }
            b.append("endloop\nendfacet\n");
        }
        Path p = dir.resolve(name);
        Files.createDirectories(p.getParent());
        Files.writeString(p, b.append("endsolid t\n"));
        return p;
    }

    private Model readFile(String xml, UrdfReader.Options options) throws IOException, ModelException {
        Path urdf = dir.resolve("robot.urdf");
        Files.writeString(urdf, xml);
        return UrdfReader.read(urdf, options);
    }

    @Test
    void meshesResolveAndMovingOnesBecomeHulls() throws Exception {
        stl("meshes/tet.stl", 1);
        stl("pkgroot/my_pkg/m/tet.stl", 2);
        String xml = HEAD.replace("<link name=\"world\"/>", "<link name=\"world\"><collision><geometry>"
                + "<mesh filename=\"meshes/tet.stl\"/></geometry></collision></link>")
                + String.format(ARM, "<collision><geometry><mesh filename=\"package://my_pkg/m/tet.stl\" scale=\"1 1 -1\"/>"
                        + "</geometry></collision><visual><geometry><mesh filename=\"file://"
                        + dir.resolve("meshes/tet.stl").toAbsolutePath() + "\"/></geometry></visual>")
                + "</robot>";
        Model m = readFile(xml, shapes(MeshPolicy.REQUIRED, PackagePath.of(List.of(dir.resolve("pkgroot")), null)));
        List<CollisionShapeModel> c = m.collisionShapes();
        TriangleMesh ground = assertInstanceOf(TriangleMesh.class, c.get(0).shape());
        assertTrue(c.get(0).isStatic());
        assertEquals(4, ground.triangleCount());
        ConvexHull hull = assertInstanceOf(ConvexHull.class, c.get(1).shape());
        assertEquals(4, hull.vertexCount());
        assertEquals(8.0 / 6, hull.volume(), 1e-12); // scale 2, mirrored
        assertInstanceOf(TriangleMesh.class, m.scene().visualShapes().get(0).shape());
    }

    @Test
    void missingMeshesFollowThePolicy() throws Exception {
        String xml = robot("<collision><geometry><mesh filename=\"package://p/x.stl\"/></geometry></collision>\n"
                + "<visual><geometry><mesh filename=\"nowhere.stl\"/></geometry></visual>", "");
        // no package path at all: package:// is a warning, the missing relative file an error
        ModelException e = assertThrows(ModelException.class, () -> readFile(xml, REQUIRED));
        assertEquals(1, e.diagnostics().size(), e.getMessage());
        assertTrue(e.diagnostics().get(0).message().contains("mesh not found: 'nowhere.stl': no such file "
                + dir.resolve("nowhere.stl")), e.getMessage());
        assertEquals(6, e.diagnostics().get(0).location().line());
        Model m = readFile(xml, shapes(MeshPolicy.OPTIONAL, PackagePath.of(List.of(), null)));
        assertEquals(2, m.warnings().size(), m.warnings().toString());
        assertTrue(m.warnings().get(0).message().endsWith("mesh left out: package://p/x.stl needs a package path"
                + " (--package-path or ROS_PACKAGE_PATH)"), m.warnings().toString());
        assertTrue(m.warnings().get(1).message().contains("(the shape is left out)"));
        assertEquals(0, m.collisionShapes().size());
        // a package path given: a missing package is an error naming where it looked
        ModelException withPath = assertThrows(ModelException.class, () -> readFile(xml,
                shapes(MeshPolicy.REQUIRED, PackagePath.of(List.of(dir), null))));
        Diagnostic d = withPath.diagnostics().get(0);
        assertEquals(5, d.location().line());
        assertTrue(d.message().contains("no package 'p' in the package path [" + dir + "]"), d.toString());
        // SKIP: nothing loaded, nothing said
        Model skipped = readFile(xml, UrdfReader.Options.DEFAULT);
        assertEquals(List.of(), skipped.warnings());
        assertEquals(0, skipped.collisionShapes().size());
        // ROS_PACKAGE_PATH is the fallback
        stl("ros/p/x.stl", 1);
        Files.writeString(dir.resolve("nowhere.stl"), "solid x\nendsolid x\n");
        ModelException empty = assertThrows(ModelException.class, () -> readFile(xml,
                shapes(MeshPolicy.REQUIRED, PackagePath.of(List.of(), dir.resolve("ros").toString()))));
        assertEquals(1, empty.diagnostics().size(), empty.getMessage());
        assertTrue(empty.diagnostics().get(0).message().contains("cannot read mesh 'nowhere.stl'")
                && empty.diagnostics().get(0).message().contains("no triangles"), empty.getMessage());
        // a binary file where a text format is expected: said in words, no Java exception's name
        String objXml = xml.replace("nowhere.stl", "binary.obj");
        Files.write(dir.resolve("binary.obj"), new byte[] {'v', ' ', (byte) 0xC3, (byte) 0x28, (byte) 0xFF, 0, 1});
        ModelException binary = assertThrows(ModelException.class, () -> readFile(objXml,
                shapes(MeshPolicy.REQUIRED, PackagePath.of(List.of(), dir.resolve("ros").toString()))));
        String message = binary.diagnostics().get(0).message();
        assertTrue(message.contains("cannot read mesh 'binary.obj'") && message.contains("binary data?"), message);
        assertFalse(message.contains("Exception"), message);
    }

    @Test
    void overlapsAtTheZeroConfigurationAreWarnedAboutWithTheLineThatSilencesThem() {
        String link = "<collision name=\"arm\"><geometry><sphere radius=\"0.5\"/></geometry></collision>";
        String b = "<link name=\"b\"><inertial><mass value=\"1\"/><inertia ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"1\""
                + " iyz=\"0\" izz=\"1\"/></inertial><collision name=\"hand\"><geometry><box size=\"1 1 1\"/></geometry>"
                + "</collision></link>\n<joint name=\"jb\" type=\"revolute\"><parent link=\"a\"/><child link=\"b\"/>"
                + "<origin xyz=\"0.6 0 0\"/></joint>\n"
                + "<link name=\"c\"><inertial><mass value=\"1\"/><inertia ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"1\""
                + " iyz=\"0\" izz=\"1\"/></inertial><collision name=\"finger\"><geometry><sphere radius=\"0.3\"/>"
                + "</geometry></collision></link>\n<joint name=\"jc\" type=\"revolute\"><parent link=\"b\"/>"
                + "<child link=\"c\"/><origin xyz=\"-0.4 0 0\"/></joint>\n";
        Model m = UrdfTesting.read(robot(link, b), REQUIRED);
        // a-b and b-c are parent and child; a-c overlap by 0.5 + 0.3 - 0.2
        assertEquals(1, m.warnings().size(), m.warnings().toString());
        Diagnostic w = m.warnings().get(0);
        assertTrue(w.message().contains("'arm' (link 'a') and 'finger' (link 'c') overlap by 0.600 m"), w.toString());
        assertTrue(w.message().endsWith("<symdyn:no_contact link1=\"a\" link2=\"c\"/>"), w.toString());
        Model silenced = UrdfTesting.read(robot(link, b + "<symdyn:no_contact link1=\"a\" link2=\"c\"/>"), REQUIRED);
        assertEquals(List.of(), silenced.warnings());
        assertEquals(List.of(), UrdfTesting.read(robot(link, b)).warnings(), "not under SKIP");
    }

    @Test
    void overlapsAreWarnedAboutOnlyWhereTheZeroConfigurationPlacesBothShapes() {
        String inertial = "<inertial><mass value=\"1\"/><inertia ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"1\" iyz=\"0\""
                + " izz=\"1\"/></inertial>";
        java.util.function.BiFunction<String, String, String> box = (name, size) -> "<link name=\"" + name + "\">"
                + inertial + "<collision name=\"" + name + "-shape\"><geometry><box size=\"" + size + "\"/></geometry>"
                + "</collision></link>\n";
        java.util.function.BiFunction<String, String, String> floating = (parent, child) -> "<joint name=\"j-" + child
                + "\" type=\"floating\"><parent link=\"" + parent + "\"/><child link=\"" + child + "\"/></joint>\n";
        String xml = "<robot name=\"scene\" xmlns:symdyn=\"urn:symdyn:1\">\n<link name=\"world\"/>\n"
                // a table fixed to the world and the link of an arm jointed to the world that overlap at the arm's
                // q = 0: a configuration the file describes, warned about
                + box.apply("table", "1 1 0.1") + "<joint name=\"j-table\" type=\"fixed\"><parent link=\"world\"/>"
                + "<child link=\"table\"/></joint>\n"
                + box.apply("wall", "0.1 1 1") + "<joint name=\"j-wall\" type=\"revolute\"><parent link=\"world\"/>"
                + "<child link=\"wall\"/><origin xyz=\"0.5 0 0.3\"/><axis xyz=\"0 0 1\"/></joint>\n"
                // two free boxes: both at the origin at q = 0, overlapping each other and the table; not warned
                + box.apply("box1", "0.2 0.2 0.2") + floating.apply("world", "box1")
                + box.apply("box2", "0.2 0.2 0.2") + floating.apply("world", "box2")
                // a free robot: its base and its second link overlap whatever the floating joint's q; warned
                + box.apply("base", "0.4 0.4 0.4") + floating.apply("world", "base")
                + box.apply("l1", "0.1 0.1 0.1") + "<joint name=\"j-l1\" type=\"revolute\"><parent link=\"base\"/>"
                + "<child link=\"l1\"/><origin xyz=\"0 0 1\"/><axis xyz=\"0 0 1\"/></joint>\n"
                + box.apply("l2", "0.1 0.1 0.1") + "<joint name=\"j-l2\" type=\"revolute\"><parent link=\"l1\"/>"
                + "<child link=\"l2\"/><origin xyz=\"0 0 -0.9\"/><axis xyz=\"0 0 1\"/></joint>\n"
                + "</robot>\n";
        Model m = UrdfTesting.read(xml, REQUIRED);
        // (the table's mass merged into the fixed world is warned about too: not this test's concern)
        List<String> messages = m.warnings().stream().map(Diagnostic::message).filter(t -> t.contains(" overlap by "))
                .toList();
        assertEquals(2, messages.size(), messages.toString());
        assertTrue(messages.get(0).contains("'table-shape' (link 'table') and 'wall-shape' (link 'wall') overlap by"),
                messages.toString());
        assertTrue(messages.get(1).contains("'base-shape' (link 'base') and 'l2-shape' (link 'l2') overlap by"),
                messages.toString());
    }

    @Test
    void aConcaveMovingMeshIsWarnedAboutItsHull() throws Exception {
        // an L-shaped prism of legs 1 x 0.1, height 1: own volume 0.19, hull 1 - 0.9² / 2 = 0.595 (ratio 3.13)
        double t = 0.1;
        double[][] outline = {{0, 0}, {1, 0}, {1, t}, {t, t}, {t, 1}, {0, 1}};
        StringBuilder obj = new StringBuilder();
        for (double z : new double[] {0, 1}) {
            for (double[] p : outline) {
                obj.append("v ").append(p[0]).append(' ').append(p[1]).append(' ').append(z).append('\n');
            }
        }
        // bottom (facing -z) and top fans from the concave corner 4 (index 3, 1-based 4)
        obj.append("f 4 3 2\nf 4 2 1\nf 4 1 6\nf 4 6 5\n");
        obj.append("f 10 8 9\nf 10 7 8\nf 10 12 7\nf 10 11 12\n");
        for (int i = 0; i < 6; i++) {
            int a = i + 1, b = (i + 1) % 6 + 1;
            obj.append("f ").append(a).append(' ').append(b).append(' ').append(b + 6).append('\n');
            obj.append("f ").append(a).append(' ').append(b + 6).append(' ').append(a + 6).append('\n');
        }
        Files.writeString(dir.resolve("l.obj"), obj);
        Model m = readFile(robot("<collision><geometry><mesh filename=\"l.obj\"/></geometry></collision>", ""),
                REQUIRED);
        assertEquals(1, m.warnings().size(), m.warnings().toString());
        assertTrue(m.warnings().get(0).message().contains("collides as its convex hull, whose volume is 3.13 times"),
                m.warnings().toString());
    }

    @Test
    void fuzzedDocumentsGiveLocatedProblemsNeverAnotherException() {
        String base = robot("<collision name=\"c\"><origin xyz=\"0 0 0\"/><geometry><box size=\"1 2 3\"/></geometry>"
                + "<symdyn:contact friction=\"0.5\"/></collision><visual><geometry><symdyn:capsule radius=\"1\""
                + " length=\"2\"/></geometry><material name=\"blue\"/></visual>",
                "<symdyn:no_contact link1=\"world\" link2=\"a\"/><symdyn:lidar name=\"l\" link=\"a\" samples=\"3\""
                        + " min_angle=\"0\" max_angle=\"1\" range_max=\"2\"/>");
        Random random = new Random(31);
        String alphabet = "<>/=\" 0-1.9eNaxyz:";
        for (int k = 0; k < 400; k++) {
            StringBuilder s = new StringBuilder(base);
            for (int edits = 1 + random.nextInt(3); edits > 0; edits--) {
                int at = random.nextInt(s.length());
                switch (random.nextInt(3)) {
                    case 0 -> s.deleteCharAt(at);
                    case 1 -> s.insert(at, alphabet.charAt(random.nextInt(alphabet.length())));
                    default -> s.setCharAt(at, alphabet.charAt(random.nextInt(alphabet.length())));
                }
            }
            try {
                UrdfReader.parse(s.toString(), PATH, REQUIRED);
            } catch (ModelException e) {
                for (Diagnostic d : e.diagnostics()) {
                    assertTrue(d.location().path().equals(PATH), d.toString());
                    assertTrue(!d.message().contains("internal error"), s + "\n" + d);
                }
            }
        }
    }
}
