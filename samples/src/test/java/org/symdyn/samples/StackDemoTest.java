package org.symdyn.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link StackDemo}: five boxes stacked on the floor stand at h = 1 ms, every box within 1e-6 m of its start, on the
 * generated class and on the generic runtime, which agree within 1e-9; the floor carries the stack's weight; the
 * trajectory makes a {@code symdyn view} page. The default run checks 2 s, the exhaustive one the demo's 10 s.
 */
class StackDemoTest {
    @Test
    void fiveBoxesStandForTwoSecondsOnBothBackendsWhichAgree(@TempDir Path dir) throws Exception {
        check(2.0, dir);
    }

    @Test
    @Tag("exhaustive")
    void fiveBoxesStandForTenSecondsOnBothBackendsWhichAgree(@TempDir Path dir) throws Exception {
        check(StackDemo.T_END, dir);
    }

    private static void check(double tEnd, Path dir) throws Exception {
        StackDemo.Result generated = StackDemo.run(true, tEnd);
        StackDemo.Result generic = StackDemo.run(false, tEnd);
        for (StackDemo.Result r : new StackDemo.Result[] {generated, generic}) {
            for (int k = 0; k < StackDemo.BOXES; k++) {
                assertTrue(r.drift()[k] <= 1e-6, r.backend() + ": box " + (k + 1) + " moved " + r.drift()[k] + " m");
            }
            assertEquals(r.weightImpulse(), r.floorImpulse(), 1e-6 * r.weightImpulse(), r.backend());
            assertEquals(0, r.summary().unconverged(), r.backend() + ": " + r.summary());
            assertEquals(0, r.dropped(), r.backend());
        }
        assertTrue(StackDemo.maxDifference(generated.finalQ(), generic.finalQ()) <= 1e-9,
                "backends differ by " + StackDemo.maxDifference(generated.finalQ(), generic.finalQ()));

        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        StackDemo.report(new PrintStream(bytes, true, StandardCharsets.UTF_8), generated, generic);
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains("agree within"), out);
        assertFalse(out.contains("NaN"), out);

        Path traj = dir.resolve("stack.json");
        generated.trajectory().write(traj);
        String json = generated.trajectory().json();
        assertTrue(json.contains("\"other\": \"floor\"") && json.contains("\"normal\": ["), json.substring(0, 300));
        Path model = Path.of("src/main/symdyn/box_stack.urdf");
        String line = ViewPages.write(traj, model, dir.resolve("stack.html"));
        assertTrue(line.contains("stack.html"), line);
    }
}
