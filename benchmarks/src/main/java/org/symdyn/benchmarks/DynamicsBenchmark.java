package org.symdyn.benchmarks;

import java.util.concurrent.TimeUnit;
import org.ejml.data.DMatrixRMaj;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.symdyn.contract.Dynamics;
import org.symdyn.dynamics.GenericDynamics;

/**
 * The five dynamics methods timed on one {@link Dynamics} implementation: one call per operation, at a random but
 * fixed (seeded) state of {@link BenchmarkStates}, into preallocated outputs. Subclasses say which implementation
 * ({@link GenericDynamicsBenchmark}, {@link GeneratedDynamicsBenchmark}); run both in one JMH run to compare.
 *
 * <p>Defaults (1 fork, 5 x 1 s warm-up, 5 x 1 s measurement) keep a full run of 5 methods x 7 models near
 * 6-7 minutes on 2 cores per implementation; floating-base forward dynamics needs 3-4 s of warm-up before C2 has
 * compiled it on a loaded 2-core machine. Override from the command line with {@code -f}, {@code -wi}, {@code -w},
 * {@code -i}, {@code -r}, and pick models with {@code -p model=panda,solo12}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Fork(1)
public abstract class DynamicsBenchmark {
    /** Set-up ends once the JIT has been idle this long (see {@link BenchmarkStates#awaitIdleJit}). */
    static final long IDLE_JIT_MILLIS = 1000;
    static final long MAX_JIT_WAIT_MILLIS = 60_000;

    @Param({"double_pendulum_simple", "ur5_robot", "iiwa14_no_collision", "panda", "hyq_no_sensors", "solo12",
            "romeo_small"})
    public String model;

    private Dynamics dynamics;
    private double[] q;
    private double[] v;
    private double[] a;
    private double[] tau;

    private DMatrixRMaj hOut;
    private double[] cOut;
    private double[] gOut;
    private double[] tauOut;
    private double[] vdotOut;

    /** The implementation to time, checked by the subclass as it sees fit (called once per trial). */
    protected abstract Dynamics create(BenchmarkStates.State state) throws Exception;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        BenchmarkStates.State state = new BenchmarkStates.State(model, BenchmarkStates.readModel(model));
        dynamics = create(state);
        state.sanityCheck(dynamics);
        q = state.q;
        v = state.v;
        a = state.a;
        tau = state.tau;
        hOut = state.hOut;
        cOut = state.cOut;
        gOut = state.gOut;
        tauOut = state.tauOut;
        vdotOut = state.vdotOut;
        // Start the warm-up with an idle JIT, so that it does not share the C2 thread with set-up's hot methods.
        long idle = BenchmarkStates.awaitIdleJit(IDLE_JIT_MILLIS, MAX_JIT_WAIT_MILLIS);
        System.out.println("# " + state.describe() + "; waited " + idle + " ms for an idle JIT");
    }

    /**
     * After the trial, the machine code C2 compiled for a generated class's methods ({@link CodeFootprint}): the
     * measure of whether the timed method's code fits the instruction cache.
     */
    @TearDown(Level.Trial)
    public void printFootprint() {
        if (dynamics != null && !(dynamics instanceof GenericDynamics)) {
            CodeFootprint.printAfterTrial(dynamics.getClass());
        }
    }

    /** H(q) (RBDL: CompositeRigidBodyAlgorithm). */
    @Benchmark
    public DMatrixRMaj massMatrix() {
        dynamics.massMatrix(q, hOut);
        return hOut;
    }

    /** C(q, v): Coriolis, centrifugal and gravity, RNEA with v̇ = 0 (RBDL: NonlinearEffects). */
    @Benchmark
    public double[] biasForces() {
        dynamics.biasForces(q, v, cOut);
        return cOut;
    }

    /** Gravity forces g(q), RNEA with v = v̇ = 0 (no RBDL figure). */
    @Benchmark
    public double[] gravityForces() {
        dynamics.gravityForces(q, gOut);
        return gOut;
    }

    /** τ = ID(q, v, v̇) (RBDL: InverseDynamics). */
    @Benchmark
    public double[] inverseDynamics() {
        dynamics.inverseDynamics(q, v, a, tauOut);
        return tauOut;
    }

    /** v̇ = FD(q, v, τ) (RBDL: ForwardDynamics, ABA). */
    @Benchmark
    public double[] forwardDynamics() {
        dynamics.forwardDynamics(q, v, tau, vdotOut);
        return vdotOut;
    }
}
