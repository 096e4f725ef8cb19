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
import org.openjdk.jmh.annotations.Warmup;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.constraints.ConstraintSet;
import org.symdyn.contract.DynamicsDerivatives;
import org.symdyn.contract.ModelFunctions;
import org.symdyn.generator.CodeGenerator;
import org.symdyn.generator.GeneratedClass;
import org.symdyn.generator.GeneratorOptions;
import org.symdyn.generator.InProcessCompiler;
import org.symdyn.model.Model;
import org.symdyn.solvers.ConstrainedDynamics;
import org.symdyn.solvers.ConstrainedDynamicsDerivatives;

/**
 * Derivatives of constrained forward dynamics (issue 15, item 4) in one JMH run with what they build on: the same
 * backend's constrained forward dynamics (direct method) and its unconstrained forward-dynamics derivatives.
 * Models and states are {@link ConstrainedSolverBenchmark}'s: the quadruped sample on its 12 declared contact rows
 * and solo12 with its 12 foot rows declared ({@code solo12Declared}), standing, v = 0, static-equilibrium τ.
 * {@code backend=generated} binds a class generated with derivatives (its ∂τ, H⁻¹, H, C, G, γ and its rows'
 * derivatives). Set-up refuses to time unless the generated binding's derivatives equal the generic binding's to
 * 1e-9 of each matrix's largest entry. Add {@code -prof gc} for the bytes
 * per call (0 expected).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Fork(1)
public class ConstrainedDerivativesBenchmark {
    @Param({"quadruped", "solo12Declared"})
    public String model;

    @Param({"generic", "generated"})
    public String backend;

    private DynamicsDerivatives dynamics;
    private ConstrainedDynamics forward;
    private ConstrainedDynamicsDerivatives derivatives;
    private double[] q;
    private double[] v;
    private double[] tau;
    private double[] vdot;
    private DMatrixRMaj[] out;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        Model m = ConstrainedSolverBenchmark.readModel(model);
        ConstraintSet set = ConstrainedSolverBenchmark.constraintSet(m);
        int nv = m.nv();
        int rows = set.size();
        q = new double[m.nq()];
        v = new double[nv];
        tau = new double[nv];
        vdot = new double[nv];
        ConstrainedSolverBenchmark.standing(m, model, set, q, tau);
        ConstraintData generic = set.bindGeneric();
        ConstraintData data = generic;
        if (backend.equals("generated")) {
            GeneratedClass gen = new CodeGenerator().generate(m, GeneratorOptions.of(DerivativesBenchmark.PACKAGE,
                    GeneratedDynamicsBenchmark.className(m.name()) + "Constrained")
                    .withDerivatives(true));
            data = set.bind((ModelFunctions) InProcessCompiler.compile(gen).type().getDeclaredConstructor()
                    .newInstance());
        } else if (!backend.equals("generic")) {
            throw new IllegalArgumentException("backend must be generic or generated: " + backend);
        }
        dynamics = (DynamicsDerivatives) data.dynamics();
        forward = new ConstrainedDynamics(data);
        derivatives = new ConstrainedDynamicsDerivatives(data);
        out = new DMatrixRMaj[] {new DMatrixRMaj(nv, nv), new DMatrixRMaj(nv, nv), new DMatrixRMaj(nv, nv),
            new DMatrixRMaj(rows, nv), new DMatrixRMaj(rows, nv), new DMatrixRMaj(rows, nv)};
        DMatrixRMaj[] reference = {new DMatrixRMaj(nv, nv), new DMatrixRMaj(nv, nv), new DMatrixRMaj(nv, nv),
            new DMatrixRMaj(rows, nv), new DMatrixRMaj(rows, nv), new DMatrixRMaj(rows, nv)};
        new ConstrainedDynamicsDerivatives(generic).compute(q, v, tau, reference[0], reference[1], reference[2],
                reference[3], reference[4], reference[5]);
        derivatives.compute(q, v, tau, out[0], out[1], out[2], out[3], out[4], out[5]);
        for (int i = 0; i < out.length; i++) {
            double scale = 1;
            double diff = 0;
            for (int k = 0; k < out[i].data.length; k++) {
                scale = Math.max(scale, Math.abs(reference[i].data[k]));
                diff = Math.max(diff, Math.abs(reference[i].data[k] - out[i].data[k]));
            }
            if (!(diff <= DerivativesBenchmark.TOLERANCE * scale)) {
                throw new IllegalStateException(backend + " constrained derivative " + i + " differs from the generic"
                        + " binding's by " + diff + " (scale " + scale + "): refusing to time it");
            }
        }
        long idle = BenchmarkStates.awaitIdleJit(DynamicsBenchmark.IDLE_JIT_MILLIS,
                DynamicsBenchmark.MAX_JIT_WAIT_MILLIS);
        System.out.println("# " + model + " " + backend + ": nv " + nv + ", " + rows + " rows; waited " + idle
                + " ms for an idle JIT");
    }

    /** ∂v̇ and ∂λ with respect to q, v and τ (and v̇, λ themselves). */
    @Benchmark
    public DMatrixRMaj constrainedForwardDynamicsDerivatives() {
        derivatives.compute(q, v, tau, out[0], out[1], out[2], out[3], out[4], out[5]);
        return out[5];
    }

    /** v̇ and λ, direct method: the function differentiated. */
    @Benchmark
    public double[] constrainedForwardDynamics() {
        forward.forwardDynamicsDirect(q, v, tau, vdot);
        return vdot;
    }

    /** ∂v̇/∂q, ∂v̇/∂v and H⁻¹ of the unconstrained forward dynamics, same backend. */
    @Benchmark
    public DMatrixRMaj forwardDynamicsDerivatives() {
        dynamics.forwardDynamicsDerivatives(q, v, tau, out[0], out[1], out[2]);
        return out[2];
    }
}
