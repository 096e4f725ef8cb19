package org.symdyn.generator.symbolic;

import java.util.ArrayList;
import java.util.List;
import org.matheclipse.core.expression.F;
import org.matheclipse.core.interfaces.IExpr;
import org.symdyn.generator.symbolic.SymbolicInput.Kind;

/**
 * The saddle-point system [H Gᵀ; G 0] [x; y] = [a; b] of the model's own constraint rows, factorised and solved over
 * symbols that stand for the run-time entries of H, G, a and b (the twin of the runtime's
 * {@code SchurComplementMethod}, with the model's structure folded in; equations in
 * {@link org.symdyn.contract.ConstrainedSystemFactorization}). An entry of H or G that the symbolic derivation
 * found identically zero or constant is used as that number instead of being read, so the factorisation skips
 * what the model's tree and its rows' supports make zero (a contact row on one leg never meets another leg's dofs).
 *
 * <p>Two parts share a layout: {@link #factor} (H = Lᵀ D L, V = D⁻¹ L⁻ᵀ Gᵀ, K = G H⁻¹ Gᵀ = U E Uᵀ) gives the
 * values to keep in the instance's {@code factors} array and the pivots; {@link #solve} reads them back as
 * {@link Kind#FACTOR} inputs (a kept value that is a number is used as that number and not stored).
 */
public final class SymbolicConstrainedSystem {
    private final ExpressionGraph g;
    private final SymbolicRecursions dynamics;
    private final int[] lambda;
    private final int nv;

    SymbolicConstrainedSystem(ExpressionGraph g, SymbolicRecursions dynamics, int[] dofParents) {
        this.g = g;
        this.dynamics = dynamics;
        this.lambda = dofParents.clone();
        this.nv = dofParents.length;
    }

    /**
     * The factorisation: the values to store, the pivots, and the solve's view of the stored values.
     *
     * @param stored the values the factorise method writes to {@code factors[0..)}, in order
     * @param pivots D's entries (nv), E's (m), K's diagonal (m): what
     *               {@link org.symdyn.contract.ConstrainedSystemFactorization#pivotRatio} reads
     * @param l      the unit L of H = Lᵀ D L as the solve reads it (entries (i, j), j a λ-ancestor of i)
     * @param invD   D⁻¹ as the solve reads it
     * @param vCols  V = D⁻¹ L⁻ᵀ Gᵀ by column (one per row of G) as the solve reads it
     * @param u      the unit U of K = U E Uᵀ (entries (i, j), j &lt; i) as the solve reads it
     * @param invE   E⁻¹ as the solve reads it
     */
    public record Factorization(List<IExpr> stored, IExpr[] pivots, IExpr[][] l, IExpr[] invD, IExpr[][] vCols,
            IExpr[][] u, IExpr[] invE) {
    }

    /**
     * Factorises the system whose H and G have the structure of {@code hModel} (nv x nv) and {@code gModel}
     * (m x nv), the model's symbolic H and G: each entry that is not a number becomes a run-time input
     * ({@link Kind#MASS_MATRIX}, lower triangle; {@link Kind#CONSTRAINT_JACOBIAN}).
     *
     * @return null if a pivot is identically zero (the system singular in every state: a dof without inertia, a row
     *         that is zero for every q), which only the runtime's rank-revealing path can report
     */
    public Factorization factor(IExpr[][] hModel, IExpr[][] gModel) {
        try {
            return factorOrThrow(hModel, gModel);
        } catch (ArithmeticException symbolicDivisionByZero) {
            // The one ArithmeticException of the graph: a pivot of H's factorisation (divided inside
            // SymbolicRecursions.factor) that folded to zero. K's pivots are tested before dividing.
            return null;
        }
    }

    private Factorization factorOrThrow(IExpr[][] hModel, IExpr[][] gModel) {
        int m = gModel.length;
        List<IExpr> stored = new ArrayList<>();
        IExpr[][] hIn = new IExpr[nv][nv];
        for (int i = 0; i < nv; i++) {
            for (int j = 0; j < nv; j++) {
                int r = Math.max(i, j);
                int c = Math.min(i, j);
                hIn[i][j] = runtimeEntry(hModel[r][c], Kind.MASS_MATRIX, r * nv + c);
            }
        }
        IExpr[][] hf = dynamics.factor(hIn);
        IExpr[][] l = new IExpr[nv][nv];
        IExpr[] invD = new IExpr[nv];
        IExpr[] pivots = new IExpr[nv + 2 * m];
        for (int i = 0; i < nv; i++) {
            for (int j = lambda[i]; j >= 0; j = lambda[j]) {
                l[i][j] = keep(hf[i][j], stored);
            }
            pivots[i] = hf[i][i];
            invD[i] = keep(g.div(F.C1, hf[i][i]), stored);
        }
        // W = L⁻ᵀ Gᵀ column by column (zeros of G's rows stay zero along branches the row does not touch), V = D⁻¹ W.
        IExpr[][] w = new IExpr[m][];
        IExpr[][] vCols = new IExpr[m][nv];
        IExpr[][] vKeep = new IExpr[m][nv];
        for (int r = 0; r < m; r++) {
            w[r] = new IExpr[nv];
            for (int j = 0; j < nv; j++) {
                w[r][j] = runtimeEntry(gModel[r][j], Kind.CONSTRAINT_JACOBIAN, r * nv + j);
            }
            dynamics.substituteLt(hf, w[r]);
            for (int j = 0; j < nv; j++) {
                vCols[r][j] = g.mul(w[r][j], g.div(F.C1, hf[j][j]));
                vKeep[r][j] = keep(vCols[r][j], stored);
            }
        }
        // K = Wᵀ V (lower triangle), then K = U E Uᵀ, left-looking.
        IExpr[][] k = new IExpr[m][m];
        for (int r = 0; r < m; r++) {
            for (int s = 0; s <= r; s++) {
                List<IExpr> terms = new ArrayList<>();
                for (int j = 0; j < nv; j++) {
                    terms.add(g.mul(w[r][j], vCols[s][j]));
                }
                k[r][s] = sum(terms);
            }
            pivots[nv + m + r] = k[r][r];
        }
        IExpr[][] u = new IExpr[m][m];
        IExpr[] e = new IExpr[m];
        IExpr[] invE = new IExpr[m];
        IExpr[] ue = new IExpr[m];
        for (int j = 0; j < m; j++) {
            List<IExpr> terms = new ArrayList<>();
            for (int p = 0; p < j; p++) {
                ue[p] = g.mul(u[j][p], e[p]);
                terms.add(g.mul(u[j][p], ue[p]));
            }
            // Left to right (g.sum), not pairwise: term p waits for pivot p, so the newest is added last, one
            // addition after it is ready.
            IExpr d = g.sub(k[j][j], g.sum(terms.toArray(new IExpr[0])));
            if (d.isZero()) {
                return null;
            }
            e[j] = d;
            pivots[nv + j] = d;
            IExpr inv = g.div(F.C1, d);
            for (int i = j + 1; i < m; i++) {
                terms.clear();
                for (int p = 0; p < j; p++) {
                    terms.add(g.mul(u[i][p], ue[p]));
                }
                u[i][j] = g.mul(g.sub(k[i][j], g.sum(terms.toArray(new IExpr[0]))), inv);
            }
            invE[j] = inv;
        }
        IExpr[][] uKeep = new IExpr[m][m];
        IExpr[] invEKeep = new IExpr[m];
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < i; j++) {
                uKeep[i][j] = keep(u[i][j], stored);
            }
            invEKeep[i] = keep(invE[i], stored);
        }
        return new Factorization(stored, pivots, l, invD, vKeep, uKeep, invEKeep);
    }

    /**
     * The solve with the factors of {@code f}: x (nv) and y (m) from a and b ({@link Kind#SADDLE_A},
     * {@link Kind#SADDLE_B}); z = L⁻ᵀ a, K y = Vᵀ z - b, x = L⁻¹ (D⁻¹ z - V y).
     *
     * @return x, then y
     */
    public IExpr[][] solve(Factorization f) {
        int m = f.vCols().length;
        IExpr[] z = g.inputs(Kind.SADDLE_A, nv);
        dynamics.substituteLt(f.l(), z);
        IExpr[] y = new IExpr[m];
        List<IExpr> terms = new ArrayList<>();
        for (int r = 0; r < m; r++) {
            terms.clear();
            for (int j = 0; j < nv; j++) {
                terms.add(g.mul(f.vCols()[r][j], z[j]));
            }
            y[r] = g.sub(sum(terms), g.input(Kind.SADDLE_B, r));
        }
        IExpr[][] u = f.u();
        for (int i = 0; i < m; i++) {
            terms.clear();
            for (int p = 0; p < i; p++) {
                terms.add(g.mul(u[i][p], y[p]));
            }
            y[i] = g.sub(y[i], sum(terms));
        }
        for (int i = 0; i < m; i++) {
            y[i] = g.mul(y[i], f.invE()[i]);
        }
        for (int i = m - 1; i >= 0; i--) {
            terms.clear();
            for (int p = i + 1; p < m; p++) {
                terms.add(g.mul(u[p][i], y[p]));
            }
            y[i] = g.sub(y[i], sum(terms));
        }
        IExpr[] x = new IExpr[nv];
        for (int j = 0; j < nv; j++) {
            terms.clear();
            for (int r = 0; r < m; r++) {
                terms.add(g.mul(f.vCols()[r][j], y[r]));
            }
            x[j] = g.sub(g.mul(z[j], f.invD()[j]), sum(terms));
        }
        dynamics.substituteL(f.l(), x);
        return new IExpr[][] {x, y};
    }

    /**
     * Σ terms, added pairwise (a balanced tree, zeros skipped): the dependency chain of a sum of n products is
     * log₂ n additions deep instead of n, for the sums whose terms are ready together (K's entries, the solve's).
     */
    private IExpr sum(List<IExpr> terms) {
        List<IExpr> level = new ArrayList<>();
        for (IExpr t : terms) {
            if (!t.isZero()) {
                level.add(t);
            }
        }
        if (level.isEmpty()) {
            return F.C0;
        }
        while (level.size() > 1) {
            List<IExpr> next = new ArrayList<>();
            for (int i = 0; i + 1 < level.size(); i += 2) {
                next.add(g.add(level.get(i), level.get(i + 1)));
            }
            if (level.size() % 2 == 1) {
                next.add(level.get(level.size() - 1));
            }
            level = next;
        }
        return level.get(0);
    }


    /** The model's value when it is a number (zero included), else the run-time entry. */
    private IExpr runtimeEntry(IExpr model, Kind kind, int index) {
        return model.isNumber() ? model : g.input(kind, index);
    }

    /** A value the solve needs: itself when it is a number, else appended to {@code stored} and read back. */
    private IExpr keep(IExpr value, List<IExpr> stored) {
        if (value.isNumber()) {
            return value;
        }
        stored.add(value);
        return g.input(Kind.FACTOR, stored.size() - 1);
    }
}
