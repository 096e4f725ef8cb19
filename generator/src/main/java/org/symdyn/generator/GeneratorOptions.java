package org.symdyn.generator;

import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import org.symdyn.contract.ModelPart;

/**
 * What {@code CodeGenerator.generate} makes of a model: where the class goes and what it is called, and the forms
 * of its code. {@link #of} gives the defaults; each {@code with...} method returns a copy with one option changed:
 * {@code GeneratorOptions.of("org.example", "ArmDynamics").withDerivatives(true)}. {@link #derivatives()} is
 * whether {@code parts} holds {@link ModelPart#DERIVATIVES}.
 *
 * @param packageName     the package of the class (empty: the unnamed package)
 * @param className       the simple name of the class
 * @param closedForm      add the closed form of H, C and g to the class Javadoc (models of up to
 *                        {@link #CLOSED_FORM_MAX_DOF} dof; Symja's TrigReduce and Simplify, at most
 *                        {@link #CLOSED_FORM_SECONDS} s per entry; an entry that does not simplify in time is shown
 *                        expanded); off by default
 * @param mathTrig        the joint angles' sines and cosines call {@link Math#sin}/{@link Math#cos} instead of the
 *                        inlined {@link org.symdyn.spatial.SinCos} steps, which are faster (iiwa14's C by about a
 *                        quarter) and within 2 ulps of Math's; on, to get Math's bits exactly; off by default
 * @param parts           the parts of the contract the class carries ({@link ModelPart}; {@link ModelPart#DYNAMICS}
 *                        always): by default {@link ModelPart#defaults()}; each method of a part left out throws an
 *                        {@link UnsupportedOperationException} naming the part, and the class's
 *                        {@code parts()} says which it carries. {@link ModelPart#DERIVATIVES}: the derivatives of
 *                        the dynamics, the Coriolis matrix, H⁻¹ and the regressor, the class then also implementing
 *                        {@link org.symdyn.contract.DynamicsDerivatives}; generation then takes 3-9x as long (ur5
 *                        3.7x, iiwa14 6.4x, solo12 8.5x, romeo_small 3.1x measured warm)
 * @param forwardDynamics the form of forward dynamics; by default the cheaper one
 * @param kinematics      the form of the kinematics, H and the fused evaluations; by default chosen by the model's
 *                        size
 * @param limbs           the form of twin limbs' C, g and τ (and with {@link LimbForm#SHARED} the articulated-body
 *                        forward dynamics); by default chosen by the methods' size
 */
public record GeneratorOptions(String packageName, String className, boolean closedForm, boolean mathTrig,
        Set<ModelPart> parts, ForwardDynamicsForm forwardDynamics, KinematicsForm kinematics, LimbForm limbs) {
    /** Largest model (dof) for which {@link #closedForm()} writes the equations. */
    public static final int CLOSED_FORM_MAX_DOF = 4;
    /** Time limit of the simplification of one closed-form entry, in seconds. */
    public static final long CLOSED_FORM_SECONDS = 5;

    public GeneratorOptions {
        if (!parts.contains(ModelPart.DYNAMICS)) {
            throw new IllegalArgumentException("the dynamics part cannot be left out: every solver and integrator"
                    + " needs H, C, g, tau and vdot");
        }
        if (parts.contains(ModelPart.RECURSIVE_CONSTRAINTS) && !parts.contains(ModelPart.CONSTRAINTS)) {
            throw new IllegalArgumentException("the recursive_constraints part needs the constraints part: the recursion"
                    + " solves the model's own rows; add it: ...,constraints,recursive_constraints");
        }
        parts = java.util.Collections.unmodifiableSet(EnumSet.copyOf(parts));
        Objects.requireNonNull(forwardDynamics, "forwardDynamics");
        Objects.requireNonNull(kinematics, "kinematics");
        Objects.requireNonNull(limbs, "limbs");
    }

    /**
     * The class {@code packageName.className} with every option at its default: no closed form, inlined sines and
     * cosines, the default parts (no derivatives), and each form chosen by the model ({@link ForwardDynamicsForm#CHEAPER},
     * {@link KinematicsForm#BY_SIZE}, {@link LimbForm#BY_SIZE}).
     */
    public static GeneratorOptions of(String packageName, String className) {
        return new GeneratorOptions(packageName, className, false, false, ModelPart.defaults(),
                ForwardDynamicsForm.CHEAPER, KinematicsForm.BY_SIZE, LimbForm.BY_SIZE);
    }

    /** These options with the closed form of H, C and g in the class Javadoc on or off. */
    public GeneratorOptions withClosedForm(boolean on) {
        return copy(c -> c.closedForm = on);
    }

    /** These options with the sines and cosines as {@link Math} calls (on) or inlined steps (off). */
    public GeneratorOptions withMathTrig(boolean on) {
        return copy(c -> c.mathTrig = on);
    }

    /** Whether the class carries the derivatives ({@link ModelPart#DERIVATIVES} in {@link #parts()}). */
    public boolean derivatives() {
        return parts.contains(ModelPart.DERIVATIVES);
    }

    /** Whether the class carries {@code part}. */
    public boolean carries(ModelPart part) {
        return parts.contains(part);
    }

    /** These options with the derivatives ({@link org.symdyn.contract.DynamicsDerivatives}) on or off. */
    public GeneratorOptions withDerivatives(boolean on) {
        return copy(c -> {
            if (on) {
                c.parts.add(ModelPart.DERIVATIVES);
            } else {
                c.parts.remove(ModelPart.DERIVATIVES);
            }
        });
    }

    /**
     * These options with the class carrying {@code parts} ({@link ModelPart#DYNAMICS} among them, else
     * {@link IllegalArgumentException}).
     */
    public GeneratorOptions withParts(Set<ModelPart> parts) {
        return copy(c -> {
            c.parts.clear();
            c.parts.addAll(parts);
        });
    }

    /** These options with forward dynamics in the given form (the default picks the cheaper). */
    public GeneratorOptions withForwardDynamics(ForwardDynamicsForm form) {
        return copy(c -> c.forwardDynamics = form);
    }

    /**
     * These options with the kinematics, H and fused evaluations in the given form ({@link KinematicsForm}; the
     * default chooses by the model's size).
     */
    public GeneratorOptions withKinematics(KinematicsForm form) {
        return copy(c -> c.kinematics = form);
    }

    /**
     * These options with twin limbs' dynamics in the given form ({@link LimbForm}: C, g and τ, and with
     * {@link LimbForm#SHARED} the articulated-body forward dynamics too).
     */
    public GeneratorOptions withLimbs(LimbForm form) {
        return copy(c -> c.limbs = form);
    }

    /** A copy of these options with {@code change} made. */
    private GeneratorOptions copy(Consumer<Copy> change) {
        Copy c = new Copy(this);
        change.accept(c);
        return new GeneratorOptions(c.packageName, c.className, c.closedForm, c.mathTrig, c.parts,
                c.forwardDynamics, c.kinematics, c.limbs);
    }

    /** The options' values while one of them changes. */
    private static final class Copy {
        final String packageName;
        final String className;
        boolean closedForm;
        boolean mathTrig;
        final Set<ModelPart> parts;
        ForwardDynamicsForm forwardDynamics;
        KinematicsForm kinematics;
        LimbForm limbs;

        Copy(GeneratorOptions o) {
            packageName = o.packageName;
            className = o.className;
            closedForm = o.closedForm;
            mathTrig = o.mathTrig;
            parts = EnumSet.copyOf(o.parts);
            forwardDynamics = o.forwardDynamics;
            kinematics = o.kinematics;
            limbs = o.limbs;
        }
    }
}
