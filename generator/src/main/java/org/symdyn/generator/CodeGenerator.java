package org.symdyn.generator;

import com.squareup.javapoet.CodeBlock;
import com.squareup.javapoet.FieldSpec;
import com.squareup.javapoet.JavaFile;
import com.squareup.javapoet.MethodSpec;
import com.squareup.javapoet.TypeSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.matheclipse.core.interfaces.IExpr;
import org.symdyn.generator.emit.MethodEmitter;
import org.symdyn.generator.emit.OperationCount;
import org.symdyn.generator.symbolic.ExpressionGraph;
import org.symdyn.generator.symbolic.SymbolicArticulatedBody;
import org.symdyn.generator.symbolic.SymbolicConstrainedSystem;
import org.symdyn.generator.symbolic.SymbolicConstraints;
import org.symdyn.generator.symbolic.SymbolicDerivatives;
import org.symdyn.generator.symbolic.SymbolicInput;
import org.symdyn.generator.symbolic.SymbolicLimbs;
import org.symdyn.generator.symbolic.SymbolicModel;
import org.symdyn.generator.symbolic.SymbolicRecursions;
import org.symdyn.model.Model;

/**
 * Generates the Java source of a class that evaluates one model's whole contract as straight-line code derived
 * symbolically ({@link SymbolicModel}): H(q), C(q, v), g(q), inverse and forward dynamics; the kinematics of every
 * body and of points given at run time ({@link KinematicsMethods}); the constraint terms φ, φ̇, G and γ; and the
 * fused evaluations (H, C, G, γ (φ, φ̇) and H, G) from one emission each. The class implements
 * {@link org.symdyn.contract.ModelFunctions} and {@link org.symdyn.contract.ModelParameters}, so every solver of
 * the runtime runs on it alone; it depends on the runtime's contract package (and EJML) only.
 *
 * <p>Forward dynamics is either H⁻¹ (τ - C) through a branch-sparse LᵀDL factorisation of the generated H, reusing
 * the temporaries of H and C, or the unrolled articulated-body algorithm, whichever has fewer operations for the
 * model ({@link ForwardDynamicsForm}; {@link ForwardDynamicsChoice}).
 *
 * <p>Output is reproducible: the same model and options give the same bytes. Symja's evaluator is per instance, so
 * use one generator per thread.
 */
public final class CodeGenerator {
    /**
     * Where the class goes, what it is called, whether to add the closed form of H, C and g to the class Javadoc
     * (models of up to {@link #CLOSED_FORM_MAX_DOF} dof; Symja's TrigReduce and Simplify, at most
     * {@link #CLOSED_FORM_SECONDS} s per entry; an entry that does not simplify in time is shown expanded), and
     * whether the joint angles' sines and cosines call {@link Math#sin}/{@link Math#cos} ({@code mathTrig}) instead
     * of the default inlined {@link org.symdyn.spatial.SinCos} steps, which are faster (iiwa14's C by about a
     * quarter) and within 2 ulps of Math's; choose Math to get its bits exactly; and whether to generate the
     * derivatives of the dynamics, the Coriolis matrix, H⁻¹ and the regressor ({@code derivatives}: the class then
     * also implements {@link org.symdyn.contract.DynamicsDerivatives}; off by default: generation then takes 3-9x
     * as long, ur5 3.7x, iiwa14 6.4x, solo12 8.5x, romeo_small 3.1x measured warm).
     */
    public record Options(String packageName, String className, boolean closedForm, boolean mathTrig,
            boolean derivatives, ForwardDynamicsForm forwardDynamics, KinematicsForm kinematics, LimbForm limbs) {
        public Options {
            java.util.Objects.requireNonNull(forwardDynamics, "forwardDynamics");
            java.util.Objects.requireNonNull(kinematics, "kinematics");
            java.util.Objects.requireNonNull(limbs, "limbs");
        }

        public Options(String packageName, String className, boolean closedForm, boolean mathTrig,
                boolean derivatives, ForwardDynamicsForm forwardDynamics, KinematicsForm kinematics) {
            this(packageName, className, closedForm, mathTrig, derivatives, forwardDynamics, kinematics,
                    LimbForm.BY_SIZE);
        }

        public Options(String packageName, String className, boolean closedForm, boolean mathTrig,
                boolean derivatives) {
            this(packageName, className, closedForm, mathTrig, derivatives, ForwardDynamicsForm.CHEAPER,
                    KinematicsForm.BY_SIZE);
        }

        public Options(String packageName, String className) {
            this(packageName, className, false, false, false);
        }

        public Options(String packageName, String className, boolean closedForm) {
            this(packageName, className, closedForm, false, false);
        }

        public Options(String packageName, String className, boolean closedForm, boolean mathTrig) {
            this(packageName, className, closedForm, mathTrig, false);
        }

        /** These options with the derivatives ({@link org.symdyn.contract.DynamicsDerivatives}) on or off. */
        public Options withDerivatives(boolean on) {
            return new Options(packageName, className, closedForm, mathTrig, on, forwardDynamics, kinematics, limbs);
        }

        /** These options with forward dynamics in the given form (the default picks the cheaper). */
        public Options withForwardDynamics(ForwardDynamicsForm form) {
            return new Options(packageName, className, closedForm, mathTrig, derivatives, form, kinematics, limbs);
        }

        /**
         * These options with the kinematics, H and fused evaluations in the given form ({@link KinematicsForm}; the
         * default chooses by the model's size).
         */
        public Options withKinematics(KinematicsForm form) {
            return new Options(packageName, className, closedForm, mathTrig, derivatives, forwardDynamics, form,
                    limbs);
        }

        /**
         * These options with twin limbs' dynamics in the given form ({@link LimbForm}: C, g and τ, and with
         * {@link LimbForm#SHARED} the articulated-body forward dynamics too).
         */
        public Options withLimbs(LimbForm form) {
            return new Options(packageName, className, closedForm, mathTrig, derivatives, forwardDynamics,
                    kinematics, form);
        }
    }

    /**
     * The forms of the methods whose unrolled source grows with n times the tree depth. PER_BODY: each body's
     * kinematics its own straight-line method from the root, H unrolled, the fused evaluations emitted. SHARED_PASSES
     * (the large-model forms): the kinematics from straight-line passes over the tree and small query methods
     * ({@link SharedPassKinematics}), the second pass of the CRBA looped ({@link LoopedMassMatrix}), the fused
     * evaluations as the interface's separate calls; source linear in the bodies.
     */
    public enum KinematicsForm {
        /**
         * Per body up to a sum over bodies of their depth of {@value SharedPassKinematics#MAX_PER_BODY_DEPTH_SUM}
         * (every shared model and sample), shared passes above it (long chains, large trees).
         */
        BY_SIZE,
        /** Per-body kinematics, unrolled H, emitted fused evaluations: fastest per call, source quadratic in depth. */
        PER_BODY,
        /** Shared kinematics passes, looped CRBA, the fused evaluations as separate calls: linear source. */
        SHARED_PASSES
    }

    /**
     * How {@code biasForces}, {@code gravityForces}, {@code inverseDynamics} and (only with {@link #SHARED}) an
     * articulated-body {@code forwardDynamics} compute twin limbs (subtrees of the
     * same shape, such as a humanoid's legs; {@link org.symdyn.generator.symbolic.SymbolicLimbs}): unrolled in the
     * method, like the rest of the tree, or by calls of one method per limb shape that each limb runs with its own
     * numbers ({@link SharedLimbCode}). The calls make less machine code, which pays only when the unrolled method
     * is several times the processor's instruction cache.
     */
    public enum LimbForm {
        /**
         * Calls in C, g and τ where the unrolled method has {@value SharedLimbCode#MIN_CHUNKS} chunks or more, else
         * unrolled; forward dynamics unrolled.
         */
        BY_SIZE,
        /**
         * Calls of shared code wherever twin limbs' code is the same, in C, g, τ and the articulated-body forward
         * dynamics (two calls per limb: the passes to the root, then the last pass).
         */
        SHARED,
        /** Every limb unrolled. */
        UNROLLED
    }

    /**
     * How the generated {@code forwardDynamics} computes v̇. By default both forms are derived (the factorisation
     * only up to {@link #MAX_FACTORISATION_WORK}) and the one with fewer operations (multiplications plus additions,
     * H and C included) is emitted; the class header says which was chosen and what the other would have cost.
     */
    public enum ForwardDynamicsForm {
        /** The form with fewer operations (ties go to the factorisation of H). */
        CHEAPER,
        /** H⁻¹ (τ - C) through the branch-sparse LᵀDL of the generated H (RBDA §6.5): O(n d²) for tree depth d. */
        FACTORISED_MASS_MATRIX,
        /** The articulated-body algorithm (RBDA Table 7.1), unrolled: O(n). */
        ARTICULATED_BODY
    }

    /**
     * Fewest chunks of the articulated-body forward dynamics, emitted in first-use order, for which it is emitted in
     * its derivation's order instead, pass by pass ({@link MethodEmitter.Order#CREATION}). Interleaved
     * ({@code InterleavedAB --compare order}, 2 copies a side, 40 rounds, B/A): romeo_small (65 chunks) 0.974,
     * p10-p90 0.965-0.984; hyq (25) 1.009, solo12 (24) 1.009, panda (13) 1.012 with p10-p90 0.922-1.104: the gain is
     * the largest methods', so the others keep their code. An FD that calls twin limbs' shared code
     * ({@link LimbForm#SHARED}) keeps first-use order.
     */
    static final int PASS_ORDER_CHUNKS = 40;

    /**
     * Past this {@link #factorisationWork} the LᵀDL of H is not derived by default (a chain of 67 links is at
     * 98,021, of 68 at 102,510): its symbolic work grows with n d², and the articulated-body algorithm costs less
     * long before (a 24-link chain already takes it).
     */
    static final long MAX_FACTORISATION_WORK = 100_000;

    /** Σ_k |ancestors(k)|² over the dof tree: the size of the LᵀDL factorisation of H. */
    static long factorisationWork(Model model) {
        int[] lambda = model.dofParents();
        long work = 0;
        for (int k = 0; k < lambda.length; k++) {
            long a = ancestors(lambda, k);
            work += a * a;
        }
        return work;
    }

    /** The number of λ-ancestors of dof k in the dof tree {@code lambda} ({@link Model#dofParents()}). */
    private static int ancestors(int[] lambda, int k) {
        int a = 0;
        for (int i = lambda[k]; i >= 0; i = lambda[i]) {
            a++;
        }
        return a;
    }

    /**
     * Past this {@link #derivativesWork} the derivatives option is refused ({@link #derivativesProblem}): their
     * unrolled code grows with it (∂v̇ is nv solves of the factorised H, ∂τ and the Coriolis matrix nv² entries).
     * Measured with {@code symdyn generate --derivatives}, fresh JVM: romeo_small floating (12,358) 24 s; a 30-link
     * chain (13,950) 29 s and 2.2 GB; a 40-link chain (32,800) 54 s and 3.7 GB; a 71-dof humanoid with hands
     * (65,462) 73 s and 3.3 GB; a 51-link chain (67,626) failed after 2 minutes and 5.4 GB and a 60-link chain
     * (109,800) after 3, each class over the class file's 65,535 constants. Where the limit falls depends on how many
     * distinct constants the model has, so the bound stays where every measured model generated.
     */
    public static final long MAX_DERIVATIVES_WORK = 40_000;

    /** nv · Σ_k (|ancestors(k)| + 1) over the dof tree: the size of the generated derivatives' solves. */
    public static long derivativesWork(Model model) {
        int[] lambda = model.dofParents();
        long path = 0;
        for (int k = 0; k < lambda.length; k++) {
            path += ancestors(lambda, k) + 1;
        }
        return path * lambda.length;
    }

    /**
     * Why the derivatives option cannot be given for {@code model}, or null when it can: past
     * {@link #MAX_DERIVATIVES_WORK} the generated derivatives would not fit a class (or take minutes and gigabytes),
     * and the runtime's analytical {@code DynamicsDerivatives} ({@code GenericDynamics}) serve any size.
     */
    public static String derivativesProblem(Model model) {
        long work = derivativesWork(model);
        if (work <= MAX_DERIVATIVES_WORK) {
            return null;
        }
        return String.format(java.util.Locale.ROOT, "the derivatives option is for models up to a derivative size of"
                + " %,d (nv times the number of dofs on the path from each dof to the root, summed); this model's is"
                + " %,d (%d dof):"
                + " its unrolled derivatives would not fit a Java class. Generate it without the option and take the"
                + " derivatives from GenericDynamics, whose analytical DynamicsDerivatives serve any size",
                MAX_DERIVATIVES_WORK, work, model.nv());
    }

    /**
     * Refuses the derivatives option for a model past {@link #MAX_DERIVATIVES_WORK}, as the generator refuses what it
     * cannot derive: an {@link UnsupportedOperationException} whose message is {@link #derivativesProblem} located at
     * the first body's link (the tree's root; the size is the whole tree's).
     */
    static void requireDerivativesFit(Model model) {
        String why = derivativesProblem(model);
        if (why != null) {
            throw new UnsupportedOperationException(model.body(0).location() + " " + why);
        }
    }

    /** Largest model (dof) for which {@link Options#closedForm()} writes the equations. */
    public static final int CLOSED_FORM_MAX_DOF = 4;
    /** Time limit of the simplification of one closed-form entry, in seconds. */
    public static final long CLOSED_FORM_SECONDS = 5;

    /** A generated class: its source and what it cost. */
    public record GeneratedClass(String packageName, String className, String source, int nq, int nv,
            Map<String, OperationCount> operations, Map<String, Long> generationMillis) {

        /** The fully qualified class name. */
        public String qualifiedName() {
            return packageName.isEmpty() ? className : packageName + "." + className;
        }
    }

    /**
     * The class name derived from a robot name: the name is cut into runs of ASCII letters and digits (every other
     * character, non-ASCII letters included, separates); each run gets its first letter upper-cased, the rest is
     * kept; the runs are joined; {@code Model} is put in front when the result is empty or starts with a digit;
     * and {@code Dynamics} is appended. So {@code iiwa14} gives {@code Iiwa14Dynamics}, {@code romeo_small} gives
     * {@code RomeoSmallDynamics}, {@code 2dof_planar} gives {@code Model2dofPlanarDynamics}, {@code ur5-e.v2}
     * gives {@code Ur5EV2Dynamics} and an empty name gives {@code ModelDynamics}. The result is always a valid
     * Java identifier and never a keyword.
     */
    public static String defaultClassName(String robotName) {
        StringBuilder sb = new StringBuilder();
        boolean wordStart = true;
        String name = robotName == null ? "" : robotName;
        for (int i = 0; i < name.length(); i++) {
            char ch = name.charAt(i);
            boolean alnum = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
            if (!alnum) {
                wordStart = true;
                continue;
            }
            sb.append(wordStart ? Character.toUpperCase(ch) : ch);
            wordStart = false;
        }
        if (sb.length() == 0 || Character.isDigit(sb.charAt(0))) {
            sb.insert(0, "Model");
        }
        return sb.append("Dynamics").toString();
    }

    /** java.lang classes the generated code names without qualification: a generated class must not hide them. */
    private static final java.util.Set<String> RESERVED_NAMES = java.util.Set.of("Math", "System", "Override",
            "IndexOutOfBoundsException", "String", "Object");

    /**
     * Generates the class for {@code model}.
     *
     * @throws IllegalArgumentException if the class name would hide a java.lang class the code uses (such as Math)
     * @throws UnsupportedOperationException if the model has a constraint the generator cannot derive, or, with the
     *                                       derivatives option, is too large for them ({@link #derivativesProblem},
     *                                       located at its first link)
     */
    public GeneratedClass generate(Model model, Options options) {
        if (options.derivatives()) {
            requireDerivativesFit(model);
        }
        if (RESERVED_NAMES.contains(options.className())) {
            throw new IllegalArgumentException("class name '" + options.className() + "' would hide java.lang."
                    + options.className() + ", which the generated code uses: choose another name");
        }
        Map<String, Long> millis = new LinkedHashMap<>();
        long t0 = System.nanoTime();
        ExpressionGraph g = new ExpressionGraph();
        SymbolicModel sym = SymbolicModel.of(model, g);
        SymbolicRecursions dyn = sym.dynamics();
        SymbolicConstraints con = sym.constraints();
        int nv = model.nv();
        int nq = model.nq();
        long t = lap(millis, "setup", t0);

        // A large model (long branches) gets linear-size forms of the methods whose unrolled source grows with n
        // times the depth: shared kinematics passes, a looped CRBA, no separately emitted fused evaluations.
        boolean large = options.kinematics() == KinematicsForm.SHARED_PASSES
                || options.kinematics() == KinematicsForm.BY_SIZE
                        && SharedPassKinematics.depthSum(model) > SharedPassKinematics.MAX_PER_BODY_DEPTH_SUM;
        long work = factorisationWork(model);
        boolean factorisedCandidate = options.forwardDynamics() == ForwardDynamicsForm.FACTORISED_MASS_MATRIX
                || options.forwardDynamics() == ForwardDynamicsForm.CHEAPER && work <= MAX_FACTORISATION_WORK;
        // The symbolic H: for the unrolled massMatrix, the fused evaluations, the factorisation and the derivatives.
        IExpr[][] h = !large || factorisedCandidate || options.derivatives() || options.closedForm()
                ? dyn.massMatrix() : null;
        t = lap(millis, "mass_matrix", t);
        IExpr[] c = dyn.biasForces();
        t = lap(millis, "bias_forces", t);
        IExpr[] gq = dyn.gravityForces();
        t = lap(millis, "gravity", t);
        IExpr[] tauId = dyn.inverseDynamics();
        t = lap(millis, "inverse_dynamics", t);
        // The factorisation of H is derived here, where it always was (so that the temporaries of every other
        // method keep their names); the articulated-body algorithm at the very end, and the cheaper of the two is
        // emitted in forwardDynamics' place. The factorisation is O(n d²) symbolic work: past
        // MAX_FACTORISATION_WORK (a chain of 68 links or more) it is not derived and the ABA, far cheaper there, is
        // taken.
        IExpr[] qddFactorised = null;
        if (factorisedCandidate) {
            qddFactorised = dyn.forwardDynamics(h, c);
        }
        t = lap(millis, "forward_dynamics", t);
        IExpr[] phi = con.positionErrors();
        IExpr[] phidot = con.velocityErrors();
        IExpr[][] jac = con.jacobian(phidot);
        t = lap(millis, "constraint_jacobian", t);
        IExpr[] gamma = con.gamma(phidot);
        t = lap(millis, "gamma", t);
        int rows = phi.length;

        MethodEmitter emitter = new MethodEmitter(g, !options.mathTrig());
        Map<String, OperationCount> ops = new LinkedHashMap<>();
        List<MethodSpec> methods = new ArrayList<>();
        ArgumentChecks.Arg q = ArgumentChecks.Arg.in("q", nq);
        ArgumentChecks.Arg v = ArgumentChecks.Arg.in("v", nv);
        ArgumentChecks.Arg hParam = ArgumentChecks.Arg.matrix("H", nv, nv);
        ArgumentChecks.Arg gParam = ArgumentChecks.Arg.matrix("G", rows, nv);
        ArgumentChecks.Arg cParam = ArgumentChecks.Arg.out("C", nv);
        ArgumentChecks.Arg gammaParam = ArgumentChecks.Arg.out("gamma", rows);
        ArgumentChecks.Arg phiParam = ArgumentChecks.Arg.out("phi", rows);
        ArgumentChecks.Arg phidotParam = ArgumentChecks.Arg.out("phidot", rows);

        List<MethodEmitter.Output> hOut = h == null ? null : matrix("H", h);
        List<FieldSpec> fields = new ArrayList<>();
        Map<String, int[]> tables = new LinkedHashMap<>();
        List<MethodEmitter.Output> cOut = vector("C", c);
        List<MethodEmitter.Output> gOut = matrix("G", jac);
        List<MethodEmitter.Output> gammaOut = vector("gamma", gamma);
        List<MethodEmitter.Output> phiOut = vector("phi", phi);
        List<MethodEmitter.Output> phidotOut = vector("phidot", phidot);
        if (large) {
            OperationCount looped = LoopedMassMatrix.emit(model, dyn, emitter, ArgumentChecks.method("massMatrix", q,
                    hParam), methods, fields, tables);
            ops.put("mass_matrix", looped);
        } else {
            emit(emitter, methods, ops, "mass_matrix", ArgumentChecks.method("massMatrix", q, hParam), hOut);
        }
        MethodSpec cSpec = ArgumentChecks.method("biasForces", q, v, cParam);
        MethodSpec gSpec = ArgumentChecks.method("gravityForces", q, ArgumentChecks.Arg.out("g", nv));
        MethodSpec idSpec = ArgumentChecks.method("inverseDynamics", q, v, ArgumentChecks.Arg.in("vdot", nv),
                ArgumentChecks.Arg.out("tau", nv));
        // Each unrolled whole; with twin limbs, a method too large for the instruction cache is emitted again at the
        // end with calls of the limbs' shared code (SharedLimbCode.MIN_CHUNKS), after every other derivation, since
        // the calls add temporaries that must not rename any other method's.
        int[] inverseAt = new int[4];
        inverseAt[0] = methods.size();
        emit(emitter, methods, ops, "bias_forces", cSpec, cOut);
        inverseAt[1] = methods.size();
        emit(emitter, methods, ops, "gravity", gSpec, vector("g", gq));
        inverseAt[2] = methods.size();
        emit(emitter, methods, ops, "inverse_dynamics", idSpec, vector("tau", tauId));
        inverseAt[3] = methods.size();
        int forwardDynamicsAt = methods.size();
        ops.put("forward_dynamics", OperationCount.ZERO);
        emit(emitter, methods, ops, "position_error", ArgumentChecks.method("positionError", q, phiParam), phiOut);
        emit(emitter, methods, ops, "velocity_error", ArgumentChecks.method("velocityError", q, v, phidotParam), phidotOut);
        emit(emitter, methods, ops, "constraint_jacobian", ArgumentChecks.method("constraintJacobian", q, gParam), gOut);
        emit(emitter, methods, ops, "gamma", ArgumentChecks.method("gamma", q, v, gammaParam), gammaOut);
        t = lap(millis, "emission", t);

        if (large) {
            // A large model keeps ModelFunctions' default fused evaluations (the separate calls): emitting them
            // again would repeat H, which grows with n times the depth, three more times; recorded at the cost of
            // the calls they make.
            putSeparateCallCounts(ops);
        } else {
            // The fused evaluations of ModelFunctions: one emission over all outputs, so that sines, cosines,
            // transforms and velocities are computed once for all of them.
            emit(emitter, methods, ops, "constrained_system", ArgumentChecks.method("constrainedSystem", q, v, hParam,
                    cParam, gParam, gammaParam), concat(hOut, cOut, gOut, gammaOut));
            emit(emitter, methods, ops, "constrained_system_with_errors", ArgumentChecks.method("constrainedSystem",
                    q, v, hParam, cParam, gParam, gammaParam, phiParam, phidotParam),
                    concat(hOut, cOut, gOut, gammaOut, phiOut, phidotOut));
            emit(emitter, methods, ops, "impulse_system", ArgumentChecks.method("impulseSystem", q, hParam, gParam),
                    concat(hOut, gOut));
        }
        t = lap(millis, "fused", t);

        if (large) {
            new SharedPassKinematics(model, sym.kinematics(), emitter, methods, fields, tables).emitAll();
        } else {
            new KinematicsMethods(model, sym.kinematics(), emitter, methods).emitAll();
        }
        t = lap(millis, "kinematics", t);
        if (options.derivatives()) {
            t = emitDerivatives(model, sym.derivatives(), h, c, emitter, methods, ops, q, v, millis, t);
        }
        CodeBlock closedForm = null;
        if (options.closedForm() && nv <= CLOSED_FORM_MAX_DOF) {
            closedForm = ClosedForm.of(model, g, h, c, gq);
            lap(millis, "closed_form", t);
        }

        IExpr[] qddArticulated = sym.articulatedBody().forwardDynamics();
        OperationCount factorisedOps = qddFactorised == null ? null : emitter.count(vector("vdot", qddFactorised));
        ForwardDynamicsChoice fd = ForwardDynamicsChoice.of(options.forwardDynamics(), factorisedOps,
                emitter.count(vector("vdot", qddArticulated)), work);
        List<MethodSpec> fdMethods = new ArrayList<>();
        MethodSpec fdSpec = ArgumentChecks.method("forwardDynamics", q, v, ArgumentChecks.Arg.in("tau", nv),
                ArgumentChecks.Arg.out("vdot", nv));
        List<MethodEmitter.Output> fdOut = vector("vdot", fd.articulated() ? qddArticulated : qddFactorised);
        // The chunks of the first-use order counted by a throwaway emitter, whose workspace the class does not keep.
        boolean passOrder = fd.articulated() && new MethodEmitter(g, !options.mathTrig()).emit(fdSpec, fdOut)
                .methods().size() - 1 >= PASS_ORDER_CHUNKS;
        emit(emitter, fdMethods, ops, "forward_dynamics", fdSpec, fdOut,
                passOrder ? MethodEmitter.Order.CREATION : MethodEmitter.Order.FIRST_USE);
        methods.addAll(forwardDynamicsAt, fdMethods);
        t = lap(millis, "articulated_body", t);

        // Last, so that no other method's temporaries change names: the saddle-point system of the model's rows,
        // factorised over the run-time H and G with their structural zeros and constants folded.
        SystemFactorization factorisedSystem = rows == 0 || large ? SystemFactorization.NONE
                : emitConstrainedSystem(sym.constrainedSystem(), h, jac, nv, emitter, methods, ops, fields)
                        ? SystemFactorization.EMITTED : SystemFactorization.SINGULAR;
        t = lap(millis, "constrained_system_factorisation", t);
        // After it, for the same reason: the rows' derivatives, with the derivatives option.
        boolean rowDerivatives = options.derivatives() && rows > 0;
        if (rowDerivatives) {
            emitConstraintDerivatives(con.derivatives(phi, phidot, jac, gamma), nv, rows, emitter, methods, ops, q, v);
            lap(millis, "constraint_derivatives", t);
        }

        SharedLimbCode limbs = new SharedLimbCode(model, g, !options.mathTrig());
        if (limbs.any()) {
            // Forward dynamics first: it follows the three below in the class. Only on request (LimbForm.SHARED):
            // interleaved, its calls gained nothing on romeo_small (B/A 0.995) and lost on the quadrupeds (1.05-1.07)
            // and on a 71-dof humanoid (+8 %), its two calls per limb passing U, D⁻¹, û and the sines through the
            // scratch array.
            if (fd.articulated() && options.limbs() == LimbForm.SHARED) {
                Map<Integer, SymbolicArticulatedBody.LimbCalls> calls = new LinkedHashMap<>();
                List<MethodSpec> shared = new ArrayList<>();
                IExpr[][] states = sym.articulatedBody().parentStates();
                OperationCount callOps = limbs.emitForward(fdSpec.name, shared, calls, root -> states[root]);
                IExpr[] qdd = sym.articulatedBody().forwardDynamics(calls);
                List<MethodSpec> replacement = new ArrayList<>();
                emitWithCalls(emitter, replacement, ops, "forward_dynamics", fdSpec, vector("vdot", qdd), callOps,
                        calls.size());
                replacement.addAll(shared);
                methods.subList(forwardDynamicsAt, forwardDynamicsAt + fdMethods.size()).clear();
                methods.addAll(forwardDynamicsAt, replacement);
            }
            String[] keys = {"bias_forces", "gravity", "inverse_dynamics"};
            MethodSpec[] specs = {cSpec, gSpec, idSpec};
            String[] outputs = {"C", "g", "tau"};
            SymbolicLimbs.Quantity[] quantities = {SymbolicLimbs.Quantity.BIAS_FORCES,
                SymbolicLimbs.Quantity.GRAVITY, SymbolicLimbs.Quantity.INVERSE_DYNAMICS};
            // The last first, so that the earlier ones' places do not move.
            for (int k = 2; k >= 0; k--) {
                if (!sharesLimbs(options, inverseAt[k + 1] - inverseAt[k] - 1)) {
                    continue;
                }
                List<MethodSpec> replacement = new ArrayList<>();
                emitWithLimbs(limbs, dyn, g, nv, emitter, replacement, ops, keys[k], specs[k], outputs[k],
                        quantities[k]);
                methods.subList(inverseAt[k], inverseAt[k + 1]).clear();
                methods.addAll(inverseAt[k], replacement);
            }
            fields.addAll(limbs.fields());
            methods.addAll(limbs.tableMethods());
            if (large) {
                putSeparateCallCounts(ops); // C's count has changed
            }
            t = lap(millis, "shared_limbs", t);
        }

        TypeSpec type = ClassSkeleton.classSpec(model, options, methods, fields, tables, ops, fd, large,
                emitter.workspace(), rows, closedForm, factorisedSystem, rowDerivatives);
        String source = JavaFile.builder(options.packageName(), type).skipJavaLangImports(true).indent("    ")
                .build().toString();
        millis.put("total", (System.nanoTime() - t0) / 1_000_000);
        return new GeneratedClass(options.packageName(), options.className(), source, nq, nv, ops, millis);
    }

    /**
     * The methods of {@link org.symdyn.contract.DynamicsDerivatives} ({@link SymbolicDerivatives}): ∂τ/∂q and ∂τ/∂v;
     * ∂v̇/∂q, ∂v̇/∂v and H⁻¹ through the forward dynamics' factorisation of the generated H; H⁻¹ alone; the Coriolis
     * matrix; the regressor and the inertial parameters.
     */
    private static long emitDerivatives(Model model, SymbolicDerivatives d, IExpr[][] h, IExpr[] c,
            MethodEmitter emitter, List<MethodSpec> methods, Map<String, OperationCount> ops, ArgumentChecks.Arg q,
            ArgumentChecks.Arg v, Map<String, Long> millis, long since) {
        int nv = model.nv();
        int cols = org.symdyn.contract.DynamicsDerivatives.PARAMETERS_PER_BODY * model.bodyCount();
        ArgumentChecks.Arg vdot = ArgumentChecks.Arg.in("vdot", nv);
        IExpr[][][] id = d.inverseDynamicsDerivatives();
        long t = lap(millis, "inverse_dynamics_derivatives", since);
        emit(emitter, methods, ops, "inverse_dynamics_derivatives", ArgumentChecks.method(
                "inverseDynamicsDerivatives", q, v, vdot, ArgumentChecks.Arg.matrix("dtauDq", nv, nv),
                ArgumentChecks.Arg.matrix("dtauDv", nv, nv)), concat(matrix("dtauDq", id[0]), matrix("dtauDv", id[1])));
        t = lap(millis, "inverse_dynamics_derivatives_emission", t);
        IExpr[][][] fd = d.forwardDynamicsDerivatives(h, c);
        t = lap(millis, "forward_dynamics_derivatives", t);
        emit(emitter, methods, ops, "forward_dynamics_derivatives", ArgumentChecks.method(
                "forwardDynamicsDerivatives", q, v, ArgumentChecks.Arg.in("tau", nv),
                ArgumentChecks.Arg.matrix("dvdotDq", nv, nv), ArgumentChecks.Arg.matrix("dvdotDv", nv, nv),
                ArgumentChecks.Arg.matrix("dvdotDtau", nv, nv)), concat(matrix("dvdotDq", fd[0]),
                matrix("dvdotDv", fd[1]), matrix("dvdotDtau", fd[2])));
        t = lap(millis, "forward_dynamics_derivatives_emission", t);
        emit(emitter, methods, ops, "inverse_mass_matrix", ArgumentChecks.method("inverseMassMatrix", q,
                ArgumentChecks.Arg.matrix("Minv", nv, nv)), matrix("Minv", d.inverseMassMatrix(h)));
        t = lap(millis, "inverse_mass_matrix", t);
        emit(emitter, methods, ops, "coriolis_matrix", ArgumentChecks.method("coriolisMatrix", q, v,
                ArgumentChecks.Arg.matrix("coriolis", nv, nv)), matrix("coriolis", d.coriolisMatrix()));
        t = lap(millis, "coriolis_matrix", t);
        IExpr[][] y = d.regressor();
        emit(emitter, methods, ops, "regressor", ArgumentChecks.method("regressor", q, v, vdot,
                ArgumentChecks.Arg.matrix("Y", nv, cols)), matrix("Y", y));
        IExpr[] pi = d.inertialParameters();
        emit(emitter, methods, ops, "inertial_parameters", ArgumentChecks.method("inertialParameters",
                ArgumentChecks.Arg.out("pi", cols)), vector("pi", pi));
        IExpr[][] dpiDp = d.inertialParameterJacobian(pi);
        int np = model.parameters().size();
        emit(emitter, methods, ops, "inertial_parameter_jacobian", ArgumentChecks.method("inertialParameterJacobian",
                ArgumentChecks.Arg.matrix("dpiDp", cols, np)), matrix("dpiDp", dpiDp));
        emit(emitter, methods, ops, "parameter_regressor", ArgumentChecks.method("parameterRegressor", q, v, vdot,
                ArgumentChecks.Arg.matrix("Yp", nv, np)), matrix("Yp", d.parameterRegressor(y, dpiDp)));
        return lap(millis, "regressor", t);
    }

    /** Whether the class factorises its constrained system ({@link org.symdyn.contract.ConstrainedSystemFactorization}). */
    enum SystemFactorization {
        /** No constraint rows, or a large model (its H is looped). */
        NONE,
        /** Emitted. */
        EMITTED,
        /** Not emitted: a pivot is identically zero, the system singular in every state. */
        SINGULAR
    }

    /**
     * The methods of {@link org.symdyn.contract.ConstrainedSystemFactorization} ({@link SymbolicConstrainedSystem}):
     * the factorisation into the instance's {@code factors} and {@code pivots}, returning the pivot ratio, and the
     * solve from them.
     *
     * @return false (nothing emitted) if a pivot is identically zero: the system is singular in every state
     */
    private static boolean emitConstrainedSystem(SymbolicConstrainedSystem system, IExpr[][] h, IExpr[][] jac,
            int nv, MethodEmitter emitter, List<MethodSpec> methods, Map<String, OperationCount> ops,
            List<FieldSpec> fields) {
        int rows = jac.length;
        SymbolicConstrainedSystem.Factorization f = system.factor(h, jac);
        if (f == null) {
            return false;
        }
        fields.add(ClassSkeleton.scratch("factors", f.stored().size()));
        fields.add(ClassSkeleton.scratch("pivots", f.pivots().length));
        MethodSpec factor = ArgumentChecks.method("factorConstrainedSystem", ArgumentChecks.Arg.matrixIn("H", nv, nv),
                ArgumentChecks.Arg.matrixIn("G", rows, nv)).toBuilder().returns(double.class).build();
        List<MethodSpec> factorMethods = new ArrayList<>();
        emit(emitter, factorMethods, ops, "constrained_system_factorisation", factor,
                concat(vector("factors", f.stored().toArray(new IExpr[0])), vector("pivots", f.pivots())));
        factorMethods.set(0, factorMethods.get(0).toBuilder().addStatement("return $T.pivotRatio(pivots, $L, $L)",
                org.symdyn.contract.ConstrainedSystemFactorization.class, nv, rows).build());
        methods.addAll(factorMethods);
        IExpr[][] xy = system.solve(f);
        emit(emitter, methods, ops, "constrained_system_solve", ArgumentChecks.method("solveConstrainedSystem",
                ArgumentChecks.Arg.in("a", nv), ArgumentChecks.Arg.in("b", rows), ArgumentChecks.Arg.out("x", nv),
                ArgumentChecks.Arg.out("y", rows)), concat(vector("x", xy[0]), vector("y", xy[1])));
        return true;
    }

    /**
     * The methods of {@link org.symdyn.contract.ConstraintDerivatives} ({@link SymbolicConstraints#derivatives}):
     * ∂a/∂q and ∂a/∂v of the rows' acceleration, ∂(Gᵀ λ)/∂q, and ∂φ/∂q, ∂φ̇/∂q.
     */
    private static void emitConstraintDerivatives(IExpr[][][] d, int nv, int rows, MethodEmitter emitter,
            List<MethodSpec> methods, Map<String, OperationCount> ops, ArgumentChecks.Arg q, ArgumentChecks.Arg v) {
        emit(emitter, methods, ops, "constraint_acceleration_derivatives", ArgumentChecks.method(
                "constraintAccelerationDerivatives", q, v, ArgumentChecks.Arg.in("vdot", nv),
                ArgumentChecks.Arg.matrix("dAdq", rows, nv), ArgumentChecks.Arg.matrix("dAdv", rows, nv)),
                concat(matrix("dAdq", d[0]), matrix("dAdv", d[1])));
        emit(emitter, methods, ops, "constraint_force_derivative", ArgumentChecks.method("constraintForceDerivative",
                q, ArgumentChecks.Arg.in("lambda", rows), ArgumentChecks.Arg.matrix("dForceDq", nv, nv)),
                matrix("dForceDq", d[4]));
        emit(emitter, methods, ops, "constraint_error_derivatives", ArgumentChecks.method(
                "constraintErrorDerivatives", q, v, ArgumentChecks.Arg.matrix("dPhiDq", rows, nv),
                ArgumentChecks.Arg.matrix("dPhidotDq", rows, nv)), concat(matrix("dPhiDq", d[2]),
                matrix("dPhidotDq", d[3])));
    }

    /**
     * One of the inverse dynamics with each twin limb computed by a call of its shape's shared code
     * ({@link SharedLimbCode}); the shared methods follow the public method and its chunks.
     */
    private static void emitWithLimbs(SharedLimbCode limbs, SymbolicRecursions dyn, ExpressionGraph g, int nv,
            MethodEmitter emitter, List<MethodSpec> methods, Map<String, OperationCount> ops, String key,
            MethodSpec spec, String output, SymbolicLimbs.Quantity quantity) {
        IExpr[] zeros = new IExpr[nv];
        java.util.Arrays.fill(zeros, org.matheclipse.core.expression.F.C0);
        IExpr[] v = quantity == SymbolicLimbs.Quantity.GRAVITY ? zeros : g.inputs(SymbolicInput.Kind.V, nv);
        IExpr[] vdot = quantity == SymbolicLimbs.Quantity.INVERSE_DYNAMICS ? g.inputs(SymbolicInput.Kind.VDOT, nv)
                : zeros;
        Map<Integer, SymbolicRecursions.LimbCall> calls = new LinkedHashMap<>();
        List<MethodSpec> shared = new ArrayList<>();
        IExpr[][] parents = dyn.parentMotions(v, vdot, true);
        OperationCount callOps = limbs.emit(quantity, spec.name, shared, calls, root -> parents[root]);
        IExpr[] values = dyn.inverseDynamics(v, vdot, true, calls);
        emitWithCalls(emitter, methods, ops, key, spec, vector(output, values), callOps, calls.size());
        methods.addAll(shared);
    }

    /** The fused evaluations of a large model at the cost of the separate calls they make. */
    private static void putSeparateCallCounts(Map<String, OperationCount> ops) {
        ops.put("constrained_system", sum(ops, "mass_matrix", "bias_forces", "constraint_jacobian", "gamma"));
        ops.put("constrained_system_with_errors", sum(ops, "mass_matrix", "bias_forces", "constraint_jacobian",
                "gamma", "position_error", "velocity_error"));
        ops.put("impulse_system", sum(ops, "mass_matrix", "constraint_jacobian"));
    }

    /** Whether a method unrolled in {@code chunks} chunks calls its twin limbs' shared code instead. */
    private static boolean sharesLimbs(Options options, int chunks) {
        return options.limbs() == LimbForm.SHARED
                || options.limbs() == LimbForm.BY_SIZE && chunks >= SharedLimbCode.MIN_CHUNKS;
    }

    /** {@link #emit} for a method that calls shared limb code: its count includes the calls' operations. */
    private static void emitWithCalls(MethodEmitter emitter, List<MethodSpec> methods,
            Map<String, OperationCount> ops, String key, MethodSpec spec, List<MethodEmitter.Output> outputs,
            OperationCount callOps, int limbs) {
        MethodEmitter.Emitted e = emitter.emit(spec, outputs);
        OperationCount total = e.operations().plus(callOps);
        ops.put(key, total);
        List<MethodSpec> ms = new ArrayList<>(e.methods());
        ms.set(0, ms.get(0).toBuilder().addJavadoc("$L: $L; $L flops of them in the shared code of $L twin limbs.\n",
                key.replace('_', ' '), total, callOps.flops(), limbs).build());
        methods.addAll(ms);
    }

    private static long lap(Map<String, Long> millis, String phase, long since) {
        long now = System.nanoTime();
        millis.put(phase, (now - since) / 1_000_000);
        return now;
    }

    /** Assignments {@code name[k] = values[k]}. */
    static List<MethodEmitter.Output> vector(String name, IExpr[] values) {
        List<MethodEmitter.Output> out = new ArrayList<>();
        for (int k = 0; k < values.length; k++) {
            out.add(new MethodEmitter.Output(name + "[" + k + "]", values[k]));
        }
        return out;
    }

    /** Assignments {@code name.data[r * columns + c] = values[r][c]}: a row-major {@code DMatrixRMaj}. */
    static List<MethodEmitter.Output> matrix(String name, IExpr[][] values) {
        List<MethodEmitter.Output> out = new ArrayList<>();
        for (int r = 0; r < values.length; r++) {
            for (int c = 0; c < values[r].length; c++) {
                out.add(new MethodEmitter.Output(name + ".data[" + (r * values[r].length + c) + "]", values[r][c]));
            }
        }
        return out;
    }

    private static OperationCount sum(Map<String, OperationCount> ops, String... keys) {
        OperationCount total = OperationCount.ZERO;
        for (String k : keys) {
            total = total.plus(ops.get(k));
        }
        return total;
    }

    @SafeVarargs
    private static List<MethodEmitter.Output> concat(List<MethodEmitter.Output>... parts) {
        List<MethodEmitter.Output> out = new ArrayList<>();
        for (List<MethodEmitter.Output> p : parts) {
            out.addAll(p);
        }
        return out;
    }

    /** Emits a public method, states its operation count in its Javadoc and records it for the class header. */
    private static void emit(MethodEmitter emitter, List<MethodSpec> methods, Map<String, OperationCount> ops,
            String key, MethodSpec spec, List<MethodEmitter.Output> outputs) {
        emit(emitter, methods, ops, key, spec, outputs, MethodEmitter.Order.FIRST_USE);
    }

    private static void emit(MethodEmitter emitter, List<MethodSpec> methods, Map<String, OperationCount> ops,
            String key, MethodSpec spec, List<MethodEmitter.Output> outputs, MethodEmitter.Order order) {
        MethodEmitter.Emitted e = emitter.emit(spec, outputs, order);
        ops.put(key, e.operations());
        List<MethodSpec> ms = new ArrayList<>(e.methods());
        MethodSpec pub = ms.get(0).toBuilder().addJavadoc("$L: $L.\n", key.replace('_', ' '), e.operations())
                .build();
        ms.set(0, pub);
        methods.addAll(ms);
    }
}
