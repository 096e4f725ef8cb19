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
 * {@link BowlDemo}: a ball released off-centre in a static mesh bowl rolls down and oscillates with the rolling
 * period 2π √(7 (R − r) / (5 g)) (within 2 %: the bowl is faceted), its lowest point on the bowl's bottom (within
 * the facets' 2e-4 m sag), its energy never increasing from one step to the next (to rounding, 1e-12 J), no contact
 * deeper than 1e-5 m; the scene and trajectory make a {@code symdyn view} page. Default: 1.5 s (one half swing
 * timed); exhaustive: the demo's 6 s (five).
 */
class BowlDemoTest {
    @Test
    void theBallRollsDownAndOscillatesWithoutGainingEnergy(@TempDir Path dir) throws Exception {
        check(1.5, 2, dir);
    }

    @Test
    @Tag("exhaustive")
    void theBallRollsForTheDemosSixSeconds(@TempDir Path dir) throws Exception {
        check(BowlDemo.T_END, 6, dir);
    }

    private static void check(double tEnd, int crossings, Path dir) throws Exception {
        Path urdf = BowlDemo.writeScene(dir);
        BowlDemo.Result r = BowlDemo.run(urdf, tEnd);
        assertTrue(r.largestEnergyIncrease() <= 1e-12, "energy rose by " + r.largestEnergyIncrease() + " J in a step");
        double[] e = r.energy();
        assertTrue(e[e.length - 1] < e[0], "some energy is lost");
        assertTrue(e[e.length - 1] > 0.8 * e[0], "but it keeps rolling: " + e[e.length - 1] + " of " + e[0] + " J");
        assertTrue(r.lowestCentre() >= BowlDemo.BALL_RADIUS && r.lowestCentre() <= BowlDemo.BALL_RADIUS + 2e-4,
                "lowest centre " + r.lowestCentre());
        assertTrue(r.crossings().length >= crossings, "oscillates: " + r.crossings().length + " zero crossings");
        assertEquals(BowlDemo.rollingPeriod(), r.period(), 0.02 * BowlDemo.rollingPeriod(), "rolling period");
        assertTrue(r.deepest() >= -1e-5, "deepest contact " + r.deepest() + " m");
        assertEquals(0, r.dropped());

        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        BowlDemo.report(new PrintStream(bytes, true, StandardCharsets.UTF_8), r);
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains("never increases: yes"), out);
        assertFalse(out.contains("NaN"), out);

        Path traj = dir.resolve("bowl.json");
        r.trajectory().write(traj);
        assertTrue(r.trajectory().json().contains("\"other\": \"bowl\""));
        ViewPages.write(traj, urdf, dir.resolve("bowl.html"));
    }
}
