package org.symdyn.dynamics;

import java.util.Arrays;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.spatial.SpatialTransform;
import org.symdyn.spatial.SpatialVectors;

/**
 * ∂τ/∂q, ∂τ/∂v and the Christoffel Coriolis matrix of the generic runtime: Carpentier and Mansard's analytical RNEA
 * derivatives (RSS 2018) written in one inertial frame, the equations the generator unrolls ({@code SymbolicDerivatives}),
 * here as loops over the bodies and the pairs of dofs. Each tree is written in the coordinates of its root body where
 * it stands at this instant (the transforms composed from the root down, gravity rotated once), not in the world's:
 * nothing then grows with the distance from the world's origin, where world coordinates would carry terms in r² (a
 * floating base 1 km away would lose about six digits). A tangent direction k moves everything carried at or below
 * it rigidly, by the twist S_k (the contract's tangent convention), so that every entry is a few dot products of
 * per-dof and per-body 6-vectors:
 * <pre>
 *   per dof m:          S_m; V_p, A_p the velocity and acceleration of what carries it before it moves, V_c after
 *                       (a floating or ball joint's dofs all move the child: V_p = v_λ, V_c = v_child; the dofs of a
 *                       planar joint are a chain x, y, θ), Ṡ_m = V_c × S_m
 *   per body b:         Y_b = Σ I_i, Ẏ_b = Σ İ_i (İ = v ×* I - I v×), P_b = Σ I_i v_i, F_b = Σ f_i over its subtree,
 *                       B_b x = Ẏ_b x + x ×* P_b
 *   per direction k:    w = S_k × V_p, α = S_k × A_p + V_p × w, u = (V_c + V_p) × S_k (= -2 w for a dof that moves
 *                       its child alone)
 *   m moved by k:       ∂τ_m/∂q_k = -S_mᵀ (Y_b α + B_b w),  ∂τ_m/∂v_k = S_mᵀ (Y_b u + B_b S_k)   (b = m's body)
 *   m above k:          ∂τ_m/∂q_k = S_mᵀ (S_k ×* F_j - Y_j α - B_j w),  ∂τ_m/∂v_k = S_mᵀ (Y_j u + B_j S_k)  (j = k's)
 *   Coriolis:           C_mk = S_mᵀ (Y_d Ṡ_k + ½ B_d S_k), d the deeper of the two bodies (zero off a branch)
 * </pre>
 * with S_mᵀ Y_b x = (Y_b S_m)ᵀ x and S_mᵀ B_b x = (B_bᵀ S_m)ᵀ x, so Y_b S_m and B_bᵀ S_m = Ẏ_b S_m - S_m ×* P_b are formed
 * once per dof. Accelerations carry gravity as the root's (a_0 = -g), so F_b holds it. Zero where m and k lie on
 * different branches.
 *
 * <p>Why: it replaced the forward-mode differentiation of the RNEA along one direction at a time in body coordinates
 * ({@link DerivativeRecursions}' directions: a motion pass and a force pass over the subtree per direction, each a
 * spatial transform per body), which the generic ∂τ and ∂v̇ and the looped derivatives of the largest generated
 * classes run. Here one pass over the bodies forms the vectors and each pair costs two dot products of 6-vectors.
 * Measured (JMH {@code DerivativesBenchmark}, pinned, one run each side, quiet machine, ns per call, before / after;
 * benchmarks/README.md, "The generic derivatives in one inertial frame"): ∂τ iiwa14 4,110 / 1,872, solo12 floating
 * 12,845 / 4,655, romeo_small floating 44,496 / 11,189; the Coriolis matrix, which had its own directional pass per
 * column (ψ = S_k carried down the subtree, a force pass back), 2,224 / 1,355, 7,183 / 3,217 and 24,449 / 8,054 (a
 * pass of velocities only); 0 B per call. The two ∂τ agree to 2.7e-15 of the entries' scale on every shared model
 * and two built ones with planar and ball joints, also with the floating base 1 km away
 * (InertialFrameDerivativesTest), the Coriolis matrices to 6.6e-15.
 *
 * <p>Inertias are kept in the compact form of {@link FlatModel} (mass, first moment h, rotational inertia Ī about the
 * origin, here the root's). Not thread-safe: one per {@link DynamicsWorkspace}, whose joint models it reads.
 */
final class InertialFrameDerivatives {
    private final FlatModel model;
    private final JointTransforms joints;
    private final int nb;
    private final int nv;
    private final int[] parent;
    private final int[] vIndex;
    private final int[] dofs;
    /** Per body: whether its joint's dofs all move the child together (floating, ball). */
    private final boolean[] together;
    /** Per body: the dofs of the bodies strictly below it, and of those strictly above it. */
    private final int[][] belowDofs;
    private final int[][] aboveDofs;
    /** Per dof (6 each): S, V_p, A_p, V_c in its root's coordinates; Y_b S and B_bᵀ S of its body b. */
    private final double[] s;
    private final double[] vp;
    private final double[] ap;
    private final double[] vc;
    private final double[] ys;
    private final double[] bts;
    /** Per body: v, a (6 each); Y (mass, h, Ī), Ẏ (h, Ī), P, F summed over the subtree. */
    private final double[] vel;
    private final double[] acc;
    private final double[] yMass;
    private final double[] yH;
    private final double[] yI;
    private final double[] ydH;
    private final double[] ydI;
    /** Ẏ's masses: a rate of inertia has none. */
    private final double[] zeroMass;
    private final double[] momentum;
    private final double[] force;
    /** Per body: X from its tree's root body (where it stands at this instant) to it. */
    private final SpatialTransform[] fromRoot;
    private final double[] t6a = new double[6];
    private final double[] t6b = new double[6];
    private final double[] alpha = new double[6];
    private final double[] w = new double[6];
    private final double[] u = new double[6];
    private final double[] fq = new double[6];
    private final double[] fv = new double[6];
    private final double[] cv = new double[6];
    private final double[] ca = new double[6];
    private final double[] t3 = new double[3];
    private final double[] t3b = new double[3];
    private final double[] t9 = new double[9];

    InertialFrameDerivatives(FlatModel model, JointTransforms joints) {
        this.model = model;
        this.joints = joints;
        nb = joints.nb;
        nv = joints.nv;
        parent = joints.parent;
        vIndex = joints.vIndex;
        dofs = joints.dofs;
        DofPairs pairs = new DofPairs(joints);
        together = pairs.together;
        belowDofs = pairs.belowDofs;
        aboveDofs = pairs.aboveDofs;
        s = new double[6 * nv];
        vp = new double[6 * nv];
        ap = new double[6 * nv];
        vc = new double[6 * nv];
        ys = new double[6 * nv];
        bts = new double[6 * nv];
        vel = new double[6 * nb];
        acc = new double[6 * nb];
        yMass = new double[nb];
        yH = new double[3 * nb];
        yI = new double[9 * nb];
        ydH = new double[3 * nb];
        ydI = new double[9 * nb];
        zeroMass = new double[nb];
        momentum = new double[6 * nb];
        force = new double[6 * nb];
        fromRoot = new SpatialTransform[nb];
        for (int i = 0; i < nb; i++) {
            fromRoot[i] = new SpatialTransform();
        }
    }

    /** ∂τ/∂q and ∂τ/∂v at (q, v, v̇) into dq and dv (every entry written). Arguments checked by the caller. */
    void compute(double[] q, double[] v, double[] vdot, DMatrixRMaj dq, DMatrixRMaj dv) {
        joints.update(q);
        pass(v, vdot);
        double[] dqd = dq.data;
        double[] dvd = dv.data;
        Arrays.fill(dqd, 0, nv * nv, 0.0);
        Arrays.fill(dvd, 0, nv * nv, 0.0);
        for (int j = 0; j < nb; j++) {
            for (int d = 0; d < dofs[j]; d++) {
                int k = vIndex[j] + d;
                direction(j, k);
                int ok = 6 * k;
                // moved by k: the dofs of j at or after k (all of them for a joint that moves its child as one), and
                // every dof below j
                for (int e = together[j] ? 0 : d; e < dofs[j]; e++) {
                    moved(vIndex[j] + e, k, ok, dqd, dvd);
                }
                for (int m : belowDofs[j]) {
                    moved(m, k, ok, dqd, dvd);
                }
                boolean before = !together[j] && d > 0;
                int[] above = aboveDofs[j];
                if (above.length == 0 && !before) {
                    continue;
                }
                aboveForces(j, k);
                if (before) {
                    for (int e = 0; e < d; e++) {
                        above(vIndex[j] + e, k, dqd, dvd);
                    }
                }
                for (int m : above) {
                    above(m, k, dqd, dvd);
                }
            }
        }
    }

    /**
     * The Christoffel Coriolis matrix C(q, v) into out (every entry written; the contract's C, with Ḣ - 2C skew).
     * Arguments checked by the caller.
     */
    void coriolis(double[] q, double[] v, DMatrixRMaj out) {
        joints.update(q);
        pass(v, null);
        double[] c = out.data;
        Arrays.fill(c, 0, nv * nv, 0.0);
        double[] sdot = w;
        for (int j = 0; j < nb; j++) {
            for (int d = 0; d < dofs[j]; d++) {
                int k = vIndex[j] + d;
                int ok = 6 * k;
                SpatialVectors.crossMotion(vc, ok, s, ok, sdot, 0);
                // d = m's body when it is j or below it: C_mk = (Y_d S_m)ᵀ Ṡ_k + ½ (B_dᵀ S_m)ᵀ S_k
                for (int e = 0; e < dofs[j]; e++) {
                    coriolisBelow(vIndex[j] + e, k, ok, sdot, c);
                }
                for (int m : belowDofs[j]) {
                    coriolisBelow(m, k, ok, sdot, c);
                }
                int[] above = aboveDofs[j];
                if (above.length == 0) {
                    continue;
                }
                // d = j for the dofs above: C_mk = S_mᵀ (Y_j Ṡ_k + ½ B_j S_k)
                compositeTimes(j, sdot, 0, fq);
                rateTimes(j, s, ok, t6a);
                for (int e = 0; e < 6; e++) {
                    fq[e] += 0.5 * t6a[e];
                }
                for (int m : above) {
                    int om = 6 * m;
                    double x = 0;
                    for (int e = 0; e < 6; e++) {
                        x += s[om + e] * fq[e];
                    }
                    c[m * nv + k] = x;
                }
            }
        }
    }

    private void coriolisBelow(int m, int k, int ok, double[] sdot, double[] c) {
        int om = 6 * m;
        double a = 0;
        double b = 0;
        for (int e = 0; e < 6; e++) {
            a += ys[om + e] * sdot[e];
            b += bts[om + e] * s[ok + e];
        }
        c[m * nv + k] = a + 0.5 * b;
    }

    private void moved(int m, int k, int ok, double[] dqd, double[] dvd) {
        int om = 6 * m;
        double[] y = ys;
        double[] b = bts;
        double sq = 0;
        double sv = 0;
        for (int c = 0; c < 6; c++) {
            sq += y[om + c] * alpha[c] + b[om + c] * w[c];
            sv += y[om + c] * u[c] + b[om + c] * s[ok + c];
        }
        dqd[m * nv + k] = -sq;
        dvd[m * nv + k] = sv;
    }

    private void above(int m, int k, double[] dqd, double[] dvd) {
        int om = 6 * m;
        double sq = 0;
        double sv = 0;
        for (int c = 0; c < 6; c++) {
            sq += s[om + c] * fq[c];
            sv += s[om + c] * fv[c];
        }
        dqd[m * nv + k] = sq;
        dvd[m * nv + k] = sv;
    }

    /** w, α and u of direction k (of body j). */
    private void direction(int j, int k) {
        int o = 6 * k;
        SpatialVectors.crossMotion(s, o, vp, o, w, 0);
        SpatialVectors.crossMotion(s, o, ap, o, alpha, 0);
        SpatialVectors.crossMotion(vp, o, w, 0, t6a, 0);
        for (int c = 0; c < 6; c++) {
            alpha[c] += t6a[c];
        }
        if (together[j]) {
            for (int c = 0; c < 6; c++) {
                t6b[c] = vc[o + c] + vp[o + c];
            }
            SpatialVectors.crossMotion(t6b, 0, s, o, u, 0);
        } else {
            for (int c = 0; c < 6; c++) {
                u[c] = -2 * w[c];
            }
        }
    }

    /** f = S_k ×* F_j - Y_j α - B_j w and g = Y_j u + B_j S_k for the dofs above direction k (of body j). */
    private void aboveForces(int j, int k) {
        int o = 6 * k;
        SpatialVectors.crossForce(s, o, force, 6 * j, fq, 0);
        compositeTimes(j, alpha, 0, t6a);
        for (int c = 0; c < 6; c++) {
            fq[c] -= t6a[c];
        }
        rateTimes(j, w, 0, t6a);
        for (int c = 0; c < 6; c++) {
            fq[c] -= t6a[c];
        }
        compositeTimes(j, u, 0, fv);
        rateTimes(j, s, o, t6a);
        for (int c = 0; c < 6; c++) {
            fv[c] += t6a[c];
        }
    }

    /**
     * The pass of one state, each tree in its root's coordinates: per dof S, V_p, A_p, V_c; per body v, a and its inertia, with the
     * subtree sums Y, Ẏ, P, F; per dof Y_b S and B_bᵀ S. With {@code vdot} null (the Coriolis matrix) velocities only:
     * A_p, a and F are left as they were.
     */
    private void pass(double[] v, double[] vdot) {
        boolean accelerations = vdot != null;
        double[] g = model.gravity;
        for (int i = 0; i < nb; i++) {
            int p = parent[i];
            SpatialTransform x = fromRoot[i];
            if (p < 0) {
                x.setIdentity();
            } else {
                x.setProduct(joints.xUp[i], fromRoot[p]);
            }
            int vi = vIndex[i];
            for (int d = 0; d < dofs[i]; d++) {
                x.applyInverseMotion(joints.s, 6 * (vi + d), s, 6 * (vi + d));
            }
            if (p < 0) {
                Arrays.fill(cv, 0.0);
                ca[0] = 0;
                ca[1] = 0;
                ca[2] = 0;
                // -g in the root's coordinates: E of X_i (world to the root body) applied to it
                double[] e = joints.xUp[i].E;
                ca[3] = -(e[0] * g[0] + e[1] * g[1] + e[2] * g[2]);
                ca[4] = -(e[3] * g[0] + e[4] * g[1] + e[5] * g[2]);
                ca[5] = -(e[6] * g[0] + e[7] * g[1] + e[8] * g[2]);
            } else {
                System.arraycopy(vel, 6 * p, cv, 0, 6);
                System.arraycopy(acc, 6 * p, ca, 0, 6);
            }
            if (together[i]) {
                for (int d = 0; d < dofs[i]; d++) {
                    int o = 6 * (vi + d);
                    System.arraycopy(cv, 0, vp, o, 6);
                    if (accelerations) {
                        System.arraycopy(ca, 0, ap, o, 6);
                    }
                }
                for (int d = 0; d < dofs[i]; d++) {
                    int o = 6 * (vi + d);
                    for (int c = 0; c < 6; c++) {
                        cv[c] += v[vi + d] * s[o + c];
                    }
                }
                for (int d = 0; d < dofs[i]; d++) {
                    int o = 6 * (vi + d);
                    System.arraycopy(cv, 0, vc, o, 6);
                    if (accelerations) {
                        // a += S q̈ + q̇ (V_c × S)
                        SpatialVectors.crossMotion(cv, 0, s, o, t6a, 0);
                        for (int c = 0; c < 6; c++) {
                            ca[c] += vdot[vi + d] * s[o + c] + v[vi + d] * t6a[c];
                        }
                    }
                }
            } else {
                for (int d = 0; d < dofs[i]; d++) {
                    int o = 6 * (vi + d);
                    System.arraycopy(cv, 0, vp, o, 6);
                    if (accelerations) {
                        System.arraycopy(ca, 0, ap, o, 6);
                        // Ṡ = V_p × S = -(S × V_p), taken before the dof moves
                        SpatialVectors.crossMotion(s, o, cv, 0, t6a, 0);
                        for (int c = 0; c < 6; c++) {
                            ca[c] += vdot[vi + d] * s[o + c] - v[vi + d] * t6a[c];
                        }
                    }
                    for (int c = 0; c < 6; c++) {
                        cv[c] += v[vi + d] * s[o + c];
                    }
                    System.arraycopy(cv, 0, vc, o, 6);
                }
            }
            System.arraycopy(cv, 0, vel, 6 * i, 6);
            rootInertia(i, x);
            int o = 6 * i;
            compositeTimes(i, vel, o, t6a);
            System.arraycopy(t6a, 0, momentum, o, 6);
            inertiaRate(i);
            if (accelerations) {
                System.arraycopy(ca, 0, acc, 6 * i, 6);
                compositeTimes(i, acc, o, t6b);
                SpatialVectors.crossForce(vel, o, momentum, o, t6a, 0);
                for (int c = 0; c < 6; c++) {
                    force[o + c] = t6b[c] + t6a[c];
                }
            }
        }
        for (int i = nb - 1; i >= 0; i--) {
            int p = parent[i];
            if (p < 0) {
                continue;
            }
            yMass[p] += yMass[i];
            for (int c = 0; c < 3; c++) {
                yH[3 * p + c] += yH[3 * i + c];
                ydH[3 * p + c] += ydH[3 * i + c];
            }
            for (int c = 0; c < 9; c++) {
                yI[9 * p + c] += yI[9 * i + c];
                ydI[9 * p + c] += ydI[9 * i + c];
            }
            for (int c = 0; c < 6; c++) {
                momentum[6 * p + c] += momentum[6 * i + c];
            }
            if (accelerations) {
                for (int c = 0; c < 6; c++) {
                    force[6 * p + c] += force[6 * i + c];
                }
            }
        }
        for (int i = 0; i < nb; i++) {
            for (int d = 0; d < dofs[i]; d++) {
                int o = 6 * (vIndex[i] + d);
                compositeTimes(i, s, o, t6a);
                System.arraycopy(t6a, 0, ys, o, 6);
                // B_bᵀ S = Ẏ_b S - S ×* P_b
                rateOnly(i, s, o, t6a);
                SpatialVectors.crossForce(s, o, momentum, 6 * i, t6b, 0);
                for (int c = 0; c < 6; c++) {
                    bts[o + c] = t6a[c] - t6b[c];
                }
            }
        }
    }

    /**
     * Body i's inertia about its root's origin in the root's coordinates, from X = (E, r) from the root to body i (E
     * root to body, r the body's origin in the root): h' = Eᵀ h, Ī' = Eᵀ Ī E about the body's origin, then moved to
     * the root's: h_r = h' + m r, Ī_r = Ī' + m ((r·r) 1 - r rᵀ) + 2 (r·h') 1 - h' rᵀ - r h'ᵀ.
     */
    private void rootInertia(int i, SpatialTransform x) {
        double[] e = x.E;
        double[] r = x.r;
        double m = model.mass[i];
        double[] hb = model.firstMoment;
        double[] ib = model.rotInertia;
        int h3 = 3 * i;
        int i9 = 9 * i;
        double[] h = t3;
        for (int a = 0; a < 3; a++) {
            h[a] = e[a] * hb[h3] + e[3 + a] * hb[h3 + 1] + e[6 + a] * hb[h3 + 2];
        }
        // Ī E, row by row
        for (int c = 0; c < 3; c++) {
            for (int b = 0; b < 3; b++) {
                t9[3 * c + b] = ib[i9 + 3 * c] * e[b] + ib[i9 + 3 * c + 1] * e[3 + b] + ib[i9 + 3 * c + 2] * e[6 + b];
            }
        }
        double rr = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
        double rh = r[0] * h[0] + r[1] * h[1] + r[2] * h[2];
        for (int a = 0; a < 3; a++) {
            for (int b = 0; b < 3; b++) {
                double sum = e[a] * t9[b] + e[3 + a] * t9[3 + b] + e[6 + a] * t9[6 + b];
                double shift = -m * r[a] * r[b] - h[a] * r[b] - r[a] * h[b];
                if (a == b) {
                    shift += m * rr + 2 * rh;
                }
                yI[i9 + 3 * a + b] = sum + shift;
            }
        }
        yMass[i] = m;
        for (int a = 0; a < 3; a++) {
            yH[h3 + a] = h[a] + m * r[a];
        }
    }

    /**
     * Ẏ_i = İ of body i's inertia (root coordinates) moving with v = [ω; u] (its mass rate is zero): ḣ = m u + ω × h,
     * d/dt Ī = [ω]× Ī - Ī [ω]× - h uᵀ - u hᵀ + 2 (u · h) 1, where Ī [ω]× = -([ω]× Ī)ᵀ.
     */
    private void inertiaRate(int i) {
        int o = 6 * i;
        double w0 = vel[o], w1 = vel[o + 1], w2 = vel[o + 2];
        double m = yMass[i];
        int h3 = 3 * i;
        int i9 = 9 * i;
        double h0 = yH[h3], h1 = yH[h3 + 1], h2 = yH[h3 + 2];
        double[] uv = t3;
        uv[0] = vel[o + 3];
        uv[1] = vel[o + 4];
        uv[2] = vel[o + 5];
        ydH[h3] = m * uv[0] + (w1 * h2 - w2 * h1);
        ydH[h3 + 1] = m * uv[1] + (w2 * h0 - w0 * h2);
        ydH[h3 + 2] = m * uv[2] + (w0 * h1 - w1 * h0);
        double uh2 = 2 * (uv[0] * h0 + uv[1] * h1 + uv[2] * h2);
        // t9 = [ω]× Ī, column c = ω × (Ī e_c)
        for (int c = 0; c < 3; c++) {
            double x0 = yI[i9 + c];
            double x1 = yI[i9 + 3 + c];
            double x2 = yI[i9 + 6 + c];
            t9[c] = w1 * x2 - w2 * x1;
            t9[3 + c] = w2 * x0 - w0 * x2;
            t9[6 + c] = w0 * x1 - w1 * x0;
        }
        double[] hv = t3b;
        hv[0] = h0;
        hv[1] = h1;
        hv[2] = h2;
        for (int r = 0; r < 3; r++) {
            for (int c = r; c < 3; c++) {
                double x = t9[3 * r + c] + t9[3 * c + r] - hv[r] * uv[c] - uv[r] * hv[c];
                if (r == c) {
                    x += uh2;
                }
                ydI[i9 + 3 * r + c] = x;
                ydI[i9 + 3 * c + r] = x;
            }
        }
    }

    /** out = Y_i x for body i's composite (compact) inertia. */
    private void compositeTimes(int i, double[] x, int xo, double[] out) {
        FlatModel.inertiaTimes(yMass, yH, yI, i, x, xo, out, 0);
    }

    /** out = Ẏ_i x: the compact inertia product with Ẏ's zero mass. */
    private void rateOnly(int i, double[] x, int xo, double[] out) {
        FlatModel.inertiaTimes(zeroMass, ydH, ydI, i, x, xo, out, 0);
    }

    /** out = B_i x = Ẏ_i x + x ×* P_i. */
    private void rateTimes(int i, double[] x, int xo, double[] out) {
        rateOnly(i, x, xo, out);
        SpatialVectors.crossForce(x, xo, momentum, 6 * i, t6b, 0);
        for (int c = 0; c < 6; c++) {
            out[c] += t6b[c];
        }
    }
}
