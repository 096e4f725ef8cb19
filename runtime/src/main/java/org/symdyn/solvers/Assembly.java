package org.symdyn.solvers;

import org.ejml.data.DMatrixRMaj;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.contract.ModelInfo;
import org.symdyn.manifold.StateSpace;

/**
 * Assembly: positions and velocities that satisfy the constraints of a bound {@link ConstraintData}, close to
 * guesses (RBDL's CalcAssemblyQ and CalcAssemblyQDot).
 *
 * <p><b>Positions.</b> Newton steps on the linearised constraints, as RBDL: at iterate q_k each step d (in
 * velocity coordinates) solves
 * <pre>  minimise dᵀ W d  subject to  G(q_k) d = -φ(q_k),   i.e.  [W Gᵀ; G 0][d; μ] = [0; -φ(q_k)],</pre>
 * then q_{k+1} = q_k ⊕ d, until ‖φ‖₂ &lt; tolerance (default 1e-12) or the iteration limit (default 100). Each step
 * is the W-smallest change that removes the linearised error, so the result is the feasible point a weighted
 * Gauss-Newton path reaches from q0: it minimises (q - q0)ᵀ W (q - q0) on φ = 0 to first order in the initial
 * error (exactly when φ is linear), and it is the point RBDL's CalcAssemblyQ returns. A full step that does not lower
 * ‖φ‖₂ is halved until it does. Under {@code DROP_DEPENDENT_ROWS}, where rows may be dependent on the manifold (a
 * redundant loop) and are then nearly dependent just off it, that path drifts along the mechanism (a parallelogram
 * with a middle crank ended 1.3 to 10 rad from guesses 1e-2 rad off); there each step is damped (Levenberg-Marquardt,
 * {@code dampedStep}), and once on φ = 0 a point whose rows are dependent is moved along the manifold,
 * d = argmin (d − δ)ᵀ W (d − δ) subject to G d = 0 with δ = q0 ⊖ q, and put back on φ = 0, until d is below the
 * tolerance: the W-nearest point of the manifold. W = diag(weights) has one weight per velocity coordinate; zero weights are allowed as long as the KKT
 * matrix stays regular.
 *
 * <p><b>Quaternions.</b> q ⊕ d is {@link StateSpace#integrate}(q, d, 1): d adds to ordinary coordinates; a floating
 * joint's position moves by R d_linear (R its rotation, since v_origin is in body coordinates) and its quaternion,
 * like a ball joint's, is multiplied on the right by the rotation of the vector d_angular (body coordinates) and
 * renormalised. So W weighs rotations by the angle in radians.
 *
 * <p><b>Velocities.</b> Exact: minimise (v - v0)ᵀ W (v - v0) subject to G(q) v = 0, i.e.
 * [W Gᵀ; G 0][v; μ] = [W v0; 0].
 *
 * <p>Linear solves use the set's KKT factorisation and rank policy (dependent rows are reported by name or
 * dropped). All workspaces are allocated by the constructor. Not thread-safe.
 */
public final class Assembly {
    /** Default tolerance on ‖φ‖₂. */
    public static final double DEFAULT_TOLERANCE = 1e-12;
    /** Default iteration limit. */
    public static final int DEFAULT_MAX_ITERATIONS = 100;
    /** The most a Newton step is halved in search of a lower ‖φ‖ (2⁻³⁰ of it: then it is taken as it is). */
    private static final int MAX_HALVINGS = 30;
    /**
     * The most damping of {@link #dampedStep}, over the rows' mean square. A damping that grew with ‖φ‖ alone (or
     * pulled toward q0) made steps short far from the manifold: a floating base 30 m from its weld was not assembled
     * in 100 iterations, and a four-bar with weights 1e3 not at all (a review's finding), where Newton takes 3.
     * Measured: the parallelogram with a middle crank, 800 guesses 0.01 to 0.2 rad off, all assembled, 799 within
     * 2e-12 of the nearest point (one 0.2 rad off ended 0.17 from it, on the mechanism's other branch); a four-bar
     * from 200 random guesses with weights 1e-6 to 1e6, all assembled in Newton's number of iterations.
     */
    private static final double DAMPING = 1e-2;
    /** The most moves along the manifold of a mechanism with dependent rows ({@link #assembleQ}). */
    private static final int MAX_REFINEMENTS = 50;

    private final ConstraintData data;
    private final ModelInfo model;
    private final StateSpace space;
    private final int nq;
    private final int nv;
    private final ConstrainedSystemSolver solver;
    private final DMatrixRMaj w;
    private final DMatrixRMaj g;
    private final double[] phi;
    private final double[] zeroV;
    private final double[] zeroRows;
    private final double[] a;
    private final double[] d;
    private final double[] mu;
    private final double[] qCur;
    private final double[] qNext;
    private final double[] qKept;
    /** The damped step's matrix, right-hand side, solution and factorisation ({@link #dampedStep}). */
    private final DMatrixRMaj damped;
    private final DMatrixRMaj dampedRhs;
    private final DMatrixRMaj dampedStep;
    private final org.ejml.interfaces.linsol.LinearSolverDense<DMatrixRMaj> cholesky;
    private double lastError = Double.NaN;
    private int lastIterations;

    /** Assembly for a bound data. */
    public Assembly(ConstraintData data) {
        this.data = data;
        this.model = data.dynamics();
        this.space = new StateSpace(model);
        this.nq = data.nq();
        this.nv = data.nv();
        int m = data.size();
        solver = new ConstrainedSystemSolver(data);
        w = new DMatrixRMaj(nv, nv);
        g = new DMatrixRMaj(m, nv);
        phi = new double[m];
        zeroV = new double[nv];
        zeroRows = new double[m];
        a = new double[nv];
        d = new double[nv];
        mu = new double[m];
        qCur = new double[nq];
        qNext = new double[nq];
        qKept = new double[nq];
        damped = new DMatrixRMaj(nv, nv);
        dampedRhs = new DMatrixRMaj(nv, 1);
        dampedStep = new DMatrixRMaj(nv, 1);
        cholesky = org.ejml.dense.row.factory.LinearSolverFactory_DDRM.chol(nv);
    }

    /** {@link #assembleQ(double[], double[], double, int, double[])} with the default tolerance and limit. */
    public boolean assembleQ(double[] q0, double[] weights, double[] qOut) {
        return assembleQ(q0, weights, DEFAULT_TOLERANCE, DEFAULT_MAX_ITERATIONS, qOut);
    }

    /**
     * Positions near q0 with φ(q) = 0 (see the class comment). {@code qOut} receives the last iterate even on
     * failure; {@link #lastError()} and {@link #lastIterations()} tell how it went.
     *
     * @param q0        the guess (nq)
     * @param weights   W's diagonal, one non-negative weight per velocity coordinate (nv)
     * @param tolerance success when ‖φ‖₂ &lt; tolerance; finite and positive
     * @param maxIterations at most this many Newton steps; not negative
     * @param qOut      receives the result (nq)
     * @return true if the tolerance was reached within {@code maxIterations} steps
     * @throws ConstraintRankException if the rows are dependent at an iterate (policy FAIL) or inconsistent
     * @throws IllegalArgumentException if an array has the wrong length, q0 is not finite or has a zero
     *                                  quaternion, the tolerance is not a positive number or the limit negative
     */
    public boolean assembleQ(double[] q0, double[] weights, double tolerance, int maxIterations, double[] qOut) {
        AssemblyArguments.checkQ(model, nq, nv, q0, weights, tolerance, maxIterations, qOut);
        setWeights(weights);
        System.arraycopy(q0, 0, qCur, 0, nq);
        lastIterations = 0;
        // Rows dependent on the manifold (a redundant loop, dropped under DROP_DEPENDENT_ROWS) are nearly dependent
        // just off it, so RBDL's Newton path has a component along the mechanism and ends on φ = 0 far from q0 (a
        // parallelogram with a middle crank: 1.3 to 10 rad from guesses 1e-2 rad off). Where dependent rows are
        // dropped, each step is therefore damped (dampedStep), and once on φ = 0 the point is moved along the
        // manifold (G d = 0) and put back, until the move is below the tolerance: the W-nearest point. Under FAIL,
        // dependent rows are an error, and the steps are RBDL's (its point; ReferenceSolversTest).
        boolean dropping = data.settings().rankPolicy()
                == org.symdyn.constraints.SolverSettings.RankPolicy.DROP_DEPENDENT_ROWS;
        boolean success = newton(tolerance, maxIterations, dropping);
        for (int k = 0; dropping && success && k < MAX_REFINEMENTS; k++) {
            space.difference(qCur, q0, a);
            nearestOnRows(qCur, a, d);
            if (solver.lastDroppedRows() == 0 || norm(d) < tolerance) {
                break;
            }
            System.arraycopy(qCur, 0, qKept, 0, nq);
            double kept = lastError;
            space.integrate(qKept, d, 1, qCur);
            if (!newton(tolerance, maxIterations, dropping)) {
                // back to the last point on φ = 0
                System.arraycopy(qKept, 0, qCur, 0, nq);
                lastError = kept;
                break;
            }
        }
        System.arraycopy(qCur, 0, qOut, 0, nq);
        return success;
    }

    /**
     * Newton steps from {@link #qCur} until ‖φ‖₂ &lt; tolerance, at most {@code maxIterations}: each the W-smallest
     * change that removes the linearised error, or {@code damped}, {@link #dampedStep}'s.
     */
    private boolean newton(double tolerance, int maxIterations, boolean damped) {
        data.positionError(qCur, phi);
        lastError = norm(phi);
        boolean success = lastError < tolerance;
        for (int steps = 0; !success && steps < maxIterations; steps++) {
            data.jacobian(qCur, g);
            for (int i = 0; i < phi.length; i++) {
                phi[i] = -phi[i];
            }
            if (!damped || !dampedStep()) {
                solver.solve(ConstraintSolverMethod.DIRECT, w, g, zeroV, phi, d, mu);
            }
            // A full step that does not lower ‖φ‖ is halved until it does (near nearly dependent rows the
            // linearisation asks for long steps).
            double before = lastError;
            double s = 1;
            for (int halving = 0; ; halving++) {
                space.integrate(qCur, d, s, qNext);
                data.positionError(qNext, phi);
                lastError = norm(phi);
                if (lastError < before || halving == MAX_HALVINGS) {
                    break;
                }
                s *= 0.5;
            }
            System.arraycopy(qNext, 0, qCur, 0, nq);
            lastIterations++;
            success = lastError < tolerance;
        }
        return success;
    }

    /**
     * The Levenberg-Marquardt step d = argmin ‖G d + φ‖² + μ dᵀ (W / w̄) d (w̄ W's mean diagonal entry, so that scaling
     * W changes nothing), μ = min(‖φ‖², {@link #DAMPING} ‖G‖_F² / m), with −φ in {@link #phi}: (GᵀG + μ W / w̄) d =
     * −Gᵀ φ. Rows nearly dependent near the manifold (squared singular values below μ) are not forced in one long
     * step, which carried a redundant parallelogram 0.5 rad along itself to its flat singular point; well-posed rows
     * get Newton's step, and as φ → 0 it becomes the exact one. False (nothing written) where that matrix is not
     * positive definite: the caller takes the exact step.
     */
    private boolean dampedStep() {
        int m = phi.length;
        double wScale = 0;
        for (int i = 0; i < nv; i++) {
            wScale += w.data[i * nv + i];
        }
        wScale /= nv;
        double gSquares = 0;
        for (double x : g.data) {
            gSquares += x * x;
        }
        // ‖φ‖² near the manifold (Levenberg-Marquardt's choice that keeps quadratic convergence where the solutions
        // are not isolated), at most a hundredth of the rows' mean square far from it, so that steps stay Newton's
        double mu = Math.min(lastError * lastError, DAMPING * gSquares / m);
        if (!(mu > 0) || !(wScale > 0)) {
            return false;
        }
        for (int i = 0; i < nv; i++) {
            double rhs = 0;
            for (int r = 0; r < m; r++) {
                rhs += g.data[r * nv + i] * phi[r];
            }
            dampedRhs.data[i] = rhs;
            for (int j = 0; j <= i; j++) {
                double x = i == j ? mu * w.data[i * nv + i] / wScale : 0;
                for (int r = 0; r < m; r++) {
                    x += g.data[r * nv + i] * g.data[r * nv + j];
                }
                damped.data[i * nv + j] = x;
                damped.data[j * nv + i] = x;
            }
        }
        if (!cholesky.setA(damped)) {
            return false;
        }
        cholesky.solve(dampedRhs, dampedStep);
        System.arraycopy(dampedStep.data, 0, d, 0, nv);
        return true;
    }

    /**
     * Velocities with G(q) v = 0 nearest v0 in the W-norm (exact; q should satisfy the position constraints).
     *
     * @param weights W's diagonal (nv)
     * @throws ConstraintRankException if the rows are dependent (policy FAIL) or inconsistent
     * @throws IllegalArgumentException if an array has the wrong length or q, v0 are not finite
     */
    public void assembleV(double[] q, double[] v0, double[] weights, double[] vOut) {
        AssemblyArguments.checkV(model, nq, nv, q, v0, weights, vOut);
        setWeights(weights);
        nearestOnRows(q, v0, vOut);
    }

    /**
     * The x with G(q) x = 0 nearest {@code target} in the W-norm: [W Gᵀ; G 0][x; μ] = [W target; 0] (the set's
     * weights set); {@code target} may be {@link #a}.
     */
    private void nearestOnRows(double[] q, double[] target, double[] out) {
        data.jacobian(q, g);
        for (int i = 0; i < nv; i++) {
            a[i] = w.data[i * nv + i] * target[i];
        }
        solver.solve(ConstraintSolverMethod.DIRECT, w, g, a, zeroRows, out, mu);
    }

    /** ‖φ‖₂ after the last {@link #assembleQ}. */
    public double lastError() {
        return lastError;
    }

    /** Newton steps taken by the last {@link #assembleQ}. */
    public int lastIterations() {
        return lastIterations;
    }

    private void setWeights(double[] weights) {
        if (weights.length != nv) {
            throw new IllegalArgumentException("weights must have nv = " + nv + " entries, got " + weights.length);
        }
        w.zero();
        for (int i = 0; i < nv; i++) {
            if (!(weights[i] >= 0) || Double.isInfinite(weights[i])) {
                throw new IllegalArgumentException("weights must be finite and >= 0, weight " + i + " is "
                        + weights[i]);
            }
            w.data[i * nv + i] = weights[i];
        }
    }

    private static double norm(double[] x) {
        double s = 0;
        for (double e : x) {
            s += e * e;
        }
        return Math.sqrt(s);
    }
}
