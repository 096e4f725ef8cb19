package org.symdyn.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Random;
import java.util.concurrent.TimeUnit;
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
import org.symdyn.constraints.GenericConstraints;
import org.symdyn.contract.ConstraintFunctions;
import org.symdyn.contract.Dynamics;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.generator.CodeGenerator;
import org.symdyn.generator.InProcessCompiler;
import org.symdyn.model.Model;
import org.symdyn.model.urdf.UrdfReader;
import org.symdyn.solvers.Assembly;
import org.symdyn.solvers.ConstrainedDynamics;
import org.symdyn.solvers.ImpulseSolver;

/**
 * The constrained solvers of {@code org.symdyn.solvers} on the planar four-bar ({@code samples/src/main/symdyn/fourbar.urdf},
 * 3 dof, 2 loop rows), against RBDL's constrained figures in {@code shared/reference/rbdl-timings.md}.
 *
 * <p>State: q assembled ({@link Assembly#assembleQ}, weights 1) from the guess (0.3, 0.3, -2.6), v assembled
 * ({@link Assembly#assembleV}) from a random v0, so (q, v) is consistent; τ random (seed {@link BenchmarkStates#SEED}).
 * The impulse benchmark uses the random (inconsistent) v0 as v⁻ and the default target v⁺ = 0 on the rows. The
 * assembly benchmark starts every call from the same guess, the assembled q plus (0.05, -0.05, 0.05): it first copies
 * that guess into the working array (an {@code arraycopy} of 3 doubles, part of the measured time), then runs
 * {@code assembleQ} with the default tolerance (1e-12).
 *
 * <p>Backend {@code generic}: the set is bound to {@link GenericDynamics} and {@link GenericConstraints}. Backend
 * {@code generated}: the model's class is generated and compiled in memory at set-up and bound as dynamics and
 * constraint functions, with {@link GenericDynamics} as kinematics. Set-up checks every output is finite and that
 * the assembly converges. Same JMH settings as {@link GenericDynamicsBenchmark}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Fork(1)
public class ConstrainedSolverBenchmark {
    static final String ROOT_PROPERTY = "symdyn.root";
    static final String FOURBAR = "samples/src/main/symdyn/fourbar.urdf";
    static final double[] GUESS = {0.3, 0.3, -2.6};
    static final double[] PERTURBATION = {0.05, -0.05, 0.05};

    @Param({"generic", "generated"})
    public String backend;

    private ConstrainedDynamics dynamics;
    private ImpulseSolver impulses;
    private Assembly assembly;
    private double[] q;
    private double[] v;
    private double[] tau;
    private double[] vMinus;
    private double[] weights;
    private double[] perturbed;
    private double[] qWork;
    private double[] vdotOut;
    private double[] vPlusOut;
    private double[] qOut;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        Model model = UrdfReader.read(fourbarFile());
        GenericDynamics generic = new GenericDynamics(model);
        ConstraintData set;
        if (backend.equals("generic")) {
            set = ConstraintSet.of(model).bind(generic, generic, new GenericConstraints(model));
        } else if (backend.equals("generated")) {
            CodeGenerator.GeneratedClass gen = new CodeGenerator().generate(model,
                    new CodeGenerator.Options("bench.gen", "FourbarDynamics"));
            Object instance = InProcessCompiler.compile(gen).type().getDeclaredConstructor().newInstance();
            set = ConstraintSet.of(model).bind((Dynamics) instance, generic, (ConstraintFunctions) instance);
        } else {
            throw new IllegalArgumentException("backend must be generic or generated: " + backend);
        }
        dynamics = new ConstrainedDynamics(set);
        impulses = new ImpulseSolver(set);
        assembly = new Assembly(set);

        int nq = model.nq();
        int nv = model.nv();
        Random rnd = new Random(BenchmarkStates.SEED);
        double[] v0 = BenchmarkStates.uniform(rnd, nv, 1.0);
        tau = BenchmarkStates.uniform(rnd, nv, 1.0);
        weights = new double[nv];
        java.util.Arrays.fill(weights, 1.0);
        q = new double[nq];
        if (!assembly.assembleQ(GUESS, weights, q)) {
            throw new IllegalStateException("four-bar did not assemble from " + java.util.Arrays.toString(GUESS)
                    + ": |phi| = " + assembly.lastError());
        }
        v = new double[nv];
        assembly.assembleV(q, v0, weights, v);
        vMinus = v0;
        perturbed = new double[nq];
        for (int i = 0; i < nq; i++) {
            perturbed[i] = q[i] + PERTURBATION[i];
        }
        qWork = new double[nq];
        vdotOut = new double[nv];
        vPlusOut = new double[nv];
        qOut = new double[nq];

        // Refuse to time garbage: every result must be finite, the assembly must converge.
        requireFinite(q, "assembled q");
        requireFinite(v, "assembled v");
        requireFinite(forwardDynamicsDirect(), "FD direct");
        requireFinite(forwardDynamicsRangeSpaceSparse(), "FD range-space sparse");
        requireFinite(forwardDynamicsNullSpace(), "FD null-space");
        requireFinite(impulsesDirect(), "impulses direct");
        requireFinite(assembleQ(), "assembleQ");
        int iterations = assembly.lastIterations();
        if (!(assembly.lastError() < Assembly.DEFAULT_TOLERANCE)) {
            throw new IllegalStateException("assembly from the perturbed guess failed: |phi| = "
                    + assembly.lastError());
        }
        long idle = BenchmarkStates.awaitIdleJit(DynamicsBenchmark.IDLE_JIT_MILLIS,
                DynamicsBenchmark.MAX_JIT_WAIT_MILLIS);
        System.out.printf("# fourbar (%s): q = %s, v = %s, assembly from the perturbed guess: %d Newton steps;"
                + " waited %d ms for an idle JIT%n", backend, java.util.Arrays.toString(q),
                java.util.Arrays.toString(v), iterations, idle);
    }

    /** The four-bar URDF: {@code -Dsymdyn.root}, or the first folder holding it walking up from the working directory. */
    static Path fourbarFile() {
        String prop = System.getProperty(ROOT_PROPERTY);
        if (prop != null && !prop.isBlank()) {
            Path f = Paths.get(prop).toAbsolutePath().normalize().resolve(FOURBAR);
            if (!Files.isRegularFile(f)) {
                throw new IllegalStateException("-D" + ROOT_PROPERTY + "=" + prop + " is set, but " + f
                        + " does not exist");
            }
            return f;
        }
        Path start = Paths.get(System.getProperty("user.dir")).toAbsolutePath().normalize();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            Path f = dir.resolve(FOURBAR);
            if (Files.isRegularFile(f)) {
                return f;
            }
            Path main = dir.resolve("main").resolve(FOURBAR);
            if (Files.isRegularFile(main)) {
                return main;
            }
        }
        throw new IllegalStateException("cannot find " + FOURBAR + " in " + start + " or any of its parents;"
                + " run from the repository root or pass -D" + ROOT_PROPERTY + "=/path/to/repository");
    }

    private static void requireFinite(double[] x, String what) {
        for (int i = 0; i < x.length; i++) {
            if (!Double.isFinite(x[i])) {
                throw new IllegalStateException("fourbar: " + what + "[" + i + "] is " + x[i]);
            }
        }
    }

    /** Constrained FD, dense KKT solve (RBDL: ForwardDynamicsConstraintsDirect). */
    @Benchmark
    public double[] forwardDynamicsDirect() {
        dynamics.forwardDynamicsDirect(q, v, tau, vdotOut);
        return vdotOut;
    }

    /** Constrained FD, range-space sparse (RBDL: ForwardDynamicsConstraintsRangeSpaceSparse). */
    @Benchmark
    public double[] forwardDynamicsRangeSpaceSparse() {
        dynamics.forwardDynamicsRangeSpaceSparse(q, v, tau, vdotOut);
        return vdotOut;
    }

    /** Constrained FD, null-space (RBDL: ForwardDynamicsConstraintsNullSpace). */
    @Benchmark
    public double[] forwardDynamicsNullSpace() {
        dynamics.forwardDynamicsNullSpace(q, v, tau, vdotOut);
        return vdotOut;
    }

    /** Impact: v⁺ from v⁻ by the dense KKT solve (RBDL: ComputeConstraintImpulsesDirect). */
    @Benchmark
    public double[] impulsesDirect() {
        impulses.solveDirect(q, vMinus, vPlusOut);
        return vPlusOut;
    }

    /**
     * Assembly of q from the same perturbed guess each call (RBDL: CalcAssemblyQ). Includes the copy of the guess
     * into the working array (3 doubles).
     */
    @Benchmark
    public double[] assembleQ() {
        System.arraycopy(perturbed, 0, qWork, 0, qWork.length);
        assembly.assembleQ(qWork, weights, qOut);
        return qOut;
    }
}
