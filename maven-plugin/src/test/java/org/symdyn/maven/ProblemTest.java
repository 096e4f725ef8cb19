package org.symdyn.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import org.junit.jupiter.api.Test;
import org.symdyn.model.Diagnostic;
import org.symdyn.model.SourceLocation;

class ProblemTest {
    private static final File FILE = new File("/models/a.urdf");

    @Test
    void aGeneratorRefusalKeepsItsPosition() {
        Problem p = Problem.parse(FILE, "/models/a.urdf:[18,3] custom constraint 'x' is not supported by the"
                + " generator yet");
        assertEquals(new Problem(FILE, 18, 3, "custom constraint 'x' is not supported by the generator yet", false),
                p);
        assertEquals("/models/a.urdf:[18,3] custom constraint 'x' is not supported by the generator yet",
                p.toString());
    }

    @Test
    void anUnlocatedMessageIsAtZeroZero() {
        assertEquals("/models/a.urdf:[0,0] something odd", Problem.parse(FILE, "something odd").toString());
        assertEquals("/models/a.urdf:[0,0] (no message)", Problem.parse(FILE, null).toString());
        assertEquals("/models/a.urdf:[0,0] x:[99999999999,1] y",
                Problem.parse(FILE, "x:[99999999999,1] y").toString());
    }

    @Test
    void diagnosticsPrintAsTheReaderPrintsThem() {
        Diagnostic warning = Diagnostic.warning(new SourceLocation(FILE.getPath(), 5, 7), "odd");
        Diagnostic error = Diagnostic.error(new SourceLocation(FILE.getPath(), 6, 1), "bad");
        assertEquals(warning.toString(), Problem.of(FILE, warning).toString());
        assertEquals(error.toString(), Problem.of(FILE, error).toString());
        assertEquals(true, Problem.of(FILE, warning).warning());
    }
}
