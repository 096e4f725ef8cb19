package org.symdyn.contact;

import java.util.Objects;

/**
 * Solves the acceleration-level problem of an {@link AccelerationProblemData} (the seed's
 * {@code ConstraintAccelProblemData}) as a linear complementarity problem by {@link Lemke}'s method, and reports
 * Painlevé's cases instead of guessing.
 *
 * <h2>The LCP</h2>
 * With v̇ = H⁻¹ (τ̂ + R̃ᵀ z + Gᵀ f_G), R̃ = [N − μQ; F; −F; L] the force rows and R = [N; F; −F; L] the constraint rows
 * (see {@link FrictionLcp}), after eliminating the bilateral rows through their Schur complement G H⁻¹ Gᵀ:
 * <pre>
 *        ⎡ f_N ⎤         ⎡ R H⁻¹ R̃ᵀ (reduced)   E ⎤        ⎡ R H⁻¹ τ̂ + k (reduced) ⎤
 *   z =  ⎢ f_F±⎥,   M =  ⎢                        ⎥,  q =  ⎢                         ⎥,   0 ≤ M z + q ⊥ z ≥ 0
 *        ⎢ f_L ⎥         ⎣ [μ  −Eᵀ  0]          0 ⎦        ⎣            0            ⎦
 *        ⎣ λ   ⎦
 * </pre>
 * E couples each friction row to its contact's λ (a column of ones over the contact's 2r rows). The 2r edge
 * directions ±d of a non-sliding contact are the seed's F negated by the solver.
 *
 * <h2>Painlevé</h2>
 * Without sliding contacts the matrix is the Anitescu-Potra friction matrix (copositive; Lemke's method processes
 * it, Stewart and Trinkle 1996, Anitescu and Potra 1997); should Lemke still end on a secondary ray, no solution was
 * found and the answer is {@link AccelerationSolution.Status#INCONSISTENT}, not a guess. With sliding contacts the
 * normal block
 * M_s = N_s H⁻¹ (N_s − μ Q_s)ᵀ (after the bilateral reduction) may fail to be a P-matrix, and then, for some
 * states, the problem has no solution (Lemke ends on a secondary ray: {@link AccelerationSolution.Status#INCONSISTENT})
 * or several ({@link AccelerationSolution.Status#NON_UNIQUE}). The test: for at most 12 sliding contacts every
 * principal minor of M_s / max|diag M_s| (2^ns − 1 determinants by LU with partial pivoting): a minor below
 * −{@value #MINOR_TOLERANCE} is Painlevé's case; all above it a P-matrix; none below and some within it redundant
 * contacts ({@link AccelerationSolution.Uniqueness#DEGENERATE_P0}, solved). For more sliding contacts the sufficient
 * test "symmetric part of M_s positive definite" (then M_s is a P-matrix); failing it the answer is
 * {@link AccelerationSolution.Status#NON_UNIQUE} with {@link AccelerationSolution.Uniqueness#UNKNOWN}.
 *
 * <p>Allocation-free after construction (changing the data's spanning directions reallocates at the next solve);
 * not thread-safe.
 */
public final class AccelerationProblemSolver {
    /** Principal minors (normalised) within this of zero are zero. */
    public static final double MINOR_TOLERANCE = 1e-9;
    /** The most sliding contacts whose principal minors are enumerated. */
    public static final int MINOR_LIMIT = 12;

    private final AccelerationProblemData data;
    private final int nv;
    private FrictionLcp lcp;
    private AccelerationSolution solution;
    private int frictionCapacity = -1;
    private final double[] sub = new double[MINOR_LIMIT * MINOR_LIMIT];
    private double[] slidingBlock;
    private final int[] members = new int[MINOR_LIMIT];
    private double bilateralTolerance = 1e-8;

    public AccelerationProblemSolver(AccelerationProblemData data) {
        this.data = Objects.requireNonNull(data, "data");
        this.nv = data.nv();
        allocate();
    }

    private void allocate() {
        int pc = data.contactCapacity();
        int fr = data.frictionRowCapacity();
        int rows = pc + 2 * fr + data.limitRowCapacity() + data.bilateralCapacity();
        lcp = new FrictionLcp(nv, rows, pc, data.solveInertia());
        solution = new AccelerationSolution(nv, pc, fr, data.limitRowCapacity(), data.bilateralCapacity());
        slidingBlock = new double[Math.max(1, pc * pc)];
        frictionCapacity = fr;
    }

    /** The underlying Lemke solver (for its settings: pivot limit, tolerance). */
    public Lemke lemke() {
        return lcp.lemke;
    }

    /** The largest |G v̇ + kG| accepted (default 1e-8, row units); beyond it the bilateral rows are inconsistent. */
    public void setBilateralTolerance(double tolerance) {
        if (!(tolerance > 0)) {
            throw new IllegalArgumentException("bilateral tolerance " + tolerance + " must be > 0");
        }
        bilateralTolerance = tolerance;
    }

    /** Solves, then throws {@link PainleveException} unless {@link AccelerationSolution.Status#SOLVED}. */
    public AccelerationSolution solveOrThrow() {
        AccelerationSolution s = solve();
        if (!s.solved()) {
            throw new PainleveException(s);
        }
        return s;
    }

    /**
     * Solves the problem of the data's last {@link AccelerationProblemData#update}.
     *
     * @return the solver-owned solution, reused by the next call
     */
    public AccelerationSolution solve() {
        if (data.frictionRowCapacity() != frictionCapacity) {
            Lemke old = lcp.lemke;
            allocate();
            lcp.lemke.setMaximumIterations(old.maximumIterations());
        }
        int nc = data.contactCount();
        int nnr = data.frictionRowCount();
        int nu = data.limitCount();
        int nb = data.bilateralCount();
        int nd = 2 * nnr;
        lcp.setSizes(nc, nd, nu, nb);
        double[] N = data.N();
        double[] Q = data.Q();
        double[] F = data.F();
        double[] L = data.L();
        double[] G = data.G();
        double[] kN = data.kN();
        double[] kF = data.kF();
        double[] kL = data.kL();
        double[] kG = data.kG();
        double[] rowV = lcp.rowV;
        double[] rowF = lcp.rowF;
        for (int c = 0; c < nc; c++) {
            int o = c * nv;
            double mu = data.mu(c);
            boolean slides = data.isSliding(c);
            for (int j = 0; j < nv; j++) {
                rowV[o + j] = N[o + j];
                rowF[o + j] = slides ? N[o + j] - mu * Q[o + j] : N[o + j];
            }
            lcp.offset[c] = kN[c];
            lcp.mu[c] = mu;
            int r = data.spanningDirections(c);
            lcp.frictionCount[c] = 2 * r;
            lcp.frictionStart[c] = r > 0 ? nc + 2 * data.frictionStart(c) : 0;
            if (r > 0) {
                int first = data.frictionStart(c);
                for (int d = 0; d < r; d++) {
                    int plus = nc + 2 * first + d;
                    int minus = plus + r;
                    int fo = (first + d) * nv;
                    for (int j = 0; j < nv; j++) {
                        double x = F[fo + j];
                        rowV[plus * nv + j] = x;
                        rowF[plus * nv + j] = x;
                        rowV[minus * nv + j] = -x;
                        rowF[minus * nv + j] = -x;
                    }
                    lcp.offset[plus] = kF[first + d];
                    lcp.offset[minus] = -kF[first + d];
                }
            }
        }
        int lo = nc + nd;
        for (int i = 0; i < nu; i++) {
            System.arraycopy(L, i * nv, rowV, (lo + i) * nv, nv);
            System.arraycopy(L, i * nv, rowF, (lo + i) * nv, nv);
            lcp.offset[lo + i] = kL[i];
        }
        int go = lo + nu;
        for (int i = 0; i < nb; i++) {
            System.arraycopy(G, i * nv, rowV, (go + i) * nv, nv);
            System.arraycopy(G, i * nv, rowF, (go + i) * nv, nv);
            lcp.offset[go + i] = kG[i];
        }
        data.solveInertia().solve(data.tau(), lcp.free);

        AccelerationSolution out = solution;
        out.nv = nv;
        out.nc = nc;
        out.nnr = nnr;
        out.nu = nu;
        out.nb = nb;
        Lemke.Status status = lcp.solve();
        out.lemkeStatus = status;
        out.iterations = lcp.lemke.iterations();
        out.lcpSize = lcp.lcpSize;
        out.residual = lcp.lemke.residual();
        out.smallestMinor = Double.NaN;
        int ns = data.slidingCount();
        out.uniqueness = ns == 0 ? AccelerationSolution.Uniqueness.NO_SLIDING_CONTACTS : uniqueness(ns);

        if (status == Lemke.Status.RAY) {
            out.status = AccelerationSolution.Status.INCONSISTENT;
            out.message = ns > 0
                    ? "Painlevé: no solution found, Lemke ended on a secondary ray; "
                            + "sliding contacts " + slidingNames(ns) + " (normal matrix " + out.uniqueness + ")"
                    : "no solution found, Lemke ended on a secondary ray; contacts "
                            + allNames(nc);
            out.fillNaN();
            return out;
        }
        if (status != Lemke.Status.SOLVED) {
            out.status = AccelerationSolution.Status.FAILED;
            out.message = "Lemke: " + status + " after " + out.iterations + " pivots on an LCP of size " + out.lcpSize
                    + " (contacts " + allNames(nc) + ")";
            out.fillNaN();
            return out;
        }
        if (out.uniqueness == AccelerationSolution.Uniqueness.NOT_P0
                || out.uniqueness == AccelerationSolution.Uniqueness.UNKNOWN) {
            out.status = AccelerationSolution.Status.NON_UNIQUE;
            out.message = "Painlevé: the sliding contacts " + slidingNames(ns) + " have a normal matrix "
                    + "N H⁻¹ (N − μQ)ᵀ that is not a P-matrix ("
                    + (out.uniqueness == AccelerationSolution.Uniqueness.NOT_P0
                            ? "smallest normalised principal minor " + out.smallestMinor
                            : "uniqueness not established for " + ns + " sliding contacts")
                    + "): the accelerations may not be unique; none returned";
            out.fillNaN();
            return out;
        }
        out.bilateralResidual = lcp.bilateralResidual;
        if (!(lcp.bilateralResidual <= bilateralTolerance)) {
            out.status = AccelerationSolution.Status.FAILED;
            out.message = "the bilateral rows are inconsistent: |G v̇ + kG| = " + lcp.bilateralResidual
                    + " after dropping " + lcp.droppedBilateral + " redundant rows";
            out.fillNaN();
            return out;
        }
        System.arraycopy(lcp.solution, 0, out.vdot, 0, nv);
        double[] z = lcp.z;
        for (int c = 0; c < nc; c++) {
            out.normal[c] = z[c];
            out.lambda[c] = 0;
        }
        int lambdaIndex = nc + nd + nu;
        for (int c = 0; c < nc; c++) {
            int r = data.spanningDirections(c);
            if (r == 0) {
                continue;
            }
            int first = data.frictionStart(c);
            for (int d = 0; d < r; d++) {
                double plus = z[nc + 2 * first + d];
                double minus = z[nc + 2 * first + d + r];
                out.edge[2 * (first + d)] = plus;
                out.edge[2 * (first + d) + 1] = minus;
                out.friction[first + d] = plus - minus;
            }
            out.lambda[c] = z[lambdaIndex++];
        }
        for (int i = 0; i < nu; i++) {
            out.limit[i] = z[lo + i];
        }
        for (int i = 0; i < nb; i++) {
            out.bilateral[i] = lcp.bilateralForce[i];
        }
        out.status = AccelerationSolution.Status.SOLVED;
        out.message = "solved";
        return out;
    }

    /** The principal-minor test of the sliding contacts' normal block of the LCP matrix. */
    private AccelerationSolution.Uniqueness uniqueness(int ns) {
        int n = lcp.lcpSize;
        int[] sliding = data.slidingContacts();
        double scale = 0;
        for (int a = 0; a < ns; a++) {
            for (int b = 0; b < ns; b++) {
                double v = lcp.M[sliding[a] * n + sliding[b]];
                slidingBlock[a * ns + b] = v;
            }
            scale = Math.max(scale, Math.abs(slidingBlock[a * ns + a]));
        }
        if (!(scale > 0)) {
            solution.smallestMinor = 0;
            return AccelerationSolution.Uniqueness.NOT_P0;
        }
        if (ns > MINOR_LIMIT) {
            // sufficient: (M + Mᵀ)/2 positive definite ⇒ P-matrix; Cholesky in place of a copy
            double[] a = slidingBlock;
            for (int i = 0; i < ns; i++) {
                for (int j = 0; j <= i; j++) {
                    double s = 0.5 * (a[i * ns + j] + a[j * ns + i]) / scale;
                    a[i * ns + j] = s;
                }
            }
            int bad = org.symdyn.solvers.SmallSpd.factor(a, ns, false, MINOR_TOLERANCE);
            return bad < 0 ? AccelerationSolution.Uniqueness.P_MATRIX : AccelerationSolution.Uniqueness.UNKNOWN;
        }
        double smallest = Double.POSITIVE_INFINITY;
        for (int mask = 1; mask < (1 << ns); mask++) {
            int k = 0;
            for (int a = 0; a < ns; a++) {
                if ((mask & (1 << a)) != 0) {
                    members[k++] = a;
                }
            }
            for (int a = 0; a < k; a++) {
                for (int b = 0; b < k; b++) {
                    sub[a * k + b] = slidingBlock[members[a] * ns + members[b]] / scale;
                }
            }
            smallest = Math.min(smallest, determinant(sub, k));
        }
        solution.smallestMinor = smallest;
        if (smallest < -MINOR_TOLERANCE) {
            return AccelerationSolution.Uniqueness.NOT_P0;
        }
        return smallest > MINOR_TOLERANCE ? AccelerationSolution.Uniqueness.P_MATRIX
                : AccelerationSolution.Uniqueness.DEGENERATE_P0;
    }

    /** det of the k x k matrix in a (destroyed), LU with partial pivoting. */
    private static double determinant(double[] a, int k) {
        double det = 1;
        for (int c = 0; c < k; c++) {
            int p = c;
            double best = Math.abs(a[c * k + c]);
            for (int i = c + 1; i < k; i++) {
                double v = Math.abs(a[i * k + c]);
                if (v > best) {
                    best = v;
                    p = i;
                }
            }
            if (best == 0) {
                return 0;
            }
            if (p != c) {
                for (int j = 0; j < k; j++) {
                    double t = a[c * k + j];
                    a[c * k + j] = a[p * k + j];
                    a[p * k + j] = t;
                }
                det = -det;
            }
            double pivot = a[c * k + c];
            det *= pivot;
            for (int i = c + 1; i < k; i++) {
                double f = a[i * k + c] / pivot;
                for (int j = c + 1; j < k; j++) {
                    a[i * k + j] -= f * a[c * k + j];
                }
            }
        }
        return det;
    }

    private String slidingNames(int ns) {
        StringBuilder sb = new StringBuilder("[");
        int[] sliding = data.slidingContacts();
        for (int i = 0; i < ns; i++) {
            int c = sliding[i];
            sb.append(i == 0 ? "" : ", ").append(data.contactName(c)).append(" (μ = ").append(data.mu(c))
                    .append(')');
        }
        return sb.append(']').toString();
    }

    private String allNames(int nc) {
        StringBuilder sb = new StringBuilder("[");
        for (int c = 0; c < nc; c++) {
            sb.append(c == 0 ? "" : ", ").append(data.contactName(c));
        }
        return sb.append(']').toString();
    }
}
