package org.symdyn.dynamics;

import java.util.Arrays;
import org.symdyn.model.Body;
import org.symdyn.model.Joint;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;
import org.symdyn.spatial.Rotations;
import org.symdyn.spatial.SinCos;
import org.symdyn.spatial.SpatialTransform;

/**
 * The joint models of a {@link Model}'s kinematic tree, evaluated for all bodies at once: the numeric joint
 * calculation (Featherstone, <i>Rigid Body Dynamics Algorithms</i> §4.4, jcalc) shared by the generic recursions
 * ({@link ForwardKinematics} and the algorithms on it, {@link ArticulatedBodyAlgorithm}). Per body i, with λ(i) its
 * parent:
 * <ul>
 * <li>{@link #xUp}: X_i = X_J(q_i) X_T,i, the motion transform from λ(i) to i;</li>
 * <li>{@link #s}: the motion subspace S_i, 6 entries per velocity index, in body-i coordinates (constant for
 * every joint type but planar, whose linear columns turn with the child frame);</li>
 * <li>{@link #vJ}: v_J = S_i q̇_i, and {@link #cJ}: c_J = Ṡ_i q̇_i (non-zero for planar joints only);</li>
 * <li>{@link #x0}: X_0,i = X_i X_0,λ(i), from the world to body i (on request, {@link #updateWorld()}).</li>
 * </ul>
 * Joint conventions are those of {@link JointType}: revolute/continuous S = [a; 0], prismatic S = [0; a],
 * floating S = 1 with q = [p; quaternion x, y, z, w], ball S = [1; 0] with q a quaternion, planar q = [x, y, θ]
 * with the in-plane basis of {@link JointModels#planarBasis}.
 *
 * <p>The arrays are allocated by the constructor and overwritten in place by the update methods; the
 * algorithms read them directly. Not thread-safe.
 */
final class JointTransforms {
    static final int REVOLUTE = 0;
    static final int PRISMATIC = 1;
    static final int FLOATING = 2;
    static final int BALL = 3;
    static final int PLANAR = 4;

    /** Number of moving bodies, of position and of velocity coordinates. */
    final int nb;
    final int nq;
    final int nv;
    /** Per body: parent index λ(i) (-1 for the world), joint kind, first q and v index, degrees of freedom. */
    final int[] parent;
    final int[] kind;
    final int[] qIndex;
    final int[] vIndex;
    final int[] dofs;
    /** Per body: q index of the quaternion's x (y, z, w follow; {@link Joint#quaternionIndex()}), -1 for none. */
    private final int[] quaternion;
    /** X_i = X_J(q_i) X_T,i from λ(i) to i, current after {@link #update}. */
    final SpatialTransform[] xUp;
    /** X_0,i from the world to body i, current after {@link #updateWorld()}. */
    final SpatialTransform[] x0;
    /** Motion subspace: 6 entries per velocity index, in the owning body's coordinates. */
    final double[] s;
    /** Per body (6 each): v_J = S q̇ and c_J = Ṡ q̇, current after {@link #update(double[], double[])}. */
    final double[] vJ;
    final double[] cJ;

    /** Joint axis per body (3 each); for planar joints the normal n, with the in-plane basis in planarU. */
    private final double[] axis;
    private final double[] planarU;
    private final SpatialTransform[] xTree;
    private final SpatialTransform xJ = new SpatialTransform();
    private final double[] t9 = new double[9];
    /** While true, {@link #update(double[])} and {@link #updateWorld()} skip work already done for an equal q. */
    private boolean memoize;
    /** The q {@link #xUp} was last computed for, and whether that (and {@link #x0} for it) is still current. */
    private final double[] memoQ;
    private boolean transformsCurrent;
    private boolean worldCurrent;

    /** The joint models of {@code model} and all their workspaces. */
    JointTransforms(Model model) {
        nb = model.bodyCount();
        nq = model.nq();
        nv = model.nv();
        parent = new int[nb];
        kind = new int[nb];
        qIndex = new int[nb];
        vIndex = new int[nb];
        dofs = new int[nb];
        quaternion = new int[nb];
        axis = new double[3 * nb];
        planarU = new double[6 * nb];
        xTree = new SpatialTransform[nb];
        memoQ = new double[nq];
        xUp = new SpatialTransform[nb];
        x0 = new SpatialTransform[nb];
        s = new double[6 * nv];
        vJ = new double[6 * nb];
        cJ = new double[6 * nb];
        double[] u1 = new double[3];
        double[] u2 = new double[3];
        for (Body b : model.bodies()) {
            int i = b.index();
            Joint j = b.joint();
            parent[i] = b.parentIndex();
            kind[i] = switch (j.type()) {
                case REVOLUTE, CONTINUOUS -> REVOLUTE;
                case PRISMATIC -> PRISMATIC;
                case FLOATING -> FLOATING;
                case BALL -> BALL;
                case PLANAR -> PLANAR;
            };
            qIndex[i] = j.qIndex();
            vIndex[i] = j.vIndex();
            dofs[i] = j.nv();
            quaternion[i] = j.type().hasQuaternion() ? j.quaternionIndex() : -1;
            for (int k = 0; k < 3; k++) {
                axis[3 * i + k] = j.axis(k);
            }
            if (j.type() == JointType.PLANAR) {
                JointModels.planarBasis(j.axis(), u1, u2);
                System.arraycopy(u1, 0, planarU, 6 * i, 3);
                System.arraycopy(u2, 0, planarU, 6 * i + 3, 3);
            }
            xTree[i] = new SpatialTransform().setFromPose(j.placement());
            xUp[i] = new SpatialTransform();
            x0[i] = new SpatialTransform();
        }
        // Constant motion subspaces are set once; q-dependent ones (planar) are refreshed by update.
        for (int i = 0; i < nb; i++) {
            int o = 6 * vIndex[i];
            switch (kind[i]) {
                case REVOLUTE -> System.arraycopy(axis, 3 * i, s, o, 3);
                case PRISMATIC -> System.arraycopy(axis, 3 * i, s, o + 3, 3);
                case FLOATING -> {
                    for (int k = 0; k < 6; k++) {
                        s[o + 6 * k + k] = 1;
                    }
                }
                case BALL -> {
                    for (int k = 0; k < 3; k++) {
                        s[o + 6 * k + k] = 1;
                    }
                }
                case PLANAR -> System.arraycopy(axis, 3 * i, s, o + 12, 3);
                default -> throw new IllegalStateException();
            }
        }
    }

    /** X_i = X_J(q_i) X_T,i and the q-dependent motion subspaces of every body; v_J and c_J are left as they are. */
    void update(double[] q) {
        if (memoize && transformsCurrent && Arrays.equals(q, memoQ)) {
            return;
        }
        transformsCurrent = false;
        worldCurrent = false;
        for (int i = 0; i < nb; i++) {
            jointTransform(i, q);
        }
        if (memoize && q.length == nq) {
            System.arraycopy(q, 0, memoQ, 0, nq);
            transformsCurrent = true;
        }
    }

    /** As {@link #update(double[])}, and the joint velocities v_J = S q̇ and bias accelerations c_J = Ṡ q̇. */
    void update(double[] q, double[] v) {
        update(q);
        for (int i = 0; i < nb; i++) {
            jointVelocity(i, v);
        }
    }

    /** X_0,i = X_i X_0,λ(i) for every body, from the current {@link #xUp}. */
    void updateWorld() {
        if (memoize && worldCurrent) {
            return;
        }
        for (int i = 0; i < nb; i++) {
            if (parent[i] < 0) {
                x0[i].set(xUp[i]);
            } else {
                x0[i].setProduct(xUp[i], x0[parent[i]]);
            }
        }
        worldCurrent = memoize && transformsCurrent;
    }

    /**
     * Memoisation for a caller that evaluates several quantities at one q (a fused evaluation): while on, an
     * {@link #update} with a q equal (by value) to the last one, and an {@link #updateWorld()} after it, reuse what
     * is already computed. Turning it on or off forgets the memo, so a caller's scope starts from a clean state.
     */
    void memoize(boolean on) {
        memoize = on;
        transformsCurrent = false;
        worldCurrent = false;
    }

    /** True if memoising and {@link #xUp} is current for q (equal by value). */
    boolean isCurrentFor(double[] q) {
        return memoize && transformsCurrent && Arrays.equals(q, memoQ);
    }

    /** out[o..o+6) += S_i x_i: body i's motion subspace times its entries of a velocity-indexed vector x. */
    void addSubspaceTimes(int i, double[] x, double[] out, int o) {
        int vi = vIndex[i];
        for (int d = 0; d < dofs[i]; d++) {
            double xd = x[vi + d];
            int so = 6 * (vi + d);
            for (int k = 0; k < 6; k++) {
                out[o + k] += s[so + k] * xd;
            }
        }
    }

    private void jointTransform(int i, double[] q) {
        int qi = qIndex[i];
        double[] e = xJ.E;
        double[] r = xJ.r;
        switch (kind[i]) {
            case REVOLUTE -> {
                // E_J = Rot(a, q)ᵀ = Rot(a, -q): rotates parent-side coordinates into the child's.
                double angle = q[qi];
                // SinCos, as the generated classes inline it: fma-based, so the same bits on every processor
                Rotations.axisAngle(axis[3 * i], axis[3 * i + 1], axis[3 * i + 2], -SinCos.sin(angle),
                        SinCos.cos(angle), e);
                r[0] = r[1] = r[2] = 0;
            }
            case PRISMATIC -> {
                setIdentity(e);
                double d = q[qi];
                r[0] = axis[3 * i] * d;
                r[1] = axis[3 * i + 1] * d;
                r[2] = axis[3 * i + 2] * d;
            }
            case FLOATING -> {
                int x = quaternion[i];
                Rotations.fromQuaternion(q[x], q[x + 1], q[x + 2], q[x + 3], t9);
                Rotations.transpose(t9, e);
                r[0] = q[qi];
                r[1] = q[qi + 1];
                r[2] = q[qi + 2];
            }
            case BALL -> {
                int x = quaternion[i];
                Rotations.fromQuaternion(q[x], q[x + 1], q[x + 2], q[x + 3], t9);
                Rotations.transpose(t9, e);
                r[0] = r[1] = r[2] = 0;
            }
            case PLANAR -> planarTransform(i, q, e, r);
            default -> throw new IllegalStateException();
        }
        xUp[i].setProduct(xJ, xTree[i]);
    }

    private void planarTransform(int i, double[] q, double[] e, double[] r) {
        int qi = qIndex[i];
        double x = q[qi], y = q[qi + 1], th = q[qi + 2];
        double n0 = axis[3 * i], n1 = axis[3 * i + 1], n2 = axis[3 * i + 2];
        Rotations.axisAngle(n0, n1, n2, -SinCos.sin(th), SinCos.cos(th), e);
        int u = 6 * i;
        for (int k = 0; k < 3; k++) {
            r[k] = x * planarU[u + k] + y * planarU[u + 3 + k];
        }
        // Linear columns of S in child coordinates: Rᵀ u₁ and Rᵀ u₂ (E_J = Rᵀ).
        int o = 6 * vIndex[i];
        for (int k = 0; k < 3; k++) {
            s[o + 3 + k] = e[3 * k] * planarU[u] + e[3 * k + 1] * planarU[u + 1] + e[3 * k + 2] * planarU[u + 2];
            s[o + 9 + k] = e[3 * k] * planarU[u + 3] + e[3 * k + 1] * planarU[u + 4]
                    + e[3 * k + 2] * planarU[u + 5];
        }
    }

    private void jointVelocity(int i, double[] v) {
        int o = 6 * i;
        int vi = vIndex[i];
        for (int k = 0; k < 6; k++) {
            cJ[o + k] = 0;
        }
        switch (kind[i]) {
            case REVOLUTE -> {
                double qd = v[vi];
                vJ[o] = axis[3 * i] * qd;
                vJ[o + 1] = axis[3 * i + 1] * qd;
                vJ[o + 2] = axis[3 * i + 2] * qd;
                vJ[o + 3] = vJ[o + 4] = vJ[o + 5] = 0;
            }
            case PRISMATIC -> {
                double qd = v[vi];
                vJ[o] = vJ[o + 1] = vJ[o + 2] = 0;
                vJ[o + 3] = axis[3 * i] * qd;
                vJ[o + 4] = axis[3 * i + 1] * qd;
                vJ[o + 5] = axis[3 * i + 2] * qd;
            }
            case FLOATING -> System.arraycopy(v, vi, vJ, o, 6);
            case BALL -> {
                System.arraycopy(v, vi, vJ, o, 3);
                vJ[o + 3] = vJ[o + 4] = vJ[o + 5] = 0;
            }
            case PLANAR -> {
                int so = 6 * vi;
                double xd = v[vi], yd = v[vi + 1], thd = v[vi + 2];
                for (int k = 0; k < 6; k++) {
                    vJ[o + k] = s[so + k] * xd + s[so + 6 + k] * yd + s[so + 12 + k] * thd;
                }
                // c_J = Ṡ q̇ = [0; -θ̇ n × v_lin]: the in-plane axes turn with the child frame.
                double n0 = axis[3 * i], n1 = axis[3 * i + 1], n2 = axis[3 * i + 2];
                double l0 = vJ[o + 3], l1 = vJ[o + 4], l2 = vJ[o + 5];
                cJ[o + 3] = -thd * (n1 * l2 - n2 * l1);
                cJ[o + 4] = -thd * (n2 * l0 - n0 * l2);
                cJ[o + 5] = -thd * (n0 * l1 - n1 * l0);
            }
            default -> throw new IllegalStateException();
        }
    }

    private static void setIdentity(double[] e) {
        e[0] = 1; e[1] = 0; e[2] = 0;
        e[3] = 0; e[4] = 1; e[5] = 0;
        e[6] = 0; e[7] = 0; e[8] = 1;
    }
}
