package org.symdyn.io.urdf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.symdyn.io.urdf.UrdfTesting.PATH;
import static org.symdyn.io.urdf.UrdfTesting.STRICT;
import static org.symdyn.io.urdf.UrdfTesting.errorAt;
import static org.symdyn.io.urdf.UrdfTesting.failure;
import static org.symdyn.io.urdf.UrdfTesting.read;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.symdyn.geometry.HalfSpace;
import org.symdyn.model.CollisionShapeModel;
import org.symdyn.model.Diagnostic;
import org.symdyn.model.Model;
import org.symdyn.model.ModelException;

/**
 * What public URDF files carry that urdfdom and PyBullet read and the XML specification or URDF's own schema do not
 * have (found by running bullet3's, drake's and others' files): each is read as those tools read it, with a located
 * warning, and refused under strict reading.
 */
class UrdfLeniencyTest {
    private static final String LINK = "<link name=\"a\"><inertial><mass value=\"1\"/>"
            + "<inertia ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"1\" iyz=\"0\" izz=\"1\"/></inertial>%s</link>\n";
    private static final String JOINT = "<joint name=\"j\" type=\"revolute\"><parent link=\"world\"/>"
            + "<child link=\"a\"/><axis xyz=\"0 0 1\"/></joint>\n";

    @TempDir
    Path dir;

    private static String robot(String worldLink, String aLink) {
        return "<robot name=\"r\">\n<link name=\"world\">" + worldLink + "</link>\n" + String.format(LINK, aLink)
                + JOINT + "</robot>\n";
    }

    private static Diagnostic warningAt(Model m, int line, String fragment) {
        List<Diagnostic> w = m.warnings().stream().filter(d -> d.message().contains(fragment)).toList();
        assertEquals(1, w.size(), () -> "warnings: " + m.warnings());
        assertEquals(line, w.get(0).location().line(), w.get(0).toString());
        assertEquals(Diagnostic.Severity.WARNING, w.get(0).severity());
        return w.get(0);
    }

    @Test
    void anXmlVersionOtherThanOneIsReadAsOne() throws Exception {
        // bullet3's plane.urdf, sphere2.urdf and others declare version "0.0"; tinyxml2 does not check it
        String text = "<?xml version=\"0.0\" ?>\n" + robot("", "");
        Path file = dir.resolve("plane.urdf");
        Files.writeString(file, text, StandardCharsets.UTF_8);
        Model m = UrdfReader.read(file);
        assertEquals(1, m.bodyCount());
        assertEquals(0, m.bodyIndex("a"));
        Diagnostic w = m.warnings().get(0);
        assertEquals(file + ":[1,16] warning: XML version '0.0' in the XML declaration is not 1.0 or 1.1; read as XML 1.0 (as"
                + " urdfdom, libsdformat and MuJoCo read it)", w.toString());
        // the same after a byte order mark, and given as characters; positions of later lines unchanged
        Files.write(file, concat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF},
                ("<?xml version='2'?>\n" + robot("", "<bogus/>")).getBytes(StandardCharsets.UTF_8)));
        Model bom = UrdfReader.read(file);
        assertEquals(2, bom.warnings().size(), bom.warnings().toString());
        assertEquals(1, bom.warnings().get(0).location().line());
        assertEquals(4, bom.warnings().get(1).location().line(), "the <bogus/> element's line");
        warningAt(read("<?xml version=\"1.5\"?>\n" + robot("", "")), 1, "XML version '1.5'");
        assertTrue(read("<?xml version=\"1.1\"?>\n" + robot("", "")).warnings().isEmpty());
        ModelException strict = failure(text, STRICT);
        errorAt(strict, 1, "XML version '0.0'");
    }

    @Test
    void anUndeclaredNamespacePrefixIsAnotherToolsNamespace() {
        String text = robot("", "<drake:foo value=\"1\"/><visual bullet:x=\"1\"><geometry><box size=\"1 1 1\"/>"
                + "</geometry></visual>");
        Model m = read(text);
        assertEquals(1, m.scene().visualShapes().size());
        warningAt(m, 3, "namespace prefix 'drake' is used without a declaration");
        warningAt(m, 3, "namespace prefix 'bullet' is used without a declaration");
        errorAt(failure(text, STRICT), 3, "prefix 'drake'");
        // inside a comment a prefix is no use of it, and a self-closing root takes the declaration too
        assertTrue(read(robot("", "<!-- <drake:foo/> -->")).warnings().isEmpty());
        // a review's findings: another fault besides the prefix is the one reported; a header comment with
        // non-ASCII characters (several UTF-8 bytes each) does not stop the repair; a prefix on the root is refused
        errorAt(failure(robot("", "<drake:foo/><visual>")), 3, "\"visual\" must be terminated");
        Model accented = read("<!-- \u00a9 J\u00fcrgen -->\n" + robot("", "<drake:foo/>"));
        assertEquals(1, accented.warnings().size(), accented.warnings().toString());
        errorAt(failure("<foo:robot name=\"r\"><link name=\"a\"/></foo:robot>"), 1, "malformed XML");
        // SymDyn's own prefix is not repaired: read as another tool's, its elements would be skipped
        ModelException e = failure(robot("", "<collision><geometry><symdyn:capsule radius=\"1\" length=\"1\"/>"
                + "</geometry></collision>"));
        errorAt(e, 3, "malformed XML: The prefix \"symdyn\"");
    }

    @Test
    void aDefaultNamespaceOnTheRobotIsReadAsNone() {
        String text = robot("", "").replace("<robot name=\"r\">", "<robot name=\"r\" xmlns=\"http://example.org/r\""
                + " xmlns:symdyn=\"urn:symdyn:1\">").replace("</link>\n<joint", "<collision><geometry>"
                + "<symdyn:capsule radius=\"0.1\" length=\"1\"/></geometry></collision></link>\n<joint");
        Model m = read(text);
        assertEquals(1, m.bodyCount());
        assertEquals(0, m.bodyIndex("a"));
        assertEquals(1, m.scene().collisionShapes().size(), "the capsule of SymDyn's namespace is read");
        warningAt(m, 1, "<robot> declares the default namespace 'http://example.org/r', which URDF does not have");
        errorAt(failure(text, STRICT), 1, "default namespace");
    }

    @Test
    void pyBulletsPlaneIsAHalfSpaceFixedInTheWorld() {
        Model m = read(robot("<collision><origin xyz=\"0 0 0.5\"/><geometry><plane normal=\"0 0 2\"/></geometry>"
                + "</collision>", ""));
        assertTrue(m.warnings().isEmpty(), m.warnings().toString());
        CollisionShapeModel c = m.scene().collisionShapes().get(0);
        assertEquals(-1, c.body());
        HalfSpace h = assertInstanceOf(HalfSpace.class, c.shape());
        assertArrayEquals(new double[] {0, 0, 1}, new double[] {h.normal(0), h.normal(1), h.normal(2)}, 1e-15);
        assertEquals(0.5, c.pose().translation(2), 0);
        // on a link that moves an unbounded plane cannot be: left out, with a warning
        Model moving = read(robot("", "<collision><geometry><plane/></geometry></collision>"));
        assertTrue(moving.scene().collisionShapes().isEmpty());
        warningAt(moving, 3, "a plane is an unbounded half-space and must be fixed to the world");
    }

    @Test
    void aMaterialInsideGeometryIsSkipped() {
        // racecar.urdf: urdfdom reads the shape and skips what follows it
        Model m = read(robot("", "<visual><geometry><box size=\"1 1 1\"/><material name=\"m\"/></geometry>"
                + "</visual>"));
        assertEquals(1, m.scene().visualShapes().size());
        warningAt(m, 3, "unknown element <material>");
        errorAt(failure(robot("", "<visual><geometry><material name=\"m\"/></geometry></visual>")), 3,
                "unknown geometry kind 'material'");
    }

    @Test
    void aShapeWithoutVolumeIsLeftOut() {
        Model m = read(robot("", "<visual><geometry><cylinder radius=\"0.1\" length=\"0\"/></geometry></visual>"
                + "<collision><geometry><box size=\"1 0 1\"/></geometry></collision>"
                + "<collision><geometry><sphere radius=\"0\"/></geometry></collision>"));
        assertTrue(m.scene().visualShapes().isEmpty());
        assertTrue(m.scene().collisionShapes().isEmpty());
        warningAt(m, 3, "cylinder length 0: a shape without volume; left out");
        warningAt(m, 3, "box size '1 0 1' has a zero length");
        warningAt(m, 3, "sphere radius 0");
        assertThrows(ModelException.class, () -> UrdfReader.parse(robot("", "<visual><geometry><cylinder"
                + " radius=\"0.1\" length=\"0\"/></geometry></visual>"), PATH, STRICT));
    }

    @Test
    void namedMaterialsFollowUrdfdom() {
        // urdfdom (and so RViz): a name known at the robot level or from an earlier visual's inline <color> binds,
        // and an inline named colour is known to the visuals after it
        String text = "<robot name=\"r\">\n<material name=\"red\"><color rgba=\"1 0 0 1\"/></material>\n"
                + "<link name=\"world\"><visual><geometry><box size=\"1 1 1\"/></geometry><material name=\"orange\">"
                + "<color rgba=\"1 0.5 0 1\"/></material></visual></link>\n"
                + String.format(LINK, "<visual><geometry><box size=\"1 1 1\"/></geometry><material name=\"orange\"/>"
                        + "</visual><visual><geometry><box size=\"1 1 1\"/></geometry><material name=\"red\">"
                        + "<color rgba=\"0 0 1 1\"/></material></visual>") + JOINT + "</robot>\n";
        Model m = read(text);
        List<double[]> rgba = m.scene().visualShapes().stream().map(v -> v.rgba()).toList();
        assertArrayEquals(new double[] {1, 0.5, 0, 1}, rgba.get(0));
        assertArrayEquals(new double[] {1, 0.5, 0, 1}, rgba.get(1), "named by the world link's inline colour");
        assertArrayEquals(new double[] {1, 0, 0, 1}, rgba.get(2), "the robot-level red binds");
        assertTrue(m.warnings().isEmpty(), m.warnings().toString());
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
