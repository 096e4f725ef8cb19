package org.symdyn.contract;

/**
 * The exact constrained forward dynamics of the model's own rows when every row is carried by one limb of a floating
 * base (a foot's contact rows, a loop closed inside a leg), by code generated for this model: the articulated-body
 * algorithm with each limb's rows eliminated inside the limb, so that neither H nor the m x m matrix G H⁻¹ Gᵀ is
 * formed. With T_i the block of Gᵀ at joint i's dofs and X_i, S_i, U_i = I^A_i S_i, D_i, û_i the articulated-body
 * quantities in the form whose bias terms are taken relative to the accelerations ā_i at v̇ = 0 (gravity as a base
 * acceleration, as the RNEA has it: û_i = τ_i - S_iᵀ p̂_i with p̂_i the articulated bias force at ā, and every a below
 * the acceleration relative to ā, δa_i = a_i - ā_i, so that no c_i term appears), leaf to root over a limb c with rows
 * R_c:
 * <pre>
 *   Ψ_i = T_i + S_iᵀ Φ_i,   K_c += Ψ_iᵀ D_i⁻¹ Ψ_i,   b_c += Ψ_iᵀ D_i⁻¹ û_i,   Φ_λ(i) += X_iᵀ (Φ_i - U_i D_i⁻¹ Ψ_i)
 * </pre>
 * so that the limb's rows accelerate as G_c v̇ = K_c λ_c + b_c + L_cᵀ a_B, a_B the base's acceleration (its q̈: the
 * floating joint's motion subspace is the identity) and L_c = X_cᵀ (Φ_c - U_c D_c⁻¹ Ψ_c) + T_B,c. G_c v̇ = γ_c gives
 * λ_c = K_c⁻¹ (γ_c - b_c - L_cᵀ a_B), and the base's equation becomes
 * <pre>
 *   (D_B + Σ_c L_c K_c⁻¹ L_cᵀ) a_B = û_B + Σ_c L_c K_c⁻¹ (γ_c - b_c)
 * </pre>
 * after which q̈_i = D_i⁻¹ (û_i + Ψ_i λ_c - U_iᵀ X_i a_λ(i)) root to leaf. The answer is that of the saddle-point system
 * H v̇ + C = τ + Gᵀ λ, G v̇ = γ to rounding, at O(n + Σ_c m_c³) cost.
 *
 * <p>Each K_c is factorised on its own, so a limb whose rows are dependent within the limb alone (a leg with its knee
 * straight, whose foot cannot move along the leg by the leg's joints) has a singular K_c even when the rows are
 * independent overall. The method does not branch on it; it returns the smallest pivot ratio of its factorisations
 * (every K_c's and the base's), and a caller solves another way below its tolerance (org.symdyn.solvers falls back to
 * the Schur-complement path, which also reports dependent rows). Like every method of the contract: caller-owned
 * outputs, no allocation, not thread-safe.
 */
public interface LimbConstrainedDynamics extends ConstraintFunctions {
    /**
     * v̇ (nv) and λ ({@link #constraintRows()}) at (q, v) under τ, every model row held: G v̇ = γ + b, γ as
     * {@link ConstraintFunctions#gamma} computes it.
     *
     * @param b added to γ ({@link #constraintRows()} entries): the Baumgarte terms -2α φ̇ - β² φ of stabilised rows,
     *          zeros for none
     *
     * @return the smallest pivot ratio: over the rows j of every K_c, the row's pivot were it eliminated last,
     *         1 / (K_c⁻¹)_jj (at most its LDLᵀ pivot d_j, and small whenever K_c is ill-conditioned, in whatever
     *         order its rows come), over row j's whole diagonal entry of G H⁻¹ Gᵀ, K_c,jj + L_c,jᵀ D_B⁻¹ L_c,j;
     *         over the pivots of the base's matrix A, d_j /
     *         A_jj (1 for orthogonal rows that move only their limb, L_c,j = 0; near 0 for nearly dependent rows and for
     *         a row that barely moves its limb but moves the base, whose K_c⁻¹ amplifies roundoff; 0 where a pivot is
     *         0/0, a straight leg's, or below 0 by rounding; NaN for a non-finite q; see also
     *         {@link #lastLimbRankRatio()}). It
     *         depends on q alone: a non-finite v, τ or b shows in v̇ and λ only, which a caller checks. v̇ and λ are
     *         meaningful only when it is well above 0
     */
    double limbConstrainedDynamics(double[] q, double[] v, double[] tau, double[] b, double[] vdot, double[] lambda);

    /**
     * The impulses of the same rows by the same elimination, for the system of {@code org.symdyn.solvers.ImpulseSolver}:
     * v⁺ (nv) and Λ ({@link #constraintRows()}) with H (v⁺ - v⁻) = -Gᵀ Λ and G v⁺ = b at q (the forward dynamics
     * above with no velocity, force or gravity, G Δv = b - G v⁻ for Δv = v⁺ - v⁻, and λ = -Λ).
     *
     * @param v the velocity before, v⁻ (nv)
     * @param b the rows' target velocities (m)
     * @return the smallest pivot ratio, as {@link #limbConstrainedDynamics} returns it (the same factorisations)
     */
    double limbImpulse(double[] q, double[] v, double[] b, double[] vPlus, double[] impulse);

    /**
     * The rank test of the last {@link #limbConstrainedDynamics} or {@link #limbImpulse} (they factorise the same K_c
     * at q): the smallest pivot d_j of every K_c over the largest row's whole diagonal entry of G H⁻¹ Gᵀ (NaN before
     * any call). The pivot ratios are invariant to scaling a row, so they read near 1 for a row that is roundoff
     * alone (a loop inside a limb along a direction its joints cannot move: its pivot is as small as its entry);
     * against the other rows' entries it is near 0. A caller compares this with its rank floor, as the Schur
     * complement's rank test compares each pivot with the largest diagonal entry of G H⁻¹ Gᵀ. Every generated class
     * implements it; the default, NaN, is for classes generated before it existed, whose answers a caller that checks
     * it then never takes.
     */
    default double lastLimbRankRatio() {
        return Double.NaN;
    }

    /**
     * min(pivots) / max(entries): {@link #lastLimbRankRatio()} of a class's arrays, taken as 0 where it is NaN or
     * negative (no entry positive and the pivots 0, a non-finite q, a pivot below 0 by rounding); 1 for no rows.
     */
    static double rankRatio(double[] pivots, double[] entries) {
        double smallest = Double.POSITIVE_INFINITY;
        double largest = 0;
        for (int j = 0; j < pivots.length; j++) {
            smallest = Math.min(smallest, pivots[j]);
            largest = Math.max(largest, entries[j]);
        }
        return pivots.length == 0 ? 1 : atLeastZero(smallest / largest);
    }

    /**
     * The smallest entry of {@code ratios}, each taken as 0 where it is NaN or negative (+∞ for none), without a
     * branch on the values. A helper found the ratio NaN at a straight leg (a pivot 0/0) and -1.4e13 a nanoradian
     * from it: a caller that falls back when the ratio is small must see them as small.
     */
    static double smallestRatio(double[] ratios) {
        double r = Double.POSITIVE_INFINITY;
        for (double x : ratios) {
            r = Math.min(r, atLeastZero(x));
        }
        return r;
    }

    /**
     * {@link #smallestRatio(double[])}, and NaN if q has an entry that is not finite (the ratio of
     * {@link #limbConstrainedDynamics} and {@link #limbImpulse} as their Javadoc states it), without a branch.
     */
    static double smallestRatio(double[] ratios, double[] q) {
        double zeroUnlessFinite = 0;
        for (double x : q) {
            zeroUnlessFinite += x * 0; // NaN for an infinite or NaN entry, 0 otherwise
        }
        return smallestRatio(ratios) + zeroUnlessFinite;
    }

    /** max(x, 0), and 0 for NaN, by bit operations (no branch that a state a warm-up did not see would deoptimise). */
    private static double atLeastZero(double x) {
        long bits = Double.doubleToRawLongBits(x);
        long nan = (0x7FF0000000000000L - (bits & 0x7FFFFFFFFFFFFFFFL)) >> 63; // all ones for a NaN
        return Math.max(Double.longBitsToDouble(bits & ~nan), 0.0);
    }
}
