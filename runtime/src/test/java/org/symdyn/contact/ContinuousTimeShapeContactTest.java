package org.symdyn.contact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.geometry.Box;
import org.symdyn.geometry.Sphere;
import org.symdyn.model.BodySpec;
import org.symdyn.model.ContactMaterial;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;
import org.symdyn.model.SourceLocation;
import org.symdyn.simulation.DormandPrince45;
import org.symdyn.simulation.Integrator;
import org.symdyn.simulation.RungeKutta4;
import org.symdyn.spatial.Pose;
import org.symdyn.spatial.RigidBodyInertia;
import org.symdyn.systems.ContinuousTimeSystem;
import org.symdyn.systems.SpatialForce;
import org.symdyn.testing.ShapeScenes;

/**
 * Contact between collision shapes in continuous time (issue 31): the hybrid scheme of {@link ContinuousTimeSystem}
 * with shape contacts held over each segment, on analytic cases.
 */
class ContinuousTimeShapeContactTest {
    private static final double G = ShapeScenes.G;
    private static final double H = 1e-3;

    private static ContinuousTimeSystem system(Model model) {
        return ContinuousTimeSystem.builder(new GenericDynamics(model)).integrator(RungeKutta4::new)
                .contacts(ContactSet.of(model)).build();
    }

    private static double closedNormalSum(ContinuousTimeSystem s) {
        HeldShapeContacts h = s.heldShapeContacts();
        double sum = 0;
        for (int i = 0; i < h.count(); i++) {
            if (h.closed(i)) {
                sum += h.force(i, 0);
            }
        }
        return sum;
    }

    private static int closedCount(ContinuousTimeSystem s) {
        HeldShapeContacts h = s.heldShapeContacts();
        int n = 0;
        for (int i = 0; i < h.count(); i++) {
            n += h.closed(i) ? 1 : 0;
        }
        return n;
    }

    @ParameterizedTest
    @ValueSource(strings = {"rk4", "dopri5"})
    void aSphereDroppedOnAFixedBoxLandsAtTheEventAndCarriesItsWeight(String method) {
        double m = 1.5, r = 0.1, drop = 0.3, top = 0;
        ShapeScenes scenes = new ShapeScenes("ball_on_block");
        scenes.builder().addFixedLink("block", "world", Pose.translation(0, 0, top - 0.05), RigidBodyInertia.ZERO,
                SourceLocation.UNKNOWN, SourceLocation.UNKNOWN);
        Model scene = scenes.shape("block_box", "block", Pose.IDENTITY, new Box(0.5, 0.5, 0.05), 0.6)
                .freeSphere("ball", m, r, 0.6).build();
        Integrator.Factory f = method.equals("rk4") ? RungeKutta4::new : DormandPrince45.factory(1e-10, 1e-10);
        ContinuousTimeSystem s = ContinuousTimeSystem.builder(new GenericDynamics(scene)).integrator(f)
                .contacts(ContactSet.of(scene)).build();
        s.setState(0, ShapeScenes.pose(0.1, -0.05, top + r + drop, 0), new double[6]);
        while (s.impactCount() == 0) {
            s.step(H);
        }
        double impact = Math.sqrt(2 * drop / G);
        System.out.printf("ball %s: impact at %.15f s (%.15f), z − (top + r) = %.2e m, %d events, %d segments%n",
                method, s.lastImpactTime(), impact, s.q()[2] - top - r, s.eventCount(), s.segmentCount());
        assertEquals(impact, s.lastImpactTime(), 1e-9, "the impact located by the event");
        assertEquals(top + r, s.q()[2], 1e-9, "lands with its centre at top + r");
        s.run(1, H);
        double fn = closedNormalSum(s);
        System.out.printf("ball at rest: z − (top + r) = %.2e m, Σf_N rel. error %.2e%n", s.q()[2] - top - r,
                Math.abs(fn / (m * G) - 1));
        assertEquals(top + r, s.q()[2], 1e-9);
        assertEquals(1, closedCount(s));
        assertEquals(m * G, fn, 1e-9 * m * G, "rests carrying m g");
        assertEquals(1, s.impactCount());
    }

    @Test
    void aBoxRestingOnAFixedBoxStaysOnFourPointsCarryingItsWeight() {
        double m = 2;
        Model scene = new ShapeScenes("box_on_box").shape("table", "world", Pose.translation(0, 0, -0.05),
                new Box(0.5, 0.5, 0.05), 0.8).freeBox("box", m, 0.1, 0.1, 0.1, 0.8).build();
        ContinuousTimeSystem s = system(scene);
        double[] q0 = ShapeScenes.pose(0.02, -0.01, 0.1, 0);
        s.setState(0, q0, new double[6]);
        s.run(1, H);
        double worst = 0;
        for (int i = 0; i < 7; i++) {
            worst = Math.max(worst, Math.abs(s.q()[i] - q0[i]));
        }
        double fn = closedNormalSum(s);
        System.out.printf("box on box: drift %.2e, Σf_N rel. error %.2e, %d closed, %d cone fallbacks%n", worst,
                Math.abs(fn / (m * G) - 1), closedCount(s), s.coneFallbackCount());
        assertTrue(worst <= 1e-9, "drift " + worst);
        assertEquals(4, closedCount(s), "a face on a face: four points");
        assertEquals(m * G, fn, 1e-9 * m * G);
    }

    /**
     * A pendulum (arm of length l = 1 m on a hinge about y, a sphere of r = 0.05 m at its end) falls from horizontal
     * against a wall link whose face is the plane x = w: the bob's centre (l cos q, 0, −l sin q) touches it when
     * l cos q − r = w, at q* = acos((w + r) / l) = 60°, and stops there (inelastic), pressed on by gravity.
     */
    @Test
    void aPendulumFallingAgainstAWallLinkStopsAtTheTouchingAngle() {
        double l = 1, r = 0.05, w = 0.45;
        Model scene = pendulumAndWall(l, r, w);
        ContinuousTimeSystem s = system(scene);
        s.setState(0, new double[] {0}, new double[] {0});
        s.run(1.5, H);
        double touching = Math.acos((w + r) / l);
        System.out.printf("pendulum: q − q* = %.2e rad, v = %.2e rad/s, %d impacts, %d events%n", s.q()[0] - touching,
                s.v()[0], s.impactCount(), s.eventCount());
        assertEquals(touching, s.q()[0], 1e-6, "stops at the touching angle");
        assertEquals(0, s.v()[0], 1e-9);
        assertEquals(1, s.impactCount());
        assertEquals(1, closedCount(s));
        // the time stepper on the same model stops there too (to its own 1e-6)
        TimeStepper stepper = TimeStepper.builder(new GenericDynamics(scene)).contacts(ContactSet.of(scene)).build();
        double[] q = {0};
        double[] v = {0};
        for (int i = 0; i < 1500; i++) {
            stepper.step(q, v, new double[1], H, q, v);
        }
        assertEquals(touching, q[0], 1e-6, "the time stepper agrees");
    }

    private static Model pendulumAndWall(double l, double r, double w) {
        ShapeScenes scenes = new ShapeScenes("pendulum_wall");
        scenes.builder().addBody(BodySpec.builder("arm", "world", "pivot", JointType.REVOLUTE).axis(0, 1, 0)
                .inertia(RigidBodyInertia.of(1, new double[] {l, 0, 0}, 1e-3, 0, 0, 1e-3, 0, 1e-3)).build());
        scenes.builder().addFixedLink("wall", "world", Pose.translation(w - 0.05, 0, -0.8), RigidBodyInertia.ZERO,
                SourceLocation.UNKNOWN, SourceLocation.UNKNOWN);
        return scenes.shape("bob", "arm", Pose.translation(l, 0, 0), new Sphere(r), 0.5)
                .shape("wall_face", "wall", Pose.IDENTITY, new Box(0.05, 0.5, 0.4), 0.5).build();
    }

    /**
     * A box at rest on a box tilted by θ about x (μ = 0.5 for both): half a degree below tan θ = μ it sticks, half a
     * degree above it slides down at a = g (sin θ − μ cos θ) without turning (v = a t after 1 s, 1e-9 relative), as
     * the time stepper finds it.
     */
    @Test
    void aBoxOnATiltedBoxSticksBelowTanThetaEqualsMuAndSlidesAtTheCoulombRateAbove() {
        double mu = 0.5, m = 1, t = 1;
        for (double delta : new double[] {-0.5, 0.5}) {
            double theta = Math.atan(mu) + Math.toRadians(delta);
            Model scene = new ShapeScenes("tilted").shape("table", "world", ShapeScenes.rotationX(theta, 0, 0, 0),
                    new Box(1, 1, 0.05), mu).freeBox("box", m, 0.1, 0.1, 0.1, mu).build();
            double c = Math.cos(theta), sn = Math.sin(theta);
            double[] q0 = ShapeScenes.pose(0, -0.15 * sn, 0.15 * c, theta);
            ContinuousTimeSystem s = system(scene);
            s.setState(0, q0, new double[6]);
            s.run(t, H);
            double downhill = -s.v()[4]; // v_O in the box's (turned) coordinates: downhill is −e_y
            double across = Math.abs(s.v()[3]) + Math.abs(s.v()[5]);
            double turning = Math.abs(s.v()[0]) + Math.abs(s.v()[1]) + Math.abs(s.v()[2]);
            double fn = closedNormalSum(s);
            if (delta < 0) {
                double moved = 0;
                for (int i = 0; i < 7; i++) {
                    moved = Math.max(moved, Math.abs(s.q()[i] - q0[i]));
                }
                System.out.printf("tilted box θ=%.4f sticks: moved %.2e, speed %.2e, Σf_N rel. error %.2e%n", theta,
                        moved, Math.abs(downhill) + across, Math.abs(fn / (m * G * c) - 1));
                assertTrue(moved <= 1e-9, "sticks below tan θ = μ: moved " + moved);
                assertEquals(0, Math.abs(downhill) + across + turning, 1e-9);
            } else {
                double a = G * (sn - mu * c);
                System.out.printf("tilted box θ=%.4f slides: v rel. error %.2e, %d segments%n", theta,
                        Math.abs(downhill / (a * t) - 1), s.segmentCount());
                assertEquals(a * t, downhill, 1e-9 * a * t, "slides at g (sin θ − μ cos θ)");
                assertEquals(0, across, 1e-9 * a * t, "straight down the slope");
                assertEquals(0, turning, 1e-9, "without turning");
                TimeStepper stepper = TimeStepper.builder(new GenericDynamics(scene)).contacts(ContactSet.of(scene))
                        .build();
                double[] q = q0.clone();
                double[] v = new double[6];
                for (int i = 0; i < Math.round(t / H); i++) {
                    stepper.step(q, v, new double[6], H, q, v);
                }
                assertEquals(-v[4], downhill, 1e-9 * a * t, "as the time stepper finds it");
            }
            assertEquals(4, closedCount(s), "on its face's four corners");
            assertEquals(m * G * c, fn, 1e-9 * m * G, "Σ f_N = m g cos θ");
        }
    }

    /**
     * A box pitched 20° dropped onto a table box lands on an edge (two points; the other two of the face watched by
     * their held gaps), falls flat (a second impact) and comes to rest on four points: no step throws (the drift
     * guard), and at the end it lies flat at rest carrying m g.
     */
    @Test
    void aTiltedBoxLandsOnAnEdgeFallsFlatAndRests() {
        double m = 1, a = 0.1;
        Model scene = new ShapeScenes("tilted_drop").shape("table", "world", Pose.translation(0, 0, -0.05),
                new Box(1, 1, 0.05), 0.8).freeBox("box", m, a, a, a, 0.8).build();
        ContinuousTimeSystem s = system(scene);
        double pitch = Math.toRadians(20);
        s.setState(0, ShapeScenes.pose(0, 0, 0.25, pitch), new double[6]);
        s.run(1.5, H);
        double[] q = s.q();
        double tilt = 2 * Math.asin(Math.hypot(q[3], Math.hypot(q[4], q[5])));
        double fn = closedNormalSum(s);
        System.out.printf("tilted drop: z − a = %.2e m, tilt %.2e rad, speed %.2e, Σf_N rel. error %.2e, %d impacts, "
                + "%d events, %d cone fallbacks%n", q[2] - a, tilt, Math.abs(s.v()[5]) + Math.abs(s.v()[0]),
                Math.abs(fn / (m * G) - 1), s.impactCount(), s.eventCount(), s.coneFallbackCount());
        assertTrue(s.impactCount() >= 2, "lands on an edge, then flat: " + s.impactCount());
        assertEquals(a, q[2], 1e-9, "flat on the table");
        assertEquals(0, tilt, 1e-9);
        for (int i = 0; i < 6; i++) {
            assertEquals(0, s.v()[i], 1e-9, "at rest");
        }
        assertEquals(4, closedCount(s));
        assertEquals(m * G, fn, 1e-9 * m * G);
    }

    /** After warm-up, steps allocate nothing: a box resting on a box with a force sensor, and a ball's drop. */
    @Test
    void stepsDoNotAllocate() {
        Model scene = new ShapeScenes("box_on_box").shape("table", "world", Pose.translation(0, 0, -0.05),
                new Box(0.5, 0.5, 0.05), 0.8).freeBox("box", 2, 0.1, 0.1, 0.1, 0.8).build();
        GenericDynamics d = new GenericDynamics(scene);
        ContinuousTimeSystem s = ContinuousTimeSystem.builder(d).contacts(ContactSet.of(scene))
                .contactForceSensor("forces").build();
        s.setState(0, ShapeScenes.pose(0, 0, 0.1, 0), new double[6]);
        long bytes = AllocationProbe.allocatedBytes(300, () -> s.step(H));
        assertTrue(bytes < 1024, "resting steps allocated " + bytes + " bytes");
        double[] forces = s.reading("forces"); // shape 0 the table, shape 1 the box: world (fx, fy, fz) each
        assertEquals(2 * G, forces[5], 1e-9 * 2 * G, "the sensor reads the force m g up on the box");
        assertEquals(-2 * G, forces[2], 1e-9 * 2 * G, "and m g down on the table");

        Model ball = new ShapeScenes("ball_drop").shape("table", "world", Pose.translation(0, 0, -0.05),
                new Box(0.5, 0.5, 0.05), 0.8).freeSphere("ball", 1, 0.1, 0.8).build();
        ContinuousTimeSystem drop = system(ball);
        double[] high = ShapeScenes.pose(0, 0, 0.3, 0);
        double[] zero = new double[6];
        bytes = AllocationProbe.allocatedBytes(2, () -> {
            drop.setState(0, high, zero);
            drop.run(0.4, H);
        });
        assertEquals(1, drop.impactCount());
        assertTrue(bytes < 1024, "drops allocated " + bytes + " bytes");
    }

    /**
     * A ball thrown at 20 m/s against a wall (restitution 0.5, no friction) moves 20 mm a step, twenty times the
     * fixed 1 mm the detection looks ahead: the pair is watched because its margin grows with the speed bound. The
     * impact is located at t = (w − r − x0) / v (the centre at w − r, 1e-9), the ball leaves at −e v, and the
     * reported impulse is m (1 + e) v along the wall's normal.
     */
    @Test
    void aFastBallThrownAtAWallIsCaughtByItsSpeedAndReboundsByNewton() {
        double m = 0.5, r = 0.05, w = 0.5, x0 = 0.1, speed = 20, e = 0.5;
        ShapeScenes scenes = new ShapeScenes("throw");
        scenes.builder().addCollisionShape("wall", "world", Pose.translation(w + 0.05, 0, 0), new Box(0.05, 1, 1),
                new ContactMaterial(0, e), SourceLocation.UNKNOWN);
        Model scene = scenes.freeSphere("ball", m, r, 0).build();
        ContinuousTimeSystem s = system(scene);
        s.setState(0, ShapeScenes.pose(x0, 0, 0, 0), new double[] {0, 0, 0, speed, 0, 0});
        double impulse = Double.NaN;
        while (s.impactCount() == 0) {
            s.step(H);
            HeldShapeContacts h = s.heldShapeContacts();
            for (int i = 0; i < h.count(); i++) {
                impulse = s.shapeContactImpulse(i, 0);
            }
        }
        double impact = (w - r - x0) / speed;
        double fall = 0.5 * G * impact * impact;
        System.out.printf("throw: impact at %.15f s (%.15f), rebound %.15f m/s, impulse %.15f N s, %d events%n",
                s.lastImpactTime(), impact, s.v()[3], impulse, s.eventCount());
        assertEquals(impact, s.lastImpactTime(), 1e-9, "located by the event");
        assertEquals(-e * speed, s.v()[3], 1e-9 * speed, "Newton: leaves at −e v");
        assertEquals(m * (1 + e) * speed, impulse, 1e-9 * m * speed, "the impulse m (1 + e) v");
        double flight = s.time() - impact;
        assertEquals(w - r - e * speed * flight, s.q()[0], 1e-9, "touched at x = w − r");
        assertEquals(-fall - G * impact * flight - 0.5 * G * flight * flight, s.q()[2], 1e-9, "falls freely");
    }

    /**
     * A ball rolling without slipping on a box (v = 1 m/s, ω = v / r about the axis across its path) rolls on
     * uniformly with its centre at r: no force but m g, exact in continuous time (1e-9 after 1 s). Its contact is
     * held by the ball's centre, not by a material point of its surface, which would accelerate towards the centre at
     * r ω² as the ball turns and pull it into the box (it sank 15 µm in the first steps that way, and the drift
     * guard threw). What remains, 2e-10 m, is RK4's: the ball's frame turns by ω h = 0.01 rad a step, and v_O, held in
     * that frame, turns with it.
     */
    @Test
    void aBallRollingOnABoxRollsOnUniformly() {
        double m = 1, r = 0.1, speed = 1, t = 1;
        Model scene = new ShapeScenes("rolling").shape("table", "world", Pose.translation(0, 0, -0.05),
                new Box(2, 2, 0.05), 0.6).freeSphere("ball", m, r, 0.6).build();
        ContinuousTimeSystem s = system(scene);
        // v = [ω; v_O] in the ball's coordinates (unturned at the start): rolling along +x turns it about +y
        s.setState(0, ShapeScenes.pose(-0.5, 0, r, 0), new double[] {0, speed / r, 0, speed, 0, 0});
        s.run(t, H);
        double[] q = s.q();
        System.out.printf("rolling ball: x error %.2e m, z − r = %.2e m, Σf_N rel. error %.2e, %d segments%n",
                q[0] - (-0.5 + speed * t), q[2] - r, Math.abs(closedNormalSum(s) / (m * G) - 1), s.segmentCount());
        assertEquals(-0.5 + speed * t, q[0], 1e-9, "uniform rolling");
        assertEquals(r, q[2], 1e-9, "the centre stays at r");
        assertEquals(m * G, closedNormalSum(s), 1e-9 * m * G);
        assertEquals(0, s.impactCount());
    }

    /**
     * A box sliding at v0 = 2 m/s on a table box (μ = 0.4) decelerates at μ g and stops after v0 / (μ g) at
     * v0² / (2 μ g), the stop located as an event on its four held contacts, then stays (1e-9).
     */
    @Test
    void aBoxSlidingOnABoxStopsAtTheAnalyticDistanceAndStays() {
        double mu = 0.4, v0 = 2, m = 2;
        Model scene = new ShapeScenes("slide").shape("table", "world", Pose.translation(0, 0, -0.05),
                new Box(2, 2, 0.05), mu).freeBox("box", m, 0.1, 0.1, 0.1, mu).build();
        ContinuousTimeSystem s = system(scene);
        double x0 = -1;
        s.setState(0, ShapeScenes.pose(x0, 0, 0.1, 0), new double[] {0, 0, 0, v0, 0, 0});
        s.run(0.4, H);
        assertEquals(v0 - mu * G * 0.4, s.v()[3], 1e-9, "v = v0 − μ g t while sliding");
        s.run(1, H);
        double stop = v0 * v0 / (2 * mu * G);
        System.out.printf("sliding box: stopped at %.15f m (%.15f), speed %.2e, %d events%n", s.q()[0] - x0, stop,
                Math.abs(s.v()[3]), s.eventCount());
        assertEquals(stop, s.q()[0] - x0, 1e-9 * stop, "stops at v0² / (2 μ g)");
        for (int i = 0; i < 6; i++) {
            assertEquals(0, s.v()[i], 1e-9, "and stays");
        }
        assertEquals(0.1, s.q()[2], 1e-9);
        assertEquals(m * G, closedNormalSum(s), 1e-9 * m * G);
    }

    /**
     * A ball resting on a box, pulled up from t = 0.1 s by a world force 2 m g: its normal force goes to zero and it
     * leaves, rising at g: z = r + g (t − 0.1)² / 2 (1e-9), no longer touching.
     */
    @Test
    void aBallPulledOffABoxLeavesWhenItsNormalForceReachesZero() {
        double m = 1, r = 0.1;
        Model scene = new ShapeScenes("pull").shape("table", "world", Pose.translation(0, 0, -0.05),
                new Box(0.5, 0.5, 0.05), 0.5).freeSphere("ball", m, r, 0.5).build();
        GenericDynamics d = new GenericDynamics(scene);
        SpatialForce pull = SpatialForce.inWorld("pull", d, 0, new double[3]);
        ContinuousTimeSystem s = ContinuousTimeSystem.builder(d).contacts(ContactSet.of(scene)).actuator(pull)
                .build();
        s.setState(0, ShapeScenes.pose(0, 0, r, 0), new double[6]);
        s.run(0.1, H);
        assertEquals(m * G, closedNormalSum(s), 1e-9 * m * G, "resting");
        pull.set(0, 0, 0, 0, 0, 2 * m * G);
        s.run(0.3, H);
        double lifted = 0.5 * G * 0.2 * 0.2;
        System.out.printf("pulled ball: z − r = %.15f m (%.15f), %d closed%n", s.q()[2] - r, lifted, closedCount(s));
        assertEquals(r + lifted, s.q()[2], 1e-9, "rises at g");
        assertEquals(G * 0.2, s.v()[5], 1e-9);
        assertEquals(0, closedCount(s), "no contact left");
        assertEquals(0, s.impactCount());
    }
}
