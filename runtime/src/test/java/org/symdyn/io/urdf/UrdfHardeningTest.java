package org.symdyn.io.urdf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.symdyn.io.urdf.UrdfTesting.FLOATING;
import static org.symdyn.io.urdf.UrdfTesting.errorAt;
import static org.symdyn.io.urdf.UrdfTesting.failure;
import static org.symdyn.io.urdf.UrdfTesting.read;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.model.ContactConstraintModel;
import org.symdyn.model.Diagnostic;
import org.symdyn.model.LoopConstraintModel;
import org.symdyn.model.Model;
import org.symdyn.model.ModelException;

/** Issue 10, items 6 to 13: model files that were read wrongly, accepted though unusable, or refused badly. */
class UrdfHardeningTest {
    private static final String INERTIAL = "<inertial><mass value=\"1\"/>"
            + "<inertia ixx=\"0.1\" ixy=\"0\" ixz=\"0\" iyy=\"0.1\" iyz=\"0\" izz=\"0.1\"/></inertial>";

    /** world -hinge(z)- b, b's inertial given; {@code extra} follows b. */
    private static String pendulum(String bInertial, String extra) {
        return """
                <robot name="r" xmlns:sd="urn:symdyn:1">
                  <link name="w"/>
                  <joint name="j" type="revolute"><parent link="w"/><child link="b"/><axis xyz="0 1 0"/></joint>
                  <link name="b">%s</link>
                %s</robot>
                """.formatted(bInertial, extra);
    }

    private static List<String> warnings(Model m) {
        return m.warnings().stream().map(Diagnostic::message).toList();
    }

    // ---- item 6: entities that are not expanded ----

    @Test
    void entityInAnAttributeWithAnExternalDtdIsAnError() {
        for (String doctype : List.of("<!DOCTYPE robot SYSTEM \"robot.dtd\">",
                "<!DOCTYPE robot PUBLIC \"-//X//Robot//EN\" \"robot.dtd\">",
                "<!DOCTYPE robot SYSTEM \"robot.dtd\" [ <!ENTITY one \"1\"> ]>")) {
            // was: mass 15, xyz 0 0 -1, exit 0
            ModelException e = failure(doctype + "\n" + pendulum("<inertial><origin xyz=\"0 0 &e;-1\"/>"
                    + "<mass value=\"1&e;5\"/><inertia ixx=\"0.1\" ixy=\"0\" ixz=\"0\" iyy=\"0.1\" iyz=\"0\""
                    + " izz=\"0.1\"/></inertial>", ""));
            List<Diagnostic> d = e.diagnostics();
            assertEquals(2, d.size(), doctype + "\n" + UrdfTesting.describe(e));
            for (Diagnostic x : d) {
                assertEquals(5, x.location().line(), x.toString());
                assertTrue(x.message().startsWith("entity reference '&e;' in an attribute value was not read"),
                        x.toString());
            }
            // located at the '&'
            String line = pendulum("<inertial><origin xyz=\"0 0 &e;-1\"/>", "").split("\n")[3];
            assertEquals(line.indexOf('&') + 1, d.get(0).location().column(), d.get(0).toString());
        }
    }

    @Test
    void entityInAnAttributeWithAnInternalSubsetIsAnError() {
        // the parser refuses an undeclared entity when the subset references an external parameter entity too
        ModelException e = failure("<!DOCTYPE robot [ <!ENTITY % p SYSTEM \"robot.dtd\"> %p; ]>\n"
                + pendulum("<inertial><mass value=\"1&e;5\"/><inertia ixx=\"0.1\" ixy=\"0\" ixz=\"0\" iyy=\"0.1\""
                + " iyz=\"0\" izz=\"0.1\"/></inertial>", ""));
        errorAt(e, 5, "\"e\"");
    }

    @Test
    void parameterEntityReferenceIsAnError() {
        // was accepted without a report, although nothing was read
        ModelException e = failure("""
                <?xml version="1.0"?>
                <!DOCTYPE robot [
                  <!ENTITY % p SYSTEM "file:///etc/hostname">
                  %p;
                ]>
                <robot name="r"><link name="a"/></robot>
                """);
        Diagnostic d = errorAt(e, 4, "'%p;' was not read");
        assertEquals(3, d.location().column());
    }

    @Test
    void internalEntitiesInAttributesStillWork() {
        Model m = read("<!DOCTYPE robot [ <!ENTITY two \"2\"> <!ENTITY m \"&two;.5\"> ]>\n"
                + pendulum("<inertial><mass value=\"&m;\"/><inertia ixx=\"0.1\" ixy=\"0\" ixz=\"0\" iyy=\"0.1\""
                + " iyz=\"0\" izz=\"0.1\"/></inertial>", ""));
        assertEquals(2.5, m.body(0).inertia().mass());
    }

    // ---- item 7: directions ----

    @Test
    void directionsAreNormalisedByScalingFirst() {
        String loop = """
                  <link name="c">%s</link>
                  <joint name="k" type="revolute"><parent link="w"/><child link="c"/><axis xyz="1e-160 1e-160 0"/></joint>
                  <sd:loop name="l"><sd:predecessor link="b"/><sd:successor link="c"/>
                    <sd:axis value="1e200 0 0 0 0 0"/><sd:axis value="0 0 0 0 1e-200 0"/></sd:loop>
                  <sd:contact name="big" link="b" normal="1e200 0 0"/>
                  <sd:contact name="tiny" link="b" normal="1e-200 0 0"/>
                  <sd:contact name="diagonal" link="b" normal="1e-160 1e-160 0"/>
                """.formatted(INERTIAL);
        Model m = read(pendulum(INERTIAL, loop));
        // exactly the direction of (1, 1, 0)
        double h = read(pendulum(INERTIAL, loop.replace("1e-160 1e-160 0", "1 1 0"))).body(1).joint().axis(0);
        assertEquals(Math.sqrt(0.5), h, 2e-16);
        assertArrayEquals(new double[] {h, h, 0}, m.body(1).joint().axis());
        LoopConstraintModel l = (LoopConstraintModel) m.constraints().get(0);
        assertArrayEquals(new double[] {1, 0, 0, 0, 0, 0}, l.axes().get(0));
        assertArrayEquals(new double[] {0, 0, 0, 0, 1, 0}, l.axes().get(1));
        assertArrayEquals(new double[] {1, 0, 0}, ((ContactConstraintModel) m.constraints().get(1)).normal());
        assertArrayEquals(new double[] {1, 0, 0}, ((ContactConstraintModel) m.constraints().get(2)).normal());
        assertArrayEquals(new double[] {h, h, 0}, ((ContactConstraintModel) m.constraints().get(3)).normal());
    }

    // ---- item 8: accepted models that cannot be simulated ----

    @Test
    void aPlaceholderThatMakesItsBodyNonPhysicalIsRefused() {
        ModelException e = failure(pendulum(INERTIAL, """
                  <joint name="f" type="fixed"><parent link="b"/><child link="sensor"/></joint>
                  <link name="sensor"><inertial><mass value="1e-6"/>
                    <inertia ixx="-10" ixy="0" ixz="0" iyy="-10" iyz="0" izz="-10"/></inertial></link>
                """));
        errorAt(e, 4, "link 'b': with the links fixed to it (sensor), the inertia about the centre of mass is not"
                + " positive semi-definite");
    }

    @Test
    void aMasslessLinkWhoseMassLiesOnItsAxisIsRefused() {
        ModelException e = failure(pendulum("", """
                  <joint name="f" type="fixed"><parent link="b"/><child link="m"/><origin xyz="0 1 0"/></joint>
                  <link name="m"><inertial><mass value="1"/>
                    <inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/></inertial></link>
                """));
        errorAt(e, 4, "the joint-space inertia H is singular at the zero configuration: coordinate 'j'");
    }

    @Test
    void hugeNumbersAreRefusedAtLoad() {
        // mass 1e300 at 1e10 m and a centre of mass at 1e200: H overflows
        ModelException e = failure(pendulum("<inertial><origin xyz=\"1e10 0 0\"/><mass value=\"1e300\"/>"
                + "<inertia ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"1\" iyz=\"0\" izz=\"1\"/></inertial>", ""));
        errorAt(e, 4, "overflows");
        e = failure(pendulum("<inertial><origin xyz=\"1e200 0 0\"/><mass value=\"1\"/>"
                + "<inertia ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"1\" iyz=\"0\" izz=\"1\"/></inertial>", ""));
        errorAt(e, 4, "overflows");
        // 1e30 kg with 0.1 kg m² on a floating base 1 m off its centre: H singular to working precision
        e = failure("""
                <robot name="r">
                  <link name="b"><inertial><origin xyz="1 0 0"/><mass value="1e30"/>
                    <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
                </robot>
                """, FLOATING);
        errorAt(e, 2, "the joint-space inertia H is");
    }

    // ---- item 9: a massless link carrying mass ----

    @Test
    void aMasslessLinkWhoseChildrenHaveMassIsAcceptedWithAWarning() {
        // was refused: "a moving link needs a positive mass"
        Model m = read(pendulum("", """
                  <joint name="j2" type="revolute"><parent link="b"/><child link="c"/><origin xyz="1 0 0"/>
                    <axis xyz="1 0 0"/></joint>
                  <link name="c"><inertial><origin xyz="0 0 -0.5"/><mass value="1"/>
                    <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
                """));
        assertEquals(2, m.nv());
        assertEquals(1, m.warnings().size(), m.warnings().toString());
        assertTrue(warnings(m).get(0).startsWith("link 'b' has no mass of its own"), m.warnings().toString());
        DMatrixRMaj h = new DMatrixRMaj(2, 2);
        new GenericDynamics(m).massMatrix(new double[] {0.3, -0.7}, h);
        assertTrue(h.get(0, 0) > 0 && h.get(0, 0) * h.get(1, 1) - h.get(0, 1) * h.get(1, 0) > 0, h.toString());
        // still refused: two coaxial joints, the first link massless
        ModelException e = failure(pendulum("", """
                  <joint name="j2" type="revolute"><parent link="b"/><child link="c"/><axis xyz="0 1 0"/></joint>
                  <link name="c">%s</link>
                """.formatted(INERTIAL)));
        errorAt(e, 6, "the joint-space inertia H is singular at the zero configuration: coordinate 'j2'");
    }

    // ---- item 10: names generated code cannot carry ----

    @Test
    void namesWithLineSeparatorsOrControlCharactersAreRefused() {
        for (String bad : List.of("\u2028", "\u2029", "&#10;", "&#x85;")) {
            ModelException e = failure(pendulum(INERTIAL, "  <link name=\"x" + bad + "y\"/>"
                    + "<joint name=\"f\" type=\"fixed\"><parent link=\"b\"/><child link=\"x" + bad + "y\"/></joint>\n"));
            errorAt(e, 5, "link name 'x\\u");
        }
        ModelException e = failure(pendulum(INERTIAL, "").replace("name=\"j\"", "name=\"j\u2028\""));
        errorAt(e, 3, "joint name 'j\\u2028'");
        e = failure(pendulum(INERTIAL, "").replace("name=\"r\"", "name=\"r\u2029\""));
        errorAt(e, 1, "robot name 'r\\u2029'");
        // what Java escaping handles is accepted (the generator escapes it)
        Model m = read(pendulum(INERTIAL, "").replace("name=\"j\"", "name=\"*/ \\u002a/ \\uZZZZ\""));
        assertEquals("*/ \\u002a/ \\uZZZZ", m.body(0).joint().name());
        // a helper's finding: names past a class file's string constant (70,000 characters) gave a class that did
        // not compile; past 1,000 UTF-8 bytes a name is refused at its element (333 three-byte characters are not)
        e = failure(pendulum(INERTIAL, "").replace("name=\"j\"", "name=\"" + "j".repeat(1001) + "\""));
        errorAt(e, 3, "joint name 'jjj");
        assertTrue(e.getMessage().contains("is 1001 bytes long (UTF-8), over the 1000 a name may have"),
                e.getMessage());
        e = failure(pendulum(INERTIAL, "").replace("name=\"r\"", "name=\"" + "\u4e2d".repeat(334) + "\""));
        errorAt(e, 1, "robot name '");
        e = failure(pendulum(INERTIAL, "").replace("name=\"r\"", "name=\"\""));
        errorAt(e, 1, "<robot> has an empty 'name' attribute");
        assertEquals("\u4e2d".repeat(333), read(pendulum(INERTIAL, "").replace("name=\"r\"",
                "name=\"" + "\u4e2d".repeat(333) + "\"")).name());
    }

    // ---- item 11: near-miss namespaces ----

    @Test
    void elementsThatLookLikeOursInAnotherNamespaceAreWarnedAbout() {
        for (String ns : List.of("urn:SymDyn:1", "urn:symdyn:1 ", "urn:symdyn:2")) {
            Model m = read(pendulum(INERTIAL, "  <x:loop xmlns:x=\"" + ns + "\" name=\"l\"/>\n"));
            assertEquals(1, m.warnings().size(), ns + ": " + m.warnings());
            Diagnostic d = m.warnings().get(0);
            assertEquals(5, d.location().line());
            assertTrue(d.message().startsWith("element <loop> in namespace '" + ns + "' is ignored: SymDyn reads its"
                    + " elements"), d.toString());
        }
        Model m = read(pendulum(INERTIAL, "  <loop name=\"l\"/>\n  <gravity xyz=\"0 0 -1\"/>\n"));
        assertEquals(List.of(5, 6), m.warnings().stream().map(d -> d.location().line()).toList());
        assertTrue(warnings(m).get(0).startsWith("element <loop> without a namespace is ignored"), m.warnings()
                .toString());
        // a correctly namespaced loop with a mis-namespaced child
        m = read(pendulum(INERTIAL, """
                  <link name="c">%s</link>
                  <joint name="k" type="revolute"><parent link="w"/><child link="c"/></joint>
                  <sd:loop name="l"><sd:predecessor link="b"/><sd:successor link="c"/><sd:axis value="1 0 0 0 0 0"/>
                    <axis value="0 1 0 0 0 0"/></sd:loop>
                """.formatted(INERTIAL)));
        assertEquals(List.of(8), m.warnings().stream().map(d -> d.location().line()).toList());
        // an unknown element in ours stays an error
        errorAt(failure(pendulum(INERTIAL, "  <sd:bungee name=\"s\"/>\n")), 5, "unknown SymDyn element 'bungee'");
    }

    // ---- item 12: floating base ----

    @Test
    void floatingOptionIgnoredAndAFixedLeggedRobotAreWarnedAbout() {
        String floatingFile = """
                <robot name="r">
                  <link name="world"/>
                  <joint name="free" type="floating"><parent link="world"/><child link="base"/></joint>
                  <link name="base">%s</link>
                </robot>
                """.formatted(INERTIAL);
        assertEquals(List.of(), read(floatingFile).warnings());
        Model m = read(floatingFile, FLOATING);
        assertEquals(6, m.nv());
        assertEquals(1, m.warnings().size(), m.warnings().toString());
        assertEquals(3, m.warnings().get(0).location().line());
        assertTrue(warnings(m).get(0).startsWith("the floating-base option (--floating, floatingBase) is ignored"),
                m.warnings().toString());

        StringBuilder legged = new StringBuilder("<robot name=\"dog\">\n  <link name=\"trunk\">" + INERTIAL
                + "</link>\n");
        for (String leg : List.of("lf", "rf", "lh", "rh")) {
            legged.append("  <joint name=\"").append(leg).append("_hip\" type=\"revolute\"><parent link=\"trunk\"/>"
                    + "<child link=\"").append(leg).append("\"/></joint><link name=\"").append(leg).append("\">")
                    .append(INERTIAL).append("</link>\n");
        }
        legged.append("</robot>\n");
        m = read(legged.toString());
        assertEquals(1, m.warnings().size(), m.warnings().toString());
        assertEquals(2, m.warnings().get(0).location().line());
        assertTrue(warnings(m).get(0).startsWith("root link 'trunk' carries 1.0 kg and 4 limbs but is fixed to the"
                + " world"), m.warnings().toString());
        assertEquals(List.of(), read(legged.toString(), FLOATING).warnings());

        // a world link floated by the option: the whole fixed robot floats with it
        String fixedToWorld = """
                <robot name="arm">
                  <link name="world"/>
                  <joint name="mount" type="fixed"><parent link="world"/><child link="base"/></joint>
                  <link name="base">%s</link>
                  <joint name="j" type="revolute"><parent link="base"/><child link="l"/><axis xyz="0 0 1"/>
                    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
                  <link name="l">%s</link>
                </robot>
                """.formatted(INERTIAL, INERTIAL);
        assertEquals(List.of(), read(fixedToWorld).warnings());
        m = read(fixedToWorld, FLOATING);
        assertEquals(7, m.nv(), "it still floats, as the option asks");
        assertEquals(1, m.warnings().size(), m.warnings().toString());
        assertEquals(2, m.warnings().get(0).location().line());
        assertTrue(warnings(m).get(0).startsWith("the floating-base option (--floating, floatingBase) floats root"
                + " link 'world', which looks like a world link"), m.warnings().toString());
        // a root of that name with mass is a body: no warning
        assertEquals(List.of(), read(fixedToWorld.replace("<link name=\"world\"/>", "<link name=\"world\">"
                + INERTIAL + "</link>"), FLOATING).warnings());
    }

    @Test
    void aMimicOfItsOwnJointIsRefusedThere() {
        ModelException e = failure("""
                <robot name="r">
                  <link name="w"/>
                  <link name="a">%s</link>
                  <joint name="j" type="revolute"><parent link="w"/><child link="a"/><axis xyz="0 0 1"/>
                    <limit lower="-1" upper="1" effort="1" velocity="1"/><mimic joint="j"/></joint>
                </robot>
                """.formatted(INERTIAL));
        errorAt(e, 5, "coupler 'j_mimic': joint 'j' is coupled to itself (a coupler needs two different joints)");
    }

    // ---- item 13 ----

    @Test
    void theRootLinksInertialIsValidated() {
        // was accepted without a word
        ModelException e = failure(pendulum(INERTIAL, "").replace("<link name=\"w\"/>", "<link name=\"w\">"
                + "<inertial><mass value=\"-5\"/><inertia ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"1\" iyz=\"0\" izz=\"1\"/>"
                + "</inertial></link>"));
        errorAt(e, 2, "link 'w': mass -5.0 kg is negative");
    }

    @Test
    void hugeRpyIsNotSnappedToQuarterTurns() {
        for (double angle : new double[] {1e16, 1e17, 1e19}) {
            Model m = read(pendulum(INERTIAL, "").replace("<axis xyz=\"0 1 0\"/>",
                    "<origin rpy=\"" + angle + " 0 0\"/><axis xyz=\"0 1 0\"/>"));
            // R = Rx(roll): entry (1, 1) is cos(roll)
            assertEquals(Math.cos(angle), m.body(0).joint().placement().rotation(1, 1), 0, "roll " + angle);
            assertEquals(Math.sin(angle), m.body(0).joint().placement().rotation(2, 1), 0, "roll " + angle);
        }
        // a rounded pi/2 is still snapped
        Model m = read(pendulum(INERTIAL, "").replace("<axis xyz=\"0 1 0\"/>",
                "<origin rpy=\"1.57079632679 0 0\"/><axis xyz=\"0 1 0\"/>"));
        assertEquals(0.0, m.body(0).joint().placement().rotation(1, 1));
    }

    @Test
    void longValuesAreCutInMessages() {
        String huge = "1".repeat(1_000_000) + "x";
        ModelException e = failure(pendulum("<inertial><mass value=\"" + huge + "\"/><inertia ixx=\"0.1\" ixy=\"0\""
                + " ixz=\"0\" iyy=\"0.1\" iyz=\"0\" izz=\"0.1\"/></inertial>", ""));
        assertTrue(e.getMessage().length() < 1000, () -> "message of " + e.getMessage().length() + " characters");
        assertTrue(e.getMessage().contains("... (1000001 characters)"), e.getMessage());
        String name = "n".repeat(100_000);
        ModelException e2 = failure(pendulum(INERTIAL, "").replace("name=\"j\"", "name=\"" + name + "\"")
                .replace("type=\"revolute\"", "type=\"hinge\""));
        assertTrue(e2.getMessage().length() < 2 * Diagnostic.MAX_MESSAGE, () -> "" + e2.getMessage().length());
    }

    @Test
    void aNamespacedRootSaysSo() {
        // a default namespace on <robot> itself is read as none (UrdfLeniencyTest)
        ModelException e = failure("<model xmlns=\"http://example.org/robot\" name=\"r\"><link name=\"a\"/></model>");
        errorAt(e, 1, "the document element is <model> in namespace 'http://example.org/robot', expected <robot>"
                + " in no namespace");
    }

    @Test
    void anUnknownEncodingIsLocated(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("enc.urdf");
        Files.writeString(file, "<?xml version=\"1.0\" encoding=\"bogus-enc\"?>\n<robot name=\"r\"/>\n",
                StandardCharsets.US_ASCII);
        ModelException e = assertThrows(ModelException.class, () -> UrdfReader.read(file));
        Diagnostic d = e.diagnostics().get(0);
        assertEquals(file + ":[1,31] malformed XML: unsupported encoding 'bogus-enc' in the XML declaration",
                d.toString().replaceAll(" \\(.*\\)$", ""));
    }

    @Test
    void anEndlessFileIsRefusedEarly() {
        Path zero = Path.of("/dev/zero");
        if (!Files.isReadable(zero)) {
            return;
        }
        ModelException e = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertThrows(
                ModelException.class, () -> UrdfReader.read(zero)));
        assertEquals("/dev/zero:[0,0] cannot read file: it is larger than 64 MiB, the limit for a model file",
                e.getMessage());
    }
}
