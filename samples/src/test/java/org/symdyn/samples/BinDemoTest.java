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
 * {@link BinDemo}: boxes poured into a bin of five static boxes land in it and come to rest, no contact deeper than
 * 1 cm (the pile presses boxes into one another where the contact solve stops short of its tolerance: 0.5 mm
 * deep with 10 boxes, 4.6 mm with 30), none dropped; the scene and trajectory make a {@code symdyn view} page. The wall time per step is printed,
 * never asserted. Default: 10 boxes; exhaustive: 30. A hundred boxes take about 13 ms of wall time per step once
 * piled (20 s for the demo's 1.5 s; 20 of them overflow the bin): the demo measures them, no test runs them.
 */
class BinDemoTest {
    @Test
    void tenBoxesLandInTheBinAndRest(@TempDir Path dir) throws Exception {
        check(10, dir);
    }

    @Test
    @Tag("exhaustive")
    void thirtyBoxesLandInTheBinAndRest(@TempDir Path dir) throws Exception {
        check(30, dir);
    }

    private static void check(int count, Path dir) throws Exception {
        BinDemo.Result r = BinDemo.run(count, BinDemo.T_END);
        assertEquals(0, r.outside(), "boxes outside the bin");
        assertTrue(r.finalSpeed() < 1e-2, "still moving: " + r.finalSpeed());
        assertTrue(r.deepest() >= -1e-2, "deepest contact " + r.deepest() + " m");
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
