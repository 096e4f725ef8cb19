package org.symdyn.io.sdf;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.symdyn.model.Diagnostic;
import org.symdyn.model.Model;
import org.symdyn.model.ModelException;

/** Reading SDFormat text in tests: the model, or the refusal with its located diagnostics. */
final class SdfTesting {
    static final String PATH = "test.sdf";

    private SdfTesting() {
    }

    static Model read(String xml) {
        try {
            return SdfReader.parse(xml, PATH, SdfReader.Options.DEFAULT);
        } catch (ModelException e) {
            throw new AssertionError("unexpected refusal:\n" + e.getMessage(), e);
        }
    }

    static ModelException failure(String xml) {
        ModelException e = assertThrows(ModelException.class, () -> SdfReader.parse(xml, PATH,
                SdfReader.Options.DEFAULT));
        for (Diagnostic d : e.diagnostics()) {
            assertFalse(d.message().contains("internal error"), d.toString());
        }
        return e;
    }

    /** The error whose message contains {@code fragment}, at that line. */
    static Diagnostic errorAt(ModelException e, int line, String fragment) {
        for (Diagnostic d : e.diagnostics()) {
            if (d.isError() && d.message().contains(fragment) && d.location().line() == line) {
                return d;
            }
        }
        throw new AssertionError("no error at line " + line + " containing '" + fragment + "' in:\n" + e.getMessage());
    }

    /** True when a warning of the model contains {@code fragment}. */
    static boolean warns(Model m, String fragment) {
        return m.warnings().stream().anyMatch(d -> d.message().contains(fragment));
    }

    static void assertWarns(Model m, String fragment) {
        assertTrue(warns(m, fragment), "no warning containing '" + fragment + "' in " + m.warnings());
    }

    /** A link with a small valid inertia. */
    static String link(String name, String pose) {
        return "<link name=\"" + name + "\">" + (pose == null ? "" : "<pose>" + pose + "</pose>")
                + "<inertial><mass>1</mass><inertia><ixx>0.01</ixx><iyy>0.01</iyy><izz>0.01</izz><ixy>0</ixy>"
                + "<ixz>0</ixz><iyz>0</iyz></inertia></inertial></link>\n";
    }
}
