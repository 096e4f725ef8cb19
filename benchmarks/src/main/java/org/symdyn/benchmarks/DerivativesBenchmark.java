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
import org.openjdk.jmh.infra.BenchmarkParams;
import org.symdyn.contract.DynamicsDerivatives;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.generator.CodeGenerator;
import org.symdyn.generator.GeneratedClass;
import org.symdyn.generator.GeneratedMethod;
import org.symdyn.generator.GeneratorOptions;
import org.symdyn.generator.InProcessCompiler;

/**
 * The derivatives of the dynamics (issue 15), in one JMH run so that the ratios are of one machine state:
 * <ul>
 * <li>generated ∂τ/∂q and ∂τ/∂v together ({@link #generatedInverseDynamicsDerivatives}) against the generated
 * inverse dynamics ({@link #generatedInverseDynamics}); bar: at most 3x;</li>
 * <li>generated ∂v̇/∂q, ∂v̇/∂v and ∂v̇/∂τ = H⁻¹ together ({@link #generatedForwardDynamicsDerivatives}) against the
 * generated forward dynamics ({@link #generatedForwardDynamics}); bar: at most 4x;</li>
 * <li>both against the generic runtime's analytical derivatives ({@link #genericInverseDynamicsDerivatives},
 * {@link #genericForwardDynamicsDerivatives}); bar: generated at least 4x faster;</li>
 * <li>for reference, the generated Coriolis matrix and regressor.</li>
 * </ul>
 * Models: iiwa14 (fixed base, 7 dof) and solo12 (floating base, 18 dof), at the seeded state of
 * {@link BenchmarkStates}. Set-up generates the class with {@link GeneratorOptions#derivatives()} (several
 * seconds for solo12, plus javac), refuses to time it unless every derivative equals the generic runtime's to 1e-9
 * relative to the largest entry (at least 1), then waits for an idle JIT as {@link DynamicsBenchmark} does. Add
 * {@code -prof gc} for the bytes per call (0 expected of both backends). Pinocchio's figures for comparison are in
 * {@code shared/reference/peer-timings.md}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Fork(1)
public class DerivativesBenchmark {
    /** Relative bar of generated against generic (the generator's GeneratedDerivativesTest). */
    static final double TOLERANCE = 1e-9;
    static final String PACKAGE = "org.symdyn.benchmarks.derivatives";

    @Param({"iiwa14_no_collision", "solo12"})
    public String model;

    private DynamicsDerivatives generated;
    private GenericDynamics generic;
    private double[] q;
    private double[] v;
    private double[] a;
    private double[] tau;
    private double[] tauOut;
    private double[] vdotOut;
    private DMatrixRMaj m1;
    private DMatrixRMaj m2;
    private DMatrixRMaj m3;
    private DMatrixRMaj y;

    /**
     * After a generated benchmark's trial, the machine code C2 compiled for the generated class's methods
     * ({@link CodeFootprint}): the derivatives are the largest generated methods.
     */
    @TearDown(Level.Trial)
    public void printFootprint(BenchmarkParams params) {
        if (generated != null && params.getBenchmark().contains(".generated")) {
            CodeFootprint.printAfterTrial(generated.getClass());
        }
    }

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        BenchmarkStates.State state = new BenchmarkStates.State(model, BenchmarkStates.readModel(model));
        long t0 = System.nanoTime();
        GeneratedClass gen = new CodeGenerator().generate(state.model,
                GeneratorOptions.of(PACKAGE, GeneratedDynamicsBenchmark.className(model)).withDerivatives(true));
        long t1 = System.nanoTime();
        InProcessCompiler.Compiled compiled = InProcessCompiler.compile(gen);
        long t2 = System.nanoTime();
        generated = (DynamicsDerivatives) compiled.type().getDeclaredConstructor().newInstance();
        generic = new GenericDynamics(state.model);
        state.sanityCheck(generated);
        q = state.q;
        v = state.v;
        a = state.a;
        tau = state.tau;
        tauOut = state.tauOut;
        vdotOut = state.vdotOut;
        int nv = state.model.nv();
        m1 = new DMatrixRMaj(nv, nv);
        m2 = new DMatrixRMaj(nv, nv);
        m3 = new DMatrixRMaj(nv, nv);
        y = new DMatrixRMaj(nv, DynamicsDerivatives.PARAMETERS_PER_BODY * state.model.bodyCount());
        double worst = requireSameDerivatives(nv);
        System.out.printf("# generated %s with derivatives in %d ms, compiled in %d ms; largest method %d B;"
                + " operations: ID %s, ID derivatives %s, FD %s, FD derivatives %s; worst relative difference from"
                + " generic %.2g%n", gen.qualifiedName(), (t1 - t0) / 1_000_000, (t2 - t1) / 1_000_000,
                compiled.methodSizes().values().stream().mapToInt(Integer::intValue).max().orElse(0),
                gen.operations().get(GeneratedMethod.INVERSE_DYNAMICS),
                gen.operations().get(GeneratedMethod.INVERSE_DYNAMICS_DERIVATIVES),
                gen.operations().get(GeneratedMethod.FORWARD_DYNAMICS),
                gen.operations().get(GeneratedMethod.FORWARD_DYNAMICS_DERIVATIVES),
                worst);
        long idle = BenchmarkStates.awaitIdleJit(DynamicsBenchmark.IDLE_JIT_MILLIS,
                DynamicsBenchmark.MAX_JIT_WAIT_MILLIS);
        System.out.println("# " + state.describe() + "; waited " + idle + " ms for an idle JIT");
    }

    /** Every derivative of the generated class against the generic runtime's; the worst relative difference. */
    private double requireSameDerivatives(int nv) {
        DMatrixRMaj[] e = {new DMatrixRMaj(nv, nv), new DMatrixRMaj(nv, nv), new DMatrixRMaj(nv, nv)};
        double worst = 0;
        generic.inverseDynamicsDerivatives(q, v, a, e[0], e[1]);
        generated.inverseDynamicsDerivatives(q, v, a, m1, m2);
        worst = Math.max(worst, compare("dtau/dq", e[0], m1));
        worst = Math.max(worst, compare("dtau/dv", e[1], m2));
        generic.forwardDynamicsDerivatives(q, v, tau, e[0], e[1], e[2]);
        generated.forwardDynamicsDerivatives(q, v, tau, m1, m2, m3);
        worst = Math.max(worst, compare("dvdot/dq", e[0], m1));
        worst = Math.max(worst, compare("dvdot/dv", e[1], m2));
        worst = Math.max(worst, compare("dvdot/dtau", e[2], m3));
        generic.coriolisMatrix(q, v, e[0]);
        generated.coriolisMatrix(q, v, m1);
        worst = Math.max(worst, compare("Coriolis matrix", e[0], m1));
        DMatrixRMaj ye = new DMatrixRMaj(y.numRows, y.numCols);
        generic.regressor(q, v, a, ye);
        generated.regressor(q, v, a, y);
        return Math.max(worst, compare("regressor", ye, y));
    }

    private static double compare(String what, DMatrixRMaj expected, DMatrixRMaj actual) {
        double scale = 1;
        double diff = 0;
        for (int i = 0; i < expected.data.length; i++) {
            scale = Math.max(scale, Math.abs(expected.data[i]));
            diff = Math.max(diff, Math.abs(expected.data[i] - actual.data[i]));
        }
        if (!(diff <= TOLERANCE * scale)) {
            throw new IllegalStateException("generated " + what + " differs from generic by " + diff + " (scale "
                    + scale + "): refusing to time it");
        }
        return diff / scale;
    }

    /** τ = ID(q, v, v̇), generated: the reference of the inverse-dynamics derivatives. */
    @Benchmark
    public double[] generatedInverseDynamics() {
        generated.inverseDynamics(q, v, a, tauOut);
        return tauOut;
    }

    /** ∂τ/∂q and ∂τ/∂v together, generated. */
    @Benchmark
    public DMatrixRMaj generatedInverseDynamicsDerivatives() {
        generated.inverseDynamicsDerivatives(q, v, a, m1, m2);
        return m2;
    }

    /** v̇ = FD(q, v, τ), generated: the reference of the forward-dynamics derivatives. */
    @Benchmark
    public double[] generatedForwardDynamics() {
        generated.forwardDynamics(q, v, tau, vdotOut);
        return vdotOut;
    }

    /** ∂v̇/∂q, ∂v̇/∂v and ∂v̇/∂τ = H⁻¹ together, generated. */
    @Benchmark
    public DMatrixRMaj generatedForwardDynamicsDerivatives() {
        generated.forwardDynamicsDerivatives(q, v, tau, m1, m2, m3);
        return m3;
    }

    /** The Coriolis matrix C(q, v), generated. */
    @Benchmark
    public DMatrixRMaj generatedCoriolisMatrix() {
        generated.coriolisMatrix(q, v, m1);
        return m1;
    }

    /** The regressor Y(q, v, v̇), generated. */
    @Benchmark
    public DMatrixRMaj generatedRegressor() {
        generated.regressor(q, v, a, y);
        return y;
    }

    /** ∂τ/∂q and ∂τ/∂v together, generic analytical (the inertial-frame pairs of {@code InertialFrameDerivatives}). */
    @Benchmark
    public DMatrixRMaj genericInverseDynamicsDerivatives() {
        generic.inverseDynamicsDerivatives(q, v, a, m1, m2);
        return m2;
    }

    /** ∂v̇/∂q, ∂v̇/∂v and H⁻¹ together, generic analytical. */
    @Benchmark
    public DMatrixRMaj genericForwardDynamicsDerivatives() {
        generic.forwardDynamicsDerivatives(q, v, tau, m1, m2, m3);
        return m3;
    }

    /** The Coriolis matrix C(q, v), generic analytical (the inertial-frame pairs of {@code InertialFrameDerivatives}). */
    @Benchmark
    public DMatrixRMaj genericCoriolisMatrix() {
        generic.coriolisMatrix(q, v, m1);
        return m1;
    }
}
