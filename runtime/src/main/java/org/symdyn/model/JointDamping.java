package org.symdyn.model;

import java.util.Arrays;

/**
 * Viscous joint damping as simulations apply it: a passive joint force τ_d,k = −d_k v_k on every dof k (N m or N),
 * d_k ≥ 0 the damping of the dof's joint (N m s/rad or N s/m; {@link Joint#damping()}, URDF
 * {@code <dynamics damping>}, MuJoCo's {@code dof_damping}). It is not part of the dynamics a model's
 * {@link org.symdyn.contract.Dynamics} computes (their τ and v̇ are the rigid-body ones): the time stepper treats it
 * implicitly, with H + h D in place of H, and the continuous-time integrators add it to the applied forces.
 *
 * <p>Immutable; {@link #subtractFrom} allocates nothing.
 */
public final class JointDamping {
    /** No damping on any dof (of any model). */
    public static final JointDamping NONE = new JointDamping(new double[0]);

    private final double[] coefficients;
    private final boolean zero;

    private JointDamping(double[] coefficients) {
        this.coefficients = coefficients;
        boolean z = true;
        for (double d : coefficients) {
            z &= d == 0;
        }
        this.zero = z;
    }

    /** The damping of {@code model}'s joints, each joint's d on each of its dofs. */
    public static JointDamping of(Model model) {
        double[] d = new double[model.nv()];
        for (Body b : model.bodies()) {
            Joint j = b.joint();
            for (int k = 0; k < j.nv(); k++) {
                d[j.vIndex() + k] = j.damping();
            }
        }
        return new JointDamping(d);
    }

    /**
     * Damping given per dof (copied).
     *
     * @throws IllegalArgumentException if an entry is negative or not finite
     */
    public static JointDamping perDof(double... coefficients) {
        for (int k = 0; k < coefficients.length; k++) {
            if (!(coefficients[k] >= 0) || Double.isInfinite(coefficients[k])) {
                throw new IllegalArgumentException("damping of dof " + k + " is " + coefficients[k]
                        + ": it must be finite and >= 0");
            }
        }
        return new JointDamping(coefficients.clone());
    }

    /** True when every coefficient is 0 (nothing to apply). */
    public boolean isZero() {
        return zero;
    }

    /** The number of dofs these coefficients are for (0 for {@link #NONE}). */
    public int nv() {
        return coefficients.length;
    }

    /** d_k (N m s/rad or N s/m); 0 beyond the coefficients given, so {@link #NONE} fits every model. */
    public double coefficient(int dof) {
        return dof < coefficients.length ? coefficients[dof] : 0;
    }

    /** τ_k −= d_k v_k on every dof with damping (τ and v of nv entries). */
    public void subtractFrom(double[] v, double[] tau) {
        for (int k = 0; k < coefficients.length; k++) {
            if (coefficients[k] != 0) {
                tau[k] -= coefficients[k] * v[k];
            }
        }
    }

    /**
     * @throws IllegalArgumentException unless these coefficients are for nv dofs ({@link #NONE} fits every model)
     */
    public JointDamping checkSize(int nv) {
        if (coefficients.length != 0 && coefficients.length != nv) {
            throw new IllegalArgumentException("joint damping for " + coefficients.length + " dofs, the model has "
                    + nv);
        }
        return this;
    }

    @Override
    public String toString() {
        return "JointDamping" + Arrays.toString(coefficients);
    }
}
