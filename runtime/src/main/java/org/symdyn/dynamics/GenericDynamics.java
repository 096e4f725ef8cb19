package org.symdyn.dynamics;

import java.util.Arrays;
import java.util.List;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.contract.Arguments;
import org.symdyn.contract.Dynamics;
import org.symdyn.contract.DynamicsDerivatives;
import org.symdyn.contract.ForwardingModelInfo;
import org.symdyn.contract.Kinematics;
import org.symdyn.contract.ModelInfo;
import org.symdyn.model.Body;
import org.symdyn.model.Frame;
import org.symdyn.model.Model;
import org.symdyn.spatial.Rotations;
import org.symdyn.spatial.SpatialTransform;
import org.symdyn.spatial.SpatialVectors;

/**
 * The numeric interpreter of any {@link Model}: Featherstone's spatial recursions (<i>Rigid Body Dynamics
 * Algorithms</i>, 2008) evaluated body by body. It is the oracle generated classes are checked against and the
 * fallback when no code was generated.
 * <ul>
 * <li>forward kinematics: X_i = X_J(q_i) X_T,i from parent to body i; X_0,i = X_i X_0,λ(i) (the joint models
 * X_J, S, v_J = S q̇ and c_J = Ṡ q̇ of every joint type are those of {@code JointTransforms});</li>
 * <li>RNEA (§5.3): v_i = X_i v_λ + S_i q̇_i, a_i = X_i a_λ + S_i q̈_i + c_J + v_i × S_i q̇_i with a_0 = -g,
 * f_i = I_i a_i + v_i ×* I_i v_i, τ_i = S_iᵀ f_i, f_λ += X_iᵀ f_i;</li>
 * <li>CRBA (§6.2): composite inertias I^c_λ += X_iᵀ I^c_i X_i, H_ii = S_iᵀ I^c_i S_i, off-diagonal blocks by
 * carrying F = I^c_i S_i to each ancestor;</li>
 * <li>ABA (§7.3, {@link ArticulatedBodyAlgorithm}): articulated inertias I^A with U = I^A S, D = Sᵀ U,
 * u = τ - Sᵀ p^A, then q̈ = D⁻¹(u - Uᵀ a').</li>
 * </ul>
 * The derivatives of the dynamics, the Coriolis matrix and the regressor ({@link DynamicsDerivatives}) are analytical
 * recursions on the same joint models and RNEA pass (forward-mode differentiation of RNEA along each tangent
 * direction, the Christoffel-consistent spatial form of C, the regressor of RNEA's body forces; see
 * {@code DerivativeRecursions}), O(nv · nb) each; H⁻¹ and ∂v̇ reuse the articulated-body factorisation.
 *
 * <p>Spatial vectors are [angular; linear] in body coordinates. All workspaces are allocated by the constructor:
 * no method allocates afterwards. An instance is not thread-safe; {@link #copy()} gives another one cheaply.
 */
public final class GenericDynamics
        implements Dynamics, Kinematics, DynamicsDerivatives, StateScope, ForwardingModelInfo {
    private final Model model;
    private final JointTransforms joints;
    private final ArticulatedBodyAlgorithm aba;
    private final int nb;
    private final int nq;
    private final int nv;
    private final int[] parent;
    private final int[] vIndex;
    private final int[] dofs;
    /** Per body: mass, h = m c (3), Ī about the body origin (9, row-major). */
    private final double[] mass;
    private final double[] firstMoment;
    private final double[] rotInertia;
    private final double[] gravity;

    private final int[] frameBody;
    private final double[] frameRotation;
    private final double[] frameTranslation;
    private final ModelInfo info;

    // Joint models (aliases of the arrays of joints, see JointTransforms).
    private final SpatialTransform[] xUp;
    private final SpatialTransform[] x0;
    /** Motion subspace: 6 entries per velocity index, in the owning body's coordinates. */
    private final double[] s;
    private final double[] cJ;
    private final double[] vJ;
    // Workspace.
    private final double[] vel;
    private final double[] acc;
    private final double[] force;
    private final double[] compMass;
    private final double[] compH;
    private final double[] compI;
    private final double[] t6a = new double[6];
    private final double[] t6b = new double[6];
    private final double[] t6c = new double[6];
    private final double[] t9 = new double[9];
    private final double[] zeroV;
    /** {@link #enterState() scope}: on, and the v of the last {@link #biasMotion} with whether its pass is current. */
    private boolean reuse;
    private final double[] biasMotionV;
    private boolean biasMotionCurrent;
    private final DerivativeRecursions derivatives;
    private final ParameterJacobian parameters;
    private final List<String> parameterNames;
    private final DMatrixRMaj parameterY;

    /** Builds the interpreter and every workspace for {@code model}. */
    public GenericDynamics(Model model) {
        this.model = model;
        joints = new JointTransforms(model);
        aba = new ArticulatedBodyAlgorithm(model);
        nb = joints.nb;
        nq = joints.nq;
        nv = joints.nv;
        parent = joints.parent;
        vIndex = joints.vIndex;
        dofs = joints.dofs;
        xUp = joints.xUp;
        x0 = joints.x0;
        s = joints.s;
        cJ = joints.cJ;
        vJ = joints.vJ;
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
        info = model.info();

        vel = new double[6 * nb];
        acc = new double[6 * nb];
        force = new double[6 * nb];
        compMass = new double[nb];
        compH = new double[3 * nb];
        compI = new double[9 * nb];
        zeroV = new double[nv];
        biasMotionV = new double[nv];
        derivatives = new DerivativeRecursions(this, joints, vel, acc, force);
        parameters = new ParameterJacobian(model);
        parameterNames = model.parameters().stream().map(org.symdyn.model.ParameterModel::name).toList();
        // The full regressor behind the parameters' columns: only a model with parameters pays for it.
        parameterY = new DMatrixRMaj(parameters.size() == 0 ? 0 : nv, parameters.size() == 0 ? 0
                : PARAMETERS_PER_BODY * nb);
    }

    /** The derivative recursions on this instance's workspaces ({@link MotionDerivatives} drives them too). */
    DerivativeRecursions recursions() {
        return derivatives;
    }

    /** The body velocities (6 per body, body coordinates) of the last motion pass. */
    double[] bodyVelocities() {
        return vel;
    }

    /** The body spatial accelerations (6 per body, body coordinates, gravity as the pass had it) of the last pass. */
    double[] bodyAccelerations() {
        return acc;
    }

    /** The model this instance interprets. */
    public Model model() {
        return model;
    }

    @Override
    public GenericDynamics copy() {
        return new GenericDynamics(model);
    }

    /**
     * Opens a scope ({@link StateScope}) in which the joint transforms, the sines and cosines in them and the world
     * poses of the last q, and the velocity pass of the last (q, v) for the kinematic queries (point and body
     * velocities, J̇v), are reused by every later call with equal arguments (compared by value) instead of being
     * recomputed: for a caller that evaluates several quantities at one state, such as H, C and the contact rows of
     * a constrained solve or a time step. Outside a scope, the default, every call computes everything itself, so
     * that each call's cost and result stand alone. Scopes nest; opening the outermost and closing it forget what was
     * kept.
     *
     * <p>Measured (ConstrainedSolverBenchmark, generic, one run before and after): building H, C, G, γ of the
     * quadruped on 12 contact rows 9.6 → 5.1 µs, of solo12 10.0 → 5.1 µs; without it H, C and every contact point's
     * Jacobian and J̇v each recomputed the kinematics from q.
     */
    @Override
    public void enterState() {
        if (scopeDepth++ == 0) {
            reuseKinematics(true);
        }
    }

    /** Closes the scope of the matching {@link #enterState()}. */
    @Override
    public void exitState() {
        if (scopeDepth == 0) {
            throw new IllegalStateException("exitState without a matching enterState");
        }
        if (--scopeDepth == 0) {
            reuseKinematics(false);
        }
    }

    private int scopeDepth;

    private void reuseKinematics(boolean on) {
        reuse = on;
        joints.memoize(on);
        biasMotionCurrent = false;
    }

    // ---------------------------------------------------------------- metadata: the model's own ModelInfo

    /** The model's own description ({@link Model#info()}), which every other question about the model reads. */
    @Override
    public ModelInfo modelInfo() {
        return info;
    }

    @Override
    public int nq() {
        return nq;
    }

    @Override
    public int nv() {
        return nv;
    }

    // ---------------------------------------------------------------- dynamics

    @Override
    public void inverseDynamics(double[] q, double[] v, double[] vdot, double[] tau) {
        checkState(q, v);
        checkLength(vdot, nv, "vdot");
        checkLength(tau, nv, "tau");
        checkOutput(tau, "tau", q, "q", v, "v", vdot, "vdot");
        rnea(q, v, vdot, true, tau);
    }

    @Override
    public void biasForces(double[] q, double[] v, double[] c) {
        checkState(q, v);
        checkLength(c, nv, "C");
        checkOutput(c, "C", q, "q", v, "v", null, null);
        rnea(q, v, zeroV, true, c);
    }

    @Override
    public void gravityForces(double[] q, double[] g) {
        checkLength(q, nq, "q");
        checkLength(g, nv, "g");
        checkOutput(g, "g", q, "q", null, null, null, null);
        rnea(q, zeroV, zeroV, true, g);
    }

    /** RNEA: the motion pass, then body forces f = I a + v ×* I v carried to the root. */
    void rnea(double[] q, double[] v, double[] vdot, boolean withGravity, double[] tau) {
        motionPass(q, v, vdot, withGravity);
        for (int i = 0; i < nb; i++) {
            int o = 6 * i;
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

    /**
     * Body velocities and spatial accelerations, root to leaf: v_i = X_i v_λ + S_i q̇_i,
     * a_i = X_i a_λ + S_i q̈_i + c_J + v_i × S_i q̇_i, with a_0 = -g, or 0 when {@code withGravity} is false (the
     * kinematic queries).
     */
    void motionPass(double[] q, double[] v, double[] vdot, boolean withGravity) {
        biasMotionCurrent = false;
        joints.update(q, v);
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
        }
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

    @Override
    public void massMatrix(double[] q, DMatrixRMaj h) {
        checkLength(q, nq, "q");
        Arguments.checkShape(h, nv, nv, "H");
        Arguments.checkDistinct(h, "H", q, "q");
        joints.update(q);
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
                inertiaTimes(compMass, compH, compI, i, s, 6 * col, t6a, 0);
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

    /** Forward dynamics by the articulated-body algorithm ({@link ArticulatedBodyAlgorithm}, no external forces). */
    @Override
    public void forwardDynamics(double[] q, double[] v, double[] tau, double[] vdot) {
        aba.forwardDynamics(q, v, tau, null, vdot);
    }

    /** The articulated-body algorithm of {@link #forwardDynamics} (its factorisation serves H⁻¹). */
    ArticulatedBodyAlgorithm aba() {
        return aba;
    }

    /** nv zeros (never written). */
    double[] zeroVelocity() {
        return zeroV;
    }

    // ---------------------------------------------------------------- derivatives (DerivativeRecursions)

    @Override
    public void inverseDynamicsDerivatives(double[] q, double[] v, double[] vdot, DMatrixRMaj dtauDq,
            DMatrixRMaj dtauDv) {
        checkState(q, v);
        checkLength(vdot, nv, "vdot");
        Arguments.checkShape(dtauDq, nv, nv, "dtauDq");
        Arguments.checkShape(dtauDv, nv, nv, "dtauDv");
        checkMatrixOutput(dtauDq, "dtauDq", q, "q", v, "v", vdot, "vdot");
        checkMatrixOutput(dtauDv, "dtauDv", q, "q", v, "v", vdot, "vdot");
        Arguments.checkDistinct(dtauDv, "dtauDv", dtauDq, "dtauDq");
        derivatives.inverseDynamics(q, v, vdot, dtauDq, dtauDv);
    }

    @Override
    public void forwardDynamicsDerivatives(double[] q, double[] v, double[] tau, DMatrixRMaj dvdotDq,
            DMatrixRMaj dvdotDv, DMatrixRMaj dvdotDtau) {
        checkState(q, v);
        checkLength(tau, nv, "tau");
        Arguments.checkShape(dvdotDq, nv, nv, "dvdotDq");
        Arguments.checkShape(dvdotDv, nv, nv, "dvdotDv");
        Arguments.checkShape(dvdotDtau, nv, nv, "dvdotDtau");
        checkMatrixOutput(dvdotDq, "dvdotDq", q, "q", v, "v", tau, "tau");
        checkMatrixOutput(dvdotDv, "dvdotDv", q, "q", v, "v", tau, "tau");
        Arguments.checkDistinct(dvdotDv, "dvdotDv", dvdotDq, "dvdotDq");
        checkMatrixOutput(dvdotDtau, "dvdotDtau", q, "q", v, "v", tau, "tau");
        Arguments.checkDistinct(dvdotDtau, "dvdotDtau", dvdotDq, "dvdotDq");
        Arguments.checkDistinct(dvdotDtau, "dvdotDtau", dvdotDv, "dvdotDv");
        derivatives.forwardDynamics(q, v, tau, dvdotDq, dvdotDv, dvdotDtau);
    }

    @Override
    public void inverseMassMatrix(double[] q, DMatrixRMaj Minv) {
        checkLength(q, nq, "q");
        Arguments.checkShape(Minv, nv, nv, "Minv");
        Arguments.checkDistinct(Minv, "Minv", q, "q");
        derivatives.inverseMassMatrix(q, Minv);
    }

    @Override
    public void coriolisMatrix(double[] q, double[] v, DMatrixRMaj coriolis) {
        checkState(q, v);
        Arguments.checkShape(coriolis, nv, nv, "coriolis");
        checkMatrixOutput(coriolis, "coriolis", q, "q", v, "v", null, null);
        derivatives.coriolisMatrix(q, v, coriolis);
    }

    @Override
    public void regressor(double[] q, double[] v, double[] vdot, DMatrixRMaj y) {
        checkState(q, v);
        checkLength(vdot, nv, "vdot");
        Arguments.checkShape(y, nv, PARAMETERS_PER_BODY * nb, "Y");
        checkMatrixOutput(y, "Y", q, "q", v, "v", vdot, "vdot");
        derivatives.regressor(q, v, vdot, y);
    }

    @Override
    public void inertialParameters(double[] pi) {
        checkLength(pi, PARAMETERS_PER_BODY * nb, "pi");
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

    @Override
    public List<String> parameterNames() {
        return parameterNames;
    }

    @Override
    public void inertialParameterJacobian(DMatrixRMaj dpiDp) {
        Arguments.checkShape(dpiDp, PARAMETERS_PER_BODY * nb, parameters.size(), "dpiDp");
        parameters.jacobian(dpiDp);
    }

    @Override
    public void parameterRegressor(double[] q, double[] v, double[] vdot, DMatrixRMaj yp) {
        checkState(q, v);
        checkLength(vdot, nv, "vdot");
        Arguments.checkShape(yp, nv, parameters.size(), "Yp");
        checkMatrixOutput(yp, "Yp", q, "q", v, "v", vdot, "vdot");
        if (parameters.size() == 0) {
            return;
        }
        derivatives.regressor(q, v, vdot, parameterY);
        parameters.regressor(parameterY, yp);
    }

    // ---------------------------------------------------------------- kinematics

    @Override
    public void bodyPose(double[] q, int body, double[] rotation, double[] position) {
        checkPose(q, rotation, position);
        Arguments.checkIndex(body, nb, "body");
        joints.update(q);
        joints.updateWorld();
        Rotations.transpose(x0[body].E, rotation);
        System.arraycopy(x0[body].r, 0, position, 0, 3);
    }

    /** Every body's pose at q: R world &lt;- body at 9 b (row-major), origin at 3 b. */
    void worldPoses(double[] q, double[] rotation, double[] position) {
        joints.update(q);
        joints.updateWorld();
        for (int b = 0; b < nb; b++) {
            double[] e = x0[b].E;
            for (int r = 0; r < 3; r++) {
                for (int c = 0; c < 3; c++) {
                    rotation[9 * b + 3 * r + c] = e[3 * c + r];
                }
            }
            System.arraycopy(x0[b].r, 0, position, 3 * b, 3);
        }
    }

    @Override
    public void framePose(double[] q, int frame, double[] rotation, double[] position) {
        checkPose(q, rotation, position);
        Arguments.checkIndex(frame, frameBody.length, "frame");
        int b = frameBody[frame];
        if (b < 0) {
            System.arraycopy(frameRotation, 9 * frame, rotation, 0, 9);
            System.arraycopy(frameTranslation, 3 * frame, position, 0, 3);
            return;
        }
        joints.update(q);
        joints.updateWorld();
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
        checkLength(point, 3, "point");
        checkLength(position, 3, "position");
        checkOutput(position, "position", q, "q", point, "point", null, null);
        Arguments.checkIndex(body, nb, "body");
        joints.update(q);
        joints.updateWorld();
        bodyPointToWorld(body, point, position);
    }

    /**
     * {@link #motionPass} at v̇ = 0 without gravity (velocities and velocity-product accelerations), skipped under
     * {@link #enterState() scope} when the last one was for equal q and v.
     */
    private void biasMotion(double[] q, double[] v) {
        if (reuse && biasMotionCurrent && joints.isCurrentFor(q) && Arrays.equals(v, biasMotionV)) {
            return;
        }
        motionPass(q, v, zeroV, false);
        if (reuse && v.length == nv && joints.isCurrentFor(q)) {
            System.arraycopy(v, 0, biasMotionV, 0, nv);
            biasMotionCurrent = true;
        }
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
        checkLength(velocity, 6, "velocity");
        checkOutput(velocity, "velocity", q, "q", v, "v", null, null);
        Arguments.checkIndex(body, nb, "body");
        biasMotion(q, v);
        System.arraycopy(vel, 6 * body, velocity, 0, 6);
    }

    @Override
    public void bodyAcceleration(double[] q, double[] v, double[] vdot, int body, double[] acceleration) {
        checkState(q, v);
        checkLength(vdot, nv, "vdot");
        checkLength(acceleration, 6, "acceleration");
        checkOutput(acceleration, "acceleration", q, "q", v, "v", vdot, "vdot");
        Arguments.checkIndex(body, nb, "body");
        motionPass(q, v, vdot, false);
        System.arraycopy(acc, 6 * body, acceleration, 0, 6);
    }

    @Override
    public void pointVelocity(double[] q, double[] v, int body, double[] point, double[] velocity) {
        checkState(q, v);
        checkLength(point, 3, "point");
        checkLength(velocity, 3, "velocity");
        checkOutput(velocity, "velocity", q, "q", v, "v", point, "point");
        Arguments.checkIndex(body, nb, "body");
        biasMotion(q, v);
        joints.updateWorld();
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
        checkLength(point, 3, "point");
        checkLength(acceleration, 3, "acceleration");
        checkOutput(acceleration, "acceleration", q, "q", v, "v", vdot, "vdot");
        Arguments.checkDistinct(acceleration, "acceleration", point, "point");
        Arguments.checkIndex(body, nb, "body");
        if (vdot == zeroV) {
            biasMotion(q, v); // J̇v (pointBiasAcceleration)
        } else {
            motionPass(q, v, vdot, false);
        }
        joints.updateWorld();
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
    public void pointBiasAcceleration(double[] q, double[] v, int body, double[] point, double[] bias) {
        checkState(q, v);
        checkLength(point, 3, "point");
        checkLength(bias, 3, "bias");
        checkOutput(bias, "bias", q, "q", v, "v", point, "point");
        Arguments.checkIndex(body, nb, "body");
        pointAcceleration(q, v, zeroV, body, point, bias);
    }

    @Override
    public void pointJacobian(double[] q, int body, double[] point, DMatrixRMaj j) {
        checkLength(q, nq, "q");
        checkLength(point, 3, "point");
        checkShape(j, 3);
        Arguments.checkDistinct(j, "J", q, "q");
        Arguments.checkDistinct(j, "J", point, "point");
        Arguments.checkIndex(body, nb, "body");
        joints.update(q);
        joints.updateWorld();
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
        Arguments.checkDistinct(j, "J", q, "q");
        Arguments.checkIndex(body, nb, "body");
        joints.update(q);
        joints.updateWorld();
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
        Arguments.checkLength(x, n, what);
    }

    private void checkShape(DMatrixRMaj j, int rows) {
        Arguments.checkShape(j, rows, nv, "J");
    }

    private void checkPose(double[] q, double[] rotation, double[] position) {
        checkLength(q, nq, "q");
        checkLength(rotation, 9, "rotation");
        checkLength(position, 3, "position");
        checkOutput(rotation, "rotation", q, "q", null, null, null, null);
        checkOutput(position, "position", q, "q", rotation, "rotation", null, null);
    }

    /** The aliasing rule for a matrix output: its data array is none of the inputs a, b, c (null skipped). */
    private static void checkMatrixOutput(DMatrixRMaj out, String name, double[] a, String aName, double[] b,
            String bName, double[] c, String cName) {
        Arguments.checkDistinct(out, name, a, aName);
        Arguments.checkDistinct(out, name, b, bName);
        if (c != null) {
            Arguments.checkDistinct(out, name, c, cName);
        }
    }

    /** The contract's aliasing rule: {@code out} is none of the inputs a, b, c (a null input is skipped). */
    private static void checkOutput(double[] out, String name, double[] a, String aName, double[] b, String bName,
            double[] c, String cName) {
        Arguments.checkDistinct(out, name, a, aName);
        if (b != null) {
            Arguments.checkDistinct(out, name, b, bName);
        }
        if (c != null) {
            Arguments.checkDistinct(out, name, c, cName);
        }
    }
}
