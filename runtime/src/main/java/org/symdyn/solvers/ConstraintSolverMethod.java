package org.symdyn.solvers;

/**
 * How the saddle-point system [H Gᵀ; G 0][x; y] = [a; b] of constrained dynamics and impulses is solved. All of them
 * give the same x and y (RBDL's null-space multipliers are wrong with two or more rows; these are not), each with
 * residuals of the two equations at rounding; "the same" below means within the system's conditioning, about
 * cond(H) times the machine epsilon relative, not to 1e-12 on every model (measured against an exact rational solve:
 * cassie's loops, cond(H) ≈ 9e6, null space 5e-10 off, the others 1e-15; a 40-link chain with a tip contact, every
 * method 1e-11 to 8e-11; a quadruped whose contact normals are nearly coplanar, λ spread 1.7e-10).
 */
public enum ConstraintSolverMethod {
    /**
     * The whole KKT system at once. When H is positive definite (always for dynamics and impulses) and
     * {@link org.symdyn.constraints.SolverSettings#exploitStructure()} is on (the default), it is solved through the
     * Schur complement G H⁻¹ Gᵀ with H's tree-sparse LᵀL (the same equations, so the same answer to rounding; see
     * {@link ConstrainedSystemSolver}); on the rank-revealing path (the rank check on, the default) it solves in the
     * null space of that check's QR of Gᵀ, which stays accurate for nearly dependent rows; with the rank check off
     * the (nv + m) KKT matrix is factorised (LU or QR, see {@link org.symdyn.constraints.SolverSettings}). In {@link ConstrainedDynamics} and
     * {@link ImpulseSolver} on the generic interpreter of a deep tree (a long chain: mean squared dof depth at least
     * {@link RecursiveConstrainedDynamics#DEEP_TREE_MEAN_SQUARED_DEPTH}) it runs {@link #RECURSIVE}, which is faster
     * there and gives the same answer. Bound alone to a generated class whose rows are all carried by limbs of a
     * floating base (feet on the ground), it takes that class's limb-eliminated answer
     * ({@link org.symdyn.contract.LimbConstrainedDynamics}: no H, no Schur complement; 2.1-2.9 times the unconstrained
     * forward dynamics on the sample quadruped and solo12, against 4.1-5.3 through the Schur complement) wherever it is
     * well conditioned ({@link ConstrainedDynamics#LIMB_PIVOT_RATIO}), Baumgarte terms included, the saddle-point solve
     * elsewhere (a straight leg); the data's H, C, G and γ workspaces are then not those of the state either. Given
     * H and G (any binding, rows added in code among them) on a tree with a trunk and limbs, with each row on one limb
     * and no limb carrying more rows than it has dofs, the fast path solves limb by limb on H and G (LimbElimination:
     * no m x m Schur complement, no LᵀL of the whole H) where that is well conditioned by its own measure
     * ({@link ConstrainedSystemSolver#lastUsedLimbElimination()}).
     */
    DIRECT,
    /**
     * Range space: H = Lᵀ L exploiting the tree's parent array λ(i) (Featherstone's LTL), then the Schur complement
     * G H⁻¹ Gᵀ y = G H⁻¹ a - b for the multipliers, then x = H⁻¹ (a - Gᵀ y). Fast for few constraints. Where that
     * factorisation fails though the rows pass the rank check's QR (rows nearly dependent, or H positive definite
     * only on their null space), it solves in the null space of that QR instead, as the direct method does
     * ({@link ConstrainedSystemSolver#lastFellBack()}).
     */
    RANGE_SPACE_SPARSE,
    /**
     * Null space: Gᵀ P = [Y Z] [R; 0] (column-pivoted QR); x = Y p_y + Z p_z with Rᵀ p_y = Pᵀ b and
     * (Zᵀ H Z) p_z = Zᵀ (a - H Y p_y); then R Pᵀ y = Yᵀ (a - H x). Fast for many constraints.
     */
    NULL_SPACE,
    /**
     * Recursive, without H: the articulated-body algorithm gives v̇₀ = H⁻¹ (τ - C) and the articulated inertias, G's
     * rows travel leaf to root through them to give K = G H⁻¹ Gᵀ ({@link org.symdyn.dynamics.ArticulatedDelassus}),
     * K λ = γ - G v̇₀ is solved, and one more O(n) pass gives v̇ = v̇₀ + H⁻¹ Gᵀ λ ({@link RecursiveConstrainedDynamics};
     * impulses likewise). Exact, the same answer as the others to rounding, dependent rows reported the same way.
     * It runs on the generic interpreter, or on a generated class with the part {@code recursive_constraints}
     * ({@link org.symdyn.contract.ArticulatedConstraintSystem}) bound alone to exactly its model's rows; for any other
     * binding, and for a saddle-point solve given H ({@link ConstrainedSystemSolver}, assembly), it is the direct
     * method. It forms neither H nor C: after it, the data's H, C, G and γ workspaces are not those of the state.
     */
    RECURSIVE;

    /**
     * The method that answers where no recursion does (a saddle-point solve given H, a binding without recursion, rows
     * the recursive method handed over): {@link #DIRECT} for {@link #RECURSIVE}, every other method itself.
     */
    ConstraintSolverMethod withoutRecursion() {
        return this == RECURSIVE ? DIRECT : this;
    }
}
