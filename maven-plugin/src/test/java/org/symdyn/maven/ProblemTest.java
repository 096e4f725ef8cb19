package org.symdyn.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import org.junit.jupiter.api.Test;
import org.symdyn.model.Diagnostic;
import org.symdyn.model.SourceLocation;

class ProblemTest {
    private static final File FILE = new File("/models/a.urdf");

    @Test
    void diagnosticsPrintAsTheReaderPrintsThem() {
        Diagnostic warning = Diagnostic.warning(new SourceLocation(FILE.getPath(), 5, 7), "odd");
        Diagnostic error = Diagnostic.error(new SourceLocation(FILE.getPath(), 6, 1), "bad");
        assertEquals(warning.toString(), Problem.of(FILE, warning).toString());
        assertEquals(error.toString(), Problem.of(FILE, error).toString());
        assertEquals(true, Problem.of(FILE, warning).warning());
    }
}
