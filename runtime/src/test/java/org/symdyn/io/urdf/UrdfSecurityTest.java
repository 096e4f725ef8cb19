package org.symdyn.io.urdf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.symdyn.io.urdf.UrdfTesting.errorAt;
import static org.symdyn.io.urdf.UrdfTesting.failure;
import static org.symdyn.io.urdf.UrdfTesting.read;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.symdyn.model.Diagnostic;
import org.symdyn.model.Model;
import org.symdyn.model.ModelException;

/**
 * The XML parser must read nothing but the document. Each external resource below would, if it were read, add a
 * link "injected" (so the model would change, or the error would name it) and a marker string.
 */
class UrdfSecurityTest {
    private static final String MARKER = "SECRET-7f3a";
    private static final String INJECTED = "<link name=\"injected\"/><!-- " + MARKER + " -->";

    private static void assertNotRead(ModelException e) {
        for (Diagnostic d : e.diagnostics()) {
            assertFalse(d.message().contains("injected") || d.message().contains(MARKER), d.toString());
        }
    }

    @Test
    void externalGeneralEntityIsNotRead(@TempDir Path dir) throws Exception {
        Path secret = dir.resolve("secret.xml");
        Files.writeString(secret, INJECTED, StandardCharsets.UTF_8);
        ModelException e = failure("""
                <?xml version="1.0"?>
                <!DOCTYPE robot [
                  <!ENTITY xxe SYSTEM "%s">
                ]>
                <robot name="r">
                  <link name="a"/>
                  &xxe;
                </robot>
                """.formatted(secret.toUri()));
        errorAt(e, 7, "entity reference '&xxe;' was not read");
        assertNotRead(e);
        assertEquals(1, e.diagnostics().size(), UrdfTesting.describe(e));
    }

    @Test
    void externalParameterEntityIsNotRead(@TempDir Path dir) throws Exception {
        Path dtd = dir.resolve("evil.dtd");
        Files.writeString(dtd, "<!ENTITY inj '" + INJECTED + "'>", StandardCharsets.UTF_8);
        ModelException e = failure("""
                <?xml version="1.0"?>
                <!DOCTYPE robot [
                  <!ENTITY %% p SYSTEM "%s">
                  %%p;
                ]>
                <robot name="r">
                  <link name="a"/>
                  &inj;
                </robot>
                """.formatted(dtd.toUri()));
        // Either refused as an entity that was not read or, because the declaring DTD was never read, as an
        // undeclared entity (the JDK parser does the latter): one error at the reference, nothing injected.
        assertEquals(1, e.diagnostics().size(), UrdfTesting.describe(e));
        errorAt(e, 8, "inj");
        assertNotRead(e);
    }

    @Test
    void externalDtdIsNotLoaded(@TempDir Path dir) throws Exception {
        Path dtd = dir.resolve("robot.dtd");
        Files.writeString(dtd, "<!ENTITY inj '" + INJECTED + "'>", StandardCharsets.UTF_8);
        ModelException e = failure("""
                <?xml version="1.0"?>
                <!DOCTYPE robot SYSTEM "%s">
                <robot name="r">
                  <link name="a"/>
                  &inj;
                </robot>
                """.formatted(dtd.toUri()));
        errorAt(e, 5, "'&inj;' was not read");
        assertNotRead(e);
    }

    @Test
    void externalDtdThatIsNotUsedIsHarmless(@TempDir Path dir) {
        // The DTD does not exist: it is never opened, so the document reads normally.
        Model m = read("""
                <?xml version="1.0"?>
                <!DOCTYPE robot SYSTEM "%s">
                <robot name="r"><link name="a"/></robot>
                """.formatted(dir.resolve("absent.dtd").toUri()));
        assertEquals("a", m.rootName());
    }

    @Test
    void internalEntitiesStillWork() {
        Model m = read("""
                <?xml version="1.0"?>
                <!DOCTYPE robot [ <!ENTITY m "2.5"> ]>
                <robot name="r">
                  <link name="a"/>
                  <link name="b">
                    <inertial><mass value="&m;"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>
                  </link>
                  <joint name="j" type="revolute"><parent link="a"/><child link="b"/></joint>
                </robot>
                """);
        assertEquals(2.5, m.body(0).inertia().mass());
    }

    @Test
    void entityExpansionIsBounded() {
        StringBuilder doctype = new StringBuilder("<!DOCTYPE robot [\n<!ENTITY e0 \"ha\">\n");
        for (int i = 1; i <= 10; i++) {
            String prev = "&e" + (i - 1) + ";";
            doctype.append("<!ENTITY e").append(i).append(" \"").append(prev.repeat(10)).append("\">\n");
        }
        doctype.append("]>\n");
        String xml = doctype + "<robot name=\"&e10;\"><link name=\"a\"/></robot>\n";
        // 10^10 expansions if unbounded; the parser must give up quickly with an error instead.
        ModelException e = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> failure(xml));
        assertEquals(1, e.diagnostics().size(), UrdfTesting.describe(e));
        assertTrue(e.diagnostics().get(0).message().startsWith("malformed XML"), UrdfTesting.describe(e));
    }
}
