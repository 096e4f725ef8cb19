package org.symdyn.systems;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.symdyn.contact.ContactSet;
import org.symdyn.contract.DcMotorSpec;
import org.symdyn.contract.EncoderSpec;
import org.symdyn.contract.ImuSpec;
import org.symdyn.contract.ServoSpec;
import org.symdyn.contract.SpringDamperSpec;
import org.symdyn.contract.TorqueSourceSpec;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.model.Model;
import org.symdyn.simulation.MechanicalEnergy;
import org.symdyn.simulation.SemiImplicitEuler;
import org.symdyn.testing.Allocations;

/** The time-stepping system: energy behaviour, restitution, contact-force sensing, devices, allocation. */
class TimeSteppingSystemTest {
    private static final double[] IDENTITY = {1, 0, 0, 0, 1, 0, 0, 0, 1};

    /** {max |E − E₀| over 10 s, mean E − E₀ over the first second, over the tenth second}. */
    private static double[] energyErrors(double h) {
        Model m = SystemModels.doublePendulum();
        GenericDynamics d = new GenericDynamics(m);
        MechanicalEnergy energy = new MechanicalEnergy(m, d, d);
        TimeSteppingSystem sys = TimeSteppingSystem.builder(d).timeStep(h).build();
        sys.setState(0, new double[] {1.2, -0.5}, new double[] {0, 0});
        double e0 = energy.total(sys.q(), sys.v());
        double worst = 0, first = 0, last = 0;
        int perSecond = (int) Math.round(1 / h);
        int n = 10 * perSecond;
        for (int i = 1; i <= n; i++) {
            sys.step();
            double err = energy.total(sys.q(), sys.v()) - e0;
            worst = Math.max(worst, Math.abs(err));
            if (i <= perSecond) {
                first += err / perSecond;
            } else if (i > n - perSecond) {
                last += err / perSecond;
            }
        }
        assertTrue(sys.summary().allConverged());
        assertEquals(n, sys.summary().steps());
        return new double[] {worst, first, last};
    }

    /**
     * A passive double pendulum released from (1.2, −0.5) rad (swing energy E₀ − E_min = 6.83 J), no contact: the
     * system's step is then H(q)(v⁺ − v) = −h C(q, v), q⁺ = q + h v⁺, semi-implicit Euler. Its energy error is
     * first order: halving h halves it (measured ratio 2.01). It is <b>not</b> bounded: with a
     * configuration-dependent H this explicit-in-v form is not symplectic Euler (which would update the momentum
     * H v implicitly), and the energy grows linearly in time, at a rate proportional to h: measured at h = 1 ms,
     * mean error 6.2e-3 J over the first second, 0.148 J over the tenth (0.015 J/s, 0.2 % of the swing energy per
     * second), max 0.156 J; over 120 s the growth stays linear (2.7 J). The bars below are those numbers with
     * about 30 % room, so that a change of scheme (towards or away from conservation) shows.
     */
    /**
     * A run's end is reached by the step count, not by a sliver: after 20,000 steps of 0.1 ms the sum of the steps
     * fell 2e-13 s short of 2 s, and a step of that sliver alone divided the contact impulse and Δv by it (the IMU of
     * a box at rest read 9.8313, at 50 s 0: a helper's probe). The last step takes the sliver in.
     */
    @Test
    void runEndsWithoutASliverStep() throws Exception {
        Model m = org.symdyn.io.urdf.UrdfReader.parse("""
                <robot name="box" xmlns:symdyn="urn:symdyn:1">
                  <link name="box">
                    <inertial><mass value="3"/><inertia ixx="0.05" iyy="0.05" izz="0.05" ixy="0" ixz="0" iyz="0"/></inertial>
                    <collision><geometry><box size="0.4 0.4 0.4"/></geometry></collision>
                  </link>
                  <symdyn:ground name="floor" point="0 0 0" normal="0 0 1" friction="0.8"/>
                  <symdyn:imu name="imu" link="box" xyz="0.1 0.05 0.2" rpy="0 0 1.0"/>
                </robot>
                """, "box.urdf", new org.symdyn.io.urdf.UrdfReader.Options(true, false));
        GenericDynamics d = new GenericDynamics(m);
        TimeSteppingSystem s = TimeSteppingSystem.builder(d).contacts(ContactSet.of(m))
                .devices(Devices.of(m.devices(), d, m.gravity())).contactForceSensor("cf").timeStep(1e-4).build();
        s.setState(0, new double[] {0, 0, 0.2, 0, 0, 0, 1}, new double[6]);
        assertEquals(20_000, s.run(2.0));
        assertEquals(2.0, s.time(), 1e-12);
        double[] imu = s.reading("imu");
        assertEquals(9.81, imu[5], 1e-9, "specific force up, at rest");
        List<String> channels = s.sensor("cf").channels();
        assertEquals(3 * 9.81, s.reading("cf")[channels.indexOf("cf.box/collision0.fz")], 1e-9,
                "the floor carries m g: " + channels);
        assertThrows(IllegalArgumentException.class, () -> s.run(Double.NaN));
        // a contact force sensor without contacts is refused, as the continuous system refuses it (it had no channel)
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TimeSteppingSystem.builder(d).contactForceSensor("cf").build());
        assertTrue(e.getMessage().contains("needs contacts"), e.getMessage());
    }

    @Test
    void devicesMadeByHandForAnotherModelAreRefusedByName() {
        Model pendulum = SystemModels.doublePendulum();
        GenericDynamics d = new GenericDynamics(pendulum);
        GenericDynamics other = new GenericDynamics(SystemModels.rotor(1));
        // indices past the model's q and v: they failed in the step (an index out of bounds), or acted on a
        // wrong joint of a larger model
        String[][] cases = {
            {"servo", "position index 2 outside 0..1"},
            {"motor", "velocity index 5 outside 0..1"},
            {"encoder", "velocity index -1"},
            {"imu", "made for model"},
            {"state", "made for nq 1"},
        };
        for (String[] c : cases) {
            TimeSteppingSystem.Builder b = TimeSteppingSystem.builder(d);
            switch (c[0]) {
                case "servo" -> b.actuator(new PdServo("servo", 2, 1, 1, 1, 0, 1));
                case "motor" -> b.actuator(new JointTorqueSource("motor", 5, 0, 1));
                case "encoder" -> b.sensor(new JointEncoder("encoder", 0, 0, 0, 0));
                case "imu" -> b.sensor(Imu.ideal("imu", other, 0, new double[] {0, 0, -9.81}));
                default -> b.sensor(new FullStateSensor("state", other));
            }
            if (c[0].equals("encoder")) {
                // the constructor refuses a negative index; one past the end is the builder's to find
                b = TimeSteppingSystem.builder(d).sensor(new JointEncoder("encoder", 0, 2, 0, 0));
                c[1] = "velocity index 2 outside 0..1";
            }
            TimeSteppingSystem.Builder built = b;
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, built::build);
            assertTrue(e.getMessage().startsWith(c[0] + ": ") && e.getMessage().contains(c[1]), e.getMessage());
            IllegalArgumentException continuous = assertThrows(IllegalArgumentException.class, () -> {
                ContinuousTimeSystem.Builder cb = ContinuousTimeSystem.builder(d);
                built.actuators.forEach(cb::actuator);
                built.sensors.forEach(cb::sensor);
                cb.build();
            });
            assertEquals(e.getMessage(), continuous.getMessage());
        }
    }

    @Test
    void passiveDoublePendulumEnergyErrorIsFirstOrderInH() {
        double[] a = energyErrors(1e-3);
        double[] b = energyErrors(5e-4);
        System.out.printf("# energy h=1ms: max %.3e J, mean 1st s %.3e, mean 10th s %.3e; h=0.5ms: max %.3e J, "
                + "mean 1st s %.3e, mean 10th s %.3e%n", a[0], a[1], a[2], b[0], b[1], b[2]);
        double ratio = a[0] / b[0];
        assertTrue(ratio > 1.8 && ratio < 2.2, "first order in h: ratio of errors " + ratio);
        assertTrue(a[1] > 0 && a[1] < 8e-3, "first second " + a[1]);
        assertTrue(a[2] < 0.2, "tenth second " + a[2]);
        assertTrue(a[0] < 0.2, "max " + a[0]);
    }

    /** Without contact the system's step is exactly SemiImplicitEuler's: the same trajectory to rounding. */
    @Test
    void withoutContactItIsSemiImplicitEuler() {
        Model m = SystemModels.doublePendulum();
        GenericDynamics d1 = new GenericDynamics(m);
        GenericDynamics d2 = new GenericDynamics(m);
        PdServo s1 = new PdServo("servo", 1, 1, 20, 1, 0.3, 5);
        PdServo s2 = new PdServo("servo", 1, 1, 20, 1, 0.3, 5);
        TimeSteppingSystem ts = TimeSteppingSystem.builder(d1).timeStep(1e-3).actuator(s1).build();
        ContinuousTimeSystem ct = ContinuousTimeSystem.builder(d2).integrator(SemiImplicitEuler::new).actuator(s2)
                .build();
        double[] q0 = {0.8, 0.1}, v0 = {0.5, -1};
        ts.setState(0, q0, v0);
        ct.setState(0, q0, v0);
        ts.setInput(new double[] {0.7, 0});
        ct.setInput(new double[] {0.7, 0});
        ts.run(1);
        ct.run(1, 1e-3);
        assertEquals(1000, ts.stepCount());
        assertArrayEquals(ct.q(), ts.q(), 1e-11);
        assertArrayEquals(ct.v(), ts.v(), 1e-11);
    }

    /**
     * A 1 kg cube dropped flat from 0.5 m onto a ground of restitution 0.5 rebounds to e² = 0.25 of the drop. The
     * stepper applies Newton's law in the step where the gap closes, from the approach speed at that step's start
     * and from wherever in the last step's travel (≤ h |u|) the box is: measured 0.2505 at h = 0.5 ms (0.2 % off)
     * and 0.2544 at 1 ms (1.8 % off).
     */
    @Test
    void boxReboundsToAQuarterOfItsDropHeight() {
        assertEquals(0.25, rebound(5e-4), 0.01 * 0.25);
        assertEquals(0.25, rebound(1e-3), 0.025 * 0.25);
    }

    private static double rebound(double h) {
        double mass = 1, a = 0.1, drop = 0.5;
        Model m = SystemModels.box(mass, a, 0.5, 0.5);
        GenericDynamics d = new GenericDynamics(m);
        TimeSteppingSystem sys = TimeSteppingSystem.builder(d).contacts(ContactSet.of(m)).timeStep(h).build();
        sys.setState(0, new double[] {0, 0, a + drop, 0, 0, 0, 1}, new double[6]);
        boolean bounced = false;
        double apex = 0;
        while (sys.time() < 1.5) {
            sys.step();
            bounced |= sys.v()[5] > 0;
            if (bounced) {
                apex = Math.max(apex, sys.q()[2] - a);
                if (sys.v()[5] < 0) {
                    break;
                }
            }
        }
        assertTrue(bounced);
        assertTrue(sys.summary().allConverged(), sys.summary().toString());
        System.out.printf("# box dropped 0.5 m, e = 0.5, h = %g s: rebound %.5f of the drop%n", h, apex / drop);
        return apex / drop;
    }

    /**
     * A 3 kg box resting on its four corners: the contact-force sensor's normal forces (impulses over h) sum to m g,
     * the tangential ones to zero (four coplanar corners leave internal tangential forces undetermined: measured
     * 1.8e-3 N at one corner, cancelling), and an ideal IMU on it reads the support's specific force +g along the box's z.
     */
    @Test
    void restingBoxContactForcesAndImu() {
        double mass = 3, a = 0.1;
        Model m = SystemModels.box(mass, a, 0.5, 0);
        GenericDynamics d = new GenericDynamics(m);
        TimeSteppingSystem sys = TimeSteppingSystem.builder(d).contacts(ContactSet.of(m))
                .sensor(Imu.ideal("imu", d, 0, m.gravity())).contactForceSensor("feet").build();
        sys.setState(0, new double[] {0, 0, a, 0, 0, 0, 1}, new double[6]);
        assertTrue(Double.isNaN(sys.reading("imu")[0]), "no reading before the first step");
        sys.run(0.5);
        double[] f = sys.reading("feet");
        double sum = 0, t1 = 0, t2 = 0;
        for (int p = 0; p < 4; p++) {
            sum += f[3 * p];
            t1 += f[3 * p + 1];
            t2 += f[3 * p + 2];
            assertEquals(f[3 * p], sys.pairForce(p, 0), 0);
        }
        assertEquals(0, t1, 1e-8);
        assertEquals(0, t2, 1e-8);
        assertEquals(mass * SystemModels.G, sum, 1e-8 * mass * SystemModels.G);
        double[] imu = sys.reading("imu");
        assertArrayEquals(new double[] {0, 0, 0, 0, 0, SystemModels.G}, imu, 1e-8);
        SolveSummary s = sys.summary();
        assertTrue(s.allConverged() && s.steps() == 500 && s.maxIterations() >= 1, s.toString());
    }

    /** A model's declarations bound and looked up by name; run-time commands reach the step. */
    @Test
    void devicesFromDeclarations() {
        Model m = SystemModels.doublePendulum();
        GenericDynamics d = new GenericDynamics(m);
        Devices dev = Devices.of(List.of(
                new ServoSpec("shoulder_servo", "shoulder", 0, 0, 50, 5, 0.2, 30),
                new TorqueSourceSpec("elbow_torque", "elbow", 1, 0, 2),
                new EncoderSpec("elbow_enc", "elbow", 1, 1, 0.001, 0.5),
                new ImuSpec("imu", "fore", 1, IDENTITY, new double[] {0, 0, -1}, 0, 0, new double[3], new double[3],
                        7)), d, m.gravity());
        assertEquals(List.of("shoulder_servo", "elbow_torque"), dev.actuators().stream().map(Actuator::name).toList());
        assertEquals(List.of("elbow_enc", "imu"), dev.sensors().stream().map(Sensor::name).toList());
        TimeSteppingSystem sys = TimeSteppingSystem.builder(d).devices(dev).build();
        sys.actuator("elbow_torque", JointTorqueSource.class).setCommand(1.5);
        sys.setState(0, new double[2], new double[2]);
        sys.step();
        assertEquals(50 * 0.2, sys.appliedForces()[0], 1e-12, "servo at the start of the step");
        assertEquals(1.5, sys.appliedForces()[1], 0, "torque source's command");
        double[] enc = sys.reading("elbow_enc");
        assertEquals(0.5 + 0.001 * Math.rint(sys.q()[1] / 0.001), enc[0], 1e-15);
        assertEquals(sys.v()[1], enc[1], 0);
        assertEquals(List.of("elbow_enc.q", "elbow_enc.v"), sys.sensor("elbow_enc").channels());
        assertThrows(IllegalArgumentException.class, () -> sys.actuator("elbow_enc"));
        assertThrows(IllegalArgumentException.class, () -> sys.actuator("shoulder_servo", DcMotor.class));
        assertThrows(IllegalArgumentException.class, () -> sys.reading("nothing"));
    }

    @Test
    void declarationsOfAnotherModelAreRefused() {
        Model m = SystemModels.rotor(1);
        GenericDynamics d = new GenericDynamics(m);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Devices.of(
                List.of(new ServoSpec("s", "j", 3, 3, 1, 1, 0, 1)), d, null));
        assertTrue(e.getMessage().contains("outside"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Devices.of(List.of(
                new TorqueSourceSpec("x", "axle", 0, 0, 1), new TorqueSourceSpec("x", "axle", 0, 0, 1)), d, null));
        e = assertThrows(IllegalArgumentException.class, () -> Devices.of(List.of(new ImuSpec("imu", "rotor", 0,
                IDENTITY, new double[3], 0, 0, new double[3], new double[3], 0)), d, null));
        assertTrue(e.getMessage().contains("gravity"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Devices.of(List.of(new SpringDamperSpec("s", "a", 4,
                new double[3], "b", 0, new double[3], 1, 1, 0)), d, null));
    }

    /** Both systems take the same contact set; at rest on its corners the box carries its weight in either. */
    @Test
    void bothSystemsTakeRigidContact() {
        Model m = SystemModels.box(1, 0.1, 0.5, 0);
        GenericDynamics d = new GenericDynamics(m);
        double[] q0 = {0, 0, 0.1, 0, 0, 0, 1};
        ContinuousTimeSystem ct = ContinuousTimeSystem.builder(d).contacts(ContactSet.of(m))
                .contactForceSensor("feet").build();
        TimeSteppingSystem ts = TimeSteppingSystem.builder(d).contacts(ContactSet.of(m)).contactForceSensor("feet")
                .build();
        ct.setState(0, q0, new double[6]);
        ts.setState(0, q0, new double[6]);
        ct.run(0.1, 1e-3);
        ts.run(0.1);
        double sumCt = 0;
        double sumTs = 0;
        for (int p = 0; p < 4; p++) {
            sumCt += ct.reading("feet")[3 * p];
            sumTs += ts.reading("feet")[3 * p];
        }
        assertEquals(SystemModels.G, sumCt, 1e-9);
        assertEquals(SystemModels.G, sumTs, 1e-9);
        assertEquals(0.1, ct.q()[2], 1e-12);
    }

    /**
     * After warm-up a step allocates nothing: the box on its corners with a wrench, an IMU with noise, the contact
     * sensor and the full state; the double pendulum with every joint actuator, a spring and an encoder.
     */
    @Test
    void aStepDoesNotAllocate() {
        Model m = SystemModels.box(2, 0.1, 0.5, 0.3);
        GenericDynamics d = new GenericDynamics(m);
        SpatialForce push = SpatialForce.inWorld("push", d, 0, new double[] {0.1, 0, 0});
        push.set(0, 0, 0.01, 0.5, 0, 0);
        TimeSteppingSystem box = TimeSteppingSystem.builder(d).contacts(ContactSet.of(m)).actuator(push)
                .sensor(new Imu("imu", d, 0, IDENTITY, new double[] {0, 0, 0.05}, m.gravity(), 0.01, 0.1,
                        new double[3], new double[3], 3))
                .sensor(new FullStateSensor("state", d)).contactForceSensor("feet").build();
        box.setState(0, new double[] {0, 0, 0.1, 0, 0, 0, 1}, new double[6]);
        long bytes = Allocations.allocatedBytes(500, box::step);
        assertTrue(bytes < 1024, "box step allocated " + bytes + " bytes");

        Model p = SystemModels.doublePendulum();
        GenericDynamics dp = new GenericDynamics(p);
        TimeSteppingSystem pend = TimeSteppingSystem.builder(dp)
                .devices(Devices.of(List.of(new ServoSpec("servo", "shoulder", 0, 0, 10, 1, 0.5, 20),
                        new DcMotorSpec("motor", "elbow", 1, 1, 0.02, 1, 500, 12, 10, 3),
                        new TorqueSourceSpec("src", "elbow", 1, 0.1, 1),
                        new SpringDamperSpec("spring", "world", -1, new double[] {1, 0, 0}, "fore", 1,
                                new double[] {0, 0, -1}, 20, 1, 0.5),
                        new EncoderSpec("enc", "shoulder", 0, 0, 1e-3, 0)), dp, p.gravity()))
                .build();
        pend.setState(0, new double[] {0.3, 0.2}, new double[2]);
        bytes = Allocations.allocatedBytes(500, pend::step);
        assertTrue(bytes < 1024, "pendulum step allocated " + bytes + " bytes");
    }
}
