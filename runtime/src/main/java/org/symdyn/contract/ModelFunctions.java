package org.symdyn.contract;

import org.ejml.data.DMatrixRMaj;

/**
 * Everything one model evaluates, behind one interface: {@link Dynamics}, {@link Kinematics}, the model's own
 * {@link ConstraintFunctions}, and the fused evaluations a constrained solver needs. Every generated class
 * implements it, so a generated class alone runs every solver of the runtime (no interpreter and no model file at
 * run time); {@link org.symdyn.constraints.GenericModel} implements it by interpretation.
 *
 * <p>The fused evaluations fill several outputs from one pass over (q, v): a generated class shares its sines,
 * cosines and kinematics between H, C, G, γ (and φ, φ̇), which separate calls would each recompute. The defaults
 * here make the separate calls, for implementations with nothing to share. Outputs are as in the separate
 * methods: H nv x nv, C nv, G constraintRows x nv, γ, φ, φ̇ constraintRows; γ is the unstabilised -Ġ v (a
 * solver adds Baumgarte's -2α φ̇ - β² φ itself, from φ and φ̇).
 *
 * <p>As for {@link Dynamics}: caller-owned outputs, no allocation, not thread-safe; {@link #copy()} per thread.
 * The arguments follow the package's policy: exact lengths and shapes, and no output the same array as an input
 * or another output (the defaults check the pairs of outputs, then each separate call its own arguments).
 */
public interface ModelFunctions extends Dynamics, Kinematics, ConstraintFunctions {
    /**
     * The parts of the contract this class carries ({@link ModelPart}): here the defaults (every part but
     * {@link ModelPart#DERIVATIVES} and {@link ModelPart#RECURSIVE_CONSTRAINTS}), with the derivatives when this class
     * implements {@link DynamicsDerivatives} and the recursion when it implements
     * {@link ArticulatedConstraintSystem}. A class
     * generated without a part says so here, and its methods of that part throw
     * {@link UnsupportedOperationException}; binders check it once, before the first step. Allocates: call it when
     * binding, not per step.
     */
    default java.util.Set<ModelPart> parts() {
        java.util.Set<ModelPart> parts = ModelPart.defaults();
        if (this instanceof DynamicsDerivatives) {
            parts.add(ModelPart.DERIVATIVES);
        }
        if (this instanceof ArticulatedConstraintSystem) {
            parts.add(ModelPart.RECURSIVE_CONSTRAINTS);
        }
        return parts;
    }

    /**
     * Throws an {@link IllegalArgumentException} naming {@code use} and the option to turn the part on, unless
     * {@code functions} carries {@code part}.
     */
    static void requirePart(ModelFunctions functions, ModelPart part, String use) {
        if (!functions.parts().contains(part)) {
            throw new IllegalArgumentException(use + " needs the " + part.optionName() + " part, which "
                    + functions.getClass().getSimpleName() + " was generated without: generate it with --parts ...,"
                    + part.optionName() + " (symdyn generate) or <parts> listing " + part.optionName()
                    + " (the Maven plugin)");
        }
    }
    /** H(q), C(q, v), G(q) and γ(q, v) together. */
    default void constrainedSystem(double[] q, double[] v, DMatrixRMaj H, double[] C, DMatrixRMaj G,
            double[] gamma) {
        checkSystemLengths(q, v, H, C, G, gamma);
        checkSystemAliases(q, v, H, C, G, gamma);
        massMatrix(q, H);
        biasForces(q, v, C);
        constraintJacobian(q, G);
        gamma(q, v, gamma);
    }

    /** H(q), C(q, v), G(q), γ(q, v), φ(q) and φ̇(q, v) together (for Baumgarte stabilisation). */
    default void constrainedSystem(double[] q, double[] v, DMatrixRMaj H, double[] C, DMatrixRMaj G,
            double[] gamma, double[] phi, double[] phidot) {
        checkSystemLengths(q, v, H, C, G, gamma);
        Arguments.checkLength(phi, constraintRows(), "phi");
        Arguments.checkLength(phidot, constraintRows(), "phidot");
        checkSystemAliases(q, v, H, C, G, gamma);
        for (int k = 0; k < 2; k++) {
            double[] out = k == 0 ? phi : phidot;
            String name = k == 0 ? "phi" : "phidot";
            Arguments.checkDistinct(out, name, q, "q");
            Arguments.checkDistinct(out, name, v, "v");
            Arguments.checkDistinct(H, "H", out, name);
            Arguments.checkDistinct(out, name, C, "C");
            Arguments.checkDistinct(G, "G", out, name);
            Arguments.checkDistinct(out, name, gamma, "gamma");
        }
        Arguments.checkDistinct(phidot, "phidot", phi, "phi");
        constrainedSystem(q, v, H, C, G, gamma);
        positionError(q, phi);
        velocityError(q, v, phidot);
    }

    /** H(q) and G(q) together (what an impulse solve needs). */
    default void impulseSystem(double[] q, DMatrixRMaj H, DMatrixRMaj G) {
        Arguments.checkLength(q, nq(), "q");
        Arguments.checkShape(H, nv(), nv(), "H");
        Arguments.checkShape(G, constraintRows(), nv(), "G");
        Arguments.checkDistinct(H, "H", q, "q");
        Arguments.checkDistinct(G, "G", q, "q");
        Arguments.checkDistinct(G, "G", H, "H");
        massMatrix(q, H);
        constraintJacobian(q, G);
    }

    /**
     * The checks of {@link #constrainedSystem(double[], double[], DMatrixRMaj, double[], DMatrixRMaj, double[])}
     * in the order a generated class makes them (lengths and shapes in parameter order, then each output against the
     * arguments before it), so that both backends report the same first problem.
     */
    private void checkSystemLengths(double[] q, double[] v, DMatrixRMaj H, double[] C, DMatrixRMaj G,
            double[] gamma) {
        int nv = nv();
        int rows = constraintRows();
        Arguments.checkLength(q, nq(), "q");
        Arguments.checkLength(v, nv, "v");
        Arguments.checkShape(H, nv, nv, "H");
        Arguments.checkLength(C, nv, "C");
        Arguments.checkShape(G, rows, nv, "G");
        Arguments.checkLength(gamma, rows, "gamma");
    }

    /** The aliasing checks of the fused evaluations, in the generated order (see {@link #checkSystemLengths}). */
    private static void checkSystemAliases(double[] q, double[] v, DMatrixRMaj H, double[] C, DMatrixRMaj G,
            double[] gamma) {
        Arguments.checkDistinct(H, "H", q, "q");
        Arguments.checkDistinct(H, "H", v, "v");
        Arguments.checkDistinct(C, "C", q, "q");
        Arguments.checkDistinct(C, "C", v, "v");
        Arguments.checkDistinct(H, "H", C, "C");
        Arguments.checkDistinct(G, "G", q, "q");
        Arguments.checkDistinct(G, "G", v, "v");
        Arguments.checkDistinct(G, "G", H, "H");
        Arguments.checkDistinct(G, "G", C, "C");
        Arguments.checkDistinct(gamma, "gamma", q, "q");
        Arguments.checkDistinct(gamma, "gamma", v, "v");
        Arguments.checkDistinct(H, "H", gamma, "gamma");
        Arguments.checkDistinct(gamma, "gamma", C, "C");
        Arguments.checkDistinct(G, "G", gamma, "gamma");
    }

    @Override
    ModelFunctions copy();
}
