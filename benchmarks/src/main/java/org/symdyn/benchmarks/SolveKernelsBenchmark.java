package org.symdyn.benchmarks;

import java.nio.file.Path;
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
import org.symdyn.constraints.GenericModel;
import org.symdyn.contract.ModelFunctions;
import org.symdyn.model.ConstraintModel;
import org.symdyn.model.ContactConstraintModel;
import org.symdyn.model.Model;
import org.symdyn.io.urdf.UrdfReader;
import org.symdyn.solvers.ConstrainedDynamics;
import org.symdyn.solvers.ConstraintSolverMethod;
import org.symdyn.solvers.ImpulseSolver;
import org.symdyn.solvers.KokkevisContactDynamics;

/**
 * The constrained solvers' own linear algebra (issue 17), fast path against the rank-revealing (dense) path in one
 * fork: two {@link ConstraintData} bound to the same {@link ModelFunctions}, one with
 * {@link org.symdyn.constraints.SolverSettings#exploitStructure()} on (the default: Schur complement on H's
 * tree-sparse LᵀL, redundancy from its pivots), one with it off (QR rank check on every solve, then LU of the KKT
 * matrix or the dense range-space loops: the solve before issue 17). Beside them, in the same fork, the backend's
 * unconstrained forward dynamics and the fused evaluation of H, C, G, γ alone.
 *
 * <p>Models: {@code solo12} ({@code shared/models/solo12.urdf}, floating base) standing on its four feet, 3 contact
 * rows at each of FL_FOOT, FR_FOOT, HL_FOOT, HR_FOOT added with {@code addContact}
 * ({@link ConstrainedSolverBenchmark#constraintSet}) (HAA, HFE, KFE = ±0.1, ±0.8,
 * ∓1.6, base level, v = 0, τ = gravity torques); {@code quadruped} (the sample, its 12 contact rows from the model
 * file; random q, v = 0); {@code quadrupedSeparate}: the sample's rows added in code at points that differ by a few
 * units in the last place, so each row computes its own point Jacobian and bias acceleration (what a model file's rows cost
 * the generic backend before they shared them). Backends: {@code generic} ({@link GenericModel}), {@code generated}
 * (the model's class generated and compiled in memory at set-up).
 *
 * <p>{@code java -jar benchmarks/target/benchmarks.jar SolveKernelsBenchmark -prof gc}
 *
 * <p>Measured at the commit that added this note (one run, {@code -f 1 -wi 5 -w 1s -i 5 -r 500ms -prof gc}, a
 * 2-core machine shared with other runs, so some cells carry ±10-20 %; ns per call, in brackets the ratio to the
 * same backend's unconstrained forward dynamics; every cell 0 B/op):
 * <table>
 * <caption>rank-revealing (dense) path → fast path</caption>
 * <tr><th>model, backend</th><th>unconstrained FD</th><th>H, C, G, γ</th><th>direct</th><th>range space</th>
 * <th>impulse</th><th>Kokkevis</th></tr>
 * <tr><td>solo12, generated</td><td>847</td><td>1588 (1.9)</td><td>11751 → 4689 (5.5)</td>
 * <td>8047 → 4564 (5.4)</td><td>11325 → 4769 (5.6)</td><td>16170 → 14675</td></tr>
 * <tr><td>quadruped, generated</td><td>664</td><td>929 (1.4)</td><td>11005 → 4919 (7.4)</td>
 * <td>7335 → 5021 (7.6)</td><td>10259 → 4434 (6.7)</td><td>14983 → 11623</td></tr>
 * <tr><td>solo12, generic</td><td>4242</td><td>11045 (2.6)</td><td>19896 → 13835 (3.3)</td>
 * <td>18874 → 13916 (3.3)</td><td>16140 → 9293 (2.2)</td><td>65715 → 63975</td></tr>
 * <tr><td>quadruped, generic</td><td>4261</td><td>10197 (2.4)</td><td>20886 → 14254 (3.4)</td>
 * <td>16604 → 14451 (3.4)</td><td>17086 → 9050 (2.1)</td><td>65646 → 63155</td></tr>
 * <tr><td>quadrupedSeparate, generic</td><td>4564</td><td>23745 (5.2)</td><td>35818 → 35604</td>
 * <td>30528 → 30529</td><td>20853 → 14253</td><td>78498 → 77093</td></tr>
 * </table>
 * The last two rows are the model file's rows sharing one point Jacobian and bias acceleration per foot
 * ({@code quadruped}) against one each ({@code quadrupedSeparate}): H, C, G, γ 23.7 → 10.2 µs.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Fork(1)
public class SolveKernelsBenchmark {

    @Param({"solo12", "quadruped", "quadrupedSeparate"})
    public String model;

    @Param({"generic", "generated"})
    public String backend;

    private ModelFunctions functions;
    private ConstraintData fastData;
    private ConstraintData denseData;
    private ConstrainedDynamics fast;
    private ConstrainedDynamics dense;
    private ImpulseSolver fastImpulse;
    private ImpulseSolver denseImpulse;
    private KokkevisContactDynamics fastKokkevis;
    private KokkevisContactDynamics denseKokkevis;
    private double[] q;
    private double[] v;
    private double[] tau;
    private double[] vMinus;
    private double[] out;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        Model m;
        ConstraintSet set;
        if (model.equals("solo12")) {
            m = BenchmarkStates.readModel("solo12");
            set = ConstrainedSolverBenchmark.constraintSet(m);
        } else {
            m = UrdfReader.read(quadrupedFile());
            if (model.equals("quadruped")) {
                set = ConstraintSet.of(m);
            } else if (model.equals("quadrupedSeparate")) {
                ConstraintSet.Builder b = ConstraintSet.builder(m).withoutModelConstraints();
                int k = 0;
                for (ConstraintModel c : m.constraints()) {
                    ContactConstraintModel contact = (ContactConstraintModel) c;
                    double[] p = contact.point().clone();
                    // k units in the last place apart: the same point to 1e-16 m, but a group of its own.
                    p[2] += ++k * Math.ulp(p[2]);
                    b.addContact(contact.body(), p, contact.normal());
                }
                set = b.build();
            } else {
                throw new IllegalArgumentException("model: " + model);
            }
        }
        if (backend.equals("generic")) {
            functions = new GenericModel(m);
        } else if (backend.equals("generated")) {
            functions = ConstrainedSolverBenchmark.generatedFunctions(m);
        } else {
            throw new IllegalArgumentException("backend: " + backend);
        }
        fastData = set.bind(functions);
        // The kernels of the saddle-point solve are what is timed, not the limb-eliminated answer that the direct
        // method takes instead where a generated class has one.
        fastData.settings().limbElimination(false);
        denseData = set.bind(functions);
        denseData.settings().exploitStructure(false);
        fast = new ConstrainedDynamics(fastData);
        dense = new ConstrainedDynamics(denseData);
        fastImpulse = new ImpulseSolver(fastData);
        denseImpulse = new ImpulseSolver(denseData);
        fastKokkevis = new KokkevisContactDynamics(fastData);
        denseKokkevis = new KokkevisContactDynamics(denseData);
        int nv = m.nv();
        q = new double[m.nq()];
        if (model.equals("solo12")) {
            // Base at the origin, level (quaternion x, y, z, w = 0, 0, 0, 1); FL, FR, HL, HR x HAA, HFE, KFE.
            q[6] = 1;
            double[] legs = {0.1, 0.8, -1.6, -0.1, 0.8, -1.6, 0.1, -0.8, 1.6, -0.1, -0.8, 1.6};
            System.arraycopy(legs, 0, q, 7, 12);
        } else {
            q = BenchmarkStates.randomConfiguration(m, new java.util.Random(BenchmarkStates.SEED));
        }
        v = new double[nv];
        tau = new double[nv];
        functions.gravityForces(q, tau);
        vMinus = BenchmarkStates.uniform(new java.util.Random(BenchmarkStates.SEED + 1), nv, 1.0);
        out = new double[nv];
        // Both paths must give the same answer and the fast one must stay fast.
        double[] a = new double[nv];
        double[] b = new double[nv];
        for (ConstraintSolverMethod method : new ConstraintSolverMethod[] {ConstraintSolverMethod.DIRECT,
            ConstraintSolverMethod.RANGE_SPACE_SPARSE}) {
            fast.forwardDynamics(method, q, v, tau, a);
            dense.forwardDynamics(method, q, v, tau, b);
            check(a, b, method.toString());
            if (fast.systemSolver().lastFellBack()) {
                throw new IllegalStateException(model + ": the fast path fell back");
            }
        }
        fastImpulse.solveDirect(q, vMinus, a);
        denseImpulse.solveDirect(q, vMinus, b);
        check(a, b, "impulse");
        fastKokkevis.forwardDynamics(q, v, tau, a);
        denseKokkevis.forwardDynamics(q, v, tau, b);
        check(a, b, "Kokkevis");
        long idle = BenchmarkStates.awaitIdleJit(DynamicsBenchmark.IDLE_JIT_MILLIS,
                DynamicsBenchmark.MAX_JIT_WAIT_MILLIS);
        System.out.printf("# %s (%s): %d rows in %d groups, nv %d, Schur pivot ratio %.2e; waited %d ms for an idle"
                + " JIT%n", model, backend, set.size(), set.groupCount(), nv, fast.systemSolver().lastSchurPivotRatio(),
                idle);
    }

    private void check(double[] a, double[] b, String what) {
        double d = 0;
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            d = Math.max(d, Math.abs(a[i] - b[i]));
            s = Math.max(s, Math.abs(b[i]));
        }
        if (!(d <= 1e-10 * Math.max(1, s))) {
            throw new IllegalStateException(model + " " + backend + " " + what + ": fast and dense paths differ by "
                    + d);
        }
    }

    /** The file set-up reads for {@code model}; {@link MissingInputException} if it is absent. */
    static Path modelFile(String model) {
        return model.equals("solo12") ? SharedModels.urdf(model) : quadrupedFile();
    }

    /** The sample quadruped's file ({@link ConstrainedSolverBenchmark#sampleFile}). */
    static Path quadrupedFile() {
        return ConstrainedSolverBenchmark.sampleFile("quadruped.urdf");
    }

    /** Constrained FD, the default (direct) method, fast path. */
    @Benchmark
    public double[] directFast() {
        fast.forwardDynamicsDirect(q, v, tau, out);
        return out;
    }

    /** Constrained FD, direct method, rank-revealing path (QR + KKT LU: the solve before issue 17). */
    @Benchmark
    public double[] directDense() {
        dense.forwardDynamicsDirect(q, v, tau, out);
        return out;
    }

    /** Constrained FD, range-space method, fast path. */
    @Benchmark
    public double[] rangeSpaceFast() {
        fast.forwardDynamicsRangeSpaceSparse(q, v, tau, out);
        return out;
    }

    /** Constrained FD, range-space method, rank-revealing path. */
    @Benchmark
    public double[] rangeSpaceDense() {
        dense.forwardDynamicsRangeSpaceSparse(q, v, tau, out);
        return out;
    }

    /** Impulse (direct), fast path. */
    @Benchmark
    public double[] impulseFast() {
        fastImpulse.solveDirect(q, vMinus, out);
        return out;
    }

    /** Impulse (direct), rank-revealing path. */
    @Benchmark
    public double[] impulseDense() {
        denseImpulse.solveDirect(q, vMinus, out);
        return out;
    }

    /** Kokkevis, K's pivots for redundancy. */
    @Benchmark
    public double[] kokkevisFast() {
        fastKokkevis.forwardDynamics(q, v, tau, out);
        return out;
    }

    /** Kokkevis, QR rank check on every solve. */
    @Benchmark
    public double[] kokkevisDense() {
        denseKokkevis.forwardDynamics(q, v, tau, out);
        return out;
    }

    /** The same backend's unconstrained forward dynamics at the same state. */
    @Benchmark
    public double[] unconstrained() {
        functions.forwardDynamics(q, v, tau, out);
        return out;
    }

    /** H, C, G, γ alone (what every constrained solve evaluates first). */
    @Benchmark
    public double[] computeSystem() {
        fastData.computeSystem(q, v);
        return fastData.gamma();
    }
}
