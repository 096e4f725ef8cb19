package org.symdyn.systems;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.symdyn.contact.ContactSet;
import org.symdyn.contract.DcMotorSpec;
import org.symdyn.contract.ServoSpec;
import org.symdyn.contract.SpringDamperSpec;
import org.symdyn.contract.TorqueSourceSpec;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.model.Model;
import org.symdyn.simulation.DormandPrince45;
import org.symdyn.simulation.RungeKutta4;

/** Each actuator against a closed form or a hand computation. */
class ActuatorTest {

    /**
     * A PD servo on a rotor without gravity is exactly I q̈ = kp (r − q) − kd q̇, linear second order: from rest at
     * q = 0 towards r = 1 with ω_n = √(kp/I) = 4 rad/s and ζ = kd / (2 √(kp I)) = 0.25 (under-damped),
     * q(t) = r − r e^{−ζω_n t} (cos ω_d t + ζω_n/ω_d sin ω_d t), ω_d = ω_n √(1 − ζ²). Dormand-Prince at tolerance
     * 1e-10 must follow it within 1e-8 of the step (measured: 7.7e-11 worst over 6 s).
     */
    @Test
    void pdServoFollowsTheClosedFormStepResponse() {
        double inertia = 0.5, kp = 8, kd = 1, r = 1;
        Model m = SystemModels.rotor(inertia);
        GenericDynamics d = new GenericDynamics(m);
        ContinuousTimeSystem sys = ContinuousTimeSystem.builder(d)
                .integrator(DormandPrince45.factory(1e-10, 1e-10))
                .devices(Devices.of(List.of(new ServoSpec("servo", "axle", 0, 0, kp, kd, r,
                        Double.POSITIVE_INFINITY)), d, null))
                .build();
        sys.setState(0, new double[1], new double[1]);
        double wn = Math.sqrt(kp / inertia), zeta = kd / (2 * Math.sqrt(kp * inertia));
        double wd = wn * Math.sqrt(1 - zeta * zeta);
        double worst = 0;
        for (int i = 1; i <= 60; i++) {
            double t = 0.1 * i;
            sys.run(t, 0.05);
            double exact = r - r * Math.exp(-zeta * wn * t) * (Math.cos(wd * t) + zeta * wn / wd * Math.sin(wd * t));
            worst = Math.max(worst, Math.abs(sys.q()[0] - exact));
        }
        System.out.println("# PD servo step response: worst |q - closed form| = " + worst + " (of a 1 rad step)");
        assertTrue(worst <= 1e-8 * r, "worst error " + worst);
    }

    @Test
    void pdServoSaturatesAndTakesNewTargetsAndGains() {
        PdServo s = new PdServo("s", 0, 0, 100, 10, 1, 5);
        double[] tau = {0.5};
        s.addForces(0, new double[] {0}, new double[] {0}, tau);
        assertEquals(0.5 + 5, tau[0], 0, "saturated at +maxTorque, added to what was there");
        s.setTarget(0.01);
        s.setGains(100, 0);
        tau[0] = 0;
        s.addForces(0, new double[] {0}, new double[] {3}, tau);
        assertEquals(1, tau[0], 1e-15);
        assertThrows(IllegalArgumentException.class, () -> s.setGains(-1, 0));
    }

    @Test
    void torqueSourceAppliesItsSaturatedCommand() {
        JointTorqueSource src = JointTorqueSource.of(new TorqueSourceSpec("t", "j", 1, 2, 3));
        double[] tau = new double[3];
        src.addForces(0, new double[3], new double[3], tau);
        assertEquals(2, tau[1]);
        src.setCommand(-7);
        tau[1] = 0;
        src.addForces(0, new double[3], new double[3], tau);
        assertEquals(-3, tau[1]);
        assertEquals(0, tau[0]);
        assertEquals(0, tau[2]);
    }

    /**
     * DC motor: the stall torque N k_t V / R at q̇ = 0, and a rotor it drives settles at the free speed V / (k_b N),
     * k_b = V_nom / ω_free, with the mechanical time constant I R / (N² k_t k_b) = 0.104 s: after 3 s (29 time
     * constants) the rate is within e^-29 = 2.5e-13 of it (measured: relative error 3.1e-13).
     */
    @Test
    void dcMotorStallTorqueAndFreeSpeed() {
        double kt = 0.02, resistance = 1, freeSpeed = 500, vNom = 12, n = 10, volts = 6;
        DcMotorSpec spec = new DcMotorSpec("motor", "axle", 0, 0, kt, resistance, freeSpeed, vNom, n, volts);
        DcMotor motor = DcMotor.of(spec);
        double[] tau = new double[1];
        motor.addForces(0, new double[1], new double[] {0}, tau);
        assertEquals(n * kt * volts / resistance, tau[0], 1e-15, "stall torque");
        double kb = vNom / freeSpeed;
        double jointFreeSpeed = volts / (kb * n);
        assertEquals(25, jointFreeSpeed, 1e-12);
        assertEquals(jointFreeSpeed, motor.freeSpeed(), 1e-12);
        tau[0] = 0;
        motor.addForces(0, new double[1], new double[] {jointFreeSpeed}, tau);
        assertEquals(0, tau[0], 1e-15, "no torque at the free speed");

        Model m = SystemModels.rotor(0.005);
        GenericDynamics d = new GenericDynamics(m);
        ContinuousTimeSystem sys = ContinuousTimeSystem.builder(d).integrator(RungeKutta4::new)
                .devices(Devices.of(List.of(spec), d, null)).build();
        sys.setState(0, new double[1], new double[1]);
        sys.run(3, 1e-3);
        double rel = Math.abs(sys.v()[0] - jointFreeSpeed) / jointFreeSpeed;
        System.out.println("# DC motor free speed: relative error " + rel);
        assertTrue(rel <= 1e-9, "free speed " + sys.v()[0] + " vs " + jointFreeSpeed);
        // a voltage change acts from the next step on: half the voltage, half the free speed
        sys.actuator("motor", DcMotor.class).setVoltage(volts / 2);
        sys.run(6, 1e-3);
        assertEquals(jointFreeSpeed / 2, sys.v()[0], 1e-9 * jointFreeSpeed);
    }

    /**
     * A spring from the world point (2, 0, 0) to the origin of a cart on an x rail at q = 0.5 moving at 0.3 m/s:
     * d = 1.5 m, u = (−1, 0, 0) from point 1 to point 2, ḋ = u · ẋ₂ = −0.3 m/s, T = k (d − L) + c ḋ =
     * 100 (0.5) + 10 (−0.3) = 47 N pulling the cart towards +x: τ = +47 N.
     */
    @Test
    void springDamperOnASliderByHand() {
        Model m = SystemModels.slider();
        GenericDynamics d = new GenericDynamics(m);
        LinearSpringDamper s = LinearSpringDamper.of(new SpringDamperSpec("spring", "world", -1,
                new double[] {2, 0, 0}, "cart", 0, new double[] {0, 0, 0}, 100, 10, 1), d);
        double[] tau = new double[1];
        s.addForces(0, new double[] {0.5}, new double[] {0.3}, tau);
        assertEquals(47, tau[0], 1e-12);
        assertEquals(47, s.tension(), 1e-12);
        assertEquals(1.5, s.length(), 1e-15);
    }

    /** Between two links of a double pendulum, against Jᵀ f computed here from the positions and point Jacobians. */
    @Test
    void springDamperBetweenTwoBodiesIsJacobianTransposeOfItsForce() {
        Model m = SystemModels.doublePendulum();
        GenericDynamics d = new GenericDynamics(m);
        double[] p1 = {0.1, 0.05, -0.3}, p2 = {-0.05, 0, -0.7};
        double k = 250, c = 3, rest = 0.4;
        LinearSpringDamper s = new LinearSpringDamper("s", d, 0, p1, 1, p2, k, c, rest);
        double[] q = {0.4, -1.1}, v = {0.7, -0.2};
        double[] tau = new double[2];
        s.addForces(0, q, v, tau);

        double[] x1 = new double[3], x2 = new double[3], v1 = new double[3], v2 = new double[3];
        d.pointPosition(q, 0, p1, x1);
        d.pointPosition(q, 1, p2, x2);
        d.pointVelocity(q, v, 0, p1, v1);
        d.pointVelocity(q, v, 1, p2, v2);
        double[] u = new double[3];
        double dist = 0;
        for (int i = 0; i < 3; i++) {
            u[i] = x2[i] - x1[i];
            dist += u[i] * u[i];
        }
        dist = Math.sqrt(dist);
        double rate = 0;
        for (int i = 0; i < 3; i++) {
            u[i] /= dist;
            rate += u[i] * (v2[i] - v1[i]);
        }
        double tension = k * (dist - rest) + c * rate;
        DMatrixRMaj j1 = new DMatrixRMaj(3, 2), j2 = new DMatrixRMaj(3, 2);
        d.pointJacobian(q, 0, p1, j1);
        d.pointJacobian(q, 1, p2, j2);
        for (int col = 0; col < 2; col++) {
            double expected = 0;
            for (int i = 0; i < 3; i++) {
                expected += (j1.get(i, col) - j2.get(i, col)) * tension * u[i];
            }
            assertEquals(expected, tau[col], 1e-12 * Math.max(1, Math.abs(expected)), "τ[" + col + "]");
        }
    }

    /**
     * A world force f at a body point of a link turning about z: τ = n_z + ((R p) × f)_z. A body wrench on a floating
     * base: the base's τ is the wrench itself (its body Jacobian is the identity).
     */
    @Test
    void spatialForceInWorldAndInBody() {
        Model m = SystemModels.spinner();
        GenericDynamics d = new GenericDynamics(m);
        double[] p = {0.5, 0.2, 0.1};
        SpatialForce w = SpatialForce.inWorld("push", d, 0, p);
        w.set(0.1, 0.2, 0.4, 1, 2, 3);
        double qz = 0.3;
        double[] tau = new double[1];
        w.addForces(0, new double[] {qz}, new double[1], tau);
        double[] rp = {Math.cos(qz) * p[0] - Math.sin(qz) * p[1], Math.sin(qz) * p[0] + Math.cos(qz) * p[1], p[2]};
        double expected = 0.4 + (rp[0] * 2 - rp[1] * 1);
        assertEquals(expected, tau[0], 1e-14);

        Model box = SystemModels.box(2, 0.1, 0.5, 0);
        GenericDynamics db = new GenericDynamics(box);
        SpatialForce b = SpatialForce.inBody("wrench", db, 0);
        double[] wrench = {0.3, -0.2, 0.1, 4, 5, -6};
        b.set(wrench);
        double[] q = {0.1, 0.2, 0.3, 0.1, 0.2, 0.3, Math.sqrt(1 - 0.14)};
        double[] tb = new double[6];
        b.addForces(0, q, new double[6], tb);
        for (int i = 0; i < 6; i++) {
            assertEquals(wrench[i], tb[i], 1e-15);
        }
    }

    /**
     * Compliant contact: a 2 kg box whose four corners penetrate by m g / (4 k) at rest is held by normal forces
     * summing to m g exactly, and τ cancels gravity (v̇ = 0). Dropped from 1 cm and left to settle with the time
     * stepping system (no rigid contact), the forces again sum to m g (measured: 2e-16 relative after 3 s).
     */
    @Test
    void compliantContactCarriesTheWeight() {
        double mass = 2, a = 0.1, k = 2e4, b = 400;
        Model m = SystemModels.box(mass, a, 0.8, 0);
        GenericDynamics d = new GenericDynamics(m);
        CompliantContact cc = new CompliantContact("soft", ContactSet.of(m), d, k, b, 500);
        double pen = mass * SystemModels.G / (4 * k);
        double[] q = {0, 0, a - pen, 0, 0, 0, 1};
        double[] tau = new double[6];
        cc.addForces(0, q, new double[6], tau);
        double sum = 0;
        for (int p = 0; p < 4; p++) {
            sum += cc.pairForce(p, 0);
        }
        assertEquals(mass * SystemModels.G, sum, 1e-12 * mass * SystemModels.G);
        double[] vdot = new double[6];
        d.forwardDynamics(q, new double[6], tau, vdot);
        for (double x : vdot) {
            assertEquals(0, x, 1e-12);
        }

        TimeSteppingSystem sys = TimeSteppingSystem.builder(d).timeStep(1e-3).actuator(cc)
                .sensor(new ContactForceSensor("forces", cc)).build();
        sys.setState(0, new double[] {0.02, -0.01, a + 0.01, 0, 0, 0, 1}, new double[] {0.1, 0, 0, 0, 0, 0});
        sys.run(3);
        double[] r = sys.reading("forces");
        double total = r[0] + r[3] + r[6] + r[9];
        double rel = Math.abs(total - mass * SystemModels.G) / (mass * SystemModels.G);
        System.out.println("# compliant contact at rest: sum f_n relative error " + rel);
        assertTrue(rel <= 1e-6, "sum of normal forces " + total);
        assertEquals(12, sys.sensor("forces").size());
        assertEquals("forces.c0@floor.fn", sys.sensor("forces").channels().get(0));
    }
}
