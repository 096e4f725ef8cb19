package org.symdyn.benchmarks;

import java.util.TreeMap;
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
import org.symdyn.contract.DeclaredDevices;
import org.symdyn.contract.ModelFunctions;
import org.symdyn.io.urdf.UrdfReader;
import org.symdyn.model.JointDamping;
import org.symdyn.model.Model;
import org.symdyn.rollout.Controller;
import org.symdyn.rollout.FinalState;
import org.symdyn.rollout.Outcomes;
import org.symdyn.rollout.RolloutResult;
import org.symdyn.rollout.RolloutSpec;
import org.symdyn.rollout.RolloutWorker;
import org.symdyn.rollout.SystemFactory;
import org.symdyn.systems.Devices;
import org.symdyn.systems.TimeSteppingSystem;

/**
 * One rollout of {@link RolloutWorker} on the generated class (compiled in memory at set-up), as a batch's thread
 * runs it: {@code rollout} is the whole rollout (the system built, the parameters applied, the steps taken, the
 * final state kept), {@code setUpOnly} the same rollout with no step. Their difference over the steps is the cost
 * of a step inside a rollout, and their allocation (-prof gc) is the same when the steps allocate nothing.
 * <ul>
 * <li>{@code quadruped}: the sample quadruped dropped 0.1 m, tilted 0.2 rad in roll, onto its floor (4 toe contacts,
 * μ = 0.7 by the {@code friction} parameter) under its 12 declared PD servos, 1 s at h = 1 ms (1,000 steps);</li>
 * <li>{@code arm7}: the sample 7-dof arm (no contact, joint limits) driven from rest to a target posture by a
 * PD controller written as a {@link Controller} (τ = K_p (q* − q) − K_d v, K_p = 20, K_d = 0.5), 1 s at h = 1 ms.</li>
 * </ul>
 * Steps per second per core: 1,000 / (rollout time).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Fork(1)
public class RolloutBenchmark {
    private static final double H = 1e-3;
    private static final double[] GRAVITY = {0, 0, -9.81};
    /**
     * The arm's PD gains (N m/rad, N m s/rad): explicit in the step, so K_D h / H_kk must stay well below 2 for the
     * wrist's small inertia (gains of 200 and 20 diverged within 10 steps).
     */
    private static final double KP = 20;
    private static final double KD = 0.5;

    @Param({"quadruped", "arm7"})
    public String model;

    private RolloutWorker worker;
    private RolloutSpec spec;
    private RolloutSpec noSteps;

    @Setup
    public void setUp() throws Exception {
        Model m = model.equals("arm7") ? UrdfReader.read(ConstrainedSolverBenchmark.sampleFile("arm7.urdf"))
                : ConstrainedSolverBenchmark.readModel("quadruped");
        ModelFunctions f = ConstrainedSolverBenchmark.generatedFunctions(m);
        SystemFactory systems = (functions, s) -> TimeSteppingSystem.builder(functions)
                .contacts(ContactSet.of(m))
                .jointLimits(m)
                .jointDamping(JointDamping.of(m))
                .devices(Devices.of(((DeclaredDevices) functions).devices(), functions, GRAVITY))
                .timeStep(s.timeStep())
                .build();
        double[] q0;
        TreeMap<String, Double> parameters = new TreeMap<>();
        Controller.Factory controllers;
        if (model.equals("quadruped")) {
            q0 = new double[m.nq()];
            ConstrainedSolverBenchmark.standing(m, "quadruped", ConstraintSet.of(m), q0, new double[m.nv()]);
            q0[2] += 0.1;
            q0[3] = Math.sin(0.1);
            q0[6] = Math.cos(0.1);
            parameters.put("friction", 0.7);
            controllers = (s, system) -> Controller.NONE;
        } else {
            q0 = new double[m.nq()];
            double[] target = new double[m.nv()];
            for (int i = 0; i < target.length; i++) {
                target[i] = 0.3 * Math.sin(i + 1);
            }
            controllers = (s, system) -> sys -> {
                double[] q = sys.q();
                double[] v = sys.v();
                double[] tau = sys.input();
                for (int i = 0; i < tau.length; i++) {
                    tau[i] = KP * (target[i] - q[i]) - KD * v[i];
                }
            };
        }
        spec = new RolloutSpec(q0, new double[m.nv()], parameters, 1, 1.0, H);
        noSteps = new RolloutSpec(q0, new double[m.nv()], parameters, 1, 0.0, H);
        worker = new RolloutWorker(f, systems, controllers, false);
        RolloutResult<FinalState> r = worker.run(0, spec, Outcomes.finalState());
        if (r.failed() || r.solves().unconverged() > 0) {
            throw new IllegalStateException("the benchmark's rollout should run and converge: " + r.failure() + " "
                    + r.solves());
        }
        System.out.println("# RolloutBenchmark " + model + ": " + r.steps() + " steps, final q " 
                + java.util.Arrays.toString(r.outcome().q()));
    }

    @Benchmark
    public FinalState rollout() {
        return worker.run(0, spec, Outcomes.finalState()).outcome();
    }

    @Benchmark
    public FinalState setUpOnly() {
        return worker.run(0, noSteps, Outcomes.finalState()).outcome();
    }
}
