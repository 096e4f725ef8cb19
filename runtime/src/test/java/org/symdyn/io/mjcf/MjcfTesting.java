package org.symdyn.io.mjcf;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.stream.Collectors;
import org.symdyn.model.Diagnostic;
import org.symdyn.model.Model;
import org.symdyn.model.ModelException;

/** Reading MJCF text in tests. */
final class MjcfTesting {
    private MjcfTesting() {
    }

    static Model read(String xml) {
        try {
            return MjcfReader.parse(xml, "m.xml", MjcfReader.Options.DEFAULT);
        } catch (ModelException e) {
            return fail(describe(e));
        }
    }

    static ModelException failure(String xml) {
        return assertThrows(ModelException.class, () -> MjcfReader.parse(xml, "m.xml", MjcfReader.Options.DEFAULT));
    }

    static String describe(ModelException e) {
        return e.diagnostics().stream().map(Diagnostic::toString).collect(Collectors.joining("\n"));
    }

    /** The error at that line whose message contains {@code text}. */
    static Diagnostic errorAt(ModelException e, int line, String text) {
        for (Diagnostic d : e.diagnostics()) {
            if (d.isError() && d.location().line() == line && d.message().contains(text)) {
                return d;
            }
        }
        return fail("no error at line " + line + " containing '" + text + "' in:\n" + describe(e));
    }

    /** The warning whose message contains {@code text}. */
    static Diagnostic warning(Model m, String text) {
        for (Diagnostic d : m.warnings()) {
            if (d.message().contains(text)) {
                return d;
            }
        }
        return fail("no warning containing '" + text + "' in:\n" + m.warnings());
    }

    static void assertClose(double[] expected, double[] actual, double tol, String what) {
        for (int i = 0; i < expected.length; i++) {
            assertTrue(Math.abs(expected[i] - actual[i]) <= tol, what + " [" + i + "]: expected " + expected[i]
                    + " but was " + actual[i]);
        }
    }
}
