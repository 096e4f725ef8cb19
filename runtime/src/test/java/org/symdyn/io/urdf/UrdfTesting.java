package org.symdyn.io.urdf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.List;
import java.util.stream.Collectors;
import org.symdyn.model.Diagnostic;
import org.symdyn.model.Model;
import org.symdyn.model.ModelException;

/** Helpers for the URDF reader tests: read inline documents and find diagnostics by line and text. */
final class UrdfTesting {
    static final String PATH = "test.urdf";
    static final UrdfReader.Options FLOATING = new UrdfReader.Options(true, false);
    static final UrdfReader.Options STRICT = new UrdfReader.Options(false, true);

    private UrdfTesting() {
    }

    static Model read(String xml) {
        return read(xml, UrdfReader.Options.DEFAULT);
    }

    static Model read(String xml, UrdfReader.Options options) {
        try {
            return UrdfReader.parse(xml, PATH, options);
        } catch (ModelException e) {
            return fail("expected the document to be read, got:\n" + e.getMessage());
        }
    }

    static ModelException failure(String xml) {
        return failure(xml, UrdfReader.Options.DEFAULT);
    }

    static ModelException failure(String xml, UrdfReader.Options options) {
        return assertThrows(ModelException.class, () -> UrdfReader.parse(xml, PATH, options));
    }

    /**
     * The one diagnostic containing {@code fragment}; asserts it is an error at {@code line} of {@link #PATH} and
     * that it prints as {@code path:[line,col] message}.
     */
    static Diagnostic errorAt(ModelException e, int line, String fragment) {
        List<Diagnostic> matching = e.diagnostics().stream().filter(d -> d.message().contains(fragment)).toList();
        if (matching.size() != 1) {
            fail("expected exactly one diagnostic containing \"" + fragment + "\", got:\n" + describe(e));
        }
        Diagnostic d = matching.get(0);
        assertEquals(Diagnostic.Severity.ERROR, d.severity(), d.toString());
        assertEquals(PATH, d.location().path(), d.toString());
        assertEquals(line, d.location().line(), () -> "line of: " + d + "\nall:\n" + describe(e));
        assertEquals(PATH + ":[" + line + "," + d.location().column() + "] " + d.message(), d.toString());
        return d;
    }

    static String describe(ModelException e) {
        return e.diagnostics().stream().map(Diagnostic::toString).collect(Collectors.joining("\n"));
    }
}
