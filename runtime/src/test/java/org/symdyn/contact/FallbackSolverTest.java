package org.symdyn.contact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.io.urdf.UrdfReader;
import org.symdyn.model.Model;

/**
 * The default solver's fallback ({@link FallbackSolver}): a link on a revolute joint swings onto the top edge of a
 * post (one dof against a contact's three rows). ADMM alone did not converge at the impact (violation 61 m/s) and
 * its last iterate threw the link back at 196 rad/s; with the fallback every step converges and the link comes to
 * rest at the angle where its capsule touches the edge, found here from the geometry alone.
 */
class FallbackSolverTest {
    private static final String SCENE = """
            <?xml version="1.0"?>
            <robot name="pendulum_edge" xmlns:symdyn="urn:symdyn:1">
              <link name="world"/>
              <link name="post">
                <collision><origin xyz="0 0 0.5"/><geometry><box size="0.1 0.1 1"/></geometry></collision>
              </link>
              <joint name="post_fix" type="fixed"><parent link="world"/><child link="post"/></joint>
              <link name="upper">
                <inertial><origin xyz="0.15 0 0.1"/><mass value="2"/>
                  <inertia ixx="0.01" iyy="0.02" izz="0.02" ixy="0" ixz="0" iyz="0"/></inertial>
              </link>
              <joint name="yaw" type="fixed"><parent link="post"/><child link="upper"/><origin xyz="0 0 1"/></joint>
              <link name="fore">
                <inertial><origin xyz="0 0 0.25"/><mass value="1"/>
                  <inertia ixx="0.0209" iyy="0.0209" izz="0.0002" ixy="0" ixz="0" iyz="0"/></inertial>
                <collision><origin xyz="0 0 0.25"/>
                  <geometry><symdyn:capsule radius="0.02" length="0.5"/></geometry></collision>
              </link>
              <joint name="elbow" type="revolute"><parent link="upper"/><child link="fore"/>
                <origin xyz="0.3 0 0.2"/><axis xyz="0 1 0"/>
                <limit lower="-3.1" upper="3.1" effort="10" velocity="20"/></joint>
            </robot>
            """;

    @Test
    void aLinkSwingingOntoAnEdgeStopsAtTheTouchingAngle(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("pendulum_edge.urdf");
        Files.writeString(file, SCENE);
        Model model = UrdfReader.read(file);
        TimeStepper s = TimeStepper.builder(new GenericDynamics(model)).contacts(ContactSet.of(model))
                .settings(ContactSettings.defaults()).build();
        double[] q = {-0.1};
        double[] v = {0};
        double[] tau = {0};
        double fastest = 0;
        for (int k = 0; k < 1000; k++) {
            assertTrue(s.step(q, v, tau, 1e-3, q, v).converged(), "step " + k + ": " + s.report());
            fastest = Math.max(fastest, Math.abs(v[0]));
        }
        // The capsule's axis runs from the elbow P = (0.3, 1.2) (x, z) along (sin q, cos q); it touches the post's
        // far top edge E = (-0.05, 1) where the axis passes at the radius from E: (E - P) x d(q) = -0.02.
        double lo = -2.2;
        double hi = -1.9;
        for (int i = 0; i < 200; i++) {
            double mid = 0.5 * (lo + hi);
            double f = -0.35 * Math.cos(mid) + 0.2 * Math.sin(mid) + 0.02;
            if (f > 0) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        assertEquals(0.5 * (lo + hi), q[0], 1e-6);
        assertTrue(Math.abs(v[0]) < 1e-6, "at rest: " + v[0]);
        assertTrue(fastest < 10, "never thrown back: " + fastest + " rad/s");
    }
}
