package org.symdyn.dynamics;

import static org.symdyn.contract.DynamicsDerivatives.PARAMETERS_PER_BODY;

import java.util.List;
import org.symdyn.model.Body;
import org.symdyn.model.Frame;
import org.symdyn.model.Joint;
import org.symdyn.model.Model;

/**
 * The numbers of a {@link Model} that the generic recursions read, in flat per-body arrays: the immutable half of
 * the model/data split of the recursions (Pinocchio's {@code Model}; the per-instance half is
 * {@link DynamicsWorkspace}). The tree's topology and joint models are those of {@code JointTransforms}.
 * <ul>
 * <li>rigid inertias in compact form, per body i: mass m_i (kg), first moment h_i = m_i c_i at 3 i (kg m, c_i the
 * centre of mass in body-i coordinates) and the rotational inertia Ī_i about the body origin, row-major at 9 i
 * (kg m²), so that I_i [ω; v] = [Ī ω + h × v; m v - h × ω];</li>
 * <li>the armature a_k of every dof k (kg m² or kg; its joint's, 0 when none): the reflected rotor inertia added to
 * H_kk, to τ_k as a_k v̇_k and to the articulated D_i (MuJoCo's {@code dof_armature}, Pinocchio's
 * {@code model.armature});</li>
 * <li>gravity g (m/s², world coordinates);</li>
 * <li>frames: the body each is fixed in (-1: the world) and its offset, R body &lt;- frame row-major at 9 f and the
 * frame origin in body coordinates at 3 f.</li>
 * </ul>
 * The arrays are filled by the constructor and never written afterwards, so one instance may be read by several
 * workspaces.
 */
final class FlatModel {
    final int nb;
    final double[] mass;
    final double[] firstMoment;
    final double[] rotInertia;
    final double[] armature;
    final double[] gravity;
    final int[] frameBody;
    final double[] frameRotation;
    final double[] frameTranslation;

    /** The flat form of {@code model}. */
    FlatModel(Model model) {
        nb = model.bodyCount();
        mass = new double[nb];
        firstMoment = new double[3 * nb];
        rotInertia = new double[9 * nb];
        for (Body b : model.bodies()) {
            int i = b.index();
            mass[i] = b.inertia().mass();
            for (int r = 0; r < 3; r++) {
                firstMoment[3 * i + r] = b.inertia().mass() * b.inertia().com(r);
                for (int c = 0; c < 3; c++) {
                    rotInertia[9 * i + 3 * r + c] = b.inertia().inertiaAboutOrigin(r, c);
                }
            }
        }
        armature = dofArmature(model);
        gravity = model.gravity();
        List<Frame> frames = model.frames();
        frameBody = new int[frames.size()];
        frameRotation = new double[9 * frames.size()];
        frameTranslation = new double[3 * frames.size()];
        for (int f = 0; f < frames.size(); f++) {
            Frame fr = frames.get(f);
            frameBody[f] = fr.bodyIndex();
            for (int r = 0; r < 3; r++) {
                for (int c = 0; c < 3; c++) {
                    frameRotation[9 * f + 3 * r + c] = fr.pose().rotation(r, c);
                }
                frameTranslation[3 * f + r] = fr.pose().translation(r);
            }
        }
    }

    /** The armature of every dof (nv entries): each joint's on each of its dofs, 0 where none. */
    static double[] dofArmature(Model model) {
        double[] a = new double[model.nv()];
        for (Body b : model.bodies()) {
            Joint j = b.joint();
            for (int d = 0; d < j.nv(); d++) {
                a[j.vIndex() + d] = j.armature();
            }
        }
        return a;
    }

    /** out = I_i m for body i's rigid inertia. */
    void inertiaTimes(int i, double[] m, int mo, double[] out, int oo) {
        inertiaTimes(mass, firstMoment, rotInertia, i, m, mo, out, oo);
    }

    /**
     * out = I m for the inertia of entry i of compact arrays (mass m_i; first moment h = m c at 3 i; rotational
     * inertia Ī about the origin, row-major at 9 i): [Ī ω + h × v; m v - h × ω] for m = [ω; v].
     */
    static void inertiaTimes(double[] mass, double[] firstMoment, double[] rotInertia, int i, double[] m, int mo,
            double[] out, int oo) {
        double w0 = m[mo], w1 = m[mo + 1], w2 = m[mo + 2], v0 = m[mo + 3], v1 = m[mo + 4], v2 = m[mo + 5];
        double h0 = firstMoment[3 * i], h1 = firstMoment[3 * i + 1], h2 = firstMoment[3 * i + 2];
        double mi = mass[i];
        int b = 9 * i;
        double[] ib = rotInertia;
        out[oo] = ib[b] * w0 + ib[b + 1] * w1 + ib[b + 2] * w2 + h1 * v2 - h2 * v1;
        out[oo + 1] = ib[b + 3] * w0 + ib[b + 4] * w1 + ib[b + 5] * w2 + h2 * v0 - h0 * v2;
        out[oo + 2] = ib[b + 6] * w0 + ib[b + 7] * w1 + ib[b + 8] * w2 + h0 * v1 - h1 * v0;
        out[oo + 3] = mi * v0 - (h1 * w2 - h2 * w1);
        out[oo + 4] = mi * v1 - (h2 * w0 - h0 * w2);
        out[oo + 5] = mi * v2 - (h0 * w1 - h1 * w0);
    }

    /**
     * The inertial parameters, 10 per body in the regressor's order [m, h_x, h_y, h_z, I_xx, I_xy, I_yy, I_xz, I_yz,
     * I_zz] (I = Ī about the body origin), into {@code pi}.
     */
    void inertialParameters(double[] pi) {
        for (int i = 0; i < nb; i++) {
            int o = PARAMETERS_PER_BODY * i;
            int b = 9 * i;
            pi[o] = mass[i];
            pi[o + 1] = firstMoment[3 * i];
            pi[o + 2] = firstMoment[3 * i + 1];
            pi[o + 3] = firstMoment[3 * i + 2];
            pi[o + 4] = rotInertia[b];
            pi[o + 5] = rotInertia[b + 3];
            pi[o + 6] = rotInertia[b + 4];
            pi[o + 7] = rotInertia[b + 6];
            pi[o + 8] = rotInertia[b + 7];
            pi[o + 9] = rotInertia[b + 8];
        }
    }
}
