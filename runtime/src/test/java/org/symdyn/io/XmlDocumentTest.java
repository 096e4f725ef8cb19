package org.symdyn.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.symdyn.model.Diagnostic;

/** What the XML layer reports: the repairs' warnings and the unread entities' errors. */
class XmlDocumentTest {
    /** A repaired version (a warning) and an undefined entity (an error): the deprecated view keeps the error alone. */
    @SuppressWarnings("removal")
    @Test
    void unreadEntitiesAreTheErrorsOfDiagnostics() throws Exception {
        XmlDocument doc = XmlDocument.parse("""
                <?xml version="0.0"?>
                <!DOCTYPE robot [<!ENTITY outside SYSTEM "outside.xml">]>
                <robot name="r"><link name="a"/>&outside;</robot>
                """, "r.urdf");
        List<Diagnostic> all = doc.diagnostics();
        assertTrue(all.stream().anyMatch(d -> !d.isError()), all.toString());
        assertTrue(all.stream().anyMatch(Diagnostic::isError), all.toString());
        List<Diagnostic> entities = doc.unreadEntities();
        assertFalse(entities.isEmpty());
        assertEquals(all.stream().filter(Diagnostic::isError).toList(), entities);
        assertTrue(entities.get(0).message().contains("outside"), entities.toString());
    }
}
