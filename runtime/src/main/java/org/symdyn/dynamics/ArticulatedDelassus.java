package org.symdyn.dynamics;

import java.util.Arrays;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.spatial.SpatialTransform;
import org.symdyn.spatial.SpatialVectors;

/**
 * The constraint-space inverse inertia K = G H⁻¹ Gᵀ (the Delassus matrix; Λ⁻¹ of operational-space dynamics) of any
 * m x nv constraint Jacobian G, computed recursively from the articulated-body inertias of an
 * {@link ArticulatedBodyAlgorithm} without forming H or any column of H⁻¹: G's rows enter as generalised forces
 * and travel leaf to root as the ABA's bias forces do, m of them side by side (the articulated-body form of the
 * constrained system: Featherstone, <i>Rigid Body Dynamics Algorithms</i> §8, and the constrained articulated-body
 * algorithms of Popov-Vereshchagin and of Sathya et al., which propagate the constraint directions through the tree
 * the same way).
 *
 * <p><b>Equations.</b> With the ABA's X_i, S_i, U_i = I^A_i S_i and D_i (armature included) at the last factored
 * configuration, T_i the n_i x m block of Gᵀ at joint i's dofs, bodies leaf to root:
 * <pre>
 *   Ψ_i = T_i + S_iᵀ Φ_i                          (n_i x m; Φ_i starts at zero)
 *   Φ_λ(i) += X_iᵀ (Φ_i - U_i D_i⁻¹ Ψ_i)           (6 x m, force coordinates of λ(i))
 *   K = Σ_i Ψ_iᵀ D_i⁻¹ Ψ_i
 * </pre>
 * Why: forces Gᵀ λ alone (zero velocity and gravity) give the ABA's bias p^A_i = -Φ_i λ and u_i = Ψ_i λ, so
 * q̈_i = D_i⁻¹ (Ψ_i λ - U_iᵀ X_i a_λ(i)); by induction from the leaves, the rows' accelerations summed over the
 * subtree of i are (Φ_i - U_i D_i⁻¹ Ψ_i)ᵀ X_i a_λ(i) + (Σ_subtree Ψ_jᵀ D_j⁻¹ Ψ_j) λ, and at the fixed root
 * (a = 0) that is G H⁻¹ Gᵀ λ. K is symmetric by construction (each term is), positive semi-definite, and exactly
 * the matrix the Schur-complement methods form from H's factor, to rounding.
 *
 * <p><b>Sparsity.</b> A row is carried through body i only when G has a nonzero entry at a dof of i's subtree (a
 * foot contact reaches its leg and the base, not the other legs); the row lists are rebuilt from G's zero pattern
 * on every call, so a row whose support changes with q (a contact row at a moving point) is always right. Cost:
 * per body 6 x (its rows) for the transform and O(n_i x rows) for Ψ, plus Σ_i n_i (rows at i)² for K; with a
 * floating base the root's 6 dofs meet every row, so K's last term is 6 m².
 *
 * <p>Allocation happens in the constructor only. Not thread-safe; bound to one ABA instance.
 */
public final class ArticulatedDelassus {
    private final ArticulatedBodyAlgorithm aba;
    private final int nb;
    private final int nv;
    private final int m;
    private final int[] parent;
    private final int[] vIndex;
    private final int[] dofs;
    /** Φ per body: 6 x m, column k at (i m + k) 6. */
    private final double[] phi;
    /** Ψ and D⁻¹Ψ of the current body, n_i x (its rows), row-major by dof then row position. */
    private final double[] psi;
    private final double[] dPsi;
    /** Whether row k reaches body i (index i m + k), and the compact lists. */
    private final boolean[] reaches;
    private final int[] rows;
    private final int[] rowCount;
    private final double[] t6 = new double[6];

    /** The recursion for m rows on the ABA's model. */
    public ArticulatedDelassus(ArticulatedBodyAlgorithm aba, int m) {
        this.aba = aba;
        this.nb = aba.bodyCount();
        this.nv = aba.nv();
        this.m = m;
        this.parent = aba.parents();
        this.vIndex = aba.velocityIndices();
        this.dofs = aba.jointDofs();
        int maxDofs = 1;
        for (int d : dofs) {
            maxDofs = Math.max(maxDofs, d);
        }
        phi = new double[Math.max(1, 6 * m * nb)];
        psi = new double[Math.max(1, maxDofs * m)];
        dPsi = new double[Math.max(1, maxDofs * m)];
        reaches = new boolean[Math.max(1, m * nb)];
        rows = new int[Math.max(1, m * nb)];
        rowCount = new int[nb];
    }

    /** The number of rows m. */
    public int rowCount() {
        return m;
    }

    /**
     * K = G H⁻¹ Gᵀ (all m x m entries written) at the configuration the ABA last factored
     * ({@link ArticulatedBodyAlgorithm#forwardDynamics} or {@link ArticulatedBodyAlgorithm#factor}).
     *
     * @param g m x nv
     * @param k receives m x m
     * @throws IllegalStateException    if the ABA has not factored a configuration
     * @throws IllegalArgumentException if g or k has the wrong shape
     */
    public void compute(DMatrixRMaj g, DMatrixRMaj k) {
        aba.checkFactoredForResponse();
        if (g.numRows != m || g.numCols != nv) {
            throw new IllegalArgumentException("G must be " + m + " x " + nv + ", not " + g.numRows + " x "
                    + g.numCols);
        }
        if (k.numRows != m || k.numCols != m) {
            throw new IllegalArgumentException("K must be " + m + " x " + m + ", not " + k.numRows + " x "
                    + k.numCols);
        }
        double[] gd = g.data;
        double[] kd = k.data;
        Arrays.fill(kd, 0, m * m, 0.0);
        supports(gd);
        double[] uBlock = aba.jointForceColumns();
        double[] dInv = aba.inverseJointInertias();
        int[] dOffset = aba.inverseJointInertiaOffsets();
        double[] s = aba.motionSubspaces();
        for (int i = nb - 1; i >= 0; i--) {
            int count = rowCount[i];
            if (count == 0) {
                continue;
            }
            int list = i * m;
            int vi = vIndex[i];
            int n = dofs[i];
            // Ψ = T + Sᵀ Φ
            for (int d = 0; d < n; d++) {
                int so = 6 * (vi + d);
                for (int r = 0; r < count; r++) {
                    int row = rows[list + r];
                    psi[d * count + r] = gd[row * nv + vi + d]
                            + SpatialVectors.dot(s, so, phi, 6 * (list + row));
                }
            }
            // D⁻¹ Ψ
            int dOff = dOffset[i];
            for (int a = 0; a < n; a++) {
                for (int r = 0; r < count; r++) {
                    double x = 0;
                    for (int b = 0; b < n; b++) {
                        x += dInv[dOff + a * n + b] * psi[b * count + r];
                    }
                    dPsi[a * count + r] = x;
                }
            }
            // K += Ψᵀ D⁻¹ Ψ (upper triangle in list order; mirrored at the end)
            for (int r = 0; r < count; r++) {
                int rowR = rows[list + r];
                for (int c = r; c < count; c++) {
                    double x = 0;
                    for (int a = 0; a < n; a++) {
                        x += psi[a * count + r] * dPsi[a * count + c];
                    }
                    int rowC = rows[list + c];
                    if (rowR <= rowC) {
                        kd[rowR * m + rowC] += x;
                    } else {
                        kd[rowC * m + rowR] += x;
                    }
                }
            }
            int p = parent[i];
            if (p < 0) {
                continue;
            }
            // Φ_λ(i) += X_iᵀ (Φ_i - U_i D_i⁻¹ Ψ_i)
            SpatialTransform x = aba.parentTransform(i);
            for (int r = 0; r < count; r++) {
                int row = rows[list + r];
                int po = 6 * (list + row);
                for (int e = 0; e < 6; e++) {
                    t6[e] = phi[po + e];
                }
                for (int a = 0; a < n; a++) {
                    double w = dPsi[a * count + r];
                    int uo = 6 * (vi + a);
                    for (int e = 0; e < 6; e++) {
                        t6[e] -= uBlock[uo + e] * w;
                    }
                }
                x.addTransposeForce(t6, 0, phi, 6 * (p * m + row));
            }
        }
        for (int r = 0; r < m; r++) {
            for (int c = 0; c < r; c++) {
                kd[r * m + c] = kd[c * m + r];
            }
        }
    }

    /**
     * The rows reaching each body (a nonzero of G at a dof of its subtree), as compact increasing lists, and Φ
     * zeroed where it will be accumulated.
     */
    private void supports(double[] gd) {
        Arrays.fill(reaches, false);
        for (int i = 0; i < nb; i++) {
            int vi = vIndex[i];
            int n = dofs[i];
            for (int row = 0; row < m; row++) {
                int o = row * nv + vi;
                for (int d = 0; d < n; d++) {
                    if (gd[o + d] != 0) {
                        reaches[i * m + row] = true;
                        break;
                    }
                }
            }
        }
        for (int i = nb - 1; i >= 0; i--) {
            int p = parent[i];
            int count = 0;
            for (int row = 0; row < m; row++) {
                if (reaches[i * m + row]) {
                    rows[i * m + count++] = row;
                    Arrays.fill(phi, 6 * (i * m + row), 6 * (i * m + row) + 6, 0.0);
                    if (p >= 0) {
                        reaches[p * m + row] = true;
                    }
                }
            }
            rowCount[i] = count;
        }
    }
}
