package org.symdyn.contract;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * The parts of the contract a class of {@link ModelFunctions} carries ({@link ModelFunctions#parts()}): a generated
 * class carries the parts it was generated with (the command line's {@code generate --parts}, the plugin's
 * {@code <parts>}); each method of a part it lacks throws an {@link UnsupportedOperationException} naming the part
 * and the option. {@link #DYNAMICS} is in every class: every solver, integrator and the fused evaluations start from
 * H, C, g, τ and v̇.
 */
public enum ModelPart {
    /** {@link Dynamics}: H(q), C(q, v), g(q), inverse and forward dynamics. Always carried. */
    DYNAMICS,
    /**
     * {@link Kinematics}: body and frame poses, body velocities, accelerations and Jacobians, and the position,
     * velocity, acceleration, bias acceleration and Jacobian of points (what contact detection and contact rows use).
     */
    KINEMATICS,
    /**
     * The model's own constraint rows ({@link ConstraintFunctions}: φ, φ̇, G, γ), the fused evaluations of
     * {@link ModelFunctions} and, where generated, the {@link ConstrainedSystemFactorization} and, when every row is
     * carried by a limb of a floating base, the {@link LimbConstrainedDynamics}.
     */
    CONSTRAINTS,
    /**
     * {@link DynamicsDerivatives} (and, for a model with rows, {@link ConstraintDerivatives}, unless the class's
     * derivatives are looped: a model too large to unroll them, whose rows the runtime differentiates where it can,
     * contacts, loops and couplers).
     */
    DERIVATIVES,
    /**
     * {@link ArticulatedConstraintSystem}: the recursive constrained dynamics of the model's own rows without H
     * (with {@link #CONSTRAINTS}, for a model with rows that is not generated in the large-model form), which the
     * solvers' recursive method ({@code ConstraintSolverMethod.RECURSIVE}) runs. Not among the defaults: on the
     * models measured, the Schur-complement system of {@link #CONSTRAINTS} is faster (solo12 on 12 foot rows,
     * generated: 2.67 µs recursive, 2.03 µs Schur; benchmarks/README.md), so this part adds code only for the
     * callers who ask for the method. A class of a model without rows, or generated in the large-model form, leaves
     * it out and does not list it in {@link ModelFunctions#parts()}.
     */
    RECURSIVE_CONSTRAINTS;

    /**
     * The parts a class carries unless told otherwise: all but {@link #DERIVATIVES} and
     * {@link #RECURSIVE_CONSTRAINTS}.
     */
    public static Set<ModelPart> defaults() {
        return EnumSet.of(DYNAMICS, KINEMATICS, CONSTRAINTS);
    }

    /** The part's name in options: lower case ({@code kinematics}). */
    public String optionName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The part named {@code name} in options (any case, surrounding blanks ignored).
     *
     * @throws IllegalArgumentException naming the parts there are, if none is called so
     */
    public static ModelPart ofOptionName(String name) {
        String n = name.strip();
        for (ModelPart p : values()) {
            if (p.optionName().equalsIgnoreCase(n)) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown part '" + n + "': the parts are dynamics, kinematics,"
                + " constraints, derivatives, recursive_constraints");
    }

    /**
     * The parts of a comma-separated list of option names ({@code dynamics,kinematics}), as the command line's
     * {@code --parts} and the plugin's {@code <parts>} give them; {@link #DYNAMICS} must be among them.
     *
     * @throws IllegalArgumentException naming an unknown part, or saying that dynamics cannot be left out
     */
    public static Set<ModelPart> ofOptionList(String list) {
        Set<ModelPart> set = EnumSet.noneOf(ModelPart.class);
        for (String name : list.split(",", -1)) {
            set.add(ofOptionName(name));
        }
        if (!set.contains(DYNAMICS)) {
            throw new IllegalArgumentException("dynamics cannot be left out (every solver and integrator needs H, C,"
                    + " g, tau and vdot); add it: dynamics," + list.strip());
        }
        if (set.contains(RECURSIVE_CONSTRAINTS) && !set.contains(CONSTRAINTS)) {
            throw new IllegalArgumentException("recursive_constraints needs constraints (the recursion solves the"
                    + " model's own rows); add it: " + list.strip() + ",constraints");
        }
        return set;
    }

    /**
     * The message of the {@link UnsupportedOperationException} that {@code method} throws in a class generated
     * without this part.
     */
    public String missingMessage(String method) {
        return method + ": this class was generated without the " + optionName() + " part; generate it with"
                + " --parts ...," + optionName() + " (symdyn generate) or <parts> listing " + optionName()
                + " (the Maven plugin)";
    }
}
