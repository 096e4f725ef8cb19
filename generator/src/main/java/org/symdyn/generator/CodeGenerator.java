package org.symdyn.generator;

import org.symdyn.generator.symbolic.UnsupportedModelException;
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
     * Past this {@link #derivativesWork} the derivatives option gives looped derivatives ({@link LoopedDerivatives},
     * {@link #loopedDerivatives}) instead of unrolled ones, whose code grows with it (∂v̇ is nv solves of the factorised H, ∂τ and the Coriolis matrix nv² entries).
     * Measured with {@code symdyn generate --derivatives}, fresh JVM: romeo_small floating (12,358) 24 s; a 30-link
     * chain (13,950) 29 s and 2.2 GB; a 40-link chain (32,800) 54 s and 3.7 GB; a 71-dof humanoid with hands
     * (65,462) 73 s and 3.3 GB; a 51-link chain (67,626) failed after 2 minutes and 5.4 GB and a 60-link chain
     * (109,800) after 3, each class over the class file's 65,535 constants. Where the limit falls depends on how many
     * distinct constants the model has, so the bound stays where every measured model generated unrolled.
     */
    public static final long MAX_DERIVATIVES_WORK = 40_000;

    /** nv · Σ_k (|ancestors(k)| + 1) over the dof tree: the size of the generated derivatives' solves. */
    public static long derivativesWork(Model model) {
        int[] lambda = model.dofParents();
        long path = 0;
        for (int k = 0; k < lambda.length; k++) {
            path += GenerationForms.ancestors(lambda, k) + 1;
        }
        return path * lambda.length;
    }

    /**
     * True when the derivatives option gives {@code model} looped derivatives ({@link LoopedDerivatives}: the
     * runtime's recursions over the class's own numbers, its parameters followed) rather than unrolled ones: past
     * {@link #MAX_DERIVATIVES_WORK}, where unrolled derivatives would not fit a class. Every model gets derivatives.
     */
    public static boolean loopedDerivatives(Model model) {
        return derivativesWork(model) > MAX_DERIVATIVES_WORK;
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
            "IndexOutOfBoundsException", "UnsupportedOperationException", "String", "Object");

    /**
     * Generates the class for {@code model}: the forms chosen ({@link GenerationForms}), the dynamics and the
     * constraint rows derived ({@link Derivation}), every method emitted in class order ({@link ClassGeneration}),
     * each after the derivation of the ones before it, and the class assembled.
     *
     * @throws IllegalArgumentException if the class name would hide a java.lang class the code uses (such as Math)
     * @throws UnsupportedModelException if the model has a constraint the generator cannot derive
     */
    public GeneratedClass generate(Model model, GeneratorOptions options) {
        refuse(model, options);
        PhaseClock clock = new PhaseClock();
        GenerationForms forms = GenerationForms.choose(model, options);
        Derivation derived = Derivation.derive(model, options, forms, clock);
        ClassGeneration cls = new ClassGeneration(model, options, forms, derived, clock);
        cls.emitDynamics();
        cls.emitFusedEvaluations();
        cls.emitKinematics();
        cls.emitDerivatives();
        cls.deriveClosedForm();
        cls.emitForwardDynamics();
        // Last, so that no other method's temporaries change names: the constrained system, then the rows'
        // derivatives, then twin limbs' methods emitted again with calls of shared code, then the recursive
        // constrained system, then the limb-eliminated one.
        cls.emitConstrainedSystem();
        cls.emitRowDerivatives();
        cls.shareLimbs();
        cls.emitArticulatedSystem();
        cls.emitLimbConstraints();
        return cls.assemble();
    }

    /** Refuses what cannot be generated before anything is derived. */
    private static void refuse(Model model, GeneratorOptions options) {
        if (RESERVED_NAMES.contains(options.className())) {
            throw new IllegalArgumentException("class name '" + options.className() + "' would hide java.lang."
                    + options.className() + ", which the generated code uses: choose another name");
        }
    }
}
