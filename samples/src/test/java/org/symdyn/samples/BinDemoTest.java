package org.symdyn.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link BinDemo}: boxes poured into a bin of five static boxes land in it and come to rest (every speed below
 * 1e-4 m/s at 1.5 s; observed 5e-6 with 10 boxes, 1.6e-6 with 30, 1.5e-5 with 100), none dropped, none outside; the
 * scene and trajectory make a {@code symdyn view} page. No contact deeper than 0.1 mm with 10 and 30 boxes (observed
 * 1.5 µm); 1 cm with 100, whose upper layers land on the lower ones in solves that stop at the sweep bound (4.3 mm
 * observed while they land). The wall time per step is printed, never asserted (100 boxes: about 0.5 ms a step
 * once piled, on this kind of machine). Default: 10 boxes; exhaustive: 30 and 100.
 */
class BinDemoTest {
    @Test
    void tenBoxesLandInTheBinAndRest(@TempDir Path dir) throws Exception {
        check(10, 1e-4, dir);
    }

    @Test
    @Tag("exhaustive")
    void thirtyBoxesLandInTheBinAndRest(@TempDir Path dir) throws Exception {
        check(30, 1e-4, dir);
    }

    @Test
    @Tag("exhaustive")
    void aHundredBoxesLandInTheBinAndRest(@TempDir Path dir) throws Exception {
        check(100, 1e-2, dir);
    }

    private static void check(int count, double deepest, Path dir) throws Exception {
        BinDemo.Result r = BinDemo.run(count, BinDemo.T_END);
        assertEquals(0, r.outside(), "boxes outside the bin");
        assertTrue(r.finalSpeed() < 1e-4, "still moving: " + r.finalSpeed());
        assertTrue(r.deepest() >= -deepest, "deepest contact " + r.deepest() + " m");
        assertEquals(0, r.dropped());
        assertTrue(r.contactsAtEnd() >= 4 * count, r.contactsAtEnd() + " contacts");

        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        BinDemo.report(new PrintStream(bytes, true, StandardCharsets.UTF_8), r);
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains("median") && out.contains("real time"), out);
        assertFalse(out.contains("NaN"), out);

        Path urdf = dir.resolve("bin-" + count + ".urdf");
        Files.writeString(urdf, BinDemo.sceneUrdf(count));
        Path traj = dir.resolve("bin-" + count + ".json");
        r.trajectory().write(traj);
        ViewPages.write(traj, urdf, dir.resolve("bin-" + count + ".html"));
    }
}
