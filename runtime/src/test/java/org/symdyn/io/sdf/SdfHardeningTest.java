package org.symdyn.io.sdf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.symdyn.io.sdf.SdfTesting.assertWarns;
import static org.symdyn.io.sdf.SdfTesting.errorAt;
import static org.symdyn.io.sdf.SdfTesting.failure;
import static org.symdyn.io.sdf.SdfTesting.link;
import static org.symdyn.io.sdf.SdfTesting.read;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.symdyn.model.Diagnostic;
import org.symdyn.model.Model;
import org.symdyn.model.ModelException;

/**
 * Bad SDFormat input: every problem a located error (or, for what is merely not read, a warning), never a stack
 * trace, an internal error or a silently different model. Like the URDF reader's hardening tests, plus random
 * truncations and corruptions of a valid file.
 */
class SdfHardeningTest {
    /** A valid two-link arm, one element per line (line numbers below refer to it). */
    private static final String ARM = """
            <?xml version="1.0"?>
            <sdf version="1.8">
            <model name="arm">
            <link name="base"><inertial><mass>1</mass></inertial></link>
            <link name="upper"><pose relative_to="f">0 0 0.5 0 0 0</pose><inertial><mass>1</mass></inertial></link>
            <frame name="f" attached_to="base"><pose>0 0 0.1 0 0 0</pose></frame>
            <joint name="fix" type="fixed"><parent>world</parent><child>base</child></joint>
            <joint name="j" type="revolute"><parent>base</parent><child>upper</child><axis><xyz>0 1 0</xyz></axis></joint>
            </model>
            </sdf>
            """;

    @Test
    void theArmReads() {
        Model m = read(ARM);
        assertEquals(1, m.nq());
        assertEquals(0.6, m.body(0).joint().placement().translation(2), 1e-15);
    }

    @Test
    void truncatedFilesAreMalformedXmlAtTheirEnd() {
        ModelException e = failure(ARM.substring(0, ARM.indexOf("<joint name=\"j\"")));
        assertTrue(e.diagnostics().get(0).message().startsWith("malformed XML"), e.getMessage());
    }

    @Test
    void unknownElementsAreWarnings() {
        Model m = read(ARM.replace("<frame name=\"f\"", "<gizmo/><frame name=\"f\"").replace("<axis>",
                "<axis><wobble/>"));
        assertWarns(m, "unknown element <gizmo> in <model>");
        assertWarns(m, "joint 'j': unknown element <wobble> in <axis>");
    }

    @Test
    void badNumbersAreLocated() {
        errorAt(failure(ARM.replace("0 0 0.5 0 0 0", "0 0 0.5 0 0")), 5, "needs 6 numbers");
        errorAt(failure(ARM.replace("<xyz>0 1 0</xyz>", "<xyz>0 1 NaN</xyz>")), 8, "is not a finite number");
        errorAt(failure(ARM.replace("<xyz>0 1 0</xyz>", "<xyz>0 0 0</xyz>")), 8, "axis xyz is zero");
        errorAt(failure(ARM.replace("<mass>1</mass></inertial></link>\n<frame",
                "<mass>-1</mass></inertial></link>\n<frame")), 5, "negative");
        errorAt(failure(ARM.replace("<mass>1</mass></inertial></link>\n<link", "<mass>1e999</mass></inertial>"
                + "</link>\n<link")), 4, "out of range");
    }

    @Test
    void unknownFramesAndCyclesOfFramesAreLocated() {
        errorAt(failure(ARM.replace("relative_to=\"f\"", "relative_to=\"nowhere\"")), 5,
                "pose relative_to 'nowhere' names no frame of the model");
        errorAt(failure(ARM.replace("<pose>0 0 0.1 0 0 0</pose>", "<pose relative_to=\"upper\">0 0 0.1 0 0 0"
                + "</pose>")), 5, "a cycle of frames: upper -> f -> upper");
        errorAt(failure(ARM.replace("attached_to=\"base\"", "attached_to=\"g\"").replace("</model>",
                "<frame name=\"g\" attached_to=\"f\"/>\n</model>")), 6, "(a cycle of attached_to)");
        errorAt(failure(ARM.replace("attached_to=\"base\"", "attached_to=\"ghost\"")), 6,
                "attached_to 'ghost' names no frame");
        errorAt(failure(ARM.replace("<child>upper</child>", "<child>ghost</child>")), 8,
                "child 'ghost' names no link or frame");
        errorAt(failure(ARM.replace("<xyz>0 1 0</xyz>", "<xyz expressed_in=\"ghost\">0 1 0</xyz>")), 8,
                "expressed_in 'ghost' names no frame");
    }

    @Test
    void kinematicCyclesAndDuplicatesAreErrors() {
        String cycle = ARM.replace("<joint name=\"fix\" type=\"fixed\"><parent>world</parent><child>base</child>",
                "<joint name=\"back\" type=\"revolute\"><parent>upper</parent><child>base</child>");
        errorAt(failure(cycle), 4, "is on a closed chain of joints");
        errorAt(failure(ARM.replace("</model>", "<joint name=\"k\" type=\"fixed\"><parent>world</parent>"
                + "<child>upper</child></joint>\n</model>")), 9, "is already the child of joint 'j'");
        errorAt(failure(ARM.replace("<frame name=\"f\"", "<frame name=\"upper\"")), 6, "duplicate name 'upper'");
        errorAt(failure(ARM.replace("<link name=\"base\">", "<link name=\"__base\">")), 4, "is reserved");
        errorAt(failure(ARM.replace("type=\"revolute\"", "type=\"hinge\"")), 8, "unknown joint type 'hinge'");
    }

    @Test
    void externalEntitiesAreNeverRead() {
        String xxe = ARM.replace("<?xml version=\"1.0\"?>", "<?xml version=\"1.0\"?>\n<!DOCTYPE sdf [<!ENTITY x"
                + " SYSTEM \"file:///etc/passwd\">]>").replace("<model name=\"arm\">", "<model name=\"arm\">&x;");
        ModelException e = failure(xxe);
        assertTrue(e.getMessage().contains("external entities and DTDs are never loaded"), e.getMessage());
    }

    @Test
    void deepNestingDoesNotOverflowTheStack() {
        StringBuilder sb = new StringBuilder("<sdf version=\"1.8\"><model name=\"m\">" + link("a", null));
        int depth = 3000;
        for (int i = 0; i < depth; i++) {
            sb.append("<model name=\"n").append(i).append("\">");
        }
        sb.append(link("b", null));
        for (int i = 0; i < depth; i++) {
            sb.append("</model>");
        }
        sb.append("</model></sdf>");
        Model m = read(sb.toString());
        assertEquals(14, m.nq()); // two free links
    }

    @Test
    void selfIncludeIsARecursiveInclude(@TempDir Path dir) throws Exception {
        Path self = dir.resolve("self.sdf");
        Files.writeString(self, ARM.replace("</model>", "<include><uri>self.sdf</uri><name>again</name></include>\n"
                + "</model>"));
        try {
            SdfReader.read(self);
            throw new AssertionError("read");
        } catch (ModelException e) {
            Diagnostic d = e.diagnostics().get(0);
            assertEquals(9, d.location().line());
            assertTrue(d.message().contains("a recursive include"), d.toString());
        }
    }

    /** Random truncations and corruptions: each a model or a refusal, never an internal error. */
    @Test
    void fuzzedFilesAreReadOrRefusedCleanly() {
        Random random = new Random(33);
        String[] junk = {"", "x", "-", "1e999", "<", "&amp;", "0 0", "\u0000", "]]>", "__model__", "world", "::"};
        for (int n = 0; n < 400; n++) {
            String text;
            if (n % 2 == 0) {
                text = ARM.substring(0, random.nextInt(ARM.length()));
            } else {
                int at = random.nextInt(ARM.length());
                int end = Math.min(ARM.length(), at + random.nextInt(8));
                text = ARM.substring(0, at) + junk[random.nextInt(junk.length)] + ARM.substring(end);
            }
            try {
                Model m = SdfReader.parse(text, "fuzz.sdf", SdfReader.Options.DEFAULT);
                assertTrue(m.bodyCount() >= 1);
            } catch (ModelException e) {
                assertFalse(e.diagnostics().isEmpty());
                for (Diagnostic d : e.diagnostics()) {
                    assertFalse(d.message().contains("internal error"), text + "\n" + d);
                }
            }
        }
    }
}
