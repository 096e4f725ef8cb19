package org.symdyn.contact;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.symdyn.dynamics.DynamicsPropertyTest;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.model.Model;
import org.symdyn.systems.Actuator;
import org.symdyn.systems.CompliantContact;
import org.symdyn.systems.LinearSpringDamper;
import org.symdyn.systems.SpatialForce;
import org.symdyn.testing.Quaternions;

/**
 * {@link Actuator#addForceDerivatives} of the actuators that push on bodies against central finite differences of
 * their own {@link Actuator#addForces} in the contract's tangent spaces: a wrench set in a body's coordinates (it
 * turns with the body), a world wrench at a body point, a spring-damper between two bodies and one from the world,
 * on every model of {@link DynamicsPropertyTest} (fixed and floating bases, ball and planar joints), at random
 * states, one of them 1 km from the world's origin; and compliant contact (points and spheres on grounds, pressed in,
 * with the friction viscous and Coulomb's; sphere shapes on a floor, on a turning paddle and on each other, crossing
 * capsules, a box on a fixed ball). Tolerance 1e-7 of each matrix's largest entry (at least 1): the
 * differences' own error with a step of 1e-6 is about 1e-10 of the forces.
 */
class ActuatorDerivativesTest {
    private static final double EPS = 1e-6;
    private static final double TOLERANCE = 1e-7;
    private static final Map<String, Double> WORST = new ConcurrentHashMap<>();

    static Stream<String> models() {
        return DynamicsPropertyTest.models();
    }

    @AfterAll
    static void printWorst() {
        WORST.forEach((k, v) -> System.out.printf(Locale.ROOT, "# actuator derivatives, %s: worst %.2e%n", k, v));
    }

    @ParameterizedTest
    @MethodSource("models")
    void wrenchesAndSpringsAgainstFiniteDifferences(String name) {
        Model m = DynamicsPropertyTest.model(name);
        GenericDynamics dyn = new GenericDynamics(m);
        Random rnd = new Random(name.hashCode());
        int nb = m.bodyCount();
        for (int s = 0; s < 2; s++) {
            double[] q = DynamicsPropertyTest.randomConfiguration(m, rnd);
            double[] v = uniform(rnd, m.nv(), 1);
            int b1 = rnd.nextInt(nb);
            int b2 = nb == 1 ? -1 : (b1 + 1 + rnd.nextInt(nb - 1)) % nb;
            int b3 = b2 < 0 ? b1 : b2;
            double[] near = new double[3];
            dyn.pointPosition(q, b3, new double[3], near);
            for (int i = 0; i < 3; i++) {
                near[i] += 0.4 * (rnd.nextDouble() - 0.5) + (i == 2 ? 0.5 : 0);
            }
            double[] inBody = uniform(rnd, 6, 2);
            double[] inWorld = uniform(rnd, 6, 2);
            double[] worldPoint = uniform(rnd, 3, 0.3);
            double[] p1 = uniform(rnd, 3, 0.2);
            double[] p2 = uniform(rnd, 3, 0.2);
            double[] p3 = uniform(rnd, 3, 0.2);
            // the same actuators with the floating bases and the world anchor 1 km away: the same derivatives
            double[] far = q.clone();
            DynamicsPropertyTest.farFromTheOrigin(m, far);
            double[] nearFar = near.clone();
            if (!java.util.Arrays.equals(far, q)) {
                nearFar[0] += 1000;
                nearFar[1] -= 700;
                nearFar[2] += 300;
            }
            Actuator[][] copies = new Actuator[2][];
            for (int copy = 0; copy < 2; copy++) {
                SpatialForce body = SpatialForce.inBody("inBody", dyn, b1);
                body.set(inBody);
                SpatialForce world = SpatialForce.inWorld("inWorld", dyn, b3, worldPoint);
                world.set(inWorld);
                Actuator anchored = new LinearSpringDamper("anchored", dyn, -1, copy == 0 ? near : nearFar, b3, p3,
                        20, 2, 0.3);
                Actuator spring = b2 < 0 ? null : new LinearSpringDamper("spring", dyn, b1, p1, b2, p2, 50, 3, 0.1);
                copies[copy] = new Actuator[] {body, world, anchored, spring};
            }
            String[] names = {"wrench in body", "wrench in world", "spring from the world", "spring"};
            for (int i = 0; i < names.length; i++) {
                if (copies[0][i] != null) {
                    check(m, name, names[i], copies[0][i], q, v);
                    sameFarAway(m, name, names[i], copies[0][i], q, copies[1][i], far, v);
                }
            }
        }
    }

    /**
     * The derivatives of {@code a} at q and of its twin {@code b} at {@code far} (q with its floating bases 1 km away,
     * b's world anchor moved as far) agree: finite differences there lose 7 digits to the positions' size, the
     * analytic forms, taken relative to the body, none.
     */
    private static void sameFarAway(Model m, String model, String what, Actuator a, double[] q, Actuator b,
            double[] far, double[] v) {
        int nv = m.nv();
        DMatrixRMaj dq = new DMatrixRMaj(nv, nv);
        DMatrixRMaj dv = new DMatrixRMaj(nv, nv);
        DMatrixRMaj fq = new DMatrixRMaj(nv, nv);
        DMatrixRMaj fv = new DMatrixRMaj(nv, nv);
        a.addForceDerivatives(0, q, v, dq, dv);
        b.addForceDerivatives(0, far, v, fq, fv);
        double scale = 1;
        double worst = 0;
        for (int e = 0; e < nv * nv; e++) {
            scale = Math.max(scale, Math.max(Math.abs(dq.data[e]), Math.abs(dv.data[e])));
        }
        for (int e = 0; e < nv * nv; e++) {
            worst = Math.max(worst, Math.max(Math.abs(dq.data[e] - fq.data[e]), Math.abs(dv.data[e] - fv.data[e])));
        }
        WORST.merge("1 km away", worst / scale, Math::max);
        assertTrue(worst <= 1e-10 * scale, model + ", " + what + " 1 km away: " + worst / scale);
    }

    /**
     * solo12 pressed 2 mm into the floor on its four foot points, moving slowly (every foot's friction viscous) and
     * fast (Coulomb's at every sliding foot).
     */
    @Test
    void compliantFeetOnAFloor() throws Exception {
        Model m = ContactScenes.solo12OnAFloor();
        GenericDynamics dyn = new GenericDynamics(m);
        double[] q = ContactScenes.solo12Standing(m);
        q[2] -= 0.002;
        Random rnd = new Random(12);
        for (double speed : new double[] {0.01, 0.4}) {
            double[] v = uniform(rnd, m.nv(), speed);
            v[5] = -0.2 * speed; // the base sinking: the damping in f_n
            CompliantContact contact = new CompliantContact("feet", ContactSet.of(m), dyn, 3000, 20, 40);
            String regimes = regimes(contact, q, v);
            check(m, "solo12", "compliant feet, " + regimes, contact, q, v);
            assertTrue(regimes.contains(speed < 0.1 ? "viscous" : "coulomb"), regimes);
        }
    }

    /**
     * A solid sphere pressed 1 mm into an incline, spinning and sliding (its contact point moves with its centre and
     * its rotation), and a box on its four corners, tilted so that two press in.
     */
    @Test
    void compliantSphereAndBoxOnAnIncline() {
        double theta = 0.3;
        Model ball = ContactScenes.sphere(2, 0.1, ContactScenes.incline(theta, 0.6));
        GenericDynamics dyn = new GenericDynamics(ball);
        double[] q = ContactScenes.onIncline(theta, 0.099, 0.2);
        double[] v = {1.5, -0.7, 0.4, 0.3, 0.05, -0.02};
        for (double bt : new double[] {1, 500}) {
            CompliantContact contact = new CompliantContact("ball", ContactSet.of(ball), dyn, 5000, 30, bt);
            String regimes = regimes(contact, q, v);
            check(ball, "sphere", "compliant sphere, " + regimes, contact, q, v);
            assertTrue(regimes.contains(bt < 10 ? "viscous 1" : "coulomb 1"), regimes);
        }
        Model box = ContactScenes.box(1, 0.1, ContactScenes.incline(theta, 0.8));
        GenericDynamics boxDyn = new GenericDynamics(box);
        double[] qb = ContactScenes.onIncline(theta, 0.1 - 0.0015, 0.1);
        // tilt about the body x axis: two corners in, two out
        double a = 0.03;
        double[] tilt = {Math.sin(a / 2), 0, 0, Math.cos(a / 2)};
        double[] qr = {qb[3], qb[4], qb[5], qb[6]};
        double[] r = Quaternions.product(qr, tilt);
        System.arraycopy(r, 0, qb, 3, 4);
        double[] vb = {0.2, 0.3, -0.05, 0.1, -0.4, 0.02};
        CompliantContact corners = new CompliantContact("corners", ContactSet.of(box), boxDyn, 4000, 25, 60);
        String regimes = regimes(corners, qb, vb);
        assertTrue(regimes.startsWith("2 "), regimes);
        check(box, "box", "compliant corners, " + regimes, corners, qb, vb);
    }

    /**
     * Compliant contact between collision shapes: a sphere shape pressed into a floor while rolling and slipping (its
     * contact point is its centre less r n), a sphere pressed into a hinged paddle turning under it (the paddle's point
     * of contact follows the sphere's centre and the frame turns with the paddle: {@link TurningContact}), with the sphere
     * listed first and last (side A and side B), and a box pressed onto a fixed ball of the scenery.
     */
    @Test
    void compliantShapes() {
        Model floor = ballOnAFloor();
        check(floor, "sphere shape", "compliant sphere shape", new CompliantContact("ball", ContactSet.of(floor),
                new GenericDynamics(floor), 5000, 30, 2), new double[] {0.1, 0, 0.1 - 0.001, 0, 0, 0, 1},
                new double[] {0.4, 2, 0.1, 0.3, -0.1, 0.05});
        for (boolean ballFirst : new boolean[] {true, false}) {
            Model m = org.symdyn.testing.ShapeScenes.withPaddle("ball_on_paddle", ballFirst, x -> x.freeSphere("ball", 0.5, 0.05, 0.9));
            double[] q = new double[8];
            System.arraycopy(new double[] {0.25, 0.01, 0.02 + 0.05 - 0.001, 0, 0, 0, 1}, 0, q, ballFirst ? 0 : 1, 7);
            q[ballFirst ? 7 : 0] = -0.01; // the paddle turned up into the ball
            double[] v = new double[7];
            int b = ballFirst ? 0 : 1;
            v[b] = 0.2;
            v[b + 1] = 0.5;
            v[b + 3] = 0.1;
            v[ballFirst ? 6 : 0] = -0.4;
            oneContactBothRegimes(m, "paddle", "compliant sphere on a paddle", q, v);
        }
        // two free balls pressed together off centre, spinning and sliding: the normal turns with their centres
        Model two = new org.symdyn.testing.ShapeScenes("two_balls").freeSphere("lower", 1, 0.1, 0.9)
                .freeSphere("upper", 0.3, 0.05, 0.9).build();
        double t = 0.25;
        double[] qt = {0, 0, 0, 0, 0, 0, 1, 0.15 * Math.sin(t), 0, 0.15 * Math.cos(t) - 0.001, 0, 0, 0, 1};
        double[] vt = {0.1, 0.5, -0.2, 0.05, 0, 0.1, 0.3, -0.2, 0.4, -0.1, 0.2, -0.3};
        oneContactBothRegimes(two, "two balls", "compliant two spheres", qt, vt);
        // two free capsules crossing at 60 degrees, pressed 1 mm: both centres slide along their segments
        org.symdyn.geometry.Capsule bar = new org.symdyn.geometry.Capsule(0.03, 0.6);
        Model bars = new org.symdyn.testing.ShapeScenes("bars").freeBody("lower", 1, 0.001, 0.03, 0.03, bar, 0.9)
                .freeBody("upper", 1, 0.03, 0.03, 0.001, bar, 0.9).build();
        double[] lower = Quaternions.product(new double[] {0, 0, Math.sin(0.05), Math.cos(0.05)},
                new double[] {0, Math.sin(Math.PI / 4), 0, Math.cos(Math.PI / 4)});
        double[] upper = Quaternions.product(new double[] {0, 0, Math.sin(Math.PI / 6), Math.cos(Math.PI / 6)},
                new double[] {0, Math.sin(Math.PI / 4), 0, Math.cos(Math.PI / 4)});
        double[] qc = {0, 0, 0, lower[0], lower[1], lower[2], lower[3], 0.05, -0.02, 0.06 - 0.001, upper[0], upper[1],
            upper[2], upper[3]};
        double[] vc = {0.1, 0.3, -0.2, 0.05, 0.02, 0.1, -0.2, 0.4, 0.1, 0.1, -0.05, -0.3};
        oneContactBothRegimes(bars, "two capsules", "compliant crossing capsules", qc, vc);
        // the same with cylinders: their sides touch with the normal across both axes, rounded as capsules' are
        // (2.5e-3 off while their rim points were taken as material points)
        org.symdyn.geometry.Cylinder rod = new org.symdyn.geometry.Cylinder(0.03, 0.6);
        Model rods = new org.symdyn.testing.ShapeScenes("rods").freeBody("lower", 1, 0.001, 0.03, 0.03, rod, 0.9)
                .freeBody("upper", 1, 0.03, 0.03, 0.001, rod, 0.9).build();
        oneContactBothRegimes(rods, "two cylinders", "compliant crossing cylinders", qc, vc);
        Model box = new org.symdyn.testing.ShapeScenes("box_on_ball").shape("ball", "world",
                org.symdyn.spatial.Pose.IDENTITY, new org.symdyn.geometry.Sphere(0.1), 0.6)
                .freeBox("box", 1, 0.2, 0.2, 0.05, 0.6).build();
        CompliantContact c = new CompliantContact("box", ContactSet.of(box), new GenericDynamics(box), 5000, 20, 3);
        double[] q = {0.03, -0.02, 0.1 + 0.05 - 0.001, 0.02, 0, 0, 1};
        double n = Math.hypot(q[3], q[6]);
        q[3] /= n;
        q[6] /= n;
        double[] v = {0.1, -0.2, 0.3, 0.2, 0.1, -0.05};
        String regimes = regimes(c, q, v);
        assertTrue(regimes.startsWith("1 "), regimes);
        check(box, "box on a ball", "compliant box on a ball, " + regimes, c, q, v);
    }


    /**
     * Compliant contact (k 5000 N/m, b 20 N·s/m) of a scene with one contact pushing at (q, v), its friction viscous
     * (b_t 1 N·s/m) and then Coulomb's (b_t 500), against central differences.
     */
    private static void oneContactBothRegimes(Model m, String model, String what, double[] q, double[] v) {
        for (double bt : new double[] {1, 500}) {
            CompliantContact c = new CompliantContact("contact", ContactSet.of(m), new GenericDynamics(m), 5000, 20, bt);
            String regimes = regimes(c, q, v);
            assertTrue(regimes.startsWith("1 "), regimes);
            check(m, model, what + ", " + regimes, c, q, v);
        }
    }

    /** A sphere shape (radius 0.1 m) on a floating base above a floor of friction 0.8. */
    private static Model ballOnAFloor() {
        org.symdyn.testing.ShapeScenes scenes = new org.symdyn.testing.ShapeScenes("ball");
        scenes.freeSphere("ball", 1, 0.1, 0.6);
        scenes.builder().addGround(new org.symdyn.model.GroundModel("floor", new double[3], new double[] {0, 0, 1},
                0.8, 0, org.symdyn.model.SourceLocation.UNKNOWN));
        return scenes.build();
    }

    /** The derivatives of every kind allocate nothing after their first call (which creates their workspaces). */
    @Test
    void derivativesAllocateNothing() throws Exception {
        Model m = ContactScenes.solo12OnAFloor();
        GenericDynamics dyn = new GenericDynamics(m);
        double[] q = ContactScenes.solo12Standing(m);
        q[2] -= 0.002;
        double[] v = uniform(new Random(3), m.nv(), 0.2);
        SpatialForce body = SpatialForce.inBody("inBody", dyn, 3);
        body.set(1, 2, 3, 4, 5, 6);
        SpatialForce world = SpatialForce.inWorld("inWorld", dyn, 5, new double[] {0.1, 0, 0});
        world.set(1, 2, 3, 4, 5, 6);
        Actuator[] all = {body, world, new LinearSpringDamper("spring", dyn, 3, new double[3], 9, new double[3], 10, 1, 0),
            new CompliantContact("feet", ContactSet.of(m), dyn, 3000, 20, 40)};
        DMatrixRMaj dq = new DMatrixRMaj(m.nv(), m.nv());
        DMatrixRMaj dv = new DMatrixRMaj(m.nv(), m.nv());
        for (Actuator a : all) {
            a.addForceDerivatives(0, q, v, dq, dv);
            long bytes = org.symdyn.testing.Allocations.allocatedBytes(100, () -> a.addForceDerivatives(0, q, v, dq, dv));
            assertTrue(bytes < 16 * 100, a.name() + ": " + bytes + " bytes in 100 calls");
        }
    }

    /** "n contacts pushing: viscous a, coulomb b" at (q, v). */
    private static String regimes(CompliantContact c, double[] q, double[] v) {
        c.addForces(0, q, v, new double[v.length]);
        ContactKinematics k = c.contacts();
        double[] u = new double[3 * Math.max(1, k.count())];
        k.velocity(v, u);
        int viscous = 0;
        int coulomb = 0;
        for (int i = 0; i < k.count(); i++) {
            double fn = -c.stiffness() * k.gap(i) - c.damping() * u[3 * i];
            double slip = Math.hypot(u[3 * i + 1], u[3 * i + 2]);
            if (fn > 0 && c.frictionDamping() * slip <= k.friction(i) * fn) {
                viscous++;
            } else if (fn > 0) {
                coulomb++;
            }
        }
        return String.format(Locale.ROOT, "%d pushing: viscous %d, coulomb %d", viscous + coulomb, viscous, coulomb);
    }

    /** The actuator's ∂τ/∂q and ∂τ/∂v against central differences; fails past the tolerance. */
    private static void check(Model m, String model, String what, Actuator a, double[] q, double[] v) {
        int nv = m.nv();
        DMatrixRMaj dq = new DMatrixRMaj(nv, nv);
        DMatrixRMaj dv = new DMatrixRMaj(nv, nv);
        a.addForceDerivatives(0, q, v, dq, dv);
        double scale = 1;
        for (int e = 0; e < nv * nv; e++) {
            scale = Math.max(scale, Math.max(Math.abs(dq.data[e]), Math.abs(dv.data[e])));
        }
        double worst = 0;
        String where = "";
        for (int k = 0; k < nv; k++) {
            double[] delta = new double[nv];
            delta[k] = 1;
            double[] tp = forces(a, DynamicsPropertyTest.integrate(m, q, delta, EPS), v);
            double[] tm = forces(a, DynamicsPropertyTest.integrate(m, q, delta, -EPS), v);
            double[] vp = v.clone();
            double[] vm = v.clone();
            vp[k] += EPS;
            vm[k] -= EPS;
            double[] sp = forces(a, q, vp);
            double[] sm = forces(a, q, vm);
            for (int j = 0; j < nv; j++) {
                double fq = (tp[j] - tm[j]) / (2 * EPS);
                double fv = (sp[j] - sm[j]) / (2 * EPS);
                double eq = Math.abs(fq - dq.get(j, k)) / scale;
                double ev = Math.abs(fv - dv.get(j, k)) / scale;
                if (Math.max(eq, ev) > worst) {
                    worst = Math.max(eq, ev);
                    where = String.format(Locale.ROOT, "dtau/d%s (%d, %d): analytic %.10g, fd %.10g",
                            eq >= ev ? "q" : "v", j, k, eq >= ev ? dq.get(j, k) : dv.get(j, k), eq >= ev ? fq : fv);
                }
            }
        }
        WORST.merge(what.replaceAll(",.*", ""), worst, Math::max);
        assertTrue(worst <= TOLERANCE, model + ", " + what + ": worst " + worst + " at " + where);
    }

    private static double[] forces(Actuator a, double[] q, double[] v) {
        double[] tau = new double[v.length];
        a.addForces(0, q, v, tau);
        return tau;
    }

    private static double[] uniform(Random rnd, int n, double half) {
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = (2 * rnd.nextDouble() - 1) * half;
        }
        return x;
    }
}
