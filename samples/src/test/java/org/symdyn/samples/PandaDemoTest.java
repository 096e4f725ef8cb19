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
import org.symdyn.testing.SharedFiles;

/**
 * {@link PandaDemo}: the panda closes its fingers on a box and lifts it by friction: the box rises with the tool
 * centre point ({@value PandaDemo#LIFT_DZ} m, within 1 cm) and moves less than 3 mm in the hand, held by contacts of
 * both fingers, no contact deeper than 1 mm. Exhaustive only (2 s of a 9-link arm with mesh hulls, about a minute);
 * skipped without the team's shared folder.
 */
class PandaDemoTest {
    @Test
    @Tag("exhaustive")
    void thePandaLiftsABoxByFriction(@TempDir Path dir) throws Exception {
        Path shared = SharedFiles.model("panda.urdf").getParent().getParent();
        SharedFiles.require("packages/example-robot-data");
        PandaDemo.Result r = PandaDemo.run(shared, dir, PandaDemo.T_END);
        assertEquals(PandaDemo.LIFT_DZ, r.boxRise(), 0.01, "the box's rise");
        assertTrue(r.slip() < 3e-3 && r.gripSlip() < 3e-3, "slip " + r.slip() + ", largest " + r.gripSlip());
        assertTrue(r.fingerContacts() >= 2, r.fingerContacts() + " finger-box contacts");
        assertTrue(r.deepest() >= -1e-3, "deepest contact " + r.deepest());
        assertEquals(0, r.dropped());

        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PandaDemo.report(new PrintStream(bytes, true, StandardCharsets.UTF_8), r);
        assertFalse(bytes.toString(StandardCharsets.UTF_8).contains("NaN"));
        Path traj = dir.resolve("panda.json");
        r.trajectory().write(traj);
        ViewPages.write(traj, dir.resolve("panda_box.urdf"), dir.resolve("panda.html"), "--package-path",
                shared.resolve("packages").toString());
    }
}
