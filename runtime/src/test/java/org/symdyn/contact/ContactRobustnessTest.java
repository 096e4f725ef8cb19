package org.symdyn.contact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.symdyn.contact.ContactScenes.G;

import org.junit.jupiter.api.Test;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.model.Model;

/**
 * What a fuzzing helper found the stepper and its solvers doing wrong, and what they do now: a body started inside
 * the floor was thrown out at β |φ| / h (a box 1 cm in the floor rose 15 m with h = 0.1
 * ms); at a friction of 1000 ADMM's iterate became NaN and the default's fallback kept it over projected
 * Gauss-Seidel's finite answer; at a friction of 1e12 both solvers accepted λ = 0 for a contact approaching at 1 m/s.
 */
class ContactRobustnessTest {
    /** A 3 x 3 contact problem: approaching at 1 m/s and sliding at (0.5, 0.2); sticking is its answer for μ ≥ 1. */
    private static final double[] W = {2, 0.3, 0.1, 0.3, 1.5, 0.2, 0.1, 0.2, 1.8};
    private static final double[] B = {-1, 0.5, 0.2};

    private static ContactProblem problem(double mu) {
        ContactProblem p = new ContactProblem(3);
        p.addCoulomb(mu);
        System.arraycopy(W, 0, p.delassus(), 0, 9);
        System.arraycopy(B, 0, p.offset(), 0, 3);
        return p;
    }

    /** λ with W λ + b = 0 (the contact held), by Cramer's rule. */
    private static double[] sticking() {
        double[] r = {-B[0], -B[1], -B[2]};
        double det = det(W[0], W[1], W[2], W[3], W[4], W[5], W[6], W[7], W[8]);
        return new double[] {
            det(r[0], W[1], W[2], r[1], W[4], W[5], r[2], W[7], W[8]) / det,
            det(W[0], r[0], W[2], W[3], r[1], W[5], W[6], r[2], W[8]) / det,
            det(W[0], W[1], r[0], W[3], W[4], r[1], W[6], W[7], r[2]) / det};
    }

    private static double det(double a, double b, double c, double d, double e, double f, double g, double h,
            double i) {
        return a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
    }

    @Test
    void aContactApproachingWithNoImpulseViolatesTheLawWhateverTheFriction() {
        for (double mu : new double[] {0.5, 1e3, 1e12, 1e15, 1e100}) {
            ContactProblem p = problem(mu);
            double[] zero = new double[3];
            double[] sigma = new double[3];
            p.velocity(zero, sigma);
            double v = p.measure(zero, sigma, new ContactReport());
            assertTrue(v >= 1, "μ " + mu + ": λ = 0 while approaching at 1 m/s read " + v);
        }
    }

    @Test
    void theDefaultSolverAnswersAHighFrictionContactFinitelyAndHeld() {
        double[] expected = sticking();
        for (double mu : new double[] {100, 1000, 1e6, 1e9}) {
            ContactProblem p = problem(mu);
            // ADMM alone: not converged, but its answer is its best iterate, finite, never NaN
            double[] lambda = new double[3];
            ContactReport admm = new ContactReport();
            new ProximalAdmm(3, 1e-12, 500, 0.1, 1e-6).solve(p, lambda, admm);
            for (double x : lambda) {
                assertTrue(Double.isFinite(x), "μ " + mu + ": ADMM's answer " + java.util.Arrays.toString(lambda));
            }
            assertTrue(admm.contactLawViolation() <= 1 + 1e-12, "no worse than its start: " + admm);
            // the default (ADMM, then PGS) holds the contact
            lambda = new double[3];
            ContactReport report = new ContactReport();
            ContactSettings.defaults().newSolver(3).solve(p, lambda, report);
            for (int k = 0; k < 3; k++) {
                assertEquals(expected[k], lambda[k], 1e-9, "μ " + mu + ", λ[" + k + "]: " + report);
            }
        }
    }

    @Test
    void aFrictionAboveTheWidestConeIsTakenAsThatCone() {
        ContactProblem p = new ContactProblem(6);
        p.addCoulomb(1e15);
        p.addCoulomb(0.7);
        assertEquals(ContactProblem.MAX_FRICTION, p.blockFriction(0), 0);
        assertEquals(0.7, p.blockFriction(1), 0);
        assertThrows(IllegalArgumentException.class, () -> new ContactProblem(3).addCoulomb(Double.POSITIVE_INFINITY));
    }

    @Test
    void aFiniteAnswerBeatsOneThatIsNot() {
        assertTrue(FallbackSolver.better(1, Double.NaN));
        assertTrue(FallbackSolver.better(1e300, Double.POSITIVE_INFINITY));
        assertFalse(FallbackSolver.better(Double.NaN, 1e300));
        assertFalse(FallbackSolver.better(Double.NaN, Double.NaN));
        assertTrue(FallbackSolver.better(1e-3, 1e-2));
        assertFalse(FallbackSolver.better(1e-2, 1e-2));
    }

    /**
     * The box of 0.1 m on four corners, sliding at 0.5 m/s on a floor of friction μ: it must stay on the floor (μ above
     * {@link ContactProblem#MAX_FRICTION} is taken as that; at μ = 1e7 taken as it was, it sank 1.8 mm).
     */
    @Test
    void aBoxSlidingOnAFloorOfHugeFrictionStopsOnIt() {
        for (double mu : new double[] {1e3, 1e7, 1e15}) {
            Model box = ContactScenes.box(2, 0.05, ContactScenes.incline(0, mu));
            TimeStepper s = TimeStepper.builder(new GenericDynamics(box)).contacts(ContactSet.of(box)).build();
            double[] q = {0, 0, 0.05, 0, 0, 0, 1};
            double[] v = {0, 0, 0, 0.5, 0, 0};
            double lowest = 1;
            // held at once, the box pitches about its front edge and rocks; in 2 s it has come to rest
            for (int i = 0; i < 2000; i++) {
                s.step(q, v, new double[6], 1e-3, q, v);
                for (double x : q) {
                    assertTrue(Double.isFinite(x), "μ " + mu + ", step " + i + ": " + java.util.Arrays.toString(q));
                }
                lowest = Math.min(lowest, q[2]);
            }
            assertTrue(lowest > 0.05 - 1e-4, "μ " + mu + ": never through the floor: " + lowest);
            assertEquals(0.05, q[2], 1e-6, "μ " + mu + ": on the floor");
            assertEquals(0, v[3], 1e-6, "μ " + mu + ": stopped");
        }
    }

    /**
     * A box started 1 cm inside the floor, h = 0.1 ms: the recovery velocity, β |φ| / h = 20 m/s unbounded, is held to
     * the settings' bound, so the box leaves the floor at most at that speed, rises at most v̄² / 2g, and comes to
     * rest on the floor.
     */
    @Test
    void aBoxStartedInTheFloorIsPushedOutWithoutBeingThrown() {
        Model box = ContactScenes.box(3, 0.05, ContactScenes.incline(0, 0.5));
        double h = 1e-4;
        ContactSettings defaults = ContactSettings.defaults();
        double bound = defaults.maxRecoverySpeed();
        TimeStepper s = TimeStepper.builder(new GenericDynamics(box)).contacts(ContactSet.of(box)).build();
        double[] q = {0, 0, 0.04, 0, 0, 0, 1};
        double[] v = new double[6];
        double highest = 0;
        double fastest = 0;
        for (int i = 0; i < 10000; i++) {
            s.step(q, v, new double[6], h, q, v);
            highest = Math.max(highest, q[2]);
            fastest = Math.max(fastest, v[5]);
        }
        assertTrue(fastest <= bound + 1e-9, "upward at most the bound: " + fastest);
        assertTrue(highest <= 0.05 + bound * bound / (2 * G) + 1e-6, "rises at most v̄²/2g: " + highest);
        assertEquals(0.05, q[2], 1e-6, "at rest on the floor after 1 s");
        assertEquals(0, v[5], 1e-6);

        // unbounded, the first step leaves at β φ / h: what the bound is for
        TimeStepper unbounded = TimeStepper.builder(new GenericDynamics(box)).contacts(ContactSet.of(box))
                .settings(defaults.maxRecoverySpeed(Double.POSITIVE_INFINITY)).build();
        double[] q0 = {0, 0, 0.04, 0, 0, 0, 1};
        double[] v0 = new double[6];
        unbounded.step(q0, v0, new double[6], h, q0, v0);
        assertEquals(defaults.penetrationRecovery() * 0.01 / h, v0[5], 1e-6);
    }

    @Test
    void theOffsetsAndTheirSlopesFollowTheBound() {
        ContactSettings s = ContactSettings.defaults().maxRecoverySpeed(0.1);
        double h = 1e-3;
        assertEquals(0.002 / h, s.contactOffset(0.002, h), 1e-12);
        assertEquals(0.2 * -1e-4 / h, s.contactOffset(-1e-4, h), 1e-12, "below the bound: β φ / h");
        assertEquals(-0.1, s.contactOffset(-0.01, h), 0, "beyond it: −v̄");
        assertEquals(0.2 / h, s.contactOffsetSlope(-1e-4, h), 1e-9);
        assertEquals(0, s.contactOffsetSlope(-0.01, h), 0);
        // joint limits are not bounded (ContactSettings says why)
        assertEquals(0.2 * -0.3 / h, s.limitOffset(-0.3, h), 1e-12);
        assertEquals(0.2 / h, s.limitOffsetSlope(-0.3, h), 1e-9);
        assertEquals(1 / h, s.limitOffsetSlope(0.3, h), 0);
        assertThrows(IllegalArgumentException.class, () -> s.maxRecoverySpeed(0));
        assertThrows(IllegalArgumentException.class, () -> s.maxRecoverySpeed(Double.NaN));
        assertEquals(Double.POSITIVE_INFINITY, s.maxRecoverySpeed(Double.POSITIVE_INFINITY).maxRecoverySpeed());
        assertThrows(IllegalArgumentException.class, () -> s.admm(Double.POSITIVE_INFINITY, 0));
        assertThrows(IllegalArgumentException.class, () -> s.admm(1, Double.POSITIVE_INFINITY));
    }

    @Test
    void aStepChecksItsArraysBeforeItComputes() {
        Model box = ContactScenes.box(2, 0.05, ContactScenes.incline(0, 0.5));
        GenericDynamics d = new GenericDynamics(box);
        TimeStepper s = TimeStepper.builder(d).contacts(ContactSet.of(box)).build();
        double[] q = {0, 0, 0.05, 0, 0, 0, 1};
        double[] v = new double[6];
        double[] tau = new double[6];
        assertEquals("qOut must have 7 entries, got 6", assertThrows(IllegalArgumentException.class,
                () -> s.step(q, v, tau, 1e-3, new double[6], new double[6])).getMessage());
        assertEquals("vOut must have 6 entries, got 5", assertThrows(IllegalArgumentException.class,
                () -> s.step(q, v, tau, 1e-3, new double[7], new double[5])).getMessage());
        assertEquals("tau must have 6 entries, got 7", assertThrows(IllegalArgumentException.class,
                () -> s.step(q, v, new double[7], 1e-3, new double[7], new double[6])).getMessage());
        // and the frame lookups say which index, on the interpreter (ModelInfoView)
        IndexOutOfBoundsException frame = assertThrows(IndexOutOfBoundsException.class, () -> d.frameBody(-1));
        assertEquals("frame -1 of " + box.frames().size(), frame.getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> d.frameOffset(box.frames().size(), new double[9],
                new double[3]));
    }
}
