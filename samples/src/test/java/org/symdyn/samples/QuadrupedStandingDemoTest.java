package org.symdyn.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.model.Model;

/** The quadruped demo on a few states: feet on the ground, vertical forces carrying the weight, no NaN. */
class QuadrupedStandingDemoTest {
    @Test
    void standsOnItsFeetAndItsFeetCarryItsWeight() throws Exception {
        Model model = SampleModels.load("quadruped.urdf");
        double[] q = QuadrupedStandingDemo.standingPose(model);
        GenericDynamics kin = new GenericDynamics(model);
        double[] rot = new double[9];
        double[] p = new double[3];
        for (String leg : QuadrupedStandingDemo.LEGS) {
            kin.framePose(q, model.frames().indexOf(model.frame(leg + "_foot")), rot, p);
            assertEquals(0, p[2], 1e-12, leg + " foot height");
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        QuadrupedStandingDemo.run(new PrintStream(bytes, true, StandardCharsets.UTF_8), 20, 5);
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains("sum of vertical foot forces 192.276000 N (weight 192.276000 N)"), out);
        assertTrue(out.contains("kokkevis, generated"), out);
        assertFalse(out.contains("NaN"), out);
    }
}
