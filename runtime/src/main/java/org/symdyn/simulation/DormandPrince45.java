package org.symdyn.simulation;

import org.symdyn.manifold.StateSpace;

/**
 * Adaptive explicit Runge-Kutta: the Dormand-Prince 5(4) embedded pair (DOPRI5; Dormand and Prince 1980, Hairer,
 * Nørsett and Wanner, <i>Solving ODEs I</i>, §II.4-5), seven stages with "first same as last", the fifth-order
 * solution propagated (local extrapolation). Chosen over Cash-Karp because its error constants are smaller and
 * FSAL makes an accepted step cost six evaluations instead of seven.
 *
 * <p><b>Manifold.</b> Stages are evaluated in the chart q = q₀ ⊕ u of each step's initial configuration, so the
 * pair keeps its orders on the configuration manifold and quaternions stay unit (see {@link StateSpace},
 * {@link RungeKuttaStages}). The last stage is evaluated at the new state; if the next step starts from exactly
 * that state and time (not projected or changed in between, no {@link #reset}), its ξ and f are reused (FSAL).
 *
 * <p><b>Error control.</b> With y = (u, v) ∈ ℝ^{2 nv}, the embedded error estimate is e = h Σ_j (b_j - b̂_j) k_j and
 * <pre>
 *   err = sqrt( (1/2nv) Σ_i (e_i / sc_i)² ),   sc_i = atol + rtol · max(|y₀ᵢ|, |y₁ᵢ|)
 * </pre>
 * where for a chart component y is the position coordinate it moves (joint angle in rad, displacement or floating
 * position in m), 1 rad for rotation components of quaternion joints (whose chart starts at 0), and the
 * velocity for v components. A step is accepted when err ≤ 1. The next step is
 * <pre>
 *   h_new = h · min(facMax, max(facMin, safety · err^(-1/5)))      (facMax = 1 right after a rejection)
 * </pre>
 * bounded by the maximum step ({@link #stepBounds}) and the caller's limit; a rejected step is retried with
 * h_new ≥ facMin h. Defaults: rtol = atol = 1e-8, safety 0.9, facMin 0.2, facMax 10, minStep 1e-12 s (when
 * rejections push the step below it the integrator throws IllegalStateException). The first
 * step size, unless set, follows Hairer's starting-step heuristic (one extra evaluation). The per-step (local)
 * error is controlled, not the global error; on well-conditioned problems the global error is a modest multiple of
 * the tolerances.
 *
 * <p>Counters: accepted and rejected steps, evaluations, last error norm. No allocation per step; not thread-safe.
 */
public final class DormandPrince45 implements Integrator {
    private static final double[] C = {0, 1.0 / 5, 3.0 / 10, 4.0 / 5, 8.0 / 9, 1, 1};
    private static final double[][] A = {
        {},
        {1.0 / 5},
        {3.0 / 40, 9.0 / 40},
        {44.0 / 45, -56.0 / 15, 32.0 / 9},
        {19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729},
        {9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656},
        {35.0 / 384, 0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84}};
    /** b - b̂ (fifth minus fourth order weights), 7 stages. */
    private static final double[] E = {71.0 / 57600, 0, -71.0 / 16695, 71.0 / 1920, -17253.0 / 339200, 22.0 / 525,
        -1.0 / 40};
    private static final double[] EULER = {1.0};

    private final RungeKuttaStages st;
    private final int nv;
    /** Per chart component: the position coordinate it moves, or -1 for rotation components. */
    private final int[] positionIndex;
    private final double[] savedQ;
    private final double[] savedV;
    private double savedT = Double.NaN;
    private boolean fsal;

    private double rtol = 1e-8;
    private double atol = 1e-8;
    private double safety = 0.9;
    private double facMin = 0.2;
    private double facMax = 10;
    private double minStep = 1e-12;
    private double maxStep = Double.POSITIVE_INFINITY;
    private double proposed = Double.NaN;

    private long accepted;
    private long rejected;
    private double lastError = Double.NaN;

    /** DOPRI5 for f on space with the default settings. */
    public DormandPrince45(StateSpace space, AccelerationFunction f) {
        st = new RungeKuttaStages(space, f, 7);
        nv = space.nv();
        positionIndex = new int[nv];
        for (int i = 0; i < nv; i++) {
            positionIndex[i] = space.positionIndexOf(i);
        }
        savedQ = new double[space.nq()];
        savedV = new double[nv];
    }

    /** A factory with these tolerances (other settings default). */
    public static Integrator.Factory factory(double relativeTolerance, double absoluteTolerance) {
        return (space, f) -> new DormandPrince45(space, f).tolerances(relativeTolerance, absoluteTolerance);
    }

    /** Sets rtol and atol (both &gt; 0). */
    public DormandPrince45 tolerances(double relative, double absolute) {
        if (!(relative > 0) || !(absolute > 0)) {
            throw new IllegalArgumentException("tolerances must be positive, got " + relative + ", " + absolute);
        }
        rtol = relative;
        atol = absolute;
        return this;
    }

    /** Sets the controller: safety factor in (0, 1], 0 &lt; facMin &lt; 1 &lt; facMax. */
    public DormandPrince45 controller(double safetyFactor, double minFactor, double maxFactor) {
        if (!(safetyFactor > 0 && safetyFactor <= 1) || !(minFactor > 0 && minFactor < 1) || !(maxFactor > 1)) {
            throw new IllegalArgumentException("need 0 < safety <= 1, 0 < facMin < 1 < facMax, got " + safetyFactor
                    + ", " + minFactor + ", " + maxFactor);
        }
        safety = safetyFactor;
        facMin = minFactor;
        facMax = maxFactor;
        return this;
    }

    /** Sets the step bounds (s): the integrator throws below minStep and never exceeds maxStep. */
    public DormandPrince45 stepBounds(double min, double max) {
        if (!(min > 0) || !(max >= min)) {
            throw new IllegalArgumentException("need 0 < minStep <= maxStep, got " + min + ", " + max);
        }
        minStep = min;
        maxStep = max;
        return this;
    }

    /** Sets the size of the next attempted step (s); NaN restores the automatic choice for the first step. */
    public DormandPrince45 initialStep(double h) {
        if (!Double.isNaN(h) && !(h > 0)) {
            throw new IllegalArgumentException("initial step must be positive, got " + h);
        }
        proposed = h;
        return this;
    }

    @Override
    public double step(double t, double hMax, double[] q, double[] v) {
        if (!(hMax > 0)) {
            throw new IllegalArgumentException("step bound must be positive, got " + hMax);
        }
        st.begin(q, v);
        if (!(fsal && t == savedT && equal(q, savedQ) && equal(v, savedV))) {
            st.firstStage(t);
        }
        fsal = false;
        if (Double.isNaN(proposed)) {
            proposed = startingStep(t);
        }
        // The caller's bound may be below minStep (a run's last sliver); the controller's own steps may not.
        double h = Math.min(Math.max(Math.min(proposed, maxStep), minStep), hMax);
        boolean rejectedBefore = false;
        while (true) {
            for (int s = 1; s < 7; s++) {
                st.stage(s, A[s], t + C[s] * h, h);
            }
            double err = errorNorm(h);
            lastError = err;
            if (err <= 1) {
                accepted++;
                System.arraycopy(st.qs, 0, q, 0, st.nq);
                System.arraycopy(st.vs, 0, v, 0, nv);
                // FSAL: the last stage's ξ and f are the next step's first stage at the new state.
                System.arraycopy(st.xi, 0, st.k[0], 0, nv);
                System.arraycopy(st.a[6], 0, st.a[0], 0, nv);
                System.arraycopy(q, 0, savedQ, 0, st.nq);
                System.arraycopy(v, 0, savedV, 0, nv);
                savedT = t + h;
                fsal = true;
                double fac = err == 0 ? facMax : safety * Math.pow(err, -0.2);
                fac = Math.max(facMin, Math.min(rejectedBefore ? 1 : facMax, fac));
                proposed = Math.min(h * fac, maxStep);
                return h;
            }
            rejected++;
            rejectedBefore = true;
            double fac = Double.isNaN(err) ? facMin : Math.max(facMin, Math.min(1, safety * Math.pow(err, -0.2)));
            h *= fac;
            proposed = h;
            if (h < minStep) {
                throw new IllegalStateException("DormandPrince45: step size " + h + " s below the minimum " + minStep
                        + " s at t = " + t + " (error norm " + err + ")");
            }
        }
    }

    /**
     * Forgets the last evaluation, so the next step evaluates f at its initial state even if it is the state the
     * last step ended at (needed when f changed between steps, e.g. a controller's set point or Baumgarte switches).
     */
    public void reset() {
        fsal = false;
    }

    /** The error norm of the current trial step (see the class comment). */
    private double errorNorm(double h) {
        double sum = 0;
        double[][] k = st.k;
        double[][] a = st.a;
        for (int i = 0; i < nv; i++) {
            double eu = 0;
            double ev = 0;
            for (int j = 0; j < 7; j++) {
                eu += E[j] * k[j][i];
                ev += E[j] * a[j][i];
            }
            eu *= h;
            ev *= h;
            int p = positionIndex[i];
            double yu = p < 0 ? 1 : Math.max(Math.abs(st.q0[p]), Math.abs(st.qs[p]));
            double su = atol + rtol * yu;
            double sv = atol + rtol * Math.max(Math.abs(st.v0[i]), Math.abs(st.vs[i]));
            sum += (eu / su) * (eu / su) + (ev / sv) * (ev / sv);
        }
        return Math.sqrt(sum / (2 * nv));
    }

    /** Hairer's starting step (HNW I, II.4): h from ‖y₀‖, ‖f₀‖ and a difference quotient of f. */
    private double startingStep(double t) {
        double d0 = 0;
        double d1 = 0;
        for (int i = 0; i < nv; i++) {
            int p = positionIndex[i];
            double yu = p < 0 ? 0 : Math.abs(st.q0[p]);
            double su = atol + rtol * (p < 0 ? 1 : yu);
            double sv = atol + rtol * Math.abs(st.v0[i]);
            d0 += (yu / su) * (yu / su) + (st.v0[i] / sv) * (st.v0[i] / sv);
            d1 += (st.k[0][i] / su) * (st.k[0][i] / su) + (st.a[0][i] / sv) * (st.a[0][i] / sv);
        }
        d0 = Math.sqrt(d0 / (2 * nv));
        d1 = Math.sqrt(d1 / (2 * nv));
        double h0 = (d0 < 1e-5 || d1 < 1e-5) ? 1e-6 : 0.01 * d0 / d1;
        h0 = Math.min(h0, maxStep);
        st.stage(1, EULER, t + h0, h0);
        double d2 = 0;
        for (int i = 0; i < nv; i++) {
            int p = positionIndex[i];
            double su = atol + rtol * (p < 0 ? 1 : Math.abs(st.q0[p]));
            double sv = atol + rtol * Math.abs(st.v0[i]);
            double du = (st.k[1][i] - st.k[0][i]) / su;
            double dv = (st.a[1][i] - st.a[0][i]) / sv;
            d2 += du * du + dv * dv;
        }
        d2 = Math.sqrt(d2 / (2 * nv)) / h0;
        double m = Math.max(d1, d2);
        double h1 = m <= 1e-15 ? Math.max(1e-6, h0 * 1e-3) : Math.pow(0.01 / m, 0.2);
        return Math.max(Math.min(100 * h0, h1), minStep);
    }

    private static boolean equal(double[] a, double[] b) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] != b[i]) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int order() {
        return 5;
    }

    @Override
    public boolean isAdaptive() {
        return true;
    }

    @Override
    public long evaluations() {
        return st.evaluations;
    }

    @Override
    public StateSpace stateSpace() {
        return st.space;
    }

    /** Accepted steps so far. */
    public long acceptedSteps() {
        return accepted;
    }

    /** Rejected step attempts so far. */
    public long rejectedSteps() {
        return rejected;
    }

    /** The error norm of the last attempted step (≤ 1 if it was accepted). */
    public double lastErrorNorm() {
        return lastError;
    }

    /** The step the controller proposes next (s), NaN before the first step unless set. */
    public double proposedStep() {
        return proposed;
    }

    /** rtol. */
    public double relativeTolerance() {
        return rtol;
    }

    /** atol. */
    public double absoluteTolerance() {
        return atol;
    }

    @Override
    public String toString() {
        return "DormandPrince45{rtol=" + rtol + ", atol=" + atol + "}";
    }
}
