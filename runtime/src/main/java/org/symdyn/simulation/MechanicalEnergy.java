package org.symdyn.simulation;

import org.ejml.data.DMatrixRMaj;
import org.symdyn.contract.Dynamics;
import org.symdyn.contract.Kinematics;
import org.symdyn.dynamics.ParameterFollower;
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
    /** The bodies' masses and centres of mass, with the dynamics' parameter values. */
    private final ParameterFollower<Masses> masses;
    private final double[] gravity;
    private final DMatrixRMaj h;
    private final double[] position = new double[3];


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
        masses = new ParameterFollower<>(model, dynamics, Masses::of);
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

    /** The bodies' masses and centres of mass (body coordinates) of a model. */
    private record Masses(double[] mass, double[][] com) {
        static Masses of(Model m) {
            double[] mass = new double[m.bodyCount()];
            double[][] com = new double[m.bodyCount()][];
            for (int i = 0; i < mass.length; i++) {
                mass[i] = m.body(i).inertia().mass();
                com[i] = m.body(i).inertia().comArray();
            }
            return new Masses(mass, com);
        }
    }

    /**
     * V = -Σ m_i g · c_i (J), zero at the world origin; with the masses and centres of mass of the dynamics'
     * current parameter values ({@link ParameterFollower}).
     */
    public double potential(double[] q) {
        Masses b = masses.current();
        double[] mass = b.mass();
        double[][] com = b.com();
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
