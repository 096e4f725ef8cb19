package org.symdyn.dynamics;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.kinematics.Kinematics;
import org.symdyn.model.Body;
import org.symdyn.model.Frame;
import org.symdyn.model.Joint;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;
import org.symdyn.spatial.Rotations;
import org.symdyn.spatial.SpatialTransform;
import org.symdyn.spatial.SpatialVectors;

/**
 * The numeric interpreter of any {@link Model}: Featherstone's spatial recursions (<i>Rigid Body Dynamics
 * Algorithms</i>, 2008) evaluated body by body. It is the oracle generated classes are checked against and the
 * fallback when no code was generated.
 * <ul>
 * <li>forward kinematics: X_i = X_J(q_i) X_T,i from parent to body i; X_0,i = X_i X_0,λ(i);</li>
 * <li>RNEA (§5.3): v_i = X_i v_λ + S_i q̇_i, a_i = X_i a_λ + S_i q̈_i + c_J + v_i × S_i q̇_i with a_0 = -g,
 * f_i = I_i a_i + v_i ×* I_i v_i, τ_i = S_iᵀ f_i, f_λ += X_iᵀ f_i;</li>
 * <li>CRBA (§6.2): composite inertias I^c_λ += X_iᵀ I^c_i X_i, H_ii = S_iᵀ I^c_i S_i, off-diagonal blocks by
 * carrying F = I^c_i S_i to each ancestor;</li>
 * <li>ABA (§7.3): articulated inertias I^A with U = I^A S, D = Sᵀ U, u = τ - Sᵀ p^A, then
 * q̈ = D⁻¹(u - Uᵀ a').</li>
 * </ul>
 * Spatial vectors are [angular; linear] in body coordinates. All workspaces are allocated by the constructor:
 * no method allocates afterwards. An instance is not thread-safe; {@link #copy()} gives another one cheaply.
 */
public final class GenericDynamics implements Dynamics, Kinematics {
    private static final int REVOLUTE = 0;
    private static final int PRISMATIC = 1;
    private static final int FLOATING = 2;
    private static final int BALL = 3;
    private static final int PLANAR = 4;

    private final Model model;
    private final int nb;
    private final int nq;
    private final int nv;
    private final int[] parent;
    private final int[] kind;
    private final int[] qIndex;
    private final int[] vIndex;
    private final int[] dofs;
    /** Joint axis per body (3 each); for planar joints the normal n, with the in-plane basis in planarU. */
    private final double[] axis;
    private final double[] planarU;
    private final SpatialTransform[] xTree;
    /** Per body: mass, h = m c (3), Ī about the body origin (9, row-major). */
    private final double[] mass;
    private final double[] firstMoment;
    private final double[] rotInertia;
    private final double[] gravity;

    private final int[] frameBody;
    private final double[] frameRotation;
    private final double[] frameTranslation;
    private final List<String> qNames;
    private final List<String> vNames;
    private final List<String> bodyNames;
    private final List<String> jointNames;
    private final List<String> frameNames;

    // Workspace.
    private final SpatialTransform[] xUp;
    private final SpatialTransform[] x0;
    private final SpatialTransform xJ = new SpatialTransform();
    /** Motion subspace: 6 entries per velocity index, in the owning body's coordinates. */
    private final double[] s;
    private final double[] cJ;
    private final double[] vJ;
    private final double[] vel;
    private final double[] acc;
    private final double[] force;
    private final double[] compMass;
    private final double[] compH;
    private final double[] compI;
    private final double[] artI;
    private final double[] artBias;
    private final double[] biasAcc;
    private final double[] uBlock;
    private final double[] dInv;
    private final int[] dOffset;
    private final double[] uVec;
    private final double[] t6a = new double[6];
    private final double[] t6b = new double[6];
    private final double[] t6c = new double[6];
    private final double[] t36 = new double[36];
    private final double[] t36b = new double[36];
    private final double[] t9 = new double[9];
    private final double[] zeroV;
    private final double[] zeroTau;
    private final double[] tmpTau;

    /** Builds the interpreter and every workspace for {@code model}. */
    public GenericDynamics(Model model) {
        this.model = model;
        nb = model.bodyCount();
        nq = model.nq();
        nv = model.nv();
        parent = new int[nb];
        kind = new int[nb];
        qIndex = new int[nb];
        vIndex = new int[nb];
        dofs = new int[nb];
        axis = new double[3 * nb];
        planarU = new double[6 * nb];
        xTree = new SpatialTransform[nb];
        xUp = new SpatialTransform[nb];
        x0 = new SpatialTransform[nb];
        mass = new double[nb];
        firstMoment = new double[3 * nb];
        rotInertia = new double[9 * nb];
        List<String> bn = new ArrayList<>();
        List<String> jn = new ArrayList<>();
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
            for (int k = 0; k < j.nv(); k++) {
            }
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
            mass[i] = b.inertia().mass();
            for (int r = 0; r < 3; r++) {
                firstMoment[3 * i + r] = b.inertia().mass() * b.inertia().com(r);
                for (int c = 0; c < 3; c++) {
                    rotInertia[9 * i + 3 * r + c] = b.inertia().inertiaAboutOrigin(r, c);
                }
            }
            bn.add(b.name());
            jn.add(j.name());
        }
        gravity = model.gravity();
        List<Frame> frames = model.frames();
        frameBody = new int[frames.size()];
        frameRotation = new double[9 * frames.size()];
        frameTranslation = new double[3 * frames.size()];
        List<String> fn = new ArrayList<>();
        for (int f = 0; f < frames.size(); f++) {
            Frame fr = frames.get(f);
            frameBody[f] = fr.bodyIndex();
            for (int r = 0; r < 3; r++) {
                for (int c = 0; c < 3; c++) {
                    frameRotation[9 * f + 3 * r + c] = fr.pose().rotation(r, c);
                }
                frameTranslation[3 * f + r] = fr.pose().translation(r);
            }
            fn.add(fr.name());
        }
        qNames = model.qNames();
        vNames = model.vNames();
        bodyNames = Collections.unmodifiableList(bn);
        jointNames = Collections.unmodifiableList(jn);
        frameNames = Collections.unmodifiableList(fn);

        s = new double[6 * nv];
        cJ = new double[6 * nb];
        vJ = new double[6 * nb];
        vel = new double[6 * nb];
        acc = new double[6 * nb];
        force = new double[6 * nb];
        compMass = new double[nb];
        compH = new double[3 * nb];
        compI = new double[9 * nb];
        artI = new double[36 * nb];
        artBias = new double[6 * nb];
        biasAcc = new double[6 * nb];
        uBlock = new double[6 * nv];
        int dSize = 0;
        for (int i = 0; i < nb; i++) {
            dSize += dofs[i] * dofs[i];
        }
        dInv = new double[dSize];
        dOffset = new int[nb];
        for (int i = 0, off = 0; i < nb; i++) {
            dOffset[i] = off;
            off += dofs[i] * dofs[i];
        }
        uVec = new double[nv];
        zeroV = new double[nv];
        zeroTau = new double[nv];
        tmpTau = new double[nv];
        // Constant motion subspaces are set once; q-dependent ones (planar) are refreshed by jointTransforms.
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

    /** The model this instance interprets. */
    public Model model() {
        return model;
    }

    @Override
    public GenericDynamics copy() {
        return new GenericDynamics(model);
    }

    // ---------------------------------------------------------------- metadata

    @Override
    public String modelName() {
        return model.name();
    }

    @Override
    public String sourceSha256() {
        return model.sourceSha256();
    }

    @Override
    public int nq() {
        return nq;
    }

    @Override
    public int nv() {
        return nv;
    }

    @Override
    public List<String> qNames() {
        return qNames;
    }

    @Override
    public List<String> vNames() {
        return vNames;
    }

    @Override
    public List<String> bodyNames() {
        return bodyNames;
    }

    @Override
    public List<String> jointNames() {
        return jointNames;
    }

    @Override
    public int parent(int body) {
        return parent[body];
    }

    @Override
    public boolean isFloating(int body) {
        return kind[body] == FLOATING;
    }

    @Override
    public List<String> frameNames() {
        return frameNames;
    }

    // ---------------------------------------------------------------- joint models

    /**
     * X_i = X_J(q_i) X_T,i for every body, the q-dependent motion subspaces, and, when {@code v} is not null,
     * the joint velocities v_J = S q̇ and bias accelerations c_J = Ṡ q̇.
     */
    private void jointTransforms(double[] q, double[] v) {
        for (int i = 0; i < nb; i++) {
            int qi = qIndex[i];
            double[] e = xJ.E;
            double[] r = xJ.r;
            switch (kind[i]) {
                case REVOLUTE -> {
                    // E_J = Rot(a, q)ᵀ = Rot(a, -q): rotates parent-side coordinates into the child's.
                    double angle = q[qi];
                    Rotations.axisAngle(axis[3 * i], axis[3 * i + 1], axis[3 * i + 2], -Math.sin(angle),
                            Math.cos(angle), e);
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
                    Rotations.fromQuaternion(q[qi + 3], q[qi + 4], q[qi + 5], q[qi + 6], t9);
                    Rotations.transpose(t9, e);
                    r[0] = q[qi];
                    r[1] = q[qi + 1];
                    r[2] = q[qi + 2];
                }
                case BALL -> {
                    Rotations.fromQuaternion(q[qi], q[qi + 1], q[qi + 2], q[qi + 3], t9);
                    Rotations.transpose(t9, e);
                    r[0] = r[1] = r[2] = 0;
                }
                case PLANAR -> planarTransform(i, q, e, r);
                default -> throw new IllegalStateException();
            }
            xUp[i].setProduct(xJ, xTree[i]);
            if (v != null) {
                jointVelocity(i, v);
            }
        }
    }

    private void planarTransform(int i, double[] q, double[] e, double[] r) {
        int qi = qIndex[i];
        double x = q[qi], y = q[qi + 1], th = q[qi + 2];
        double n0 = axis[3 * i], n1 = axis[3 * i + 1], n2 = axis[3 * i + 2];
        Rotations.axisAngle(n0, n1, n2, -Math.sin(th), Math.cos(th), e);
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

    private void worldTransforms() {
        for (int i = 0; i < nb; i++) {
            if (parent[i] < 0) {
                x0[i].set(xUp[i]);
            } else {
                x0[i].setProduct(xUp[i], x0[parent[i]]);
            }
        }
    }

    // ---------------------------------------------------------------- dynamics

    @Override
    public void inverseDynamics(double[] q, double[] v, double[] vdot, double[] tau) {
        checkState(q, v);
        checkLength(vdot, nv, "vdot");
        checkLength(tau, nv, "tau");
        rnea(q, v, vdot, true, tau);
    }

    @Override
    public void biasForces(double[] q, double[] v, double[] c) {
        checkState(q, v);
        checkLength(c, nv, "C");
        rnea(q, v, zeroV, true, c);
    }

    @Override
    public void gravityForces(double[] q, double[] g) {
        checkLength(q, nq, "q");
        checkLength(g, nv, "g");
        rnea(q, zeroV, zeroV, true, g);
    }

    /** RNEA; with {@code withGravity} false the base acceleration is zero (used for point accelerations). */
    private void rnea(double[] q, double[] v, double[] vdot, boolean withGravity, double[] tau) {
        jointTransforms(q, v);
        double[] ab = t6c;
        ab[0] = ab[1] = ab[2] = 0;
        ab[3] = withGravity ? -gravity[0] : 0;
        ab[4] = withGravity ? -gravity[1] : 0;
        ab[5] = withGravity ? -gravity[2] : 0;
        for (int i = 0; i < nb; i++) {
            int o = 6 * i;
            int p = parent[i];
            if (p < 0) {
                System.arraycopy(vJ, o, vel, o, 6);
                xUp[i].applyMotion(ab, 0, acc, o);
            } else {
                xUp[i].applyMotion(vel, 6 * p, vel, o);
                for (int k = 0; k < 6; k++) {
                    vel[o + k] += vJ[o + k];
                }
                xUp[i].applyMotion(acc, 6 * p, acc, o);
                SpatialVectors.crossMotion(vel, o, vJ, o, t6a, 0);
                for (int k = 0; k < 6; k++) {
                    acc[o + k] += t6a[k];
                }
            }
            int vi = vIndex[i];
            for (int d = 0; d < dofs[i]; d++) {
                double qdd = vdot[vi + d];
                int so = 6 * (vi + d);
                for (int k = 0; k < 6; k++) {
                    acc[o + k] += s[so + k] * qdd;
                }
            }
            for (int k = 0; k < 6; k++) {
                acc[o + k] += cJ[o + k];
            }
            // f = I a + v ×* I v
            inertiaTimes(i, acc, o, force, o);
            inertiaTimes(i, vel, o, t6a, 0);
            SpatialVectors.crossForce(vel, o, t6a, 0, t6b, 0);
            for (int k = 0; k < 6; k++) {
                force[o + k] += t6b[k];
            }
        }
        for (int i = nb - 1; i >= 0; i--) {
            int o = 6 * i;
            int vi = vIndex[i];
            for (int d = 0; d < dofs[i]; d++) {
                tau[vi + d] = SpatialVectors.dot(s, 6 * (vi + d), force, o);
            }
            if (parent[i] >= 0) {
                xUp[i].addTransposeForce(force, o, force, 6 * parent[i]);
            }
        }
    }

    /** out = I_i m for body i's rigid inertia. */
    private void inertiaTimes(int i, double[] m, int mo, double[] out, int oo) {
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

    @Override
    public void massMatrix(double[] q, DMatrixRMaj h) {
        checkLength(q, nq, "q");
        if (h.numRows != nv || h.numCols != nv) {
            throw new IllegalArgumentException("H must be " + nv + "x" + nv + ", got " + h.numRows + "x"
                    + h.numCols);
        }
        jointTransforms(q, null);
        System.arraycopy(mass, 0, compMass, 0, nb);
        System.arraycopy(firstMoment, 0, compH, 0, 3 * nb);
        System.arraycopy(rotInertia, 0, compI, 0, 9 * nb);
        for (int i = nb - 1; i >= 0; i--) {
            if (parent[i] >= 0) {
                addTransformedInertia(xUp[i], i, parent[i]);
            }
        }
        // Entries between bodies on different branches stay zero.
        h.zero();
        double[] hd = h.data;
        for (int i = 0; i < nb; i++) {
            int vi = vIndex[i];
            for (int d = 0; d < dofs[i]; d++) {
                int col = vi + d;
                compositeTimes(i, s, 6 * col, t6a, 0);
                for (int d2 = 0; d2 < dofs[i]; d2++) {
                    hd[(vi + d2) * nv + col] = SpatialVectors.dot(s, 6 * (vi + d2), t6a, 0);
                }
                int j = i;
                while (parent[j] >= 0) {
                    xUp[j].applyTransposeForce(t6a, 0, t6b, 0);
                    System.arraycopy(t6b, 0, t6a, 0, 6);
                    j = parent[j];
                    int vj = vIndex[j];
                    for (int d2 = 0; d2 < dofs[j]; d2++) {
                        double x = SpatialVectors.dot(s, 6 * (vj + d2), t6a, 0);
                        hd[(vj + d2) * nv + col] = x;
                        hd[col * nv + vj + d2] = x;
                    }
                }
            }
        }
    }

    /** out = I^c_i m for body i's composite inertia. */
    private void compositeTimes(int i, double[] m, int mo, double[] out, int oo) {
        double w0 = m[mo], w1 = m[mo + 1], w2 = m[mo + 2], v0 = m[mo + 3], v1 = m[mo + 4], v2 = m[mo + 5];
        double h0 = compH[3 * i], h1 = compH[3 * i + 1], h2 = compH[3 * i + 2];
        double mi = compMass[i];
        int b = 9 * i;
        double[] ib = compI;
        out[oo] = ib[b] * w0 + ib[b + 1] * w1 + ib[b + 2] * w2 + h1 * v2 - h2 * v1;
        out[oo + 1] = ib[b + 3] * w0 + ib[b + 4] * w1 + ib[b + 5] * w2 + h2 * v0 - h0 * v2;
        out[oo + 2] = ib[b + 6] * w0 + ib[b + 7] * w1 + ib[b + 8] * w2 + h0 * v1 - h1 * v0;
        out[oo + 3] = mi * v0 - (h1 * w2 - h2 * w1);
        out[oo + 4] = mi * v1 - (h2 * w0 - h0 * w2);
        out[oo + 5] = mi * v2 - (h0 * w1 - h1 * w0);
    }

    /**
     * I^c_p += Xᵀ I^c_i X for X from parent to child, on the compact form (m, h, Ī):
     * h_p = Eᵀ h + m r, Ī_p = Eᵀ Ī E - [r]×[h']× - [h' + m r]×[r]× with h' = Eᵀ h.
     */
    private void addTransformedInertia(SpatialTransform x, int i, int p) {
        double[] e = x.E;
        double[] r = x.r;
        double m = compMass[i];
        int hi = 3 * i;
        double hp0 = e[0] * compH[hi] + e[3] * compH[hi + 1] + e[6] * compH[hi + 2];
        double hp1 = e[1] * compH[hi] + e[4] * compH[hi + 1] + e[7] * compH[hi + 2];
        double hp2 = e[2] * compH[hi] + e[5] * compH[hi + 1] + e[8] * compH[hi + 2];
        // Eᵀ Ī E
        int b = 9 * i;
        double[] ie = t9;
        for (int row = 0; row < 3; row++) {
            for (int col = 0; col < 3; col++) {
                ie[3 * row + col] = compI[b + 3 * row] * e[col] + compI[b + 3 * row + 1] * e[3 + col]
                        + compI[b + 3 * row + 2] * e[6 + col];
            }
        }
        double rh = r[0] * hp0 + r[1] * hp1 + r[2] * hp2;
        double rr = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
        double[] hv = t6a;
        hv[0] = hp0;
        hv[1] = hp1;
        hv[2] = hp2;
        int pb = 9 * p;
        for (int row = 0; row < 3; row++) {
            for (int col = 0; col < 3; col++) {
                double etie = e[row] * ie[col] + e[3 + row] * ie[3 + col] + e[6 + row] * ie[6 + col];
                double extra = (row == col ? 2 * rh + m * rr : 0) - hv[row] * r[col] - r[row] * hv[col]
                        - m * r[row] * r[col];
                compI[pb + 3 * row + col] += etie + extra;
            }
        }
        compH[3 * p] += hp0 + m * r[0];
        compH[3 * p + 1] += hp1 + m * r[1];
        compH[3 * p + 2] += hp2 + m * r[2];
        compMass[p] += m;
    }

    @Override
    public void forwardDynamics(double[] q, double[] v, double[] tau, double[] vdot) {
        checkState(q, v);
        checkLength(tau, nv, "tau");
        checkLength(vdot, nv, "vdot");
        jointTransforms(q, v);
        // Pass 1: velocities, bias accelerations, rigid inertias and bias forces.
        for (int i = 0; i < nb; i++) {
            int o = 6 * i;
            int p = parent[i];
            if (p < 0) {
                System.arraycopy(vJ, o, vel, o, 6);
            } else {
                xUp[i].applyMotion(vel, 6 * p, vel, o);
                for (int k = 0; k < 6; k++) {
                    vel[o + k] += vJ[o + k];
                }
            }
            SpatialVectors.crossMotion(vel, o, vJ, o, biasAcc, o);
            for (int k = 0; k < 6; k++) {
                biasAcc[o + k] += cJ[o + k];
            }
            rigidInertiaMatrix(i, artI, 36 * i);
            inertiaTimes(i, vel, o, t6a, 0);
            SpatialVectors.crossForce(vel, o, t6a, 0, artBias, o);
        }
        // Pass 2: articulated inertias, leaf to root.
        for (int i = nb - 1; i >= 0; i--) {
            int o = 6 * i;
            int ia = 36 * i;
            int vi = vIndex[i];
            int n = dofs[i];
            for (int d = 0; d < n; d++) {
                int uo = 6 * (vi + d);
                symMatVec(artI, ia, s, uo, uBlock, uo);
                uVec[vi + d] = tau[vi + d] - SpatialVectors.dot(s, uo, artBias, o);
            }
            invertD(i, vi, n);
            int p = parent[i];
            if (p < 0) {
                continue;
            }
            // Ia = I^A - U D⁻¹ Uᵀ, pa = p^A + Ia c + U D⁻¹ u
            int dOff = dOffset[i];
            System.arraycopy(artI, ia, t36, 0, 36);
            for (int a = 0; a < n; a++) {
                for (int b2 = 0; b2 < n; b2++) {
                    double w = dInv[dOff + a * n + b2];
                    int ua = 6 * (vi + a), ub = 6 * (vi + b2);
                    for (int r = 0; r < 6; r++) {
                        double ur = uBlock[ua + r] * w;
                        for (int c = 0; c < 6; c++) {
                            t36[6 * r + c] -= ur * uBlock[ub + c];
                        }
                    }
                }
            }
            symMatVec(t36, 0, biasAcc, o, t6a, 0);
            for (int k = 0; k < 6; k++) {
                t6a[k] += artBias[o + k];
            }
            for (int a = 0; a < n; a++) {
                double du = 0;
                for (int b2 = 0; b2 < n; b2++) {
                    du += dInv[dOff + a * n + b2] * uVec[vi + b2];
                }
                int ua = 6 * (vi + a);
                for (int k = 0; k < 6; k++) {
                    t6a[k] += uBlock[ua + k] * du;
                }
            }
            xUp[i].addTransposeForce(t6a, 0, artBias, 6 * p);
            addCongruence(xUp[i], t36, artI, 36 * p);
        }
        // Pass 3: accelerations, root to leaf.
        double[] a0 = t6c;
        a0[0] = a0[1] = a0[2] = 0;
        a0[3] = -gravity[0];
        a0[4] = -gravity[1];
        a0[5] = -gravity[2];
        for (int i = 0; i < nb; i++) {
            int o = 6 * i;
            int p = parent[i];
            if (p < 0) {
                xUp[i].applyMotion(a0, 0, acc, o);
            } else {
                xUp[i].applyMotion(acc, 6 * p, acc, o);
            }
            for (int k = 0; k < 6; k++) {
                acc[o + k] += biasAcc[o + k];
            }
            int vi = vIndex[i];
            int n = dofs[i];
            int dOff = dOffset[i];
            for (int a = 0; a < n; a++) {
                t6a[a] = uVec[vi + a] - SpatialVectors.dot(uBlock, 6 * (vi + a), acc, o);
            }
            for (int a = 0; a < n; a++) {
                double x = 0;
                for (int b2 = 0; b2 < n; b2++) {
                    x += dInv[dOff + a * n + b2] * t6a[b2];
                }
                vdot[vi + a] = x;
            }
            for (int a = 0; a < n; a++) {
                int so = 6 * (vi + a);
                double x = vdot[vi + a];
                for (int k = 0; k < 6; k++) {
                    acc[o + k] += s[so + k] * x;
                }
            }
        }
    }

    /** The 6x6 rigid-body inertia of body i, row-major, into out[off..off+36). */
    private void rigidInertiaMatrix(int i, double[] out, int off) {
        double h0 = firstMoment[3 * i], h1 = firstMoment[3 * i + 1], h2 = firstMoment[3 * i + 2];
        double m = mass[i];
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 3; c++) {
                out[off + 6 * r + c] = rotInertia[9 * i + 3 * r + c];
                out[off + 6 * (r + 3) + c + 3] = r == c ? m : 0;
            }
        }
        // [h]× in the upper right block, its transpose in the lower left.
        setCross(out, off + 3, h0, h1, h2);
        setCross(out, off + 18, -h0, -h1, -h2);
    }

    /** Writes [h]× into the 3x3 block at {@code off} of a row-major 6x6. */
    private static void setCross(double[] out, int off, double h0, double h1, double h2) {
        out[off] = 0;
        out[off + 1] = -h2;
        out[off + 2] = h1;
        out[off + 6] = h2;
        out[off + 7] = 0;
        out[off + 8] = -h0;
        out[off + 12] = -h1;
        out[off + 13] = h0;
        out[off + 14] = 0;
    }

    /** out = A x for a row-major 6x6 A. */
    private static void symMatVec(double[] a, int ao, double[] x, int xo, double[] out, int oo) {
        for (int r = 0; r < 6; r++) {
            int b = ao + 6 * r;
            out[oo + r] = a[b] * x[xo] + a[b + 1] * x[xo + 1] + a[b + 2] * x[xo + 2] + a[b + 3] * x[xo + 3]
                    + a[b + 4] * x[xo + 4] + a[b + 5] * x[xo + 5];
        }
    }

    /** target += Xᵀ A X for a row-major 6x6 A (in child coordinates) and the motion transform X. */
    private void addCongruence(SpatialTransform x, double[] a, double[] target, int to) {
        // Column k of A X is A (X e_k); Xᵀ of that is a force carried to the parent.
        for (int k = 0; k < 6; k++) {
            for (int j = 0; j < 6; j++) {
                t6a[j] = j == k ? 1 : 0;
            }
            x.applyMotion(t6a, 0, t6b, 0);
            symMatVec(a, 0, t6b, 0, t6a, 0);
            x.applyTransposeForce(t6a, 0, t6b, 0);
            for (int r = 0; r < 6; r++) {
                t36b[6 * r + k] = t6b[r];
            }
        }
        for (int e = 0; e < 36; e++) {
            target[to + e] += t36b[e];
        }
    }

    /** D_i = S_iᵀ U_i and its inverse (Cholesky: D is symmetric positive definite for a physical model). */
    private void invertD(int i, int vi, int n) {
        int off = dOffset[i];
        if (n == 1) {
            dInv[off] = 1 / SpatialVectors.dot(s, 6 * vi, uBlock, 6 * vi);
            return;
        }
        double[] l = t36;
        for (int a = 0; a < n; a++) {
            for (int b2 = 0; b2 < n; b2++) {
                l[a * n + b2] = SpatialVectors.dot(s, 6 * (vi + a), uBlock, 6 * (vi + b2));
            }
        }
        SmallCholesky.invertInPlace(l, n, t36b);
        System.arraycopy(l, 0, dInv, off, n * n);
    }

    // ---------------------------------------------------------------- kinematics

    @Override
    public void bodyPose(double[] q, int body, double[] rotation, double[] position) {
        checkLength(q, nq, "q");
        jointTransforms(q, null);
        worldTransforms();
        Rotations.transpose(x0[body].E, rotation);
        System.arraycopy(x0[body].r, 0, position, 0, 3);
    }

    @Override
    public void framePose(double[] q, int frame, double[] rotation, double[] position) {
        checkLength(q, nq, "q");
        int b = frameBody[frame];
        if (b < 0) {
            System.arraycopy(frameRotation, 9 * frame, rotation, 0, 9);
            System.arraycopy(frameTranslation, 3 * frame, position, 0, 3);
            return;
        }
        jointTransforms(q, null);
        worldTransforms();
        double[] e = x0[b].E;
        double[] r = x0[b].r;
        int fo = 9 * frame;
        // R_world<-frame = Eᵀ R_body<-frame; p = r + Eᵀ p_frame.
        for (int row = 0; row < 3; row++) {
            for (int col = 0; col < 3; col++) {
                rotation[3 * row + col] = e[row] * frameRotation[fo + col] + e[3 + row] * frameRotation[fo + 3 + col]
                        + e[6 + row] * frameRotation[fo + 6 + col];
            }
            position[row] = r[row] + e[row] * frameTranslation[3 * frame] + e[3 + row] * frameTranslation[3 * frame + 1]
                    + e[6 + row] * frameTranslation[3 * frame + 2];
        }
    }

    @Override
    public void pointPosition(double[] q, int body, double[] point, double[] position) {
        checkLength(q, nq, "q");
        jointTransforms(q, null);
        worldTransforms();
        bodyPointToWorld(body, point, position);
    }

    private void bodyPointToWorld(int body, double[] point, double[] out) {
        double[] e = x0[body].E;
        double[] r = x0[body].r;
        for (int k = 0; k < 3; k++) {
            out[k] = r[k] + e[k] * point[0] + e[3 + k] * point[1] + e[6 + k] * point[2];
        }
    }

    /** out = Eᵀ x: a body-coordinate vector in world coordinates. */
    private void bodyVectorToWorld(int body, double[] x, int xo, double[] out) {
        double[] e = x0[body].E;
        double x0v = x[xo], x1 = x[xo + 1], x2 = x[xo + 2];
        for (int k = 0; k < 3; k++) {
            out[k] = e[k] * x0v + e[3 + k] * x1 + e[6 + k] * x2;
        }
    }

    @Override
    public void bodyVelocity(double[] q, double[] v, int body, double[] velocity) {
        checkState(q, v);
        rnea(q, v, zeroV, false, tmpTau);
        System.arraycopy(vel, 6 * body, velocity, 0, 6);
    }

    @Override
    public void bodyAcceleration(double[] q, double[] v, double[] vdot, int body, double[] acceleration) {
        checkState(q, v);
        checkLength(vdot, nv, "vdot");
        rnea(q, v, vdot, false, tmpTau);
        System.arraycopy(acc, 6 * body, acceleration, 0, 6);
    }

    @Override
    public void pointVelocity(double[] q, double[] v, int body, double[] point, double[] velocity) {
        checkState(q, v);
        rnea(q, v, zeroV, false, tmpTau);
        worldTransforms();
        int o = 6 * body;
        // Body coordinates: v_p = v_o + ω × p.
        t6a[0] = vel[o + 3] + vel[o + 1] * point[2] - vel[o + 2] * point[1];
        t6a[1] = vel[o + 4] + vel[o + 2] * point[0] - vel[o] * point[2];
        t6a[2] = vel[o + 5] + vel[o] * point[1] - vel[o + 1] * point[0];
        bodyVectorToWorld(body, t6a, 0, velocity);
    }

    @Override
    public void pointAcceleration(double[] q, double[] v, double[] vdot, int body, double[] point,
            double[] acceleration) {
        checkState(q, v);
        checkLength(vdot, nv, "vdot");
        rnea(q, v, vdot, false, tmpTau);
        worldTransforms();
        int o = 6 * body;
        double w0 = vel[o], w1 = vel[o + 1], w2 = vel[o + 2];
        double p0 = point[0], p1 = point[1], p2 = point[2];
        // Classical acceleration: a_o + ω̇ × p + ω × (v_o + ω × p), all in body coordinates.
        double vp0 = vel[o + 3] + w1 * p2 - w2 * p1;
        double vp1 = vel[o + 4] + w2 * p0 - w0 * p2;
        double vp2 = vel[o + 5] + w0 * p1 - w1 * p0;
        double d0 = acc[o], d1 = acc[o + 1], d2 = acc[o + 2];
        t6a[0] = acc[o + 3] + d1 * p2 - d2 * p1 + w1 * vp2 - w2 * vp1;
        t6a[1] = acc[o + 4] + d2 * p0 - d0 * p2 + w2 * vp0 - w0 * vp2;
        t6a[2] = acc[o + 5] + d0 * p1 - d1 * p0 + w0 * vp1 - w1 * vp0;
        bodyVectorToWorld(body, t6a, 0, acceleration);
    }

    @Override
    public void pointJacobian(double[] q, int body, double[] point, DMatrixRMaj j) {
        checkLength(q, nq, "q");
        checkShape(j, 3);
        jointTransforms(q, null);
        worldTransforms();
        j.zero();
        double[] pw = t6c;
        bodyPointToWorld(body, point, pw);
        for (int b = body; b >= 0; b = parent[b]) {
            double[] r = x0[b].r;
            double d0 = pw[0] - r[0], d1 = pw[1] - r[1], d2 = pw[2] - r[2];
            for (int d = 0; d < dofs[b]; d++) {
                int col = vIndex[b] + d;
                bodyVectorToWorld(b, s, 6 * col, t6a);
                bodyVectorToWorld(b, s, 6 * col + 3, t6b);
                // ṗ = v_origin + ω × (p - origin)
                j.data[col] = t6b[0] + t6a[1] * d2 - t6a[2] * d1;
                j.data[nv + col] = t6b[1] + t6a[2] * d0 - t6a[0] * d2;
                j.data[2 * nv + col] = t6b[2] + t6a[0] * d1 - t6a[1] * d0;
            }
        }
    }

    @Override
    public void bodyJacobian(double[] q, int body, DMatrixRMaj j) {
        checkLength(q, nq, "q");
        checkShape(j, 6);
        jointTransforms(q, null);
        worldTransforms();
        j.zero();
        for (int b = body; b >= 0; b = parent[b]) {
            for (int d = 0; d < dofs[b]; d++) {
                int col = vIndex[b] + d;
                // X_body<-b S = X_0,body X_0,b⁻¹ S
                x0[b].applyInverseMotion(s, 6 * col, t6a, 0);
                x0[body].applyMotion(t6a, 0, t6b, 0);
                for (int k = 0; k < 6; k++) {
                    j.data[k * nv + col] = t6b[k];
                }
            }
        }
    }

    // ---------------------------------------------------------------- argument checks

    private void checkState(double[] q, double[] v) {
        checkLength(q, nq, "q");
        checkLength(v, nv, "v");
    }

    private static void checkLength(double[] x, int n, String what) {
        if (x.length != n) {
            throw new IllegalArgumentException(what + " must have " + n + " entries, got " + x.length);
        }
    }

    private void checkShape(DMatrixRMaj j, int rows) {
        if (j.numRows != rows || j.numCols != nv) {
            throw new IllegalArgumentException("the Jacobian must be " + rows + "x" + nv + ", got " + j.numRows
                    + "x" + j.numCols);
        }
    }
}
