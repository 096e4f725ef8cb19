package org.symdyn.samples;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;

/**
 * Discrete-time iterative LQR (Li and Todorov 2004; the regularisation and line search of Tassa, Erez and Todorov,
 * "Synthesis and stabilization of complex behaviors through online trajectory optimization", IROS 2012) on a state
 * that lives on a manifold: the problem gives x ⊖ x̄ (its {@link Problem#difference}) and the step's derivatives in
 * those tangent coordinates, as {@code StepDerivatives} gives them for a time step of a multibody model.
 *
 * <p><b>Problem.</b> Minimise J = Σ_{k&lt;N} ℓ_k(x_k, u_k) + ℓ_N(x_N) subject to x_{k+1} = f_k(x_k, u_k), x_0 given.
 *
 * <p><b>Backward pass.</b> With f_x, f_u the step's derivatives along the nominal trajectory (x̄, ū) and ℓ's gradient
 * and Gauss-Newton Hessian (the problem's {@link CostDerivatives}), from V_x = ℓ_N,x, V_xx = ℓ_N,xx:
 * <pre>
 *   Q_x = ℓ_x + f_xᵀ V_x            Q_u = ℓ_u + f_uᵀ V_x
 *   Q_xx = ℓ_xx + f_xᵀ V_xx f_x     Q_uu = ℓ_uu + f_uᵀ V_xx f_u     Q_ux = ℓ_ux + f_uᵀ V_xx f_x
 *   k = −(Q_uu + μ I)⁻¹ Q_u         K = −(Q_uu + μ I)⁻¹ Q_ux
 *   V_x = Q_x + Kᵀ Q_uu k + Kᵀ Q_u + Q_uxᵀ k
 *   V_xx = Q_xx + Kᵀ Q_uu K + Kᵀ Q_ux + Q_uxᵀ K   (symmetrised)
 * </pre>
 * μ ≥ 0 is the Levenberg-Marquardt regularisation of Q_uu: when Q_uu + μ I is not positive definite (its Cholesky
 * factorisation fails) the pass restarts with μ raised. The expected decrease of a step of size α is
 * ΔJ(α) = −(α Σ kᵀ Q_u + ½ α² Σ kᵀ Q_uu k).
 *
 * <p><b>Forward pass (line search).</b> x̂_0 = x_0, u_k = ū_k + α k_k + K_k (x̂_k ⊖ x̄_k), x̂_{k+1} = f_k(x̂_k, u_k),
 * for α = 1, ½, ¼, … down to {@value #MIN_STEP}; the first α whose actual decrease is at least {@value #ARMIJO} of
 * ΔJ(α) is taken (so the cost decreases at every accepted iteration) and μ shrinks (÷{@value #MU_FACTOR}, to 0 below
 * {@value #MU_MIN}); when none is, μ grows (×{@value #MU_FACTOR}, at least {@value #MU_MIN}) and the iteration is
 * repeated from the same trajectory. Stops when an accepted iteration decreases the cost by less than
 * {@code tolerance} relative, or a backward pass expects less than that of a full step, or when μ exceeds
 * {@value #MU_MAX}, or after {@code maxIterations}.
 *
 * <p>The trial rollouts evaluate the step's derivatives as they go (the derivatives of a contact step are those of
 * the step just solved), so that the accepted trial's are at hand for the next backward pass. Workspaces are
 * allocated once per solver; an iteration allocates only its {@link Iteration} record. Not thread-safe.
 */
public final class Ilqr {
    /** Fraction of the expected decrease an accepted step must achieve. */
    static final double ARMIJO = 1e-4;
    /** Smallest step size tried. */
    static final double MIN_STEP = 1.0 / 1024;
    /** Regularisation bounds and factor. */
    static final double MU_MIN = 1e-6;
    static final double MU_MAX = 1e10;
    static final double MU_FACTOR = 10;

    /** A trajectory-optimisation problem in discrete time. */
    public interface Problem {
        /** Length of a state x (e.g. nq + nv). */
        int stateSize();

        /** Length of a tangent vector δx (e.g. 2 nv). */
        int tangentSize();

        int controlSize();

        /** N, the number of steps. */
        int horizon();

        /**
         * x_{k+1} = f_k(x_k, u_k) into {@code next}; when {@code fx} and {@code fu} are not null, also ∂x_{k+1}/∂x_k
         * (tangent x tangent) and ∂x_{k+1}/∂u_k (tangent x control), in the tangent coordinates of
         * {@link #difference} at x_k and at x_{k+1}.
         */
        void step(int k, double[] x, double[] u, double[] next, DMatrixRMaj fx, DMatrixRMaj fu);

        /** δx = x₁ ⊖ x₀, in the tangent coordinates at x₀. */
        void difference(double[] x0, double[] x1, double[] dx);

        /** ℓ_k(x, u), and, with {@code d} not null, its derivatives added to d (which the caller zeroed). */
        double runningCost(int k, double[] x, double[] u, CostDerivatives d);

        /** ℓ_N(x), and, with {@code d} not null, its derivatives added to d (ℓ_u terms unused). */
        double terminalCost(double[] x, CostDerivatives d);
    }

    /** The gradient and (Gauss-Newton) Hessian of a stage cost, in the tangent coordinates of the state. */
    public static final class CostDerivatives {
        public final DMatrixRMaj lx;
        public final DMatrixRMaj lu;
        public final DMatrixRMaj lxx;
        public final DMatrixRMaj luu;
        /** ∂²ℓ/∂u∂x, control x tangent. */
        public final DMatrixRMaj lux;

        CostDerivatives(int n, int m) {
            lx = new DMatrixRMaj(n, 1);
            lu = new DMatrixRMaj(m, 1);
            lxx = new DMatrixRMaj(n, n);
            luu = new DMatrixRMaj(m, m);
            lux = new DMatrixRMaj(m, n);
        }

        void zero() {
            lx.zero();
            lu.zero();
            lxx.zero();
            luu.zero();
            lux.zero();
        }
    }

    /**
     * One iteration: the cost after it, its decrease (0 when no step was accepted), the regularisation μ of its
     * backward pass, the step size taken (0 if none), the backward passes it took (restarts when Q_uu + μ I was not
     * positive definite), the trial rollouts, and its wall time (ms).
     */
    public record Iteration(int index, double cost, double decrease, double expected, double mu, double step,
            int backwardPasses, int rollouts, double millis) {
    }

    /** The optimised trajectory: x (N + 1 states), u (N controls), the iterations, and why it stopped. */
    public record Result(double[][] x, double[][] u, double initialCost, double cost, List<Iteration> iterations,
            String stop, double millis) {
    }

    private final Problem p;
    private final int n;
    private final int m;
    private final int steps;
    private final double[][] x;
    private final double[][] u;
    private final double[][] xTrial;
    private final double[][] uTrial;
    private DMatrixRMaj[] fx;
    private DMatrixRMaj[] fu;
    private DMatrixRMaj[] fxTrial;
    private DMatrixRMaj[] fuTrial;
    private final DMatrixRMaj[] gainK;
    private final DMatrixRMaj[] feedforward;
    private final CostDerivatives d;
    private final DMatrixRMaj vx;
    private final DMatrixRMaj vxx;
    private final DMatrixRMaj qx;
    private final DMatrixRMaj qu;
    private final DMatrixRMaj qxx;
    private final DMatrixRMaj quu;
    private final DMatrixRMaj qux;
    private final DMatrixRMaj vA;
    private final DMatrixRMaj vB;
    private final DMatrixRMaj chol;
    private final DMatrixRMaj kTquu;
    private final DMatrixRMaj tmpNN;
    private final double[] dx;
    private double expected1;
    private double expected2;

    public Ilqr(Problem problem) {
        this.p = Objects.requireNonNull(problem, "problem");
        n = p.tangentSize();
        m = p.controlSize();
        steps = p.horizon();
        if (n <= 0 || m <= 0 || steps <= 0 || p.stateSize() <= 0) {
            throw new IllegalArgumentException("sizes must be positive: state " + p.stateSize() + ", tangent " + n
                    + ", control " + m + ", horizon " + steps);
        }
        x = new double[steps + 1][p.stateSize()];
        xTrial = new double[steps + 1][p.stateSize()];
        u = new double[steps][m];
        uTrial = new double[steps][m];
        fx = matrices(steps, n, n);
        fu = matrices(steps, n, m);
        fxTrial = matrices(steps, n, n);
        fuTrial = matrices(steps, n, m);
        gainK = matrices(steps, m, n);
        feedforward = matrices(steps, m, 1);
        d = new CostDerivatives(n, m);
        vx = new DMatrixRMaj(n, 1);
        vxx = new DMatrixRMaj(n, n);
        qx = new DMatrixRMaj(n, 1);
        qu = new DMatrixRMaj(m, 1);
        qxx = new DMatrixRMaj(n, n);
        quu = new DMatrixRMaj(m, m);
        qux = new DMatrixRMaj(m, n);
        vA = new DMatrixRMaj(n, n);
        vB = new DMatrixRMaj(n, m);
        chol = new DMatrixRMaj(m, m);
        kTquu = new DMatrixRMaj(n, m);
        tmpNN = new DMatrixRMaj(n, n);
        dx = new double[n];
    }

    private static DMatrixRMaj[] matrices(int count, int rows, int cols) {
        DMatrixRMaj[] a = new DMatrixRMaj[count];
        for (int i = 0; i < count; i++) {
            a[i] = new DMatrixRMaj(rows, cols);
        }
        return a;
    }

    /**
     * Optimises from x0 and the initial controls (N x control, not changed), for at most {@code maxIterations}
     * iterations, until an iteration decreases the cost by less than {@code tolerance} relative; each iteration is
     * passed to {@code listener} (may be null) as it ends.
     */
    public Result solve(double[] x0, double[][] u0, int maxIterations, double tolerance, Consumer<Iteration> listener) {
        if (x0.length != p.stateSize() || u0.length != steps) {
            throw new IllegalArgumentException("x0 has " + x0.length + " entries (state " + p.stateSize()
                    + "), u0 " + u0.length + " rows (horizon " + steps + ")");
        }
        long start = System.nanoTime();
        for (int k = 0; k < steps; k++) {
            if (u0[k].length != m) {
                throw new IllegalArgumentException("u0[" + k + "] has " + u0[k].length + " entries, not " + m);
            }
            System.arraycopy(u0[k], 0, uTrial[k], 0, m);
        }
        System.arraycopy(x0, 0, xTrial[0], 0, x0.length);
        double cost = rollout(Double.NaN);
        if (!Double.isFinite(cost)) {
            throw new IllegalStateException("the initial rollout's cost is " + cost);
        }
        accept();
        double initial = cost;
        double mu = 0;
        List<Iteration> iterations = new ArrayList<>();
        String stop = "at most " + maxIterations + " iterations";
        for (int it = 1; it <= maxIterations; it++) {
            long t0 = System.nanoTime();
            int passes = 1;
            while (!backward(mu)) {
                mu = Math.max(MU_MIN, mu * MU_FACTOR);
                passes++;
                if (mu > MU_MAX) {
                    break;
                }
            }
            if (mu > MU_MAX) {
                stop = "regularisation above " + MU_MAX;
                break;
            }
            if (-(expected1 + expected2) < tolerance * cost) {
                stop = "expected decrease below " + tolerance + " of the cost";
                break;
            }
            double alpha = 1;
            double taken = 0;
            double newCost = cost;
            double expectedDecrease = 0;
            int rollouts = 0;
            while (alpha >= MIN_STEP) {
                double trial = rollout(alpha);
                rollouts++;
                expectedDecrease = -(alpha * expected1 + alpha * alpha * expected2);
                if (Double.isFinite(trial) && expectedDecrease > 0 && cost - trial >= ARMIJO * expectedDecrease) {
                    taken = alpha;
                    newCost = trial;
                    break;
                }
                alpha *= 0.5;
            }
            double usedMu = mu;
            if (taken > 0) {
                accept();
                mu = mu / MU_FACTOR < MU_MIN ? 0 : mu / MU_FACTOR;
            } else {
                mu = Math.max(MU_MIN, mu * MU_FACTOR);
            }
            double decrease = cost - newCost;
            cost = newCost;
            Iteration record = new Iteration(it, cost, decrease, expectedDecrease, usedMu, taken, passes, rollouts,
                    (System.nanoTime() - t0) / 1e6);
            iterations.add(record);
            if (listener != null) {
                listener.accept(record);
            }
            if (taken > 0 && decrease < tolerance * cost) {
                stop = "decrease below " + tolerance + " of the cost";
                break;
            }
            if (mu > MU_MAX) {
                stop = "regularisation above " + MU_MAX;
                break;
            }
        }
        double[][] xs = new double[steps + 1][];
        double[][] us = new double[steps][];
        for (int k = 0; k <= steps; k++) {
            xs[k] = x[k].clone();
            if (k < steps) {
                us[k] = u[k].clone();
            }
        }
        return new Result(xs, us, initial, cost, iterations, stop, (System.nanoTime() - start) / 1e6);
    }

    /**
     * Rolls out from xTrial[0] into xTrial, with the step derivatives, and returns the cost: with α NaN the controls
     * uTrial as they are, else uTrial_k = ū_k + α k_k + K_k (xTrial_k ⊖ x̄_k) set as it goes.
     */
    private double rollout(double alpha) {
        double cost = 0;
        for (int k = 0; k < steps; k++) {
            if (!Double.isNaN(alpha)) {
                p.difference(x[k], xTrial[k], dx);
                double[] kk = feedforward[k].data;
                double[] gain = gainK[k].data;
                for (int i = 0; i < m; i++) {
                    double ui = u[k][i] + alpha * kk[i];
                    for (int j = 0; j < n; j++) {
                        ui += gain[i * n + j] * dx[j];
                    }
                    uTrial[k][i] = ui;
                }
            }
            p.step(k, xTrial[k], uTrial[k], xTrial[k + 1], fxTrial[k], fuTrial[k]);
            for (double xi : xTrial[k + 1]) {
                if (!Double.isFinite(xi)) {
                    return Double.POSITIVE_INFINITY; // a step that failed: the trial is refused
                }
            }
            cost += p.runningCost(k, xTrial[k], uTrial[k], null);
        }
        return cost + p.terminalCost(xTrial[steps], null);
    }

    /** The trial becomes the nominal trajectory (its states, controls and step derivatives). */
    private void accept() {
        for (int k = 0; k <= steps; k++) {
            System.arraycopy(xTrial[k], 0, x[k], 0, xTrial[k].length);
            if (k < steps) {
                System.arraycopy(uTrial[k], 0, u[k], 0, m);
            }
        }
        DMatrixRMaj[] t = fx;
        fx = fxTrial;
        fxTrial = t;
        t = fu;
        fu = fuTrial;
        fuTrial = t;
    }

    /** Backward pass with regularisation μ; false if some Q_uu + μ I is not positive definite. */
    private boolean backward(double mu) {
        d.zero();
        p.terminalCost(x[steps], d);
        vx.setTo(d.lx);
        vxx.setTo(d.lxx);
        expected1 = 0;
        expected2 = 0;
        for (int k = steps - 1; k >= 0; k--) {
            d.zero();
            p.runningCost(k, x[k], u[k], d);
            DMatrixRMaj a = fx[k];
            DMatrixRMaj b = fu[k];
            // Q_x = ℓ_x + Aᵀ V_x, Q_u = ℓ_u + Bᵀ V_x
            CommonOps_DDRM.multTransA(a, vx, qx);
            CommonOps_DDRM.addEquals(qx, d.lx);
            CommonOps_DDRM.multTransA(b, vx, qu);
            CommonOps_DDRM.addEquals(qu, d.lu);
            // Q_xx, Q_uu, Q_ux through V_xx A and V_xx B
            CommonOps_DDRM.mult(vxx, a, vA);
            CommonOps_DDRM.mult(vxx, b, vB);
            qxx.setTo(d.lxx);
            CommonOps_DDRM.multAddTransA(a, vA, qxx);
            quu.setTo(d.luu);
            CommonOps_DDRM.multAddTransA(b, vB, quu);
            qux.setTo(d.lux);
            CommonOps_DDRM.multAddTransA(b, vA, qux);
            chol.setTo(quu);
            for (int i = 0; i < m; i++) {
                chol.add(i, i, mu);
            }
            if (!cholesky(chol.data, m)) {
                return false;
            }
            DMatrixRMaj kk = feedforward[k];
            DMatrixRMaj gain = gainK[k];
            for (int i = 0; i < m; i++) {
                kk.data[i] = -qu.data[i];
            }
            choleskySolve(chol.data, m, kk.data, 1);
            System.arraycopy(qux.data, 0, gain.data, 0, m * n);
            CommonOps_DDRM.scale(-1, gain);
            choleskySolve(chol.data, m, gain.data, n);
            // expected decrease terms
            double kqu = 0;
            double kquuk = 0;
            for (int i = 0; i < m; i++) {
                kqu += kk.data[i] * qu.data[i];
                double row = 0;
                for (int j = 0; j < m; j++) {
                    row += quu.get(i, j) * kk.data[j];
                }
                kquuk += kk.data[i] * row;
            }
            expected1 += kqu;
            expected2 += 0.5 * kquuk;
            // V_x = Q_x + Kᵀ Q_uu k + Kᵀ Q_u + Q_uxᵀ k
            vx.setTo(qx);
            CommonOps_DDRM.multTransA(gain, quu, kTquu);
            CommonOps_DDRM.multAdd(kTquu, kk, vx);
            CommonOps_DDRM.multAddTransA(gain, qu, vx);
            CommonOps_DDRM.multAddTransA(qux, kk, vx);
            // V_xx = Q_xx + Kᵀ Q_uu K + Kᵀ Q_ux + Q_uxᵀ K, symmetrised
            vxx.setTo(qxx);
            CommonOps_DDRM.multAdd(kTquu, gain, vxx);
            CommonOps_DDRM.multAddTransA(gain, qux, vxx);
            CommonOps_DDRM.multAddTransA(qux, gain, vxx);
            CommonOps_DDRM.transpose(vxx, tmpNN);
            CommonOps_DDRM.add(0.5, vxx, 0.5, tmpNN, vxx);
        }
        return true;
    }

    /** In-place lower Cholesky factor of the m x m row-major a; false if a is not positive definite. */
    private static boolean cholesky(double[] a, int m) {
        for (int j = 0; j < m; j++) {
            double s = a[j * m + j];
            for (int k = 0; k < j; k++) {
                s -= a[j * m + k] * a[j * m + k];
            }
            if (!(s > 0)) {
                return false;
            }
            double l = Math.sqrt(s);
            a[j * m + j] = l;
            for (int i = j + 1; i < m; i++) {
                double t = a[i * m + j];
                for (int k = 0; k < j; k++) {
                    t -= a[i * m + k] * a[j * m + k];
                }
                a[i * m + j] = t / l;
            }
        }
        return true;
    }

    /** Solves (L Lᵀ) X = B in place for the m x cols row-major B. */
    private static void choleskySolve(double[] l, int m, double[] b, int cols) {
        for (int c = 0; c < cols; c++) {
            for (int i = 0; i < m; i++) {
                double t = b[i * cols + c];
                for (int k = 0; k < i; k++) {
                    t -= l[i * m + k] * b[k * cols + c];
                }
                b[i * cols + c] = t / l[i * m + i];
            }
            for (int i = m - 1; i >= 0; i--) {
                double t = b[i * cols + c];
                for (int k = i + 1; k < m; k++) {
                    t -= l[k * m + i] * b[k * cols + c];
                }
                b[i * cols + c] = t / l[i * m + i];
            }
        }
    }
}
