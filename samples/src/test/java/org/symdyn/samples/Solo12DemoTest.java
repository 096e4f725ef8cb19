package org.symdyn.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.symdyn.testing.SharedFiles;

/**
 * {@link Solo12Demo}: solo12 on its own STL collision hulls, dropped 3 cm onto a floor added in code, held by PD
 * servos, stands: after settling the floor's normal impulses per step sum to m g h within 1e-3 (relative), no
 * contact of any step is deeper than 1 mm, the base ends level and at rest; the pairs overlapping at the start (the
 * base's and the four upper legs' hulls) are excluded and reported. Skipped without the team's shared folder.
 */
class Solo12DemoTest {
    @Test
    void solo12StandsOnItsCollisionMeshesAfterADrop(@TempDir Path dir) throws Exception {
        Path urdf = SharedFiles.model("solo12.urdf");
        Path shared = urdf.getParent().getParent();
        SharedFiles.require("packages/example-robot-data");
        Solo12Demo.Result r = Solo12Demo.run(shared, Solo12Demo.T_END);

        assertTrue(r.impulseError() <= 1e-3, "floor impulses against m g h: " + r.impulseError());
        assertTrue(r.deepest() >= -1e-3, "deepest contact " + r.deepest() + " m");
        assertEquals(4, r.excluded().size(), r.excluded().toString());
        for (String pair : r.excluded()) {
            assertTrue(pair.startsWith("base_link/") && pair.contains("_UPPER_LEG/"), pair);
        }
        assertTrue(r.finalTilt() < 1e-3, "tilt " + r.finalTilt());
        assertTrue(r.finalSpeed() < 1e-2, "still moving: " + r.finalSpeed());
        assertTrue(r.finalQ()[2] > 0.2 && r.finalQ()[2] < r.startHeight() - Solo12Demo.DROP + 1e-3,
                "standing height " + r.finalQ()[2]);
        assertEquals(0, r.dropped());

        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Solo12Demo.report(new PrintStream(bytes, true, StandardCharsets.UTF_8), r);
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains("excluded (4)") && out.contains("within 1 mm"), out);
        assertFalse(out.contains("NaN"), out);

        Path traj = dir.resolve("solo12.json");
        r.trajectory().write(traj);
        assertTrue(r.trajectory().json().contains("\"other\": \"floor\""));
        String line = ViewPages.write(traj, urdf, dir.resolve("solo12.html"), "--floating", "--package-path",
                shared.resolve("packages").toString());
        assertTrue(line.contains("solo12.html"), line);
    }
}
