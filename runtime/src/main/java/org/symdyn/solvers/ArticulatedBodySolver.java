package org.symdyn.solvers;

import org.symdyn.dynamics.JointModels;
import org.symdyn.model.Body;
import org.symdyn.model.Joint;
import org.symdyn.model.Model;
import org.symdyn.spatial.Rotations;
import org.symdyn.spatial.SpatialTransform;
import org.symdyn.spatial.SpatialVectors;

/**
 * Featherstone's articulated-body algorithm (ABA, <i>Rigid Body Dynamics Algorithms</i> §7.3) on a {@link Model},
 * with external spatial forces, and the <b>force-propagation variant</b> that reuses the articulated-body inertias
 * of the last state to give the response of the accelerations to additional forces (Kokkevis' test forces).
 *
 * <p><b>Equations.</b> For bodies i (parents first), X_i the motion transform from λ(i) to i, S_i the motion
 * subspace, I_i the rigid inertia, all in body-i coordinates about its origin, spatial vectors [angular; linear]:
 * <pre>
 *   velocities     v_i = X_i v_λ(i) + S_i q̇_i,   c_i = v_i × S_i q̇_i + Ṡ_i q̇_i
 *   bias forces    p_i = v_i ×* I_i v_i - f_i^ext
 *   leaf to root   I^A_i = I_i + Σ_children X_jᵀ I^a_j X_j,   U_i = I^A_i S_i,   D_i = S_iᵀ U_i,
 *                  u_i = τ_i - S_iᵀ p^A_i,   I^a_i = I^A_i - U_i D_i⁻¹ U_iᵀ,
 *                  p^A_λ(i) += X_iᵀ (p^A_i + I^a_i c_i + U_i D_i⁻¹ u_i)
 *   root to leaf   a'_i = X_i a_λ(i) + c_i  (a_root = -g),   q̈_i = D_i⁻¹ (u_i - U_iᵀ a'_i),   a_i = a'_i + S_i q̈_i
 * </pre>
 * so that H v̇ + C = τ + Σ_i J_iᵀ f_i^ext, where J_i is the body Jacobian of body i in its own coordinates
 * ({@link org.symdyn.kinematics.Kinematics#bodyJacobian}): an external force f_i^ext = [n; f] is given in body-i
 * coordinates, n the moment about the body origin. The force-propagation variant ({@link #forceResponse},
 * {@link #bodyForceResponse}, {@link #generalizedForceResponse}) runs the last two passes with v = 0, g = 0 and
 * only the new forces: I^A, U, D⁻¹ are reused, only p^A (and u) change, so each response costs O(n) and gives
 * Δv̇ = H⁻¹ (Δτ + Σ J_iᵀ Δf_i) at the configuration of the last {@link #forwardDynamics} or {@link #factor}.
 *
 * <p>Joint conventions are those of {@link org.symdyn.model.JointType} (the same as the generic interpreter and
 * generated code): a floating joint's v is [ω; v_origin] in child coordinates, a ball joint's v is ω in child
 * coordinates, a planar joint's v is (ẋ, ẏ, θ̇).
 *
 * <p>All workspaces are allocated by the constructor; no method allocates. Not thread-safe: one instance per
 * thread.
 */
public final class ArticulatedBodySolver {
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
    private final double[] axis;
    private final double[] planarU;
    private final SpatialTransform[] xTree;
    private final double[] rigidI;
    private final double[] gravity;

    private final SpatialTransform[] xUp;
    private final SpatialTransform[] x0;
    private final SpatialTransform xJ = new SpatialTransform();
    private final double[] s;
    private final double[] vJ;
    private final double[] cJ;
    private final double[] vel;
    private final double[] bias;
    private final double[] acc;
    private final double[] artI;
    private final double[] pA;
    private final double[] uBlock;
    private final double[] dInv;
    private final int[] dOffset;
    private final double[] uVec;
    private final double[] rpA;
    private final double[] ru;
    private final double[] racc;
    private final double[] t6a = new double[6];
    private final double[] t6b = new double[6];
    private final double[] t6c = new double[6];
    private final double[] t6d = new double[6];
    private final double[] t36 = new double[36];
    private final double[] t36b = new double[36];
    private final double[] xm = new double[36];
    private final double[] t9 = new double[9];
    private final double[] work = new double[36];
    private boolean factored;

    /** Builds the solver and every workspace for {@code model}. */
    public ArticulatedBodySolver(Model model) {
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
        rigidI = new double[36 * nb];
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
            for (int k = 0; k < 3; k++) {
                axis[3 * i + k] = j.axis(k);
            }
            if (kind[i] == PLANAR) {
                JointModels.planarBasis(j.axis(), u1, u2);
                System.arraycopy(u1, 0, planarU, 6 * i, 3);
                System.arraycopy(u2, 0, planarU, 6 * i + 3, 3);
            }
            xTree[i] = new SpatialTransform().setFromPose(j.placement());
            xUp[i] = new SpatialTransform();
            x0[i] = new SpatialTransform();
            // I = [Ī_o [h]×; [h]×ᵀ m 1], h = m c.
            double m = b.inertia().mass();
            double h0 = m * b.inertia().com(0), h1 = m * b.inertia().com(1), h2 = m * b.inertia().com(2);
            int o = 36 * i;
            for (int r = 0; r < 3; r++) {
                for (int c = 0; c < 3; c++) {
                    rigidI[o + 6 * r + c] = b.inertia().inertiaAboutOrigin(r, c);
                    rigidI[o + 6 * (r + 3) + c + 3] = r == c ? m : 0;
                }
            }
            setCross(rigidI, o + 3, h0, h1, h2);
            setCross(rigidI, o + 18, -h0, -h1, -h2);
        }
        gravity = model.gravity();
        s = new double[6 * nv];
        vJ = new double[6 * nb];
        cJ = new double[6 * nb];
        vel = new double[6 * nb];
        bias = new double[6 * nb];
        acc = new double[6 * nb];
        artI = new double[36 * nb];
        pA = new double[6 * nb];
        uBlock = new double[6 * nv];
        dOffset = new int[nb];
        int dSize = 0;
        for (int i = 0; i < nb; i++) {
            dOffset[i] = dSize;
            dSize += dofs[i] * dofs[i];
        }
        dInv = new double[dSize];
        uVec = new double[nv];
        rpA = new double[6 * nb];
        ru = new double[nv];
        racc = new double[6 * nb];
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

    /** The model. */
    public Model model() {
        return model;
    }

    /** Number of position coordinates. */
    public int nq() {
        return nq;
    }

    /** Number of velocity coordinates. */
    public int nv() {
        return nv;
    }

    /** Number of moving bodies. */
    public int bodyCount() {
        return nb;
    }

    // ---------------------------------------------------------------- full ABA

    /**
     * Forward dynamics v̇ = H⁻¹ (τ - C + Σ_i J_iᵀ f_i^ext) at (q, v), and the articulated-body inertias of q for the
     * response methods.
     *
     * @param externalForces null, or 6 entries per body: [n; f] applied to body i, in body-i coordinates, n about the
     *                       body origin (N·m, N)
     * @param vdot           receives nv entries
     * @throws ArithmeticException if a joint-space block D_i is not positive definite (a non-physical inertia)
     */
    public void forwardDynamics(double[] q, double[] v, double[] tau, double[] externalForces, double[] vdot) {
        checkLength(q, nq, "q");
        checkLength(v, nv, "v");
        checkLength(tau, nv, "tau");
        checkLength(vdot, nv, "vdot");
        if (externalForces != null) {
            checkLength(externalForces, 6 * nb, "externalForces");
        }
        factored = false;
        jointTransforms(q, v);
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
            SpatialVectors.crossMotion(vel, o, vJ, o, bias, o);
            for (int k = 0; k < 6; k++) {
                bias[o + k] += cJ[o + k];
            }
            matVec(rigidI, 36 * i, vel, o, t6a, 0);
            SpatialVectors.crossForce(vel, o, t6a, 0, pA, o);
            if (externalForces != null) {
                for (int k = 0; k < 6; k++) {
                    pA[o + k] -= externalForces[o + k];
                }
            }
        }
        articulatedInertias();
        factored = true;
        backward(pA, bias, tau, uVec, -1);
        t6c[0] = t6c[1] = t6c[2] = 0;
        t6c[3] = -gravity[0];
        t6c[4] = -gravity[1];
        t6c[5] = -gravity[2];
        forward(t6c, bias, uVec, acc, vdot);
    }

    /**
     * Computes only the articulated-body inertias (and body transforms) of configuration q, for the response
     * methods without a full forward-dynamics call.
     */
    public void factor(double[] q) {
        checkLength(q, nq, "q");
        factored = false;
        jointTransforms(q, null);
        articulatedInertias();
        factored = true;
    }

    // ---------------------------------------------------------------- force propagation (test forces)

    /**
     * Δv̇ = H⁻¹ Σ_i J_iᵀ f_i at the configuration of the last {@link #forwardDynamics}/{@link #factor}: the
     * acceleration change caused by extra spatial forces (6 per body, body coordinates, about the body origin),
     * with zero velocity, gravity and joint forces. Reuses I^A, U, D⁻¹; only p^A is propagated.
     */
    public void forceResponse(double[] forces, double[] dvdot) {
        checkFactored();
        checkLength(forces, 6 * nb, "forces");
        checkLength(dvdot, nv, "dvdot");
        for (int k = 0; k < 6 * nb; k++) {
            rpA[k] = -forces[k];
        }
        backward(rpA, null, null, ru, -1);
        zeroRoot();
        forward(t6c, null, ru, racc, dvdot);
    }

    /**
     * Δv̇ = H⁻¹ J_bᵀ f for one spatial force f = {@code force[offset..offset+6)} on body b (body coordinates, moment
     * about the body origin): {@link #forceResponse} with the backward pass restricted to b's support (b and its
     * ancestors). The spatial accelerations of the response are then available from
     * {@link #responseAcceleration} and {@link #responsePointAcceleration}.
     */
    public void bodyForceResponse(int body, double[] force, int offset, double[] dvdot) {
        checkFactored();
        checkBody(body);
        checkLength(dvdot, nv, "dvdot");
        for (int i = 0; i < nv; i++) {
            ru[i] = 0;
        }
        for (int i = body; i >= 0; i = parent[i]) {
            int o = 6 * i;
            for (int k = 0; k < 6; k++) {
                rpA[o + k] = 0;
            }
        }
        for (int k = 0; k < 6; k++) {
            rpA[6 * body + k] = -force[offset + k];
        }
        backward(rpA, null, null, ru, body);
        zeroRoot();
        forward(t6c, null, ru, racc, dvdot);
    }

    /**
     * Δv̇ = H⁻¹ Δτ at the configuration of the last {@link #forwardDynamics}/{@link #factor} (zero velocity and
     * gravity), by the same reuse of I^A.
     */
    public void generalizedForceResponse(double[] dtau, double[] dvdot) {
        checkFactored();
        checkLength(dtau, nv, "dtau");
        checkLength(dvdot, nv, "dvdot");
        for (int k = 0; k < 6 * nb; k++) {
            rpA[k] = 0;
        }
        backward(rpA, null, dtau, ru, -1);
        zeroRoot();
        forward(t6c, null, ru, racc, dvdot);
    }

    /** The spatial acceleration [ω̇; a_origin] of a body (body coordinates) in the last response. */
    public void responseAcceleration(int body, double[] out) {
        checkBody(body);
        System.arraycopy(racc, 6 * body, out, 0, 6);
    }

    /**
     * d · a_p, the component along a body-coordinate direction d of the acceleration of a body point p (body
     * coordinates) in the last response. As the response has zero velocity, the classical point acceleration is
     * a_origin + ω̇ × p.
     */
    public double responsePointAcceleration(int body, double[] point, double[] direction) {
        int o = 6 * body;
        double w0 = racc[o], w1 = racc[o + 1], w2 = racc[o + 2];
        double a0 = racc[o + 3] + w1 * point[2] - w2 * point[1];
        double a1 = racc[o + 4] + w2 * point[0] - w0 * point[2];
        double a2 = racc[o + 5] + w0 * point[1] - w1 * point[0];
        return direction[0] * a0 + direction[1] * a1 + direction[2] * a2;
    }

    /**
     * Rotation body &lt;- world (row-major 3x3) of a body at the configuration of the last
     * {@link #forwardDynamics}/{@link #factor}: {@code x_body = E x_world} for free vectors.
     */
    public void bodyFromWorldRotation(int body, double[] out) {
        checkBody(body);
        System.arraycopy(x0[body].E, 0, out, 0, 9);
    }

    /**
     * The spatial force [p × f; f] (body coordinates, moment about the body origin) of a force given in world
     * coordinates acting at body point p (body coordinates), at the configuration of the last
     * {@link #forwardDynamics}/{@link #factor}.
     */
    public void pointForceInBody(int body, double[] point, double[] worldForce, double[] out, int offset) {
        checkBody(body);
        double[] e = x0[body].E;
        double f0 = e[0] * worldForce[0] + e[1] * worldForce[1] + e[2] * worldForce[2];
        double f1 = e[3] * worldForce[0] + e[4] * worldForce[1] + e[5] * worldForce[2];
        double f2 = e[6] * worldForce[0] + e[7] * worldForce[1] + e[8] * worldForce[2];
        out[offset] = point[1] * f2 - point[2] * f1;
        out[offset + 1] = point[2] * f0 - point[0] * f2;
        out[offset + 2] = point[0] * f1 - point[1] * f0;
        out[offset + 3] = f0;
        out[offset + 4] = f1;
        out[offset + 5] = f2;
    }

    // ---------------------------------------------------------------- passes

    /** I^A, U, D⁻¹ leaf to root (xUp must be current). */
    private void articulatedInertias() {
        System.arraycopy(rigidI, 0, artI, 0, 36 * nb);
        for (int i = nb - 1; i >= 0; i--) {
            int ia = 36 * i;
            int vi = vIndex[i];
            int n = dofs[i];
            for (int d = 0; d < n; d++) {
                int uo = 6 * (vi + d);
                matVec(artI, ia, s, uo, uBlock, uo);
            }
            invertD(i, vi, n);
            int p = parent[i];
            if (p < 0) {
                continue;
            }
            // I^a = I^A - U D⁻¹ Uᵀ, then I^A_p += Xᵀ I^a X.
            System.arraycopy(artI, ia, t36, 0, 36);
            int dOff = dOffset[i];
            for (int a = 0; a < n; a++) {
                for (int b = 0; b < n; b++) {
                    double w = dInv[dOff + a * n + b];
                    int ua = 6 * (vi + a), ub = 6 * (vi + b);
                    for (int r = 0; r < 6; r++) {
                        double ur = uBlock[ua + r] * w;
                        for (int c = 0; c < 6; c++) {
                            t36[6 * r + c] -= ur * uBlock[ub + c];
                        }
                    }
                }
            }
            addCongruence(xUp[i], t36, artI, 36 * p);
        }
    }

    /**
     * Leaf to root: u_i = τ_i - S_iᵀ p_i and p_λ(i) += X_iᵀ (p_i + I^a_i c_i + U_i D_i⁻¹ u_i), with I^a_i c_i =
     * I^A_i c_i - U_i D_i⁻¹ U_iᵀ c_i. {@code p} is modified in place; tau and c may be null (zero). With
     * {@code onlyFrom} ≥ 0 only that body and its ancestors are visited (the others must have zero p and u).
     */
    private void backward(double[] p, double[] c, double[] tau, double[] u, int onlyFrom) {
        int i = onlyFrom >= 0 ? onlyFrom : nb - 1;
        while (i >= 0) {
            int o = 6 * i;
            int vi = vIndex[i];
            int n = dofs[i];
            for (int d = 0; d < n; d++) {
                u[vi + d] = (tau == null ? 0 : tau[vi + d]) - SpatialVectors.dot(s, 6 * (vi + d), p, o);
            }
            int par = parent[i];
            if (par >= 0) {
                System.arraycopy(p, o, t6a, 0, 6);
                int dOff = dOffset[i];
                if (c != null) {
                    matVec(artI, 36 * i, c, o, t6b, 0);
                    for (int k = 0; k < 6; k++) {
                        t6a[k] += t6b[k];
                    }
                }
                for (int b = 0; b < n; b++) {
                    t6d[b] = u[vi + b] - (c == null ? 0 : SpatialVectors.dot(c, o, uBlock, 6 * (vi + b)));
                }
                for (int a = 0; a < n; a++) {
                    double coef = 0;
                    for (int b = 0; b < n; b++) {
                        coef += dInv[dOff + a * n + b] * t6d[b];
                    }
                    int ua = 6 * (vi + a);
                    for (int k = 0; k < 6; k++) {
                        t6a[k] += uBlock[ua + k] * coef;
                    }
                }
                xUp[i].addTransposeForce(t6a, 0, p, 6 * par);
            }
            i = onlyFrom >= 0 ? par : i - 1;
        }
    }

    /** Root to leaf: a'_i = X_i a_λ(i) + c_i, q̈_i = D_i⁻¹ (u_i - U_iᵀ a'_i), a_i = a'_i + S_i q̈_i. */
    private void forward(double[] aRoot, double[] c, double[] u, double[] a, double[] vdot) {
        for (int i = 0; i < nb; i++) {
            int o = 6 * i;
            int p = parent[i];
            if (p < 0) {
                xUp[i].applyMotion(aRoot, 0, a, o);
            } else {
                xUp[i].applyMotion(a, 6 * p, a, o);
            }
            if (c != null) {
                for (int k = 0; k < 6; k++) {
                    a[o + k] += c[o + k];
                }
            }
            int vi = vIndex[i];
            int n = dofs[i];
            int dOff = dOffset[i];
            for (int d = 0; d < n; d++) {
                t6a[d] = u[vi + d] - SpatialVectors.dot(uBlock, 6 * (vi + d), a, o);
            }
            for (int d = 0; d < n; d++) {
                double x = 0;
                for (int b = 0; b < n; b++) {
                    x += dInv[dOff + d * n + b] * t6a[b];
                }
                vdot[vi + d] = x;
            }
            for (int d = 0; d < n; d++) {
                int so = 6 * (vi + d);
                double x = vdot[vi + d];
                for (int k = 0; k < 6; k++) {
                    a[o + k] += s[so + k] * x;
                }
            }
        }
    }

    private void zeroRoot() {
        for (int k = 0; k < 6; k++) {
            t6c[k] = 0;
        }
    }

    // ---------------------------------------------------------------- joint models

    /** X_i = X_J(q_i) X_T,i, q-dependent S, world transforms; with v, also v_J = S q̇ and c_J = Ṡ q̇. */
    private void jointTransforms(double[] q, double[] v) {
        for (int i = 0; i < nb; i++) {
            int qi = qIndex[i];
            double[] e = xJ.E;
            double[] r = xJ.r;
            switch (kind[i]) {
                case REVOLUTE -> {
                    // E_J = Rot(a, q)ᵀ: parent-side coordinates into the child's.
                    double angle = q[qi];
                    Rotations.axisAngle(axis[3 * i], axis[3 * i + 1], axis[3 * i + 2], -Math.sin(angle),
                            Math.cos(angle), e);
                    r[0] = r[1] = r[2] = 0;
                }
                case PRISMATIC -> {
                    identity(e);
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
            if (parent[i] < 0) {
                x0[i].set(xUp[i]);
            } else {
                x0[i].setProduct(xUp[i], x0[parent[i]]);
            }
            if (v != null) {
                jointVelocity(i, v);
            }
        }
    }

    private void planarTransform(int i, double[] q, double[] e, double[] r) {
        int qi = qIndex[i];
        double x = q[qi], y = q[qi + 1], th = q[qi + 2];
        Rotations.axisAngle(axis[3 * i], axis[3 * i + 1], axis[3 * i + 2], -Math.sin(th), Math.cos(th), e);
        int u = 6 * i;
        for (int k = 0; k < 3; k++) {
            r[k] = x * planarU[u + k] + y * planarU[u + 3 + k];
        }
        // Linear columns of S in child coordinates: E u₁ and E u₂.
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
            vJ[o + k] = 0;
        }
        switch (kind[i]) {
            case FLOATING -> System.arraycopy(v, vi, vJ, o, 6);
            case BALL -> System.arraycopy(v, vi, vJ, o, 3);
            default -> {
                int so = 6 * vi;
                for (int d = 0; d < dofs[i]; d++) {
                    double qd = v[vi + d];
                    for (int k = 0; k < 6; k++) {
                        vJ[o + k] += s[so + 6 * d + k] * qd;
                    }
                }
                if (kind[i] == PLANAR) {
                    // c_J = Ṡ q̇ = [0; -θ̇ n × v_lin]: the in-plane axes turn with the child frame.
                    double thd = v[vi + 2];
                    double n0 = axis[3 * i], n1 = axis[3 * i + 1], n2 = axis[3 * i + 2];
                    double l0 = vJ[o + 3], l1 = vJ[o + 4], l2 = vJ[o + 5];
                    cJ[o + 3] = -thd * (n1 * l2 - n2 * l1);
                    cJ[o + 4] = -thd * (n2 * l0 - n0 * l2);
                    cJ[o + 5] = -thd * (n0 * l1 - n1 * l0);
                }
            }
        }
    }

    // ---------------------------------------------------------------- small linear algebra

    /** D_i = S_iᵀ U_i and its inverse (Cholesky). */
    private void invertD(int i, int vi, int n) {
        int off = dOffset[i];
        if (n == 1) {
            double d = SpatialVectors.dot(s, 6 * vi, uBlock, 6 * vi);
            if (!(d > 0)) {
                throw new ArithmeticException("articulated inertia of body '" + model.body(i).name()
                        + "' is not positive along its joint (D = " + d + ")");
            }
            dInv[off] = 1 / d;
            return;
        }
        double[] l = t36b;
        for (int a = 0; a < n; a++) {
            for (int b = 0; b < n; b++) {
                t36[a * n + b] = SpatialVectors.dot(s, 6 * (vi + a), uBlock, 6 * (vi + b));
            }
        }
        for (int a = 0; a < n; a++) {
            for (int b = 0; b <= a; b++) {
                double sum = t36[a * n + b];
                for (int k = 0; k < b; k++) {
                    sum -= l[a * n + k] * l[b * n + k];
                }
                if (a == b) {
                    if (!(sum > 0)) {
                        throw new ArithmeticException("joint-space block D of body '" + model.body(i).name()
                                + "' is not positive definite (pivot " + sum + ")");
                    }
                    l[a * n + a] = Math.sqrt(sum);
                } else {
                    l[a * n + b] = sum / l[b * n + b];
                }
            }
        }
        for (int c = 0; c < n; c++) {
            for (int a = 0; a < n; a++) {
                double sum = a == c ? 1 : 0;
                for (int k = 0; k < a; k++) {
                    sum -= l[a * n + k] * work[k * n + c];
                }
                work[a * n + c] = sum / l[a * n + a];
            }
            for (int a = n - 1; a >= 0; a--) {
                double sum = work[a * n + c];
                for (int k = a + 1; k < n; k++) {
                    sum -= l[k * n + a] * dInv[off + k * n + c];
                }
                dInv[off + a * n + c] = sum / l[a * n + a];
            }
        }
    }

    /** target[to..] += Xᵀ A X for a row-major 6x6 A and X = [E 0; -E [r]× E]. */
    private void addCongruence(SpatialTransform x, double[] a, double[] target, int to) {
        double[] e = x.E;
        double[] r = x.r;
        for (int i = 0; i < 36; i++) {
            xm[i] = 0;
        }
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                xm[6 * i + j] = e[3 * i + j];
                xm[6 * (i + 3) + j + 3] = e[3 * i + j];
            }
            // row i of -E [r]×: -(e_i × ... ) computed as -Σ_k E_ik [r]×_kj
            double ei0 = e[3 * i], ei1 = e[3 * i + 1], ei2 = e[3 * i + 2];
            // [r]× = [0 -r2 r1; r2 0 -r0; -r1 r0 0]
            xm[6 * (i + 3)] = -(ei1 * r[2] - ei2 * r[1]);
            xm[6 * (i + 3) + 1] = -(-ei0 * r[2] + ei2 * r[0]);
            xm[6 * (i + 3) + 2] = -(ei0 * r[1] - ei1 * r[0]);
        }
        // t36b = A X
        for (int i = 0; i < 6; i++) {
            for (int j = 0; j < 6; j++) {
                double sum = 0;
                for (int k = 0; k < 6; k++) {
                    sum += a[6 * i + k] * xm[6 * k + j];
                }
                t36b[6 * i + j] = sum;
            }
        }
        for (int i = 0; i < 6; i++) {
            for (int j = 0; j < 6; j++) {
                double sum = 0;
                for (int k = 0; k < 6; k++) {
                    sum += xm[6 * k + i] * t36b[6 * k + j];
                }
                target[to + 6 * i + j] += sum;
            }
        }
    }

    private static void matVec(double[] a, int ao, double[] x, int xo, double[] out, int oo) {
        for (int r = 0; r < 6; r++) {
            int b = ao + 6 * r;
            out[oo + r] = a[b] * x[xo] + a[b + 1] * x[xo + 1] + a[b + 2] * x[xo + 2] + a[b + 3] * x[xo + 3]
                    + a[b + 4] * x[xo + 4] + a[b + 5] * x[xo + 5];
        }
    }

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

    private static void identity(double[] e) {
        for (int k = 0; k < 9; k++) {
            e[k] = k % 4 == 0 ? 1 : 0;
        }
    }

    private void checkFactored() {
        if (!factored) {
            throw new IllegalStateException("call forwardDynamics or factor first: the response reuses the"
                    + " articulated-body inertias of that configuration");
        }
    }

    private void checkBody(int body) {
        if (body < 0 || body >= nb) {
            throw new IndexOutOfBoundsException("body " + body + " of " + nb);
        }
    }

    private static void checkLength(double[] x, int n, String what) {
        if (x.length != n) {
            throw new IllegalArgumentException(what + " must have " + n + " entries, got " + x.length);
        }
    }
}
