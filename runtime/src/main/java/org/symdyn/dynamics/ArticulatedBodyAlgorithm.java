package org.symdyn.dynamics;

import org.symdyn.contract.Arguments;
import org.symdyn.model.Body;
import org.symdyn.model.Model;
import org.symdyn.spatial.SpatialTransform;
import org.symdyn.spatial.SpatialVectors;

/**
 * Featherstone's articulated-body algorithm (ABA, <i>Rigid Body Dynamics Algorithms</i> §7.3) on a {@link Model},
 * with external spatial forces, and the <b>force-propagation variant</b> that reuses the articulated-body inertias
 * of the last state to give the response of the accelerations to additional forces (Kokkevis' test forces). It is
 * the forward dynamics of {@link GenericDynamics} (without external forces) and of
 * {@link org.symdyn.solvers.KokkevisContactDynamics}.
 *
 * <p><b>Equations.</b> For bodies i (parents first), X_i the motion transform from λ(i) to i, S_i the motion
 * subspace, I_i the rigid inertia, all in body-i coordinates about its origin, spatial vectors [angular; linear]:
 * <pre>
 *   velocities     v_i = X_i v_λ(i) + S_i q̇_i,   c_i = v_i × S_i q̇_i + Ṡ_i q̇_i
 *   bias forces    p_i = v_i ×* I_i v_i - f_i^ext
 *   leaf to root   I^A_i = I_i + Σ_children X_jᵀ I^a_j X_j,   U_i = I^A_i S_i,   D_i = S_iᵀ U_i + A_i,
 *                  u_i = τ_i - S_iᵀ p^A_i,   I^a_i = I^A_i - U_i D_i⁻¹ U_iᵀ,
 *                  p^A_λ(i) += X_iᵀ (p^A_i + I^a_i c_i + U_i D_i⁻¹ u_i)
 *   root to leaf   a'_i = X_i a_λ(i) + c_i  (a_root = -g),   q̈_i = D_i⁻¹ (u_i - U_iᵀ a'_i),   a_i = a'_i + S_i q̈_i
 * </pre>
 * with A_i the diagonal of joint i's armature (its rotor's reflected inertia, zero when none: it adds to H_kk, so
 * to the joint's own D_i and to nothing the links carry; Pinocchio's {@code model.armature}),
 * so that H v̇ + C = τ + Σ_i J_iᵀ f_i^ext, where J_i is the body Jacobian of body i in its own coordinates
 * ({@link org.symdyn.contract.Kinematics#bodyJacobian}): an external force f_i^ext = [n; f] is given in body-i
 * coordinates, n the moment about the body origin. The force-propagation variant ({@link #forceResponse},
 * {@link #bodyForceResponse}, {@link #generalizedForceResponse}) runs the last two passes with v = 0, g = 0 and
 * only the new forces: I^A, U, D⁻¹ are reused, only p^A (and u) change, so each response costs O(n) and gives
 * Δv̇ = H⁻¹ (Δτ + Σ J_iᵀ Δf_i) at the configuration of the last {@link #forwardDynamics} or {@link #factor}.
 *
 * <p>Joint conventions are those of {@link org.symdyn.model.JointType} (the same as the generic interpreter and
 * generated code, through the shared {@code JointTransforms}): a floating joint's v is [ω; v_origin] in child
 * coordinates, a ball joint's v is ω in child coordinates, a planar joint's v is (ẋ, ẏ, θ̇).
 *
 * <p>The inertias I_i, I^A_i and I^a_i are dense row-major 6x6 matrices, 36 numbers per body in flat arrays
 * ({@code DenseInertias}, which also gives the operation counts against the symmetric
 * {@link org.symdyn.spatial.ArticulatedBodyInertia}). All workspaces are allocated by the constructor; no method
 * allocates. Not thread-safe: one instance per thread.
 */
public final class ArticulatedBodyAlgorithm {
    private final Model model;
    private final JointTransforms joints;
    private final int nb;
    private final int nq;
    private final int nv;
    private final int[] parent;
    private final int[] vIndex;
    private final int[] dofs;
    /** Aliases of the joint models' arrays (see {@code JointTransforms}). */
    private final SpatialTransform[] xUp;
    private final double[] s;
    private final double[] vJ;
    private final double[] cJ;
    /** Per body the 6x6 rigid inertia I = [Ī_o [h]×; [h]×ᵀ m 1] (h = m c), row-major ({@code DenseInertias}). */
    private final double[] rigidI;
    /** Per dof its joint's armature ({@code FlatModel#dofArmature}). */
    private final double[] armature;
    private final double[] gravity;

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
    private final double[] t36 = new double[36];
    private final double[] t36b = new double[36];
    private final DenseInertias dense = new DenseInertias();
    private boolean factored;
    private boolean worldCurrent;

    /** Builds the algorithm and every workspace for {@code model}. */
    public ArticulatedBodyAlgorithm(Model model) {
        this.model = model;
        joints = new JointTransforms(model);
        nb = joints.nb;
        nq = joints.nq;
        nv = joints.nv;
        parent = joints.parent;
        vIndex = joints.vIndex;
        dofs = joints.dofs;
        xUp = joints.xUp;
        s = joints.s;
        vJ = joints.vJ;
        cJ = joints.cJ;
        rigidI = new double[36 * nb];
        for (Body b : model.bodies()) {
            DenseInertias.setRigid(b.inertia(), rigidI, 36 * b.index());
        }
        armature = FlatModel.dofArmature(model);
        gravity = model.gravity();
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

    // ---------------------------------------------------------------- for ArticulatedDelassus (same package)

    int[] parents() {
        return parent;
    }

    int[] velocityIndices() {
        return vIndex;
    }

    int[] jointDofs() {
        return dofs;
    }

    /** The joint motion subspaces S, 6 per dof. */
    double[] motionSubspaces() {
        return s;
    }

    /** U = I^A S of the last factored configuration, 6 per dof. */
    double[] jointForceColumns() {
        return uBlock;
    }

    /** D_i⁻¹ of the last factored configuration, n_i x n_i row-major per body from {@link #inverseJointInertiaOffsets}. */
    double[] inverseJointInertias() {
        return dInv;
    }

    int[] inverseJointInertiaOffsets() {
        return dOffset;
    }

    /** X_i, the motion transform from λ(i) to i, of the last factored configuration. */
    SpatialTransform parentTransform(int i) {
        return xUp[i];
    }

    void checkFactoredForResponse() {
        checkFactored();
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
        Arguments.checkDistinct(vdot, "vdot", q, "q");
        Arguments.checkDistinct(vdot, "vdot", v, "v");
        Arguments.checkDistinct(vdot, "vdot", tau, "tau");
        if (externalForces != null) {
            checkLength(externalForces, 6 * nb, "externalForces");
            Arguments.checkDistinct(vdot, "vdot", externalForces, "externalForces");
        }
        factored = false;
        worldCurrent = false;
        joints.update(q, v);
        // Pass 1: velocities, bias accelerations and bias forces, root to leaf.
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
            DenseInertias.times(rigidI, 36 * i, vel, o, t6a, 0);
            SpatialVectors.crossForce(vel, o, t6a, 0, pA, o);
            if (externalForces != null) {
                for (int k = 0; k < 6; k++) {
                    pA[o + k] -= externalForces[o + k];
                }
            }
        }
        // Pass 2: articulated inertias and bias forces, leaf to root.
        articulatedInertias(tau);
        factored = true;
        // Pass 3: accelerations, root to leaf.
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
        worldCurrent = false;
        joints.update(q);
        articulatedInertias(null);
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
        for (int i = nb - 1; i >= 0; i--) {
            propagateBias(i, rpA, null, ru, null);
        }
        zeroRoot();
        forward(t6c, null, ru, racc, dvdot);
    }

    /**
     * Δv̇ = H⁻¹ J_bᵀ f for one spatial force f = {@code force[offset..offset+6)} on body b (body coordinates, moment
     * about the body origin): {@link #forceResponse} with the backward pass restricted to b's support (b and its
     * ancestors; the other bodies have zero p^A and u). The spatial accelerations of the response are then available
     * from {@link #responseAcceleration} and {@link #responsePointAcceleration}.
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
        for (int i = body; i >= 0; i = parent[i]) {
            propagateBias(i, rpA, null, ru, null);
        }
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
        for (int i = nb - 1; i >= 0; i--) {
            propagateBias(i, rpA, dtau, ru, null);
        }
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
        System.arraycopy(worldTransform(body).E, 0, out, 0, 9);
    }

    /**
     * The spatial force [p × f; f] (body coordinates, moment about the body origin) of a force given in world
     * coordinates acting at body point p (body coordinates), at the configuration of the last
     * {@link #forwardDynamics}/{@link #factor}.
     */
    public void pointForceInBody(int body, double[] point, double[] worldForce, double[] out, int offset) {
        checkBody(body);
        double[] e = worldTransform(body).E;
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

    /** X_0,body of the last factorised configuration; the world transforms are computed on first use only. */
    private SpatialTransform worldTransform(int body) {
        if (!worldCurrent) {
            joints.updateWorld();
            worldCurrent = true;
        }
        return joints.x0[body];
    }

    // ---------------------------------------------------------------- passes

    /**
     * Leaf to root (X_i current): I^A_i, U_i, D_i⁻¹, I^a_i and I^A_λ(i) += X_iᵀ I^a_i X_i. With {@code tau} (forward
     * dynamics, after pass 1 has left v_i ×* I_i v_i - f_i^ext in p^A and c_i in bias) the same sweep also gives u
     * and p^A by {@link #propagateBias} with I^a_i c_i; with null (factor) only the inertias.
     */
    private void articulatedInertias(double[] tau) {
        System.arraycopy(rigidI, 0, artI, 0, 36 * nb);
        for (int i = nb - 1; i >= 0; i--) {
            int ia = 36 * i;
            int vi = vIndex[i];
            int n = dofs[i];
            for (int d = 0; d < n; d++) {
                int uo = 6 * (vi + d);
                DenseInertias.times(artI, ia, s, uo, uBlock, uo);
            }
            invertD(i, vi, n);
            int p = parent[i];
            if (p >= 0) {
                // I^a = I^A - U D⁻¹ Uᵀ
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
            }
            if (tau != null) {
                if (p >= 0) {
                    DenseInertias.times(t36, 0, bias, 6 * i, t6b, 0);
                }
                propagateBias(i, pA, tau, uVec, p >= 0 ? t6b : null);
            }
            if (p >= 0) {
                dense.addCongruence(xUp[i], t36, artI, 36 * p);
            }
        }
    }

    /**
     * One body of the leaf-to-root bias pass: u_i = τ_i - S_iᵀ p_i and, below the root,
     * p_λ(i) += X_iᵀ (p_i + I^a_i c_i + U_i D_i⁻¹ u_i). {@code p} is modified in place; tau may be null (zero), and
     * so may {@code iac} = I^a_i c_i (6 entries; the responses have c = 0).
     */
    private void propagateBias(int i, double[] p, double[] tau, double[] u, double[] iac) {
        int o = 6 * i;
        int vi = vIndex[i];
        int n = dofs[i];
        for (int d = 0; d < n; d++) {
            u[vi + d] = (tau == null ? 0 : tau[vi + d]) - SpatialVectors.dot(s, 6 * (vi + d), p, o);
        }
        int par = parent[i];
        if (par < 0) {
            return;
        }
        if (iac == null) {
            System.arraycopy(p, o, t6a, 0, 6);
        } else {
            for (int k = 0; k < 6; k++) {
                t6a[k] = p[o + k] + iac[k];
            }
        }
        int dOff = dOffset[i];
        for (int a = 0; a < n; a++) {
            double du = 0;
            for (int b = 0; b < n; b++) {
                du += dInv[dOff + a * n + b] * u[vi + b];
            }
            int ua = 6 * (vi + a);
            for (int k = 0; k < 6; k++) {
                t6a[k] += uBlock[ua + k] * du;
            }
        }
        xUp[i].addTransposeForce(t6a, 0, p, 6 * par);
    }

    /** Root to leaf: a'_i = X_i a_λ(i) + c_i, q̈_i = D_i⁻¹ (u_i - U_iᵀ a'_i), a_i = a'_i + S_i q̈_i (c null: zero). */
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

    // ---------------------------------------------------------------- small linear algebra

    /**
     * D_i = S_iᵀ U_i + A_i and its inverse (Cholesky: D is symmetric positive definite for a physical model). The
     * armature is added only where it is nonzero, so a model without one keeps its results bit for bit.
     */
    private void invertD(int i, int vi, int n) {
        int off = dOffset[i];
        if (n == 1) {
            double d = SpatialVectors.dot(s, 6 * vi, uBlock, 6 * vi);
            if (armature[vi] != 0) {
                d += armature[vi];
            }
            // NaN from the state (a NaN angle) passes on as NaN, as the contract's "NaN in, NaN out" and the
            // generated classes do; only a number that is not positive is the model's fault
            if (d <= 0) {
                throw new ArithmeticException("articulated inertia of body '" + model.body(i).name()
                        + "' is not positive along its joint (D = " + d + ")");
            }
            dInv[off] = 1 / d;
            return;
        }
        double[] l = t36;
        for (int a = 0; a < n; a++) {
            for (int b = 0; b < n; b++) {
                l[a * n + b] = SpatialVectors.dot(s, 6 * (vi + a), uBlock, 6 * (vi + b));
            }
            if (armature[vi + a] != 0) {
                l[a * n + a] += armature[vi + a];
            }
        }
        for (int k = 0; k < n * n; k++) {
            if (Double.isNaN(l[k])) {
                java.util.Arrays.fill(dInv, off, off + n * n, Double.NaN);
                return;
            }
        }
        try {
            SmallCholesky.invertInPlace(l, n, t36b);
        } catch (ArithmeticException e) {
            throw new ArithmeticException("body '" + model.body(i).name() + "': " + e.getMessage());
        }
        System.arraycopy(l, 0, dInv, off, n * n);
    }

    private void checkFactored() {
        if (!factored) {
            throw new IllegalStateException("call forwardDynamics or factor first: the response reuses the"
                    + " articulated-body inertias of that configuration");
        }
    }

    private void checkBody(int body) {
        Arguments.checkIndex(body, nb, "body");
    }

    private static void checkLength(double[] x, int n, String what) {
        Arguments.checkLength(x, n, what);
    }
}
