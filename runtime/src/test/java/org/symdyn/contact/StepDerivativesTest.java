package org.symdyn.contact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.manifold.StateSpace;
import org.symdyn.model.JointDamping;
import org.symdyn.model.Model;
import org.symdyn.spatial.Rotations;
import org.symdyn.testing.ShapeScenes;
import org.symdyn.testing.Quaternions;

/**
 * {@link StepDerivatives} against central finite differences of the step itself, in the contract's tangent spaces,
 * for each mode: sticking (a box at rest on four corners under a push below friction), sliding (a box sliding down
 * an incline), separated (a box just above the floor, within the margin), a held joint limit, a rolling sphere, and
 * solo12 standing on its four feet (from the shared models). Each finite difference steps a fresh stepper (no warm
 * start) with the solver's tolerance at 1e-14 m/s.
 */
class StepDerivativesTest {
    private static final double H = 1e-3;
    private static final double EPS = 1e-6;
    private static final ContactSettings TIGHT = ContactSettings.defaults().tolerance(1e-12).maxIterations(20000);

    @Test
    void particleStickingOnAnIncline() {
        // tan 25° = 0.47 < μ = 0.8: it sticks, pushed across the slope and along it within friction
        double theta = Math.toRadians(25);
        Model m = ContactScenes.particle(2, ContactScenes.incline(theta, 0.8));
        double[] q = ContactScenes.onIncline(theta, -1e-5, 0);
        double[] v = {0, 0, 0.1, 0.001, 0, -0.002};
        double[] tau = {0, 0, 0.05, 1.5, -0.5, 0};
        check(m, q, v, tau, 0.2, new int[] {StepDerivatives.STICKING}, 1e-6);
    }

    @Test
    void boxSlidingStraightDownAnIncline() {
        // four corners sliding alike: their normal rows are redundant but the friction wrench is not (no spin)
        double theta = Math.toRadians(25);
        Model m = ContactScenes.box(1, 0.1, ContactScenes.incline(theta, 0.2));
        double[] q = ContactScenes.onIncline(theta, 0.1 - 1e-4, 0);
        check(m, q, new double[] {0, 0, 0, 0.5, 0, 0}, new double[6], 0, new int[] {StepDerivatives.SLIDING}, 1e-6,
                1e-5);
    }

    @Test
    void aSpinningSlideOnFourCoplanarCornersIsFlaggedAsPossiblyNotUnique() {
        // A helper's finding: four coplanar corners sliding with a yaw rate leave the twist of their normal impulses
        // free, and its friction turns the box: PGS and ADMM converge to different v⁺, and the least-norm derivative
        // matched neither (15 %). The derivative says so; a sliding sphere and a resting box do not raise it.
        Model box = ContactScenes.box(1, 0.1, ContactScenes.incline(0, 0.3));
        double[] q = {0, 0, 0.1 - 1e-5, 0, 0, 0, 1};
        StepDerivatives spinning = derivatives(box, q, new double[] {0, 0, 3, 0.5, 0.2, 0},
                new double[] {0, 0, 0.1, 0.2, 0, 0});
        assertTrue(spinning.dependentRows() && spinning.mayNotBeUnique());
        StepDerivatives resting = derivatives(ContactScenes.box(1, 0.1, ContactScenes.incline(0, 0.8)), q,
                new double[6], new double[6]);
        assertTrue(resting.dependentRows(), "four corners sticking: dependent rows");
        assertTrue(!resting.mayNotBeUnique(), "sticking: unique");
        StepDerivatives sphere = derivatives(ContactScenes.sphere(1, 0.1, ContactScenes.incline(0, 0.3)),
                new double[] {0, 0, 0.1 - 1e-6, 0, 0, 0, 1}, new double[] {0, 2, 5, 1, 0.3, 0}, new double[6]);
        assertTrue(!sphere.dependentRows() && !sphere.mayNotBeUnique(), "one sliding contact");
        // the same spin without friction: the twist of the normal impulses turns nothing (a review's finding that
        // the frictionless case must not count)
        StepDerivatives frictionless = derivatives(ContactScenes.box(1, 0.1, ContactScenes.incline(0, 0)), q,
                new double[] {0, 0, 3, 0.5, 0.2, 0}, new double[] {0, 0, 0.1, 0.2, 0, 0});
        assertTrue(frictionless.dependentRows() && !frictionless.mayNotBeUnique(), "frictionless: unique");
    }

    private static StepDerivatives derivatives(Model m, double[] q, double[] v, double[] tau) {
        TimeStepper s = stepper(m, 0);
        assertTrue(s.step(q, v, tau, H, new double[m.nq()], new double[m.nv()]).converged());
        StepDerivatives d = new StepDerivatives(s, m);
        d.compute(q, v, tau, H);
        return d;
    }

    @Test
    void boxJustAboveTheFloor() {
        Model m = ContactScenes.box(1, 0.1, ContactScenes.incline(0, 0.8));
        // 10 µm above, rising: every corner within the margin of the contact search, none touching
        double[] q = {0, 0, 0.1 + 1e-5, 0, 0, 0, 1};
        double[] v = {0, 0, 0.3, 0.1, 0, 0.05};
        check(m, q, v, new double[6], 0, new int[] {StepDerivatives.SEPARATED}, 1e-6);
    }

    @Test
    void spinningBoxInFreeFlight() {
        // no contact: the smooth step, with the mixed representation's ω × v_O term and the frame carry
        Model m = ContactScenes.box(1.5, 0.1, ContactScenes.incline(0, 0.8));
        double n = Math.sqrt(0.1 * 0.1 + 0.2 * 0.2 + 0.3 * 0.3 + 1);
        double[] q = {0.1, 0.2, 2, 0.1 / n, 0.2 / n, -0.3 / n, 1 / n};
        double[] v = {3, -2, 5, 1, -0.5, 2};
        double[] tau = {0.1, 0.2, -0.3, 1, 2, 3};
        check(m, q, v, tau, 0, new int[0], 1e-6);
    }

    @Test
    void particleSlidingDownAnIncline() {
        double theta = Math.toRadians(25);
        Model m = ContactScenes.particle(1, ContactScenes.incline(theta, 0.2));
        double[] q = ContactScenes.onIncline(theta, -1e-6, 0);
        double[] v = {0, 0, 0, 0.5, 0.1, 0};
        check(m, q, v, new double[6], 0, new int[] {StepDerivatives.SLIDING}, 1e-6);
    }

    @Test
    void spinningSphereSlidingOnTheFloor() {
        Model m = ContactScenes.sphere(1, 0.1, ContactScenes.incline(0, 0.3));
        double[] q = {0, 0, 0.1 - 1e-6, 0, 0, 0, 1};
        double[] v = {0, 2, 5, 1, 0.3, 0};
        check(m, q, v, new double[] {0.01, 0, 0.02, 0.1, 0, 0}, 0, new int[] {StepDerivatives.SLIDING}, 1e-6);
    }

    @Test
    void sphereRollingOnTheFloor() {
        Model m = ContactScenes.sphere(1, 0.1, ContactScenes.incline(0, 0.9));
        double[] q = {0, 0, 0.1 - 1e-6, 0, 0, 0, 1};
        // rolling along x at 1 m/s (ω_y = v/r) with a torque that also makes it slip? no: within friction
        double[] v = {0, 10, 0, 1, 0, 0};
        double[] tau = {0.01, 0, 0.02, 0, 0.1, 0};
        check(m, q, v, tau, 0, new int[] {StepDerivatives.STICKING}, 1e-6);
    }

    /**
     * A sphere collision shape (not a contact candidate) rolling on the floor: its contact point is its centre less
     * r n ({@link ContactKinematics#radius}), as a candidate sphere's is.
     */
    @Test
    void sphereShapeRollingOnTheFloor() {
        Model m = onAFloor(new ShapeScenes("ball").freeSphere("ball", 1, 0.1, 0.9));
        double[] q = {0, 0, 0.1 - 1e-6, 0, 0, 0, 1};
        double[] v = {0, 10, 0, 1, 0, 0};
        double[] tau = {0.01, 0, 0.02, 0, 0.1, 0};
        check(m, q, v, tau, 0, new int[] {StepDerivatives.STICKING}, 1e-6);
    }

    @Test
    void sphereShapeSpinningAndSlidingOnTheFloor() {
        Model m = onAFloor(new ShapeScenes("ball").freeSphere("ball", 1, 0.1, 0.3));
        double[] q = {0, 0, 0.1 - 1e-6, 0, 0, 0, 1};
        double[] v = {0, 2, 5, 1, 0.3, 0};
        check(m, q, v, new double[] {0.01, 0, 0.02, 0.1, 0, 0}, 0, new int[] {StepDerivatives.SLIDING}, 1e-6);
    }

    /**
     * A cylinder's side touches along a line of its side, whose points are the axis's less the radius along n, as a
     * capsule's are ({@link ContactKinematics#radius}): a wheel (r 0.1, 5 cm wide) lying on its side rolling at
     * 0.5 m/s, and a ball resting on a fixed horizontal cylinder's side 0.2 rad off its top. A probe found them
     * O(1) and 1.1e-2 off while the rim points were taken as material points (∂ω_z⁺/∂θ_z 0.067 against −1.3e-4
     * at rest); the same scenes with capsules agreed.
     */
    @Test
    void cylinderSidesRoundAsCapsulesDo() {
        double r = 0.1;
        Model wheel = onAFloor(new ShapeScenes("wheel").freeBody("wheel", 1, 0.0027, 0.0027, 0.005,
                new org.symdyn.geometry.Cylinder(r, 0.05), 0.9));
        double[] turn = {-Math.sin(Math.PI / 4), 0, 0, Math.cos(Math.PI / 4)}; // the axis (body z) along world y
        double[] rw = new double[9];
        Rotations.fromQuaternion(turn[0], turn[1], turn[2], turn[3], rw);
        for (double speed : new double[] {0.5, 0}) {
            // 0.1 mm deep: the differences stay off the kink at φ = 0
            double[] q = {0, 0, r - 1e-4, turn[0], turn[1], turn[2], turn[3]};
            // ω = (0, speed / r, 0) and v = (speed, 0, 0) in the world, into body coordinates (Rᵀ)
            double[] v = new double[6];
            for (int i = 0; i < 3; i++) {
                v[i] = rw[3 + i] * speed / r;
                v[3 + i] = rw[i] * speed;
            }
            // its two line-end contacts are dependent, and ADMM stops within 5e-12 m/s of the law (not 1e-12) on
            // some perturbed steps: unasserted solves, whose noise over 2 eps is about 5e-6
            agreesWithCentralDifferences(wheel, q, v, new double[] {0.001, 0.002, 0.003, 0.05, 0.02, 0}, 1e-6, 1e-5);
        }
        double rc = 0.05, rb = 0.1, angle = 0.2, d = rc + rb - 1e-6;
        org.symdyn.spatial.Pose alongX = org.symdyn.spatial.Pose.of(new double[] {0, 0, 1, 0, 1, 0, -1, 0, 0},
                new double[] {0, 0, 0.5});
        Model onPipe = new ShapeScenes("ball_on_pipe").shape("pipe", "world", alongX,
                new org.symdyn.geometry.Cylinder(rc, 0.6), 0.9).freeSphere("ball", 1, rb, 0.9).build();
        double[] q = {0.05, d * Math.sin(angle), 0.5 + d * Math.cos(angle), 0, 0, 0, 1};
        check(onPipe, q, new double[6], new double[] {0.001, -0.002, 0.001, 0.3, 0.2, 0.1}, 0,
                new int[] {StepDerivatives.STICKING}, 1e-6);
    }

    /**
     * ∂v⁺/∂q and ∂v⁺/∂v against central differences with step eps, each column within tol of the larger of 1 and its
     * largest entry, the steps' solves not asserted converged (dependent contacts; their violation stays in the noise).
     */
    private static void agreesWithCentralDifferences(Model m, double[] q, double[] v, double[] tau, double eps,
            double tol) {
        int nv = m.nv();
        TimeStepper s = stepper(m, 0);
        double[] qn = new double[m.nq()];
        double[] vn = new double[nv];
        s.step(q, v, tau, H, qn, vn);
        StepDerivatives d = new StepDerivatives(s, m);
        d.compute(q, v, tau, H);
        StateSpace space = new StateSpace(m);
        for (int x = 0; x < 2; x++) {
            DMatrixRMaj an = x == 0 ? d.dvNextDq() : d.dvNextDv();
            for (int j = 0; j < nv; j++) {
                double[] vp = v.clone();
                double[] vm = v.clone();
                vp[j] += eps;
                vm[j] -= eps;
                s.step(x == 0 ? perturb(m, space, q, j, eps) : q, x == 0 ? v : vp, tau, H, qn, vn);
                double[] plus = vn.clone();
                s.step(x == 0 ? perturb(m, space, q, j, -eps) : q, x == 0 ? v : vm, tau, H, qn, vn);
                double scale = 1;
                for (int i = 0; i < nv; i++) {
                    scale = Math.max(scale, Math.abs(an.get(i, j)));
                }
                for (int i = 0; i < nv; i++) {
                    assertEquals((plus[i] - vn[i]) / (2 * eps), an.get(i, j), tol * scale,
                            (x == 0 ? "∂v⁺/∂q" : "∂v⁺/∂v") + " (" + i + ", " + j + ")");
                }
            }
        }
    }

    /** A capsule tilted 0.4 rad about y, resting on one hemispherical end, holding and then sliding. */
    @Test
    void tiltedCapsuleShapeOnOneEnd() {
        double r = 0.05, length = 0.4, a = 0.4;
        for (double mu : new double[] {0.9, 0.05}) {
            Model m = onAFloor(new ShapeScenes("capsule").freeBody("bar", 1, 0.02, 0.02, 0.002,
                    new org.symdyn.geometry.Capsule(r, length), mu));
            double[] q = {0, 0, r - 1e-6 + 0.5 * length * Math.cos(a), 0, Math.sin(a / 2), 0, Math.cos(a / 2)};
            double[] v = mu < 0.5 ? new double[] {0.3, -0.2, 0.1, 0.4, 0, 0} : new double[6];
            check(m, q, v, new double[] {0.01, 0.02, 0, 0, 0.1, 0}, 0,
                    new int[] {mu < 0.5 ? StepDerivatives.SLIDING : StepDerivatives.STICKING}, 1e-6);
        }
    }

    /**
     * A sphere shape resting on a paddle (a box shape on a link hinged about y) that turns up under it. The flat side's
     * point of contact slides on the paddle with the sphere's centre, and the contact frame and the sphere's offset to
     * its contact point turn with the paddle's face. Listed sphere first, the sphere is side A of its contact
     * ({@link ContactKinematics#otherRadius}); paddle first, side B. Then on the paddle's far edge (the paddle's point
     * slides along the edge, the normal turns about it) and on its corner.
     */
    @Test
    void sphereShapeOnAHingedPaddle() {
        for (boolean ballFirst : new boolean[] {true, false}) {
            Model m = ShapeScenes.withPaddle("ball_on_paddle", ballFirst, x -> x.freeSphere("ball", 0.5, 0.05, 0.9));
            double[] ball = {0.25, 0.01, 0.02 + 0.05 - 1e-6, 0, 0, 0, 1};
            double[] q = new double[8];
            System.arraycopy(ball, 0, q, ballFirst ? 0 : 1, 7);
            int b = ballFirst ? 0 : 1;
            int p = ballFirst ? 6 : 0;
            double[] v = new double[7];
            v[b + 1] = 0.3; // the ball spinning about y, the paddle turning up under it
            v[p] = -0.4;
            double[] tau = new double[7];
            tau[b + 3] = 0.02;
            tau[p] = -3.5; // the hinge lifting the paddle against its weight and the ball's
            check(m, q, v, tau, 0, new int[] {StepDerivatives.STICKING}, 1e-6);
            ContactKinematics k = new ContactKinematics(ContactSet.of(m), new GenericDynamics(m), m.nv());
            k.update(q, 1e-3);
            assertEquals(1, k.count(), "one contact");
            assertEquals(ballFirst ? 0.05 : 0, k.otherRadius(0), 0, "the ball's side");
            assertEquals(ballFirst ? 0 : 0.05, k.radius(0), 0, "the ball's side");
            assertEquals(ballFirst ? TurningContact.ON_FACE_OF_B : TurningContact.ON_FACE_OF_A,
                    TurningContact.kind(k, 0));
            // on the paddle's far edge the ball's normal turns about the edge and its point slides along it; on its
            // corner, about the corner
            for (double y : new double[] {0.01, 0.1 + 0.03}) {
                double[] edge = q.clone();
                edge[ballFirst ? 0 : 1] = 0.5 + 0.03;
                edge[ballFirst ? 1 : 2] = y;
                double over = y > 0.1 ? Math.sqrt(0.05 * 0.05 - 2 * 0.03 * 0.03) : Math.sqrt(0.05 * 0.05 - 0.03 * 0.03);
                // 1e-5 m deep: the normal tilts 0.55-0.98 rad, so a step of 1e-6 along it would cross the gap's sign
                edge[ballFirst ? 2 : 3] = 0.02 + over - 1e-5;
                k.update(edge, 1e-3);
                assertEquals(1, k.count(), "the ball on the edge");
                assertEquals(0, k.face(0), "an edge is no face");
                assertEquals(TurningContact.TWO_ROUND, TurningContact.kind(k, 0));
                assertEquals(y < 0.1, k.slides(0, !ballFirst), "the point slides along the edge, not at the corner");
                check(m, edge, v, tau, 0, new int[] {StepDerivatives.STICKING, StepDerivatives.SLIDING}, 1e-6);
            }
        }
    }

    /** A free box balanced on a fixed ball of the scenery, held by friction and sliding: B's point follows A's centre. */
    @Test
    void boxOnAFixedBall() {
        for (double mu : new double[] {0.9, 0.05}) {
            Model m = new ShapeScenes("box_on_ball").shape("ball", "world", org.symdyn.spatial.Pose.IDENTITY,
                    new org.symdyn.geometry.Sphere(0.1), mu).freeBox("box", 1, 0.2, 0.2, 0.05, mu).build();
            double[] q = {0.03, -0.02, 0.1 + 0.05 - 1e-6, 0, 0, 0, 1};
            double[] v = mu < 0.5 ? new double[] {0, 0, 0.2, 0.3, 0, 0} : new double[6];
            check(m, q, v, new double[] {0.01, 0.02, 0, 0.05, 0, 0}, 0,
                    new int[] {mu < 0.5 ? StepDerivatives.SLIDING : StepDerivatives.STICKING}, 1e-6);
        }
    }

    /**
     * Flat on flat: a small box tipped onto a corner on the paddle's face as it turns up (the paddle's point of
     * contact sliding under it: {@link ContactKinematics#face}), the box listed first and last (the face
     * on either side).
     */
    @Test
    void boxCornersOnMovingFaces() {
        for (boolean boxFirst : new boolean[] {true, false}) {
            Model m = ShapeScenes.withPaddle("box_on_paddle", boxFirst, x -> x.freeBox("box", 0.5, 0.04, 0.03, 0.02, 0.9));
            // turned 0.3 rad about z, then tipped 0.1 rad about its x and 0.15 about its y: one corner on the face
            // (two corners sticking are redundant along their edge and four statically indeterminate, where the
            // solver's 1e-12 is out of reach)
            double a = 0.1, c = 0.15;
            double[] r = Quaternions.product(Quaternions.product(new double[] {0, 0, Math.sin(0.15), Math.cos(0.15)},
                    new double[] {Math.sin(a / 2), 0, 0, Math.cos(a / 2)}), new double[] {0, Math.sin(c / 2), 0,
                            Math.cos(c / 2)});
            double[] rm = new double[9];
            Rotations.fromQuaternion(r[0], r[1], r[2], r[3], rm);
            double low = 0;
            for (int sx = -1; sx <= 1; sx += 2) {
                for (int sy = -1; sy <= 1; sy += 2) {
                    for (int sz = -1; sz <= 1; sz += 2) {
                        low = Math.max(low, -(rm[6] * sx * 0.04 + rm[7] * sy * 0.03 + rm[8] * sz * 0.02));
                    }
                }
            }
            double[] box = {0.25, 0.01, 0.02 + low - 1e-6, r[0], r[1], r[2], r[3]};
            double[] q = new double[8];
            System.arraycopy(box, 0, q, boxFirst ? 0 : 1, 7);
            int b = boxFirst ? 0 : 1;
            int p = boxFirst ? 6 : 0;
            double[] v = new double[7];
            v[p] = -0.4;
            double[] tau = new double[7];
            tau[b + 3] = 0.02;
            tau[p] = -3.5;
            ContactKinematics k = new ContactKinematics(ContactSet.of(m), new GenericDynamics(m), m.nv());
            k.update(q, 1e-3);
            check(m, q, v, tau, 0, new int[] {StepDerivatives.STICKING, StepDerivatives.SLIDING}, 1e-6);
            assertEquals(1, k.count(), "the box's lowest corner");
            assertEquals(boxFirst ? -1 : 1, k.face(0), "the paddle's face");
        }
    }

    /**
     * Two spheres: a ball on a floor with a smaller ball off its top (the normal between them tilted, turning with
     * their centres: {@link TurningContact#TWO_ROUND}), spinning, and a ball on a fixed ball of the scenery.
     */
    @Test
    void sphereOnSphere() {
        Model m = onAFloor(new ShapeScenes("two_balls").freeSphere("lower", 1, 0.1, 0.9).freeSphere("upper", 0.3, 0.05,
                0.9));
        double t = 0.25; // the upper ball's centre 0.25 rad off the lower's top
        double[] q = {0, 0, 0.1 - 1e-6, 0, 0, 0, 1,
            0.15 * Math.sin(t), 0, 0.1 + 0.15 * Math.cos(t) - 2e-6, 0, 0, 0, 1};
        double[] v = new double[12];
        v[1] = 0.5;
        v[8] = -0.3;
        double[] tau = new double[12];
        tau[3] = 0.05;
        check(m, q, v, tau, 0, new int[] {StepDerivatives.STICKING, StepDerivatives.SLIDING}, 1e-6);
        ContactKinematics k = new ContactKinematics(ContactSet.of(m), new GenericDynamics(m), m.nv());
        k.update(q, 1e-3);
        int two = 0;
        for (int c = 0; c < k.count(); c++) {
            two += TurningContact.kind(k, c) == TurningContact.TWO_ROUND ? 1 : 0;
        }
        assertEquals(1, two, "one contact between the two balls");
        for (double mu : new double[] {0.9, 0.1}) {
            Model fixed = new ShapeScenes("ball_on_ball").shape("base", "world", org.symdyn.spatial.Pose.IDENTITY,
                    new org.symdyn.geometry.Sphere(0.2), mu).freeSphere("ball", 0.5, 0.05, mu).build();
            double[] qb = {0.25 * Math.sin(0.2), 0, 0.25 * Math.cos(0.2) - 1e-6, 0, 0, 0, 1};
            check(fixed, qb, new double[] {0, 0.4, 0, 0.1 * Math.cos(0.2), 0, -0.1 * Math.sin(0.2)},
                    new double[] {0, 0, 0.01, 0, 0, 0}, 0,
                    new int[] {StepDerivatives.STICKING, StepDerivatives.SLIDING}, 1e-6);
        }
    }

    /**
     * Capsules whose centres slide along their segments ({@link ContactKinematics#slides}): a capsule lying across a
     * fixed ball; a capsule crossing a fixed capsule at 60 degrees (both centres slide, the fixed one's too); and a
     * capsule crossing a free capsule pushed up against it (both moving and sliding).
     */
    @Test
    void capsulesSlidingAlongTheirSegments() {
        org.symdyn.geometry.Capsule bar = new org.symdyn.geometry.Capsule(0.03, 0.6);
        // lying along x (its frame's z turned onto world x), yawed 0.3 rad and pitched 0.05 rad
        double[] along = Quaternions.product(Quaternions.product(new double[] {0, 0, Math.sin(0.15), Math.cos(0.15)},
                new double[] {0, Math.sin(0.025), 0, Math.cos(0.025)}), new double[] {0, Math.sin(Math.PI / 4), 0,
                        Math.cos(Math.PI / 4)});
        Model onBall = new ShapeScenes("bar_on_ball").shape("ball", "world", org.symdyn.spatial.Pose.IDENTITY,
                new org.symdyn.geometry.Sphere(0.2), 0.9).freeBody("bar", 1, 0.03, 0.03, 0.001, bar, 0.9).build();
        // the segment's point at −0.1 along its axis d is the closest to the ball's centre: 0.23 − 1e-6 from it along
        // u ⊥ d in the plane of d and the vertical
        double[] rd = new double[9];
        Rotations.fromQuaternion(along[0], along[1], along[2], along[3], rd);
        double[] d = {rd[2], rd[5], rd[8]};
        double[] u = {-d[2] * d[0], -d[2] * d[1], 1 - d[2] * d[2]};
        double un = Math.sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
        double[] q = new double[7];
        for (int i = 0; i < 3; i++) {
            q[i] = (0.23 - 1e-6) * u[i] / un + 0.1 * d[i];
        }
        System.arraycopy(along, 0, q, 3, 4);
        check(onBall, q, new double[] {0, 0, 0.3, 0.05, 0, 0}, new double[] {0.01, 0.02, 0, 0, 0, 0}, 0,
                new int[] {StepDerivatives.STICKING, StepDerivatives.SLIDING}, 1e-6);
        assertSlides(onBall, q, false, true);
        // crossing a fixed capsule along x at 60 degrees, 0.06 m above its axis
        double[] cross = Quaternions.product(new double[] {0, 0, Math.sin(Math.PI / 6), Math.cos(Math.PI / 6)},
                new double[] {0, Math.sin(Math.PI / 4), 0, Math.cos(Math.PI / 4)});
        org.symdyn.spatial.Pose alongX = org.symdyn.spatial.Pose.of(new double[] {0, 0, 1, 0, 1, 0, -1, 0, 0},
                new double[3]);
        Model onBar = new ShapeScenes("bar_on_bar").shape("rail", "world", alongX, bar, 0.9)
                .freeBody("bar", 1, 0.03, 0.03, 0.001, bar, 0.9).build();
        double[] qc = {0.05, -0.02, 0.06 - 1e-6, cross[0], cross[1], cross[2], cross[3]};
        check(onBar, qc, new double[] {0, 0.2, 0, 0.02, 0, 0}, new double[] {0.01, 0, 0.01, 0, 0, 0}, 0,
                new int[] {StepDerivatives.STICKING, StepDerivatives.SLIDING}, 1e-6);
        assertSlides(onBar, qc, true, true);
        // the same crossing with the lower bar free and pushed up into the upper one
        Model free = new ShapeScenes("bars").freeBody("lower", 1, 0.001, 0.03, 0.03, bar, 0.9)
                .freeBody("upper", 1, 0.03, 0.03, 0.001, bar, 0.9).build();
        double[] lower = Quaternions.product(new double[] {0, 0, Math.sin(0.05), Math.cos(0.05)},
                new double[] {0, Math.sin(Math.PI / 4), 0, Math.cos(Math.PI / 4)});
        double[] qf = {0, 0, 0, lower[0], lower[1], lower[2], lower[3], 0.05, -0.02, 0.06 - 1e-6, cross[0], cross[1],
            cross[2], cross[3]};
        double[] tau = new double[12];
        double[] up = new double[3];
        double[] r = new double[9];
        Rotations.fromQuaternion(lower[0], lower[1], lower[2], lower[3], r);
        for (int i = 0; i < 3; i++) {
            up[i] = r[3 * 2 + i] * 30; // Rᵀ (0, 0, 30): world up in the lower bar's coordinates
        }
        tau[3] = up[0];
        tau[4] = up[1];
        tau[5] = up[2];
        double[] v = new double[12];
        v[1] = 0.2;
        v[7] = 0.3;
        check(free, qf, v, tau, 0, new int[] {StepDerivatives.STICKING, StepDerivatives.SLIDING}, 1e-6);
        assertSlides(free, qf, true, true);
    }

    /** The one contact of the scene at q has its sides' centres sliding as given. */
    private static void assertSlides(Model m, double[] q, boolean a, boolean b) {
        ContactKinematics k = new ContactKinematics(ContactSet.of(m), new GenericDynamics(m), m.nv());
        k.update(q, 1e-3);
        assertEquals(1, k.count(), "one contact");
        assertEquals(a, k.slides(0, true), "side A slides");
        assertEquals(b, k.slides(0, false), "side B slides");
        assertEquals(TurningContact.TWO_ROUND, TurningContact.kind(k, 0));
    }




    /** The scene with a floor (friction 0.8) added. */
    private static Model onAFloor(ShapeScenes scenes) {
        scenes.builder().addGround(new org.symdyn.model.GroundModel("floor", new double[3], new double[] {0, 0, 1},
                0.8, 0, org.symdyn.model.SourceLocation.UNKNOWN));
        return scenes.build();
    }

    @Test
    void sphereLandingWithRestitution() {
        // 10 µm above the floor falling at 1 m/s: it lands within the step, e = 0.5 makes the normal row's offset
        // e u_n⁻ (differentiated along q and v through u_n⁻ = J_n(q) v), and friction holds the small slip
        Model m = ContactScenes.sphere(1, 0.1, ContactScenes.incline(0, 0.9, 0.5));
        double[] q = {0, 0, 0.1 + 1e-5, 0, 0, 0, 1};
        double[] v = {0.5, -0.2, 0.1, 0.05, -0.03, -1};
        double[] tau = {0.01, 0, 0.02, 0.1, 0, 0};
        check(m, q, v, tau, 0, new int[] {StepDerivatives.STICKING}, 1e-6);
        // the offset is the restitution's: the held normal row J_n w = −e J_n v gives ∂w_z/∂v_z = −e, and v⁺ carries
        // w by a turn of h ‖ω‖ = 5.5e-4 rad (a stuck landing without restitution would give about 0)
        TimeStepper s = stepper(m, 0);
        s.step(q, v, tau, H, new double[7], new double[6]);
        StepDerivatives d = new StepDerivatives(s, m);
        d.compute(q, v, tau, H);
        assertEquals(-0.5, d.dvNextDv().get(5, 5), 2e-3);
    }

    @Test
    void pendulumHeldAtItsLimit() {
        Model m = ContactScenes.pendulum(-0.5, 0.5);
        double[] q = {-0.5 + 1e-4};
        double[] v = {-0.2};
        check(m, q, v, new double[] {0.3}, 0.05, new int[] {StepDerivatives.STICKING}, 1e-6);
    }

    /**
     * A ball at rest on the floor sits at the kink of its normal row's offset (1/h for a gap, β/h for a penetration)
     * to rounding: a gap of one ulp either side gives the same derivative, the mean of the two sides, which is the
     * central difference; the one-sided ones are 1/h upward and β/h downward (h = 1 ms: ∂v_z⁺/∂z = −600, −1000 and
     * −200; it was one or the other by the sign of the rounding, then the gap's side). A pendulum resting on its limit
     * takes the side within the range, the one-sided difference into it (one coordinate moves a limit).
     */
    @Test
    void aContactAtRestTakesTheMeanOfItsKinksSidesAndALimitTheRangesSide() {
        Model m = ContactScenes.sphere(1, 0.1, ContactScenes.incline(0, 0.9));
        double beta = ContactSettings.defaults().penetrationRecovery();
        double mean = -(1 + beta) / (2 * H);
        for (double z : new double[] {Math.nextDown(0.1), 0.1, Math.nextUp(0.1)}) {
            double[] q = {0, 0, z, 0, 0, 0, 1};
            double[] v = new double[6];
            double[] tau = new double[6];
            StepDerivatives d = derivativesAt(m, q, v, tau);
            assertEquals(StepDerivatives.STICKING, d.mode(0), "resting at z " + z);
            assertEquals(mean, d.dvNextDq().get(5, 5), 1e-6, "z " + z);
            double eps = 1e-7;
            double v0 = step(m, 0, q, v, tau)[1][5];
            double vUp = step(m, 0, new double[] {0, 0, z + eps, 0, 0, 0, 1}, v, tau)[1][5];
            double vDown = step(m, 0, new double[] {0, 0, z - eps, 0, 0, 0, 1}, v, tau)[1][5];
            assertEquals(-1 / H, (vUp - v0) / eps, 1e-3, "upward difference at z " + z);
            assertEquals(-beta / H, (v0 - vDown) / eps, 1e-3, "downward difference at z " + z);
            assertEquals(mean, (vUp - vDown) / (2 * eps), 1e-3, "central difference at z " + z);
        }
        Model pendulum = ContactScenes.pendulum(-0.5, 0.5);
        for (double angle : new double[] {Math.nextDown(-0.5), -0.5, Math.nextUp(-0.5)}) {
            double[] q = {angle};
            StepDerivatives d = derivativesAt(pendulum, q, new double[1], new double[1]);
            assertEquals(StepDerivatives.STICKING, d.mode(0), "resting on its limit at " + angle);
            assertEquals(-1 / H, d.dvNextDq().get(0, 0), 1e-6, "at " + angle);
            // into the range (up) the joint comes back within the step; past the bound it is recovered at β/h
            double eps = 1e-7;
            double v0 = step(pendulum, 0, q, new double[1], new double[1])[1][0];
            double in = step(pendulum, 0, new double[] {angle + eps}, new double[1], new double[1])[1][0];
            double out = step(pendulum, 0, new double[] {angle - eps}, new double[1], new double[1])[1][0];
            assertEquals(-1 / H, (in - v0) / eps, 1e-3, "the one-sided difference into the range at " + angle);
            assertEquals(-beta / H, (v0 - out) / eps, 1e-3, "past the bound at " + angle);
        }
    }

    /**
     * A box settled on four corners (400 steps from 1 mm above the floor): every gap is 0 to rounding, and a tilt
     * lifts two corners and presses the other two, so each one-sided difference along it takes the gap's slope on
     * some contacts and the penetration's on the others. Every column of the derivative equals the central
     * difference of the step (a probe measured ∂ω_x⁺/∂θ_x −1000 with the gap's side on every contact, where both
     * one-sided differences give −600).
     */
    @Test
    void aBoxSettledOnFourCornersMatchesCentralDifferencesInEveryDirection() {
        Model m = ContactScenes.box(1, 0.1, ContactScenes.incline(0, 0.9));
        TimeStepper s = TimeStepper.builder(new GenericDynamics(m)).contacts(ContactSet.of(m)).build();
        double[] q = {0, 0, 0.1 + 1e-3, 0, 0, 0, 1};
        double[] v = new double[6];
        double[] tau = new double[6];
        double[] qn = new double[7];
        double[] vn = new double[6];
        for (int k = 0; k < 400; k++) {
            s.step(q, v, tau, H, qn, vn);
            System.arraycopy(qn, 0, q, 0, 7);
            System.arraycopy(vn, 0, v, 0, 6);
        }
        s.step(q, v, tau, H, qn, vn);
        StepDerivatives d = new StepDerivatives(s, m);
        d.compute(q, v, tau, H);
        for (int c = 0; c < 4; c++) {
            assertEquals(StepDerivatives.STICKING, d.mode(c), "corner " + c + " at rest");
            assertEquals(0, s.contacts().gap(c), 1e-15, "corner " + c + " at the kink");
        }
        // the default solve: at rest its answers are exact to rounding (ADMM at 1e-12 m/s does not converge on the
        // tilted, redundant four-point stance within its bound)
        StateSpace space = new StateSpace(m);
        double eps = 1e-6;
        for (int j = 0; j < 6; j++) {
            s.step(perturb(m, space, q, j, eps), v, tau, H, qn, vn);
            double[] plus = vn.clone();
            s.step(perturb(m, space, q, j, -eps), v, tau, H, qn, vn);
            double scale = 1;
            for (int i = 0; i < 6; i++) {
                scale = Math.max(scale, Math.abs(d.dvNextDq().get(i, j)));
            }
            for (int i = 0; i < 6; i++) {
                double central = (plus[i] - vn[i]) / (2 * eps);
                assertEquals(central, d.dvNextDq().get(i, j), 1e-6 * scale, "∂v⁺_" + i + "/∂q_" + j);
            }
        }
    }

    @Test
    void solo12StandingOnFourFeet() throws Exception {
        Model m = ContactScenes.solo12OnAFloor();
        double[] q = ContactScenes.solo12Standing(m);
        double[] v = new double[m.nv()];
        double[] tau = new double[m.nv()];
        // gravity compensation of the legs roughly: the feet carry the trunk; every foot sticks
        check(m, q, v, tau, 0, new int[] {StepDerivatives.STICKING}, 1e-6);
    }

    @Test
    void computingAllocatesNothing() {
        double theta = Math.toRadians(25);
        Model m = ContactScenes.box(1, 0.1, ContactScenes.incline(theta, 0.2));
        double[] q = ContactScenes.onIncline(theta, 0.1 - 1e-4, 0);
        double[] v = {0, 0, 0, 0.5, 0, 0};
        double[] tau = new double[6];
        TimeStepper s = stepper(m, 0);
        double[] qn = new double[7];
        double[] vn = new double[6];
        s.step(q, v, tau, H, qn, vn);
        StepDerivatives d = new StepDerivatives(s, m);
        long bytes = org.symdyn.testing.Allocations.allocatedBytes(200, () -> d.compute(q, v, tau, H));
        assertTrue(bytes < 16 * 200, bytes + " bytes in 200 calls");
        // turning contacts too: a ball off the top of a ball on a floor
        Model balls = onAFloor(new ShapeScenes("two_balls").freeSphere("lower", 1, 0.1, 0.9).freeSphere("upper", 0.3,
                0.05, 0.9));
        double[] qb = {0, 0, 0.1 - 1e-6, 0, 0, 0, 1, 0.15 * Math.sin(0.25), 0, 0.1 + 0.15 * Math.cos(0.25) - 2e-6, 0,
            0, 0, 1};
        double[] vb = new double[12];
        double[] tb = new double[12];
        TimeStepper sb = stepper(balls, 0);
        sb.step(qb, vb, tb, H, new double[14], new double[12]);
        StepDerivatives db = new StepDerivatives(sb, balls);
        db.compute(qb, vb, tb, H);
        long ballBytes = org.symdyn.testing.Allocations.allocatedBytes(200, () -> db.compute(qb, vb, tb, H));
        assertTrue(ballBytes < 16 * 200, ballBytes + " bytes in 200 calls with two spheres");
    }

    /** A three-dof loop's q assembled from {@code guess} and its v from (1, 0, 0), both on the data's rows. */
    private static double[][] assembledThreeDof(org.symdyn.constraints.ConstraintData data, double[] guess) {
        double[] q = new double[3];
        assertTrue(new org.symdyn.solvers.Assembly(data).assembleQ(guess, new double[] {1, 1, 1}, q));
        double[] v = new double[3];
        new org.symdyn.solvers.Assembly(data).assembleV(q, new double[] {1, 0, 0}, new double[] {1, 1, 1}, v);
        return new double[][] {q, v};
    }

    @Test
    void fourBarWithItsLoopClosed() throws Exception {
        // the bilateral loop rows of a ConstraintData in the step, at an assembled state, moving
        Model m = org.symdyn.constraints.TestMechanisms.fourBar();
        org.symdyn.constraints.ConstraintData data = org.symdyn.constraints.ConstraintSet.of(m).bindGeneric();
        double[][] state = assembledThreeDof(data, new double[] {0.6, -0.9, 1.4});
        double[] q = state[0];
        double[] v = state[1];
        double[] tau = {0.5, 0, -0.2};
        withModelRows(data, () -> check(m, q, v, tau, 0, new int[] {StepDerivatives.STICKING}, 1e-6));
    }

    /**
     * A helper's finding: a frictionless contact (μ = 0) at rest was held sticking, so the ball rolled in the
     * derivative (dv_x⁺/dτ_x 7.1e-4 against h/m = 1e-3) where it slides either way.
     */
    @Test
    void aFrictionlessContactAtRestSlides() {
        Model m = ContactScenes.sphere(1, 0.1, ContactScenes.incline(0, 0));
        double[] q = {0, 0, 0.1 - 1e-6, 0, 0, 0, 1};
        check(m, q, new double[6], new double[6], 0, new int[] {StepDerivatives.SLIDING}, 1e-6);
    }

    /**
     * A helper's finding: a planar four-bar turned off the axes, closed by an MJCF connect. The connect's row out of
     * the plane is zero to rounding (4e-19); its regularisation, 10⁻¹² of its own W_rr, let that noise lock the
     * mechanism (∂v⁺/∂v 0 against 1.14). Such a row is left out and reported as dependent.
     */
    @Test
    void aLoopRowThatIsRoundingConstrainsNothing() throws Exception {
        Model m = org.symdyn.io.mjcf.MjcfReader.parse("""
                <mujoco model="fourbar">
                  <worldbody>
                    <body name="frame" euler="0.3 0.4 0.5">
                      <inertial pos="0 0 0" mass="1" diaginertia="0.01 0.01 0.01"/>
                      <body name="l1">
                        <joint name="j1" type="hinge" axis="0 0 1"/>
                        <geom type="capsule" fromto="0 0 0 0 -0.5 0" size="0.02" mass="1" contype="0" conaffinity="0"/>
                        <body name="l2" pos="0 -0.5 0">
                          <joint name="j2" type="hinge" axis="0 0 1"/>
                          <geom type="capsule" fromto="0 0 0 0.4 0 0" size="0.02" mass="1" contype="0" conaffinity="0"/>
                          <body name="l3" pos="0.4 0 0">
                            <joint name="j3" type="hinge" axis="0 0 1"/>
                            <geom type="capsule" fromto="0 0 0 0 0.5 0" size="0.02" mass="1" contype="0"
                                conaffinity="0"/>
                          </body>
                        </body>
                      </body>
                    </body>
                  </worldbody>
                  <equality><connect body1="l3" body2="world" anchor="0 0.5 0"/></equality>
                </mujoco>
                """, "fourbar.xml", org.symdyn.io.mjcf.MjcfReader.Options.DEFAULT);
        org.symdyn.constraints.ConstraintData data = org.symdyn.constraints.ConstraintSet.of(m).bindGeneric();
        data.settings().rankPolicy(org.symdyn.constraints.SolverSettings.RankPolicy.DROP_DEPENDENT_ROWS); // for the assembly
        double[][] state = assembledThreeDof(data, new double[] {0.3, -0.3, 0.3});
        double[] q = state[0];
        double[] v = state[1];
        double[] tau = {0.5, 0, -0.2};
        withModelRows(data, () -> {
            check(m, q, v, tau, 0, new int[] {StepDerivatives.STICKING}, 1e-6);
            StepDerivatives d = derivatives(m, q, v, tau);
            assertTrue(d.dependentRows(), "the rounding row reported");
            assertTrue(!d.mayNotBeUnique(), "a row left out makes nothing non-unique");
        });
    }

    @Test
    void aBoxHeldAtAPointByBilateralContactRows() throws Exception {
        // A helper's finding: the rows of symdyn:contact have φ = 0 by definition, so the step's offset β φ / h does
        // not move with q; the derivative added (β/h) G dq as for a loop (∂v⁺/∂q off by 855 against 0).
        Model m = org.symdyn.io.urdf.UrdfReader.parse("""
                <robot name="held" xmlns:symdyn="urn:symdyn:1">
                  <link name="world"/>
                  <link name="box"><inertial><mass value="1"/>
                    <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>
                  <joint name="base" type="floating"><parent link="world"/><child link="box"/></joint>
                  <symdyn:contact name="c_x" link="box" point="0.05 0.03 -0.1" normal="1 0 0"/>
                  <symdyn:contact name="c_y" link="box" point="0.05 0.03 -0.1" normal="0 1 0"/>
                  <symdyn:contact name="c_z" link="box" point="0.05 0.03 -0.1" normal="0 0 1"/>
                </robot>
                """, "held.urdf", null);
        double[] q = {0.2, -0.1, 0.3, 0.1, -0.05, 0.02, 1};
        double n = Math.sqrt(1 + 0.01 + 0.0025 + 0.0004);
        for (int i = 3; i < 7; i++) {
            q[i] /= n;
        }
        withModelRows(org.symdyn.constraints.ConstraintSet.of(m).bindGeneric(), () -> check(m, q,
                new double[] {0.1, -0.2, 0.05, 0, 0, 0}, new double[] {0.01, 0.02, -0.01, 0.1, 0, 0}, 0,
                new int[] {StepDerivatives.STICKING}, 1e-6));
    }

    @Test
    void misuseIsRefusedWithTheReason() throws Exception {
        // a helper's findings: each of these gave wrong numbers, zeros or a bare ArrayIndexOutOfBoundsException
        double theta = Math.toRadians(25);
        Model m = ContactScenes.box(1, 0.1, ContactScenes.incline(theta, 0.2));
        double[] q = ContactScenes.onIncline(theta, 0.1 - 1e-4, 0);
        double[] v = {0, 0, 0, 0.5, 0, 0};
        double[] tau = new double[6];
        TimeStepper s = stepper(m, 0);
        StepDerivatives d = new StepDerivatives(s, m);
        assertThrows(IllegalStateException.class, () -> d.compute(q, v, tau, H), "no step taken yet");
        // same sizes, another model: its kinematics would differentiate the rows
        Model heavier = ContactScenes.box(2, 0.1, ContactScenes.incline(theta, 0.2));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new StepDerivatives(s, heavier)).getMessage()
                .contains("content hash"));
        double[] qn = q.clone();
        double[] vn = v.clone();
        s.step(qn, vn, tau, H, qn, vn); // in place: q and v are the new state now
        assertTrue(assertThrows(IllegalArgumentException.class, () -> d.compute(qn, vn, tau, H)).getMessage()
                .contains("not the state the last step started from"));
        s.step(q, v, tau, H, qn, vn);
        d.compute(q, v, tau, H);
        assertEquals(StepDerivatives.SLIDING, d.mode(0));
        assertThrows(IndexOutOfBoundsException.class, () -> d.mode(8)); // four corners touch, of eight
        assertThrows(IndexOutOfBoundsException.class, () -> d.mode(-1));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> d.compute(q, v, tau, 2 * H)).getMessage()
                .contains("is not the last step's h"));
        assertThrows(IllegalArgumentException.class, () -> d.compute(q, new double[5], tau, H));
        assertThrows(IllegalArgumentException.class, () -> d.compute(q, v, new double[2], H));
        assertThrows(NullPointerException.class, () -> d.compute(q, v, null, H));
        // Baumgarte stabilisation on the bilateral rows' data: the step ignores it, its ∂/∂q would not
        Model fourBar = org.symdyn.constraints.TestMechanisms.fourBar();
        org.symdyn.constraints.ConstraintData data = org.symdyn.constraints.ConstraintSet.of(fourBar).bindGeneric();
        TimeStepper looped = TimeStepper.builder(new GenericDynamics(fourBar)).contacts(ContactSet.of(fourBar))
                .constraints(data).build();
        data.enableBaumgarte(0);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new StepDerivatives(looped, fourBar))
                .getMessage().contains("Baumgarte"));
        data.disableBaumgarte(0);
        StepDerivatives loopDerivatives = new StepDerivatives(looped, fourBar);
        double[] q4 = new double[fourBar.nq()];
        assertTrue(new org.symdyn.solvers.Assembly(data).assembleQ(new double[] {0.6, -0.9, 1.4},
                new double[] {1, 1, 1}, q4));
        double[] v4 = new double[fourBar.nv()];
        double[] t4 = new double[fourBar.nv()];
        looped.step(q4, v4, t4, H, new double[fourBar.nq()], new double[fourBar.nv()]);
        data.enableBaumgarte(0);
        assertThrows(IllegalArgumentException.class, () -> loopDerivatives.compute(q4, v4, t4, H));
        data.disableBaumgarte(0);
        loopDerivatives.compute(q4, v4, t4, H);
    }

    // ---------------------------------------------------------------- the check

    /** Bilateral rows for the steps of the current check (the four-bar's), or null. */
    private static org.symdyn.constraints.ConstraintData bilateral;

    /** Runs {@code body} with the steppers of {@link #stepper} holding the model's own bilateral rows. */
    private static void withModelRows(org.symdyn.constraints.ConstraintData data, Runnable body) {
        bilateral = data;
        try {
            body.run();
        } finally {
            bilateral = null;
        }
    }

    private static TimeStepper stepper(Model m, double damping) {
        GenericDynamics dyn = new GenericDynamics(m);
        double[] d = new double[m.nv()];
        java.util.Arrays.fill(d, damping);
        TimeStepper.Builder b = TimeStepper.builder(dyn).contacts(ContactSet.of(m)).jointLimits(m).settings(TIGHT)
                .jointDamping(damping == 0 ? JointDamping.NONE : JointDamping.perDof(d));
        if (bilateral != null) {
            b.constraints(org.symdyn.constraints.ConstraintSet.of(m).bindGeneric());
        }
        return b.build();
    }

    /** The derivatives of one step from scratch at (q, v, τ). */
    private static StepDerivatives derivativesAt(Model m, double[] q, double[] v, double[] tau) {
        TimeStepper s = stepper(m, 0);
        s.step(q, v, tau, H, new double[m.nq()], new double[m.nv()]);
        StepDerivatives d = new StepDerivatives(s, m);
        d.compute(q, v, tau, H);
        return d;
    }

    /** (q⁺, v⁺) of one step from scratch. */
    private static double[][] step(Model m, double damping, double[] q, double[] v, double[] tau) {
        TimeStepper s = stepper(m, damping);
        double[] qn = new double[m.nq()];
        double[] vn = new double[m.nv()];
        ContactReport r = s.step(q, v, tau, H, qn, vn);
        assertTrue(r.converged(), () -> r + " at q " + java.util.Arrays.toString(q) + " v " + java.util.Arrays.toString(v)
                + " tau " + java.util.Arrays.toString(tau));
        return new double[][] {qn, vn};
    }

    private static void check(Model m, double[] q, double[] v, double[] tau, double damping, int[] expectedModes,
            double tolerance) {
        check(m, q, v, tau, damping, expectedModes, tolerance, EPS);
    }

    /**
     * Every column of the six derivatives against central differences with step eps; the error of a column is
     * relative to the larger of 1 and its largest entry. The finite differences carry the solver's tolerance
     * (1e-12 m/s) over 2 eps: eps = 1e-6 where a mode boundary is near (a gap of 1e-6 m), larger where it is not.
     */
    private static void check(Model m, double[] q, double[] v, double[] tau, double damping, int[] expectedModes,
            double tolerance, double eps) {
        int nv = m.nv();
        StateSpace space = new StateSpace(m);
        TimeStepper s = stepper(m, damping);
        double[] qn = new double[m.nq()];
        double[] vn = new double[nv];
        ContactReport report = s.step(q, v, tau, H, qn, vn);
        assertTrue(report.converged(), report.toString());
        assertEquals(expectedModes.length > 0, s.lastProblem().blockCount() > 0, "contact rows");
        StepDerivatives d = new StepDerivatives(s, m);
        d.compute(q, v, tau, H);
        for (int b = 0; b < s.lastProblem().blockCount(); b++) {
            int mode = d.mode(b);
            boolean expected = false;
            for (int e : expectedModes) {
                expected |= e == mode;
            }
            int bb = b;
            assertTrue(expected, () -> "block " + bb + " mode " + mode);
        }
        double worst = 0;
        String where = "";
        for (int x = 0; x < 3; x++) {
            for (int j = 0; j < nv; j++) {
                double[][] plus;
                double[][] minus;
                if (x == 0) {
                    plus = step(m, damping, perturb(m, space, q, j, eps), v, tau);
                    minus = step(m, damping, perturb(m, space, q, j, -eps), v, tau);
                } else {
                    double[] arg = (x == 1 ? v : tau).clone();
                    double[] argm = arg.clone();
                    arg[j] += eps;
                    argm[j] -= eps;
                    plus = x == 1 ? step(m, damping, q, arg, tau) : step(m, damping, q, v, arg);
                    minus = x == 1 ? step(m, damping, q, argm, tau) : step(m, damping, q, v, argm);
                }
                double[] dqFd = tangentDifference(m, space, qn, minus[0], plus[0]);
                DMatrixRMaj aq = x == 0 ? d.dqNextDq() : x == 1 ? d.dqNextDv() : d.dqNextDtau();
                DMatrixRMaj av = x == 0 ? d.dvNextDq() : x == 1 ? d.dvNextDv() : d.dvNextDtau();
                double scaleQ = 0, scaleV = 0;
                for (int i = 0; i < nv; i++) {
                    scaleQ = Math.max(scaleQ, Math.abs(aq.get(i, j)));
                    scaleV = Math.max(scaleV, Math.abs(av.get(i, j)));
                }
                for (int i = 0; i < nv; i++) {
                    double fdq = dqFd[i] / (2 * eps);
                    double fdv = (plus[1][i] - minus[1][i]) / (2 * eps);
                    double eq = Math.abs(fdq - aq.get(i, j)) / Math.max(1, scaleQ);
                    double ev = Math.abs(fdv - av.get(i, j)) / Math.max(1, scaleV);
                    if (eq > worst) {
                        worst = eq;
                        where = String.format(Locale.ROOT, "dq+/d%s (%d, %d): analytic %.10g, fd %.10g", "qvt".charAt(x), i, j,
                                aq.get(i, j), fdq);
                    }
                    if (ev > worst) {
                        worst = ev;
                        where = String.format(Locale.ROOT, "dv+/d%s (%d, %d): analytic %.10g, fd %.10g", "qvt".charAt(x), i, j,
                                av.get(i, j), fdv);
                    }
                }
            }
        }
        assertTrue(worst <= tolerance, "worst " + worst + " at " + where);
    }

    /** q ⊕ ε e_j in the contract's tangent convention (a floating base's linear part in base coordinates). */
    static double[] perturb(Model m, StateSpace space, double[] q, int j, double eps) {
        double[] u = new double[space.nv()];
        u[j] = eps;
        baseToWorld(m, q, u, false);
        double[] out = q.clone();
        space.retract(q, u, out);
        return out;
    }

    /** q₁ ⊖ q₀ in the contract's tangent convention at q_ref (floating bases' linear parts in its base coordinates). */
    static double[] tangentDifference(Model m, StateSpace space, double[] qRef, double[] q0, double[] q1) {
        double[] u = new double[space.nv()];
        space.difference(q0, q1, u);
        baseToWorld(m, qRef, u, true);
        return u;
    }

    /** Turns each floating base's linear block of u from base to world coordinates at q (or back, inverse). */
    private static void baseToWorld(Model m, double[] q, double[] u, boolean inverse) {
        for (int b = 0; b < m.bodyCount(); b++) {
            var joint = m.body(b).joint();
            if (joint.type() != org.symdyn.model.JointType.FLOATING) {
                continue;
            }
            int x = joint.qIndex() + 3;
            double[] r = new double[9];
            Rotations.fromQuaternion(q[x], q[x + 1], q[x + 2], q[x + 3], r);
            int o = joint.vIndex() + 3;
            double a = u[o], bb = u[o + 1], c = u[o + 2];
            for (int i = 0; i < 3; i++) {
                u[o + i] = inverse ? r[i] * a + r[3 + i] * bb + r[6 + i] * c
                        : r[3 * i] * a + r[3 * i + 1] * bb + r[3 * i + 2] * c;
            }
        }
    }
}
