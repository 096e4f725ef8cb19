package org.symdyn.simulation;

import org.ejml.data.DMatrixRMaj;
import org.symdyn.contract.Dynamics;
import org.symdyn.contract.Kinematics;
import org.symdyn.dynamics.ParameterizedModel;
import org.symdyn.model.Model;

/**
 * Kinetic and gravitational potential energy of a mechanism, in joules:
 * <pre>
 *   T(q, v) = ½ vᵀ H(q) v,        V(q) = -Σ_i m_i g · c_i(q)
 * </pre>
 * with H from a {@link Dynamics} (generic or generated), m_i and the centre of mass (in body coordinates) from the
 * {@link Model}, c_i the world position of body i's centre of mass through {@link Kinematics#pointPosition}, and
 * g the model's gravity (world coordinates, m/s²). V is zero at the world origin's height: only its changes matter.
 * Without applied forces, constraint work or dissipation, T + V is conserved, so its drift measures integration and
 * constraint-stabilisation error.
 *
 * <p>Workspaces are allocated by the constructor; no method allocates. Not thread-safe.
 */
public final class MechanicalEnergy {
    private final Dynamics dynamics;
    private final Kinematics kinematics;
    private final int nv;
    private final int nb;
    private final double[] mass;
    private final double[][] com;
    private final double[] gravity;
    private final DMatrixRMaj h;
    private final double[] position = new double[3];
    private final ParameterizedModel parameterized;
    /** The model whose masses {@link #mass} and {@link #com} hold. */
    private Model massesOf;

    /**
     * @param model      masses, centres of mass and gravity
     * @param dynamics   H(q) of the same model
     * @param kinematics body poses of the same model
     */
    public MechanicalEnergy(Model model, Dynamics dynamics, Kinematics kinematics) {
        if (dynamics.nv() != model.nv() || kinematics.nv() != model.nv() || kinematics.bodyCount() != model
                .bodyCount()) {
            throw new IllegalArgumentException("dynamics and kinematics must be of model '" + model.name() + "'");
        }
        this.dynamics = dynamics;
        this.kinematics = kinematics;
        this.nv = model.nv();
        this.nb = model.bodyCount();
        mass = new double[nb];
        com = new double[nb][];
        parameterized = new ParameterizedModel(model, dynamics);
        masses(model);
        gravity = model.gravity();
        h = new DMatrixRMaj(nv, nv);
    }

    /** T = ½ vᵀ H(q) v (J). */
    public double kinetic(double[] q, double[] v) {
        dynamics.massMatrix(q, h);
        double[] d = h.data;
        double s = 0;
        for (int i = 0; i < nv; i++) {
            double row = 0;
            for (int j = 0; j < nv; j++) {
                row += d[i * nv + j] * v[j];
            }
            s += v[i] * row;
        }
        return 0.5 * s;
    }

    /** The bodies' masses and centres of mass of {@code m}. */
    private void masses(Model m) {
        massesOf = m;
        for (int i = 0; i < nb; i++) {
            mass[i] = m.body(i).inertia().mass();
            com[i] = m.body(i).inertia().comArray();
        }
    }

    /**
     * V = -Σ m_i g · c_i (J), zero at the world origin; with the masses and centres of mass of the dynamics'
     * current parameter values ({@link ParameterizedModel}).
     */
    public double potential(double[] q) {
        Model now = parameterized.current();
        if (now != massesOf) {
            masses(now);
        }
        double s = 0;
        for (int i = 0; i < nb; i++) {
            kinematics.pointPosition(q, i, com[i], position);
            s -= mass[i] * (gravity[0] * position[0] + gravity[1] * position[1] + gravity[2] * position[2]);
        }
        return s;
    }

    /** T + V (J). */
    public double total(double[] q, double[] v) {
        return kinetic(q, v) + potential(q);
    }
}
