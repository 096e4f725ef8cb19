package org.symdyn.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Random;
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
import org.symdyn.constraints.ConstraintData;
import org.symdyn.constraints.ConstraintSet;
import org.symdyn.contract.Dynamics;
import org.symdyn.contract.ModelFunctions;
import org.symdyn.contract.ModelPart;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.generator.GeneratorOptions;
import org.symdyn.model.Frame;
import org.symdyn.model.Model;
import org.symdyn.io.urdf.UrdfReader;
import org.symdyn.solvers.ActuationMap;
import org.symdyn.solvers.Assembly;
import org.symdyn.solvers.ConstrainedDynamics;
import org.symdyn.solvers.ConstrainedInverseDynamics;
import org.symdyn.solvers.ConstraintSolverMethod;
import org.symdyn.solvers.ImpulseSolver;

/**
 * The constrained solvers of {@code org.symdyn.solvers} on three models, against RBDL's constrained figures in
 * {@code shared/reference/rbdl-timings.md} and Pinocchio's in {@code shared/reference/peer-timings.md}:
 * <ul>
 * <li>{@code fourbar}: the planar four-bar ({@code samples/src/main/symdyn/fourbar.urdf}, 3 dof, 2 loop rows);
 * q assembled ({@link Assembly#assembleQ}, weights 1) from the guess (0.3, 0.3, -2.6), v assembled from a random
 * v0, so (q, v) is consistent; τ random (seed {@link BenchmarkStates#SEED});</li>
 * <li>{@code quadruped}: the sample quadruped ({@code samples/src/main/symdyn/quadruped.urdf}, 18 dof, the model
 * file's 12 contact rows: x, y, z at each foot), standing: legs bent (hfe 0.6, kfe -1.2 rad), trunk level with the
 * feet on z = 0, v = 0, τ the static-equilibrium torques (constrained inverse dynamics, base unactuated);</li>
 * <li>{@code solo12}: {@code shared/models/solo12.urdf} (floating base, 18 dof) with 3 contact rows (world x, y, z)
 * at each of FL_FOOT, FR_FOOT, HL_FOOT, HR_FOOT added in code, standing as in {@code peer-timings.md} (HAA, HFE, KFE
 * = ±0.1, ±0.8, ∓1.6), v = 0, static-equilibrium τ;</li>
 * <li>{@code solo12Declared}: the same robot, rows and state with the 12 rows declared in the model
 * ({@code symdyn:contact} at each foot link, added to the file's text at set-up): "dynamics and all 12 rows
 * generated", as {@code peer-timings.md} measured it, so that the generated class also factorises its constrained
 * system ({@link org.symdyn.contract.ConstrainedSystemFactorization}).</li>
 * <li>{@code romeo}: {@code shared/models/romeo_small.urdf} (floating base, 37 dof) with both soles held by 12
 * contact rows added in code ({@link #soleRows}); neutral pose, random v and τ (the rows need not hold to time a
 * solve): where the recursive method's O(n) passes meet a deeper tree. Only with {@code -p model=romeo}: it is
 * not in the default sweep.</li>
 * </ul>
 * The impulse benchmark uses a random v as v⁻ and the default target v⁺ = 0 on the rows. The assembly benchmark
 * starts every call from the same guess, the state's q plus a fixed perturbation of its joint angles (0.05 rad): it
 * first copies that guess into the working array (an {@code arraycopy}, part of the measured time), then runs
 * {@code assembleQ} with the default tolerance (1e-12).
 *
 * <p>Backends: {@code generic} binds {@link ConstraintSet#bindGeneric()} (the interpreter of the model);
 * {@code generated} binds the model's class, generated and compiled in memory at set-up, alone
 * ({@link ConstraintSet#bind(ModelFunctions)}: one fused evaluation of H, C and the model's rows, its own
 * kinematics for rows added in code); {@code generatedSeparate} binds the same class as dynamics and constraint
 * functions with {@link GenericDynamics} as kinematics, the binding before the contract issue (separate calls for
 * H, C, G, γ). Set-up checks every output is finite, that the backends agree with the generic one within 1e-9
 * relative, and that the assembly converges. Same JMH settings as {@link GenericDynamicsBenchmark}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Fork(1)
public class ConstrainedSolverBenchmark {
    static final String ROOT_PROPERTY = "symdyn.root";
    static final String SAMPLES = "samples/src/main/symdyn/";
    static final String FOURBAR = SAMPLES + "fourbar.urdf";
    static final double[] GUESS = {0.3, 0.3, -2.6};
    static final double PERTURBATION = 0.05;
    static final String[] SOLO_FEET = {"FL", "FR", "HL", "HR"};

    /** Also {@code romeo} with {@code -p model=romeo} (not in the default sweep). */
    @Param({"fourbar", "quadruped", "solo12", "solo12Declared"})
    public String model;

    @Param({"generic", "generated", "generatedSeparate"})
    public String backend;

    /**
     * {@code structured}: the solvers' default fast path (Schur complement on the tree-sparse LᵀL of H, issue 17; a
     * generated class's own straight-line factorisation where the set holds exactly its model's rows, and its
     * limb-eliminated answer where every row is on a limb of the floating base, issue 37);
     * {@code structuredSchur}: the same with {@code SolverSettings.limbElimination(false)}, the Schur complement always;
     * {@code structuredRuntime}: with {@code SolverSettings.generatedFactorization(false)}, the runtime's
     * factorisation whatever the binding; {@code dense}: {@code SolverSettings.exploitStructure(false)}, the dense
     * path before issue 17 (QR rank check, then the direct method in that QR's null space: KKT LU until the
     * eighteenth session; the range-space method too since 2026-12-05, so with {@code dense} its figure is the
     * null-space solve's, and RBDL's range-space method is timed only with the rank check off).
     */
    @Param({"structured", "structuredSchur", "structuredRuntime", "dense"})
    public String solver;

    private ConstraintData data;
    private Dynamics unconstrained;
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
        Model m = readModel(model);
        ConstraintSet set = constraintSet(m);
        data = bind(set, m, backend);
        if (solver.equals("dense")) {
            data.settings().exploitStructure(false);
        } else if (solver.equals("structuredRuntime")) {
            data.settings().generatedFactorization(false);
        } else if (solver.equals("structuredSchur")) {
            data.settings().limbElimination(false);
        } else if (!solver.equals("structured")) {
            throw new IllegalArgumentException("solver must be structured, structuredSchur, structuredRuntime or dense: "
                    + solver);
        }
        dynamics = new ConstrainedDynamics(data);
        impulses = new ImpulseSolver(data);
        assembly = new Assembly(data);
        unconstrained = data.dynamics();

        int nq = m.nq();
        int nv = m.nv();
        Random rnd = new Random(BenchmarkStates.SEED);
        weights = new double[nv];
        java.util.Arrays.fill(weights, 1.0);
        q = new double[nq];
        v = new double[nv];
        tau = new double[nv];
        vMinus = BenchmarkStates.uniform(rnd, nv, 1.0);
        state(m, set, rnd);
        perturbed = q.clone();
        for (int b = 0; b < m.bodyCount(); b++) {
            if (m.body(b).joint().nq() == 1) {
                perturbed[m.body(b).joint().qIndex()] += (b % 2 == 0 ? 1 : -1) * PERTURBATION;
            }
        }
        qWork = new double[nq];
        vdotOut = new double[nv];
        vPlusOut = new double[nv];
        qOut = new double[nq];

        // Refuse to time garbage: every result finite, the same as the generic backend's, the assembly converged.
        ConstrainedDynamics reference = new ConstrainedDynamics(set.bindGeneric());
        double[] expected = new double[nv];
        reference.forwardDynamicsDirect(q, v, tau, expected);
        requireClose(constrainedForwardDynamics(), expected, "constrained FD direct");
        requireClose(rangeSpace(), expected, "constrained FD range-space");
        requireClose(nullSpace(), expected, "constrained FD null-space");
        requireClose(recursive(), expected, "constrained FD recursive");
        double[] vPlusDirect = impulse().clone();
        requireClose(impulseRecursive(), vPlusDirect, "impulse recursive");
        requireFinite(impulse(), "impulse");
        requireFinite(unconstrainedForwardDynamics(), "unconstrained FD");
        requireFinite(assembleQ(), "assembleQ");
        int iterations = assembly.lastIterations();
        if (!(assembly.lastError() < Assembly.DEFAULT_TOLERANCE)) {
            throw new IllegalStateException(model + ": assembly from the perturbed guess failed: |phi| = "
                    + assembly.lastError());
        }
        long idle = BenchmarkStates.awaitIdleJit(DynamicsBenchmark.IDLE_JIT_MILLIS,
                DynamicsBenchmark.MAX_JIT_WAIT_MILLIS);
        constrainedForwardDynamics();
        System.out.printf("# %s (%s, " + solver + "): nv %d, %d constraint rows, fused evaluation %s, direct method"
                + " by %s; assembly from the perturbed guess: %d Newton steps; waited %d ms for an idle JIT%n", model,
                backend, nv, data.size(), data.isFused(), dynamics.lastUsedLimbs() ? "the limb-eliminated answer (pivot"
                + " ratio " + dynamics.lastLimbPivotRatio() + ")" : dynamics.systemSolver()
                .lastUsedGeneratedFactorization() ? "the generated factorisation" : dynamics.systemSolver()
                .lastUsedLimbElimination() ? "the runtime's limb-by-limb solve (pivot ratio " + dynamics.systemSolver()
                .lastLimbPivotRatio() + ")" : "the runtime's Schur complement", iterations,
                idle);
    }

    /** After the trial, the machine code C2 compiled for a generated class's methods ({@link CodeFootprint}). */
    @TearDown(Level.Trial)
    public void printFootprint() {
        if (unconstrained != null && !backend.equals("generic")) {
            CodeFootprint.printAfterTrial(unconstrained.getClass());
        }
    }

    /**
     * The model: a sample file (fourbar, quadruped) or a shared one (solo12, floating base; solo12Declared: with its
     * feet's contact rows declared).
     */
    static Model readModel(String name) throws Exception {
        Path file = modelFile(name);
        if (name.equals("solo12Declared")) {
            StringBuilder contacts = new StringBuilder();
            for (String foot : SOLO_FEET) {
                for (int axis = 0; axis < 3; axis++) {
                    contacts.append(String.format("  <symdyn:contact name=\"%s_FOOT_%c\" link=\"%s_FOOT\" point=\"0 0 0\""
                            + " normal=\"%s\"/>%n", foot, "xyz".charAt(axis), foot,
                            new String[] {"1 0 0", "0 1 0", "0 0 1"}[axis]));
                }
            }
            String xml = Files.readString(file).replaceFirst("<robot ", "<robot xmlns:symdyn=\"urn:symdyn:1\" ")
                    .replace("</robot>", contacts + "</robot>");
            return UrdfReader.parse(xml, file.toString(), new UrdfReader.Options(true, false));
        }
        return name.equals("solo12") ? BenchmarkStates.readModel(name)
                : name.equals("romeo") ? BenchmarkStates.readModel("romeo_small") : UrdfReader.read(file);
    }

    /** The file {@link #readModel} reads for {@code name}; {@link MissingInputException} if it is absent. */
    static Path modelFile(String name) {
        return switch (name) {
            case "fourbar", "quadruped" -> sampleFile(name + ".urdf");
            case "solo12", "solo12Declared" -> SharedModels.urdf("solo12");
            case "romeo" -> SharedModels.urdf("romeo_small");
            default -> throw new IllegalArgumentException("model must be fourbar, quadruped, solo12, solo12Declared or"
                    + " romeo: " + name);
        };
    }

    /**
     * The model file's constraints; for solo12 without declared ones, 3 contact rows (world x, y, z) at each foot
     * added in code.
     */
    static ConstraintSet constraintSet(Model m) {
        if (m.name().startsWith("romeo") && m.constraints().isEmpty()) {
            return soleRows(m);
        }
        if (!m.name().startsWith("solo") || !m.constraints().isEmpty()) {
            return ConstraintSet.of(m);
        }
        ConstraintSet.Builder b = ConstraintSet.builder(m);
        int id = 0;
        for (String foot : SOLO_FEET) {
            Frame f = m.frame(foot + "_FOOT");
            double[] point = f.pose().translationArray();
            for (int axis = 0; axis < 3; axis++) {
                double[] normal = new double[3];
                normal[axis] = 1;
                b.addContact(f.bodyIndex(), point, normal, foot + "_FOOT_" + "xyz".charAt(axis), ++id);
            }
        }
        return b.build();
    }

    /**
     * A humanoid's two soles held flat (romeo_small, 37 dof): 6 independent contact rows per sole, at three of its
     * points (x, y, z at the centre, y and z 0.1 m ahead, z 0.05 m to the side), 12 rows.
     */
    static ConstraintSet soleRows(Model m) {
        ConstraintSet.Builder b = ConstraintSet.builder(m);
        int id = 0;
        for (String sole : new String[] {"l_sole", "r_sole"}) {
            Frame f = m.frame(sole);
            double[] c = f.pose().translationArray();
            double[][] points = {c, {c[0] + 0.1, c[1], c[2]}, {c[0], c[1] + 0.05, c[2]}};
            int[][] axes = {{0, 1, 2}, {1, 2}, {2}};
            for (int k = 0; k < 3; k++) {
                for (int axis : axes[k]) {
                    double[] normal = new double[3];
                    normal[axis] = 1;
                    b.addContact(f.bodyIndex(), points[k], normal, sole + "_" + k + "xyz".charAt(axis), ++id);
                }
            }
        }
        return b.build();
    }

    /** The set bound to the backend. */
    static ConstraintData bind(ConstraintSet set, Model m, String backend) throws Exception {
        if (backend.equals("generic")) {
            return set.bindGeneric();
        }
        if (!backend.equals("generated") && !backend.equals("generatedSeparate")) {
            throw new IllegalArgumentException("backend must be generic, generated or generatedSeparate: " + backend);
        }
        ModelFunctions f = generatedFunctionsWithRecursion(m);
        return backend.equals("generated") ? set.bind(f) : set.bind(f, new GenericDynamics(m), f);
    }

    /** A new instance of the model's class, generated with the default options and compiled in memory. */
    static ModelFunctions generatedFunctions(Model m) throws Exception {
        return generatedFunctions(m, KinematicsFormParameter.DEFAULT);
    }

    /**
     * A new instance of the model's class, generated with its kinematics in {@code kinematicsForm}
     * ({@link KinematicsFormParameter}) and compiled in memory.
     */
    static ModelFunctions generatedFunctions(Model m, String kinematicsForm) throws Exception {
        return KinematicsFormParameter.generate(m,
                GeneratorOptions.of("bench.gen", GeneratedDynamicsBenchmark.className(m.name())), kinematicsForm);
    }

    /**
     * {@link #generatedFunctions(Model)} with the recursive constrained system ({@code recursive_constraints})
     * besides the default parts: what {@link #recursive} and {@link #impulseRecursive} run on a generated class.
     */
    static ModelFunctions generatedFunctionsWithRecursion(Model m) throws Exception {
        java.util.Set<ModelPart> parts = java.util.EnumSet.copyOf(ModelPart.defaults());
        parts.add(ModelPart.RECURSIVE_CONSTRAINTS);
        return KinematicsFormParameter.generate(m,
                GeneratorOptions.of("bench.gen", GeneratedDynamicsBenchmark.className(m.name())).withParts(parts),
                KinematicsFormParameter.DEFAULT);
    }

    /** The benchmark's state (q, v, τ), see the class comment. */
    private void state(Model m, ConstraintSet set, Random rnd) {
        if (model.equals("romeo")) {
            // Neutral pose, random v and τ: the rows need not hold for timing a solve (the same work at any state).
            System.arraycopy(m.neutralConfiguration(), 0, q, 0, m.nq());
            System.arraycopy(BenchmarkStates.uniform(rnd, m.nv(), 1.0), 0, v, 0, m.nv());
            System.arraycopy(BenchmarkStates.uniform(rnd, m.nv(), 1.0), 0, tau, 0, m.nv());
            return;
        }
        if (model.equals("fourbar")) {
            if (!assembly.assembleQ(GUESS, weights, q)) {
                throw new IllegalStateException("four-bar did not assemble from " + java.util.Arrays.toString(GUESS)
                        + ": |phi| = " + assembly.lastError());
            }
            assembly.assembleV(q, BenchmarkStates.uniform(rnd, m.nv(), 1.0), weights, v);
            System.arraycopy(BenchmarkStates.uniform(rnd, m.nv(), 1.0), 0, tau, 0, m.nv());
            return;
        }
        standing(m, model, set, q, tau);
    }

    /**
     * The standing state of the quadruped or solo12 (see the class comment): q with the feet on z = 0 and, for v =
     * 0, the static-equilibrium τ of the set's rows with the base unactuated.
     */
    static void standing(Model m, String model, ConstraintSet set, double[] q, double[] tau) {
        double[] v = new double[m.nv()];
        double[] stand = m.neutralConfiguration();
        String foot;
        if (model.equals("quadruped")) {
            for (String leg : new String[] {"lf", "rf", "lh", "rh"}) {
                stand[m.qNames().indexOf(leg + "_hfe")] = 0.6;
                stand[m.qNames().indexOf(leg + "_kfe")] = -1.2;
            }
            foot = "lf_foot";
        } else {
            for (String leg : SOLO_FEET) {
                double side = leg.charAt(1) == 'L' ? 1 : -1;
                double front = leg.charAt(0) == 'F' ? 1 : -1;
                stand[m.qNames().indexOf(leg + "_HAA")] = 0.1 * side;
                stand[m.qNames().indexOf(leg + "_HFE")] = 0.8 * front;
                stand[m.qNames().indexOf(leg + "_KFE")] = -1.6 * front;
            }
            foot = "FL_FOOT";
        }
        double[] rot = new double[9];
        double[] p = new double[3];
        new GenericDynamics(m).framePose(stand, m.frames().indexOf(m.frame(foot)), rot, p);
        stand[2] -= p[2]; // base height that puts the feet on z = 0
        System.arraycopy(stand, 0, q, 0, q.length);
        ConstrainedInverseDynamics id = new ConstrainedInverseDynamics(set.bindGeneric(),
                ActuationMap.allButFloatingBase(m));
        id.inverseDynamics(q, v, new double[m.nv()], new double[m.nv()], tau);
    }

    /**
     * A sample model file, in the samples' folder of {@link #samplesDirectory()}; {@link MissingInputException} if
     * it is not there.
     */
    static Path sampleFile(String fileName) {
        Path f = samplesDirectory().resolve(fileName);
        if (!Files.isRegularFile(f)) {
            throw new MissingInputException("sample model not found: " + f);
        }
        return f;
    }

    /**
     * The folder {@code samples/src/main/symdyn} of {@code -Dsymdyn.root}, or of the first folder (or its {@code main}
     * subfolder) that has one, walking up from the working directory; {@link MissingInputException} if neither has
     * it, with the same message for every file.
     */
    static Path samplesDirectory() {
        String prop = System.getProperty(ROOT_PROPERTY);
        if (prop != null && !prop.isBlank()) {
            Path d = Paths.get(prop).toAbsolutePath().normalize().resolve(SAMPLES);
            if (!Files.isDirectory(d)) {
                throw new MissingInputException("-D" + ROOT_PROPERTY + "=" + prop + " is set, but " + d
                        + " is not a directory (it must name the repository's root)");
            }
            return d;
        }
        Path start = Paths.get(System.getProperty("user.dir")).toAbsolutePath().normalize();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            for (Path d : List.of(dir.resolve(SAMPLES), dir.resolve("main").resolve(SAMPLES))) {
                if (Files.isDirectory(d)) {
                    return d;
                }
            }
        }
        throw new MissingInputException("cannot find " + SAMPLES + " in " + start + " or any of its parents;"
                + " run from the repository root or pass -D" + ROOT_PROPERTY + "=/path/to/repository");
    }

    /** The four-bar URDF (see {@link #sampleFile}). */
    static Path fourbarFile() {
        return sampleFile("fourbar.urdf");
    }

    private void requireClose(double[] x, double[] expected, String what) {
        requireFinite(x, what);
        double scale = 1;
        double diff = 0;
        for (int i = 0; i < x.length; i++) {
            scale = Math.max(scale, Math.abs(expected[i]));
            diff = Math.max(diff, Math.abs(x[i] - expected[i]));
        }
        if (diff > 1e-9 * scale) {
            throw new IllegalStateException(model + " (" + backend + "): " + what + " differs from the generic"
                    + " backend's by " + diff);
        }
    }

    private void requireFinite(double[] x, String what) {
        for (int i = 0; i < x.length; i++) {
            if (!Double.isFinite(x[i])) {
                throw new IllegalStateException(model + " (" + backend + "): " + what + "[" + i + "] is " + x[i]);
            }
        }
    }

    /**
     * Constrained FD by the default method (the simulator's, {@link ConstraintSolverMethod#DIRECT}: dense KKT solve;
     * RBDL: ForwardDynamicsConstraintsDirect).
     */
    @Benchmark
    public double[] constrainedForwardDynamics() {
        dynamics.forwardDynamicsDirect(q, v, tau, vdotOut);
        return vdotOut;
    }

    /** Constrained FD, range-space sparse (RBDL: ForwardDynamicsConstraintsRangeSpaceSparse). */
    @Benchmark
    public double[] rangeSpace() {
        dynamics.forwardDynamicsRangeSpaceSparse(q, v, tau, vdotOut);
        return vdotOut;
    }

    /** Constrained FD, null-space (RBDL: ForwardDynamicsConstraintsNullSpace). */
    @Benchmark
    public double[] nullSpace() {
        dynamics.forwardDynamicsNullSpace(q, v, tau, vdotOut);
        return vdotOut;
    }

    /**
     * Constrained FD by the recursive method (no H: K = G H⁻¹ Gᵀ from the articulated-body inertias; issue 37): the
     * interpreter's, or the generated class's own (generated with {@code recursive_constraints}) where the set holds
     * exactly the model's rows; the direct method where neither applies (solo12's rows added in code, generated).
     */
    @Benchmark
    public double[] recursive() {
        dynamics.forwardDynamicsRecursive(q, v, tau, vdotOut);
        return vdotOut;
    }

    /** Impact by the recursive method (the direct one where it does not apply, as for {@link #recursive}). */
    @Benchmark
    public double[] impulseRecursive() {
        impulses.solveRecursive(q, vMinus, vPlusOut);
        return vPlusOut;
    }

    /** Impact: v⁺ from v⁻ by the default (direct) method (RBDL: ComputeConstraintImpulsesDirect). */
    @Benchmark
    public double[] impulse() {
        impulses.solveDirect(q, vMinus, vPlusOut);
        return vPlusOut;
    }

    /** The same backend's plain forward dynamics at the same state, constraints ignored: the yardstick. */
    @Benchmark
    public double[] unconstrainedForwardDynamics() {
        unconstrained.forwardDynamics(q, v, tau, vdotOut);
        return vdotOut;
    }

    /** Only the evaluation a constrained solve starts with: H, C, G, γ (and φ, φ̇ where stabilised). */
    @Benchmark
    public DMatrixRMaj buildSystem() {
        data.computeSystem(q, v);
        return data.G();
    }

    /**
     * Assembly of q from the same perturbed guess each call (RBDL: CalcAssemblyQ). Includes the copy of the guess
     * into the working array.
     */
    @Benchmark
    public double[] assembleQ() {
        System.arraycopy(perturbed, 0, qWork, 0, qWork.length);
        assembly.assembleQ(qWork, weights, qOut);
        return qOut;
    }
}
