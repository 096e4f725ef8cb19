package org.symdyn.contact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.symdyn.contact.ContactScenes.Scene;
import org.symdyn.model.Model;
import org.symdyn.spatial.Rotations;

/**
 * The acceleration-level problem (the seed's ConstraintAccelProblemData) on analytic cases: a block at rest on an
 * incline sticks iff tan θ ≤ μ, else accelerates at g (sin θ − μ cos θ) down the incline, also within half a degree
 * of the threshold; a sliding block decelerates at μ g; frictionless contact; a joint at its limit; Painlevé's rod.
 */
class AccelerationProblemTest {
    private static final double MU = 0.5;
    private static final double THRESHOLD = Math.atan(MU);
    private static final double[] ANGLES = {Math.toRadians(10), THRESHOLD - Math.toRadians(0.5),
        THRESHOLD - Math.toRadians(0.1), THRESHOLD - Math.toRadians(0.01), THRESHOLD + Math.toRadians(0.01),
        THRESHOLD + Math.toRadians(0.1), THRESHOLD + Math.toRadians(0.5), Math.toRadians(40)};

    static final StringBuilder LOG = new StringBuilder();

    private static AccelerationSolution solveAtRestOnIncline(double theta, double mu, boolean corners, int r) {
        Scene s = Scene.of(ContactScenes.block(1, 0.1, corners, ContactScenes.incline(theta, mu)));
        AccelerationProblemData data = new AccelerationProblemData(s.contacts(), s.dynamics());
        if (r != 2) {
            data.setSpanningDirections(r);
        }
        data.update(ContactScenes.onIncline(theta, corners ? 0.1 : 0), new double[6], new double[6]);
        assertEquals(corners ? 4 : 1, data.contactCount());
        assertEquals(0, data.slidingCount());
        assertEquals(mu > 0 ? r * data.contactCount() : 0, data.frictionRowCount());
        return new AccelerationProblemSolver(data).solveOrThrow();
    }

    private static void checkIncline(double theta, double mu, boolean corners, int r) {
        AccelerationSolution sol = solveAtRestOnIncline(theta, mu, corners, r);
        double[] a = sol.vdot();
        if (Math.tan(theta) <= mu) {
            for (int i = 0; i < 6; i++) {
                assertEquals(0, a[i], 1e-12, "sticks at " + Math.toDegrees(theta) + " deg, v̇[" + i + "]");
            }
            double worst = 0;
            for (double x : a) {
                worst = Math.max(worst, Math.abs(x));
            }
            LOG.append(String.format("stick  θ=%8.4f° corners=%b r=%d: max|v̇| %.2e, %d pivots, LCP %d%n",
                    Math.toDegrees(theta), corners, r, worst, sol.iterations(), sol.lcpSize()));
        } else {
            double expected = ContactScenes.G * (Math.sin(theta) - mu * Math.cos(theta));
            // base x is downhill: v̇ linear part (base coordinates, at rest the classical acceleration)
            assertEquals(expected, a[3], 1e-9 * expected, "slides at " + Math.toDegrees(theta) + " deg");
            for (int i : new int[] {0, 1, 2, 4, 5}) {
                assertEquals(0, a[i], 1e-12 + 1e-9 * expected, "v̇[" + i + "]");
            }
            LOG.append(String.format("slide  θ=%8.4f° corners=%b r=%d: a=%.15f rel.err %.2e, %d pivots, LCP %d%n",
                    Math.toDegrees(theta), corners, r, a[3], Math.abs(a[3] - expected) / expected,
                    sol.iterations(), sol.lcpSize()));
        }
    }

    @Test
    void pointOnInclineSticksIffTanThetaAtMostMu() {
        for (double theta : ANGLES) {
            checkIncline(theta, MU, false, 2);
        }
    }

    @Test
    void blockOnFourCornersSticksIffTanThetaAtMostMu() {
        for (double theta : ANGLES) {
            checkIncline(theta, MU, true, 2);
        }
        System.out.print(LOG);
    }

    /** r = 3 and r = 4 (6- and 8-edge polygons) contain the downhill direction t1: the same answers. */
    @Test
    void polygonsWithMoreEdges() {
        for (int r : new int[] {3, 4}) {
            for (double theta : ANGLES) {
                checkIncline(theta, MU, true, r);
            }
        }
    }

    @Test
    void frictionlessBlockSlidesAtGSinTheta() {
        double theta = Math.toRadians(20);
        AccelerationSolution sol = solveAtRestOnIncline(theta, 0, true, 2);
        assertEquals(ContactScenes.G * Math.sin(theta), sol.vdot(3), 1e-12);
        for (int i : new int[] {0, 1, 2, 4, 5}) {
            assertEquals(0, sol.vdot(i), 1e-12);
        }
        double total = 0;
        for (int c = 0; c < 4; c++) {
            total += sol.normalForce(c);
        }
        assertEquals(ContactScenes.G * Math.cos(theta), total, 1e-12);
    }

    /**
     * A solid sphere (r = 0.1 m) released at rest on a 30° incline: with μ = 0.5 (tan θ ≤ 3.5 μ) it rolls,
     * a = (5/7) g sin θ; with μ = 0.1 it slides, a = g (sin θ − μ cos θ), spinning up at α = (5/2) μ g cos θ / r;
     * the same when already sliding at 1 m/s without spin (a sliding contact).
     */
    @Test
    void sphereRollsOrSlides() {
        double theta = Math.toRadians(30);
        double r = 0.1;
        for (int c = 0; c < 3; c++) {
            double mu = c == 0 ? 0.5 : 0.1;
            boolean moving = c == 2; // already sliding down at 1 m/s without spin: a sliding contact
            Scene s = Scene.of(ContactScenes.sphere(2, r, ContactScenes.incline(theta, mu)));
            AccelerationProblemData data = new AccelerationProblemData(s.contacts(), s.dynamics());
            double[] v = moving ? new double[] {0, 0, 0, Math.cos(theta), 0, -Math.sin(theta)} : new double[6];
            data.update(new double[] {r * Math.sin(theta), 0, r * Math.cos(theta), 0, 0, 0, 1}, v, new double[6]);
            assertEquals(1, data.contactCount());
            assertEquals(moving ? 1 : 0, data.slidingCount());
            AccelerationSolution sol = new AccelerationProblemSolver(data).solveOrThrow();
            double[] a = sol.vdot();
            // identity orientation: base coordinates are world coordinates; downhill (cos θ, 0, −sin θ)
            double down = a[3] * Math.cos(theta) - a[5] * Math.sin(theta);
            double normal = a[3] * Math.sin(theta) + a[5] * Math.cos(theta);
            boolean rolls = Math.tan(theta) <= 3.5 * mu;
            double expected = rolls ? 5.0 / 7 * ContactScenes.G * Math.sin(theta)
                    : ContactScenes.G * (Math.sin(theta) - mu * Math.cos(theta));
            double alpha = rolls ? expected / r : 2.5 * mu * ContactScenes.G * Math.cos(theta) / r;
            assertEquals(expected, down, 1e-12 * expected, "μ " + mu);
            assertEquals(0, normal, 1e-12);
            assertEquals(0, a[4], 1e-12);
            assertEquals(alpha, a[1], 1e-12 * alpha, "spin about y, μ " + mu);
            System.out.printf("sphere μ=%.1f moving=%b %s: a=%.15f (expected %.15f), α=%.15f (expected %.15f), %d pivots%n", mu,
                    moving, rolls ? "rolls" : "slides", down, expected, a[1], alpha, sol.iterations());
        }
    }

    /** Sliding along +x at 2 m/s on flat ground: v̇_x = −μ g, Σ f_N = m g. One point and four corners. */
    @Test
    void slidingBlockDeceleratesAtMuG() {
        for (boolean corners : new boolean[] {false, true}) {
            Scene s = Scene.of(ContactScenes.block(2, 0.1, corners, ContactScenes.incline(0, MU)));
            AccelerationProblemData data = new AccelerationProblemData(s.contacts(), s.dynamics());
            double[] q = {0, 0, corners ? 0.1 : 0, 0, 0, 0, 1};
            double[] v = {0, 0, 0, 2, 0, 0};
            data.update(q, v, new double[6]);
            assertEquals(corners ? 4 : 1, data.slidingCount());
            assertEquals(1, data.slidingDirection(0, 0), 1e-15);
            AccelerationSolution sol = new AccelerationProblemSolver(data).solveOrThrow();
            assertEquals(-MU * ContactScenes.G, sol.vdot(3), 1e-12 * MU * ContactScenes.G, "corners " + corners);
            for (int i : new int[] {0, 1, 2, 4, 5}) {
                assertEquals(0, sol.vdot(i), 1e-12);
            }
            double total = 0;
            for (int c = 0; c < data.contactCount(); c++) {
                total += sol.normalForce(c);
            }
            assertEquals(2 * ContactScenes.G, total, 1e-12);
            assertEquals(corners ? AccelerationSolution.Uniqueness.DEGENERATE_P0
                    : AccelerationSolution.Uniqueness.P_MATRIX, sol.uniqueness());
            System.out.printf("sliding block corners=%b: v̇x=%.15f (−μg=%.15f), %d pivots, %s, min minor %.3e%n",
                    corners, sol.vdot(3), -MU * ContactScenes.G, sol.iterations(), sol.uniqueness(),
                    sol.smallestMinor());
        }
    }

    /** Pendulum at its lower limit q = 0, gravity pulling q negative: v̇ = 0, f_L = m g l. */
    @Test
    void jointAtItsLimit() {
        Model model = ContactScenes.pendulum(0, 1);
        Scene s = Scene.of(model);
        AccelerationProblemData data = new AccelerationProblemData(s.contacts(), s.dynamics(), model, null);
        data.update(new double[] {0}, new double[] {0}, new double[] {0});
        assertEquals(1, data.limitCount());
        assertEquals(+1, data.limitSide(0));
        assertEquals("pivot", data.limitName(0));
        AccelerationSolution sol = new AccelerationProblemSolver(data).solveOrThrow();
        assertEquals(0, sol.vdot(0), 1e-15);
        assertEquals(ContactScenes.G, sol.limitForce(0), 1e-12);

        // at the upper limit instead: gravity pulls away from it, no limit force, free fall of the pendulum
        Model upper = ContactScenes.pendulum(-1, 0);
        Scene su = Scene.of(upper);
        AccelerationProblemData du = new AccelerationProblemData(su.contacts(), su.dynamics(), upper, null);
        du.update(new double[] {0}, new double[] {0}, new double[] {0});
        assertEquals(1, du.limitCount());
        assertEquals(-1, du.limitSide(0));
        AccelerationSolution free = new AccelerationProblemSolver(du).solveOrThrow();
        assertEquals(0, free.limitForce(0), 0);
        assertEquals(-ContactScenes.G / 1.001, free.vdot(0), 1e-12);

        // moving away from the lower limit: not in the problem
        data.update(new double[] {0}, new double[] {0.5}, new double[] {0});
        assertEquals(0, data.limitCount());
    }

    /**
     * Painlevé: a rod (m = 1 kg, half length 0.5 m) at 30° on a ground with μ = 4, its lower end sliding away from
     * the rod (−x). N H⁻¹ (N − μQ)ᵀ = (1 + 3 cos²θ − 3 μ sin θ cos θ)/m &lt; 0. Released without rotation the end
     * must accelerate down (q_N = −g): no solution. Spinning fast enough that the centripetal term lifts the end
     * (q_N &gt; 0): two solutions (no force, and a force that holds the end on the ground).
     */
    @Test
    void painleveRodIsReportedNotGuessed() {
        double theta = Math.toRadians(30);
        double l = 0.5;
        double mu = 4;
        Scene s = Scene.of(ContactScenes.rod(1, l, ContactScenes.incline(0, mu)));
        // body x rises at θ: rotation by −θ about y; the end (−l, 0, 0) on the ground
        double[] q = {l * Math.cos(theta), 0, l * Math.sin(theta), 0, Math.sin(-theta / 2), 0, Math.cos(-theta / 2)};
        AccelerationProblemData data = new AccelerationProblemData(s.contacts(), s.dynamics());
        AccelerationProblemSolver solver = new AccelerationProblemSolver(data);

        data.update(q, bodyVelocity(q, new double[] {0, 0, 0}, new double[] {-1, 0, 0}), new double[6]);
        assertEquals(1, data.contactCount());
        assertEquals(1, data.slidingCount());
        AccelerationSolution sol = solver.solve();
        assertEquals(AccelerationSolution.Status.INCONSISTENT, sol.status(), sol.toString());
        assertEquals(AccelerationSolution.Uniqueness.NOT_P0, sol.uniqueness());
        double expectedMinor = 1; // 1×1: the block itself, normalised
        assertEquals(-expectedMinor, sol.smallestMinor(), 1e-12);
        assertTrue(sol.message().contains("end@floor"), sol.message());
        assertTrue(Double.isNaN(sol.vdot(0)));
        PainleveException e = assertThrows(PainleveException.class, solver::solveOrThrow);
        assertEquals(AccelerationSolution.Status.INCONSISTENT, e.status());
        System.out.println("Painlevé, no rotation: " + e.getMessage());

        // spin about the world y axis at 10 rad/s (end kept on the ground): centripetal lift l sin θ ω² = 25 > g
        double[] v = bodyVelocity(q, new double[] {0, 10, 0}, new double[] {-1, 0, 0});
        data.update(q, v, new double[6]);
        assertEquals(1, data.slidingCount());
        assertTrue(data.kN()[0] > ContactScenes.G, "kN " + data.kN()[0]);
        AccelerationSolution two = solver.solve();
        assertEquals(AccelerationSolution.Status.NON_UNIQUE, two.status(), two.toString());
        assertTrue(two.message().contains("end@floor"), two.message());
        System.out.println("Painlevé, spinning: " + two.message());

        // the same rod with μ = 0.5 is an ordinary sliding problem: solved, P-matrix
        Scene low = Scene.of(ContactScenes.rod(1, l, ContactScenes.incline(0, 0.5)));
        AccelerationProblemData d2 = new AccelerationProblemData(low.contacts(), low.dynamics());
        d2.update(q, bodyVelocity(q, new double[] {0, 0, 0}, new double[] {-1, 0, 0}), new double[6]);
        AccelerationSolution ok = new AccelerationProblemSolver(d2).solveOrThrow();
        assertEquals(AccelerationSolution.Uniqueness.P_MATRIX, ok.uniqueness());
        assertNotNull(ok.vdot());
    }

    /**
     * The floating-base v = [ω_body; v_origin,body] of a body at q with world angular velocity ω and the end point
     * (−l, 0, 0 in the rod) moving at world velocity {@code endVelocity}.
     */
    private static double[] bodyVelocity(double[] q, double[] omegaWorld, double[] endVelocity) {
        double[] r = new double[9];
        Rotations.fromQuaternion(q[3], q[4], q[5], q[6], r);
        double[] end = new double[3];
        double[] x = {-0.5, 0, 0};
        for (int i = 0; i < 3; i++) {
            end[i] = r[3 * i] * x[0] + r[3 * i + 1] * x[1] + r[3 * i + 2] * x[2];
        }
        // origin velocity = end velocity − ω × (R x)
        double[] o = {
            endVelocity[0] - (omegaWorld[1] * end[2] - omegaWorld[2] * end[1]),
            endVelocity[1] - (omegaWorld[2] * end[0] - omegaWorld[0] * end[2]),
            endVelocity[2] - (omegaWorld[0] * end[1] - omegaWorld[1] * end[0])};
        double[] v = new double[6];
        for (int i = 0; i < 3; i++) {
            for (int k = 0; k < 3; k++) {
                v[i] += r[3 * k + i] * omegaWorld[k];
                v[3 + i] += r[3 * k + i] * o[k];
            }
        }
        return v;
    }

    /**
     * Bilateral rows: a particle on flat ground (μ 0.5) pushed along x by 20 N (more than μ m g) and held along x by
     * a bilateral contact (given once, and twice: a redundant bilateral row, dropped in the Schur complement):
     * v̇ = 0, f_G (+ friction along x) = −20 N, f_N = m g.
     */
    @Test
    void bilateralRowsEliminated() {
        for (int copies = 1; copies <= 2; copies++) {
            String hold = ContactScenes.incline(0, MU) + "  <sd:contact name=\"hold\" link=\"box\" normal=\"1 0 0\"/>\n"
                    + (copies == 2 ? "  <sd:contact name=\"hold2\" link=\"box\" normal=\"1 0 0\"/>\n" : "");
            Model model = ContactScenes.block(1, 0.1, false, hold);
            Scene s = Scene.of(model);
            org.symdyn.constraints.ConstraintData bilateral =
                    org.symdyn.constraints.ConstraintSet.of(model).bindGeneric();
            AccelerationProblemData data = new AccelerationProblemData(s.contacts(), s.dynamics(), null, bilateral);
            data.update(new double[] {0, 0, 0, 0, 0, 0, 1}, new double[6], new double[] {0, 0, 0, 20, 0, 0});
            assertEquals(copies, data.bilateralCount());
            AccelerationSolution sol = new AccelerationProblemSolver(data).solveOrThrow();
            for (int i = 0; i < 6; i++) {
                assertEquals(0, sol.vdot(i), 1e-12, "copies " + copies + ", v̇[" + i + "]");
            }
            double fg = 0;
            for (int i = 0; i < copies; i++) {
                fg += sol.bilateralForce(i);
            }
            // friction along x (t2 of a flat ground) could share the load with the bilateral row; the sum is −20 N
            assertEquals(-20, fg + sol.frictionForce(1), 1e-12);
            assertEquals(0, sol.frictionForce(0), 1e-12);
            assertEquals(ContactScenes.G, sol.normalForce(0), 1e-12);
            assertTrue(sol.bilateralResidual() <= 1e-12);
        }
    }

    /**
     * Which contacts are in the problem and how: a separating contact is not; a tangential speed below the tolerance
     * is non-sliding; r = 3 spans directions at 0°, 60°, 120° from t1 with k-terms and rows of the same directions.
     */
    @Test
    void dataFollowsTheSeed() {
        Scene s = Scene.of(ContactScenes.block(1, 0.1, false, ContactScenes.incline(0, MU)));
        AccelerationProblemData data = new AccelerationProblemData(s.contacts(), s.dynamics());
        double[] q = {0, 0, 0, 0, 0, 0, 1};
        data.update(q, new double[] {0, 0, 0, 0, 0, 1e-3}, new double[6]);
        assertEquals(0, data.contactCount(), "separating at 1 mm/s");
        data.update(q, new double[] {0, 0, 0, 1e-7, 0, -1e-7}, new double[6]);
        assertEquals(1, data.contactCount());
        assertEquals(1, data.nonSlidingCount());
        assertEquals(0, data.nonSlidingContacts()[0]);
        assertEquals(MU, data.muNonSliding(0));
        assertEquals("c@floor", data.contactName(0));
        data.setSpanningDirections(3);
        data.update(q, new double[6], new double[6]);
        assertEquals(3, data.frictionRowCount());
        // flat ground: t1 = (0, −1, 0), t2 = (1, 0, 0); d_k = cos(πk/3) t1 + sin(πk/3) t2
        for (int k = 0; k < 3; k++) {
            double c = Math.cos(Math.PI * k / 3);
            double sn = Math.sin(Math.PI * k / 3);
            assertEquals(sn, data.frictionDirection(k, 0), 1e-15);
            assertEquals(-c, data.frictionDirection(k, 1), 1e-15);
            // the body-origin point: F row = d in the linear columns (identity orientation)
            assertEquals(sn, data.F()[k * 6 + 3], 1e-15);
            assertEquals(-c, data.F()[k * 6 + 4], 1e-15);
        }
        // τ̂ = τ − C: gravity m g up in C, so τ̂_z = −m g
        assertEquals(-ContactScenes.G, data.tau()[5], 1e-15);
        assertEquals(0, data.kN()[0], 0);
    }

    @Test
    void solveIsAllocationFree() {
        Scene s = Scene.of(ContactScenes.block(1, 0.1, true, ContactScenes.incline(Math.toRadians(30), MU)));
        AccelerationProblemData data = new AccelerationProblemData(s.contacts(), s.dynamics());
        AccelerationProblemSolver solver = new AccelerationProblemSolver(data);
        double[] q = ContactScenes.onIncline(Math.toRadians(30), 0.1);
        double[] v = new double[6];
        double[] tau = new double[6];
        long bytes = AllocationProbe.allocatedBytes(500, () -> {
            data.update(q, v, tau);
            solver.solve();
        });
        assertTrue(bytes < 2000, "allocated " + bytes + " bytes over 500 update+solve");
    }
}
