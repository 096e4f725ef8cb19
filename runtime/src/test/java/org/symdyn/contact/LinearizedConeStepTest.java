package org.symdyn.contact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.symdyn.contact.ContactScenes.Scene;
import org.symdyn.manifold.StateSpace;

/**
 * The velocity-level linearised-cone LCP (time stepping, h = 1 ms): a block released on an incline sticks (speed
 * after 1 s at most 1e-9 m/s) iff tan θ ≤ μ, else slides with a = g (sin θ − μ cos θ) (speed after 1 s within 1e-9
 * relative), within half a degree of the threshold on both sides; a box resting on four coplanar corners (rank
 * deficient) is solved on every step with Σ p_N = m g h; a block sliding on flat ground stops within one step of
 * v₀/(μ g) and stays stopped.
 */
class LinearizedConeStepTest {
    private static final double MU = 0.5;
    private static final double THRESHOLD = Math.atan(MU);
    private static final double H = 1e-3;

    private static final class Run {
        final Scene scene;
        final LinearizedConeStep step;
        final double[] q;
        final double[] v;
        final double[] tau;
        int maxPivots;
        long totalPivots;
        int steps;

        Run(Scene scene, double[] q, double[] v) {
            this.scene = scene;
            this.step = new LinearizedConeStep(scene.contacts(), scene.dynamics(), new StateSpace(scene.model()), null,
                    null);
            this.q = q;
            this.v = v;
            this.tau = new double[v.length];
        }

        void advance() {
            Lemke.Status status = step.step(q, v, tau, H, q, v);
            assertEquals(Lemke.Status.SOLVED, status, step.message());
            maxPivots = Math.max(maxPivots, step.iterations());
            totalPivots += step.iterations();
            steps++;
        }

        double speed() {
            return Math.sqrt(v[3] * v[3] + v[4] * v[4] + v[5] * v[5]);
        }

        double spin() {
            return Math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        }
    }

    private static void checkIncline(double theta, boolean corners) {
        Scene s = Scene.of(ContactScenes.block(1, 0.1, corners, ContactScenes.incline(theta, MU)));
        Run run = new Run(s, ContactScenes.onIncline(theta, corners ? 0.1 : 0), new double[6]);
        for (int i = 0; i < 1000; i++) {
            run.advance();
        }
        double speed = run.speed();
        if (Math.tan(theta) <= MU) {
            assertTrue(speed <= 1e-9, "sticks at " + Math.toDegrees(theta) + "°: speed " + speed);
        } else {
            double expected = ContactScenes.G * (Math.sin(theta) - MU * Math.cos(theta)) * 1000 * H;
            assertEquals(expected, speed, 1e-9 * expected, "slides at " + Math.toDegrees(theta) + "°");
            assertEquals(expected, run.v[3], 1e-9 * expected, "down the incline (base x)");
        }
        assertTrue(run.spin() <= 1e-9, "no rotation: " + run.spin());
        System.out.printf("incline θ=%8.4f° corners=%b: speed after 1 s %.15e (%s), |ω| %.1e, pivots max %d mean %.1f%n",
                Math.toDegrees(theta), corners, speed, Math.tan(theta) <= MU ? "stick" : String.format("rel.err %.1e",
                        Math.abs(speed - ContactScenes.G * (Math.sin(theta) - MU * Math.cos(theta)))
                                / (ContactScenes.G * (Math.sin(theta) - MU * Math.cos(theta)))),
                run.spin(), run.maxPivots, (double) run.totalPivots / run.steps);
    }

    private static final double[] ANGLES = {Math.toRadians(10), THRESHOLD - Math.toRadians(0.5),
        THRESHOLD - Math.toRadians(0.1), THRESHOLD + Math.toRadians(0.1), THRESHOLD + Math.toRadians(0.5),
        Math.toRadians(40)};

    @Test
    void particleOnIncline() {
        for (double theta : ANGLES) {
            checkIncline(theta, false);
        }
    }

    @Test
    void blockOnFourCornersOnIncline() {
        for (double theta : ANGLES) {
            checkIncline(theta, true);
        }
    }

    /** Rank-deficient: four coplanar corners; every step solved, Σ p_N = m g h, the box does not move. */
    @Test
    void boxRestingOnFourCoplanarCorners() {
        double m = 3;
        Scene s = Scene.of(ContactScenes.block(m, 0.1, true, ContactScenes.incline(0, MU)));
        Run run = new Run(s, new double[] {0, 0, 0.1, 0, 0, 0, 1}, new double[6]);
        double worst = 0;
        for (int i = 0; i < 1000; i++) {
            run.advance();
            assertEquals(4, run.step.contactCount());
            double sum = 0;
            for (int k = 0; k < 4; k++) {
                sum += run.step.normalImpulse(k);
            }
            worst = Math.max(worst, Math.abs(sum - m * ContactScenes.G * H) / (m * ContactScenes.G * H));
        }
        assertTrue(worst <= 1e-12, "Σ p_N relative error " + worst);
        assertTrue(run.speed() <= 1e-12 && run.spin() <= 1e-12, "at rest: " + run.speed() + ", " + run.spin());
        assertEquals(0.1, run.q[2], 1e-12);
        System.out.printf("box on four corners: Σ p_N rel.err max %.1e, pivots max %d mean %.1f%n", worst,
                run.maxPivots, (double) run.totalPivots / run.steps);
    }

    /** v₀ = 2 m/s along x on flat ground: decelerates at μ g, stops within one step of v₀/(μ g), stays stopped. */
    @Test
    void slidingBlockStops() {
        for (boolean corners : new boolean[] {false, true}) {
            Scene s = Scene.of(ContactScenes.block(1, 0.1, corners, ContactScenes.incline(0, MU)));
            double v0 = 2;
            Run run = new Run(s, new double[] {0, 0, corners ? 0.1 : 0, 0, 0, 0, 1}, new double[] {0, 0, 0, v0, 0, 0});
            double stop = v0 / (MU * ContactScenes.G);
            double stoppedAt = Double.NaN;
            double worstAfter = 0;
            for (int i = 1; i <= 1000; i++) {
                run.advance();
                double t = i * H;
                if (Double.isNaN(stoppedAt)) {
                    double expected = Math.max(0, v0 - MU * ContactScenes.G * t);
                    assertEquals(expected, run.v[3], 1e-12, "t = " + t);
                    if (run.speed() <= 1e-9) {
                        stoppedAt = t;
                    }
                } else {
                    worstAfter = Math.max(worstAfter, run.speed());
                }
            }
            assertTrue(Math.abs(stoppedAt - stop) <= H, "stopped at " + stoppedAt + ", expected " + stop);
            assertTrue(worstAfter <= 1e-9, "speed after stopping " + worstAfter);
            System.out.printf("sliding block corners=%b: stopped at %.4f s (v0/μg = %.6f s), speed after %.1e,"
                    + " pivots max %d%n", corners, stoppedAt, stop, worstAfter, run.maxPivots);
        }
    }

    /**
     * A pendulum released horizontally (q = 0) falls onto its lower limit −0.5 rad and stays there: the inelastic
     * limit row stops it within a step of reaching it; afterwards v = 0 and the limit impulse carries m g l cos q h.
     */
    @Test
    void pendulumStopsAtItsLimit() {
        org.symdyn.model.Model model = ContactScenes.pendulum(-0.5, 1);
        Scene s = Scene.of(model);
        LinearizedConeStep step = new LinearizedConeStep(s.contacts(), s.dynamics(), new StateSpace(model), model,
                null);
        double[] q = {0};
        double[] v = {0};
        double[] tau = {0};
        for (int i = 0; i < 2000; i++) {
            assertEquals(Lemke.Status.SOLVED, step.step(q, v, tau, H, q, v), step.message());
        }
        assertEquals(-0.5, q[0], 1e-12);
        assertEquals(0, v[0], 1e-12);
        assertEquals(1, step.limitCount());
        assertEquals(ContactScenes.G * Math.cos(0.5) * H, step.limitImpulse(0), 1e-12);
    }

    @Test
    void stepIsAllocationFree() {
        Scene s = Scene.of(ContactScenes.block(1, 0.1, true, ContactScenes.incline(Math.toRadians(30), MU)));
        LinearizedConeStep step = new LinearizedConeStep(s.contacts(), s.dynamics(), new StateSpace(s.model()), null,
                null);
        double[] q0 = ContactScenes.onIncline(Math.toRadians(30), 0.1);
        double[] q = new double[7];
        double[] v = new double[6];
        double[] tau = new double[6];
        long bytes = AllocationProbe.allocatedBytes(500, () -> {
            System.arraycopy(q0, 0, q, 0, 7);
            java.util.Arrays.fill(v, 0);
            step.step(q, v, tau, H, q, v);
        });
        assertTrue(bytes < 2000, "allocated " + bytes + " bytes over 500 steps");
    }
}
