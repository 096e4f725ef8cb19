package org.symdyn.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.symdyn.constraints.ConstraintSet;
import org.symdyn.contact.ContactSet;
import org.symdyn.contract.DeviceSpec;
import org.symdyn.contract.ImuSpec;
import org.symdyn.contract.ServoSpec;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.model.Model;
import org.symdyn.systems.Devices;
import org.symdyn.systems.TimeSteppingSystem;

/**
 * A whole system step (issue 12): the sample quadruped standing on its four feet (the model file's floor and contact
 * points: 4 contacts), a {@link org.symdyn.systems.PdServo} on each of its 12 joints (kp 100 N·m/rad, kd 5 N·m·s/rad,
 * targets the standing pose, the static-equilibrium torques of {@link ConstrainedSolverBenchmark} as the τ input
 * feed-forward) and one ideal {@link org.symdyn.systems.Imu} on the trunk, h = 1 ms. One call is one step of the
 * running simulation (servo forces, H, C, contact Jacobians, W, the warm-started contact solve, v⁺, q⁺, the IMU):
 * the robot keeps standing, so every call is a step like the last; set-up runs a second of it and checks that four
 * contacts remain and every solve converged.
 * Backends: the generated class alone ({@code generated}, compiled in memory at set-up) or {@link GenericDynamics}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Fork(1)
public class SystemStepBenchmark {
    private static final double H = 1e-3;
    private static final String[] JOINTS = {"lf_haa", "lf_hfe", "lf_kfe", "rf_haa", "rf_hfe", "rf_kfe", "lh_haa",
        "lh_hfe", "lh_kfe", "rh_haa", "rh_hfe", "rh_kfe"};

    @Param({"generated", "generic"})
    public String backend;

    private TimeSteppingSystem system;
    private double[] imu;

    @Setup
    public void setUp() throws Exception {
        Model m = ConstrainedSolverBenchmark.readModel("quadruped");
        double[] q0 = new double[m.nq()];
        double[] tau = new double[m.nv()];
        ConstrainedSolverBenchmark.standing(m, "quadruped", ConstraintSet.of(m), q0, tau);
        List<DeviceSpec> specs = new ArrayList<>();
        for (String j : JOINTS) {
            int qi = m.qNames().indexOf(j);
            int vi = m.vNames().indexOf(j);
            if (qi < 0 || vi < 0) {
                throw new IllegalStateException("the quadruped has no joint " + j + ": " + m.qNames());
            }
            specs.add(new ServoSpec(j + "_servo", j, qi, vi, 100, 5, q0[qi], Double.POSITIVE_INFINITY));
        }
        specs.add(new ImuSpec("imu", "trunk", 0, new double[] {1, 0, 0, 0, 1, 0, 0, 0, 1}, new double[3], 0, 0,
                new double[3], new double[3], 1));
        ContactSet contacts = ContactSet.of(m);
        if (backend.equals("generated")) {
            var f = ConstrainedSolverBenchmark.generatedFunctions(m);
            system = TimeSteppingSystem.builder(f).contacts(contacts).timeStep(H)
                    .devices(Devices.of(specs, f, m.gravity())).build();
        } else if (backend.equals("generic")) {
            GenericDynamics g = new GenericDynamics(m);
            system = TimeSteppingSystem.builder(g).contacts(contacts).timeStep(H)
                    .devices(Devices.of(specs, g, m.gravity())).build();
        } else {
            throw new IllegalArgumentException("backend must be generated or generic: " + backend);
        }
        system.setState(0, q0, new double[m.nv()]);
        system.setInput(tau);
        system.run(1.0);
        if (system.stepper().contactCount() != 4 || !system.summary().allConverged()) {
            throw new IllegalStateException("the quadruped should stand on 4 contacts with every solve converged: "
                    + system.stepper().contactCount() + " contacts, " + system.summary());
        }
        imu = system.reading("imu");
        System.out.println("# SystemStepBenchmark " + backend + ": after 1 s standing, " + system.summary()
                + ", IMU specific force z " + imu[5] + " m/s²");
    }

    @Benchmark
    public double step() {
        system.step();
        return system.q()[2] + imu[5];
    }
}
