package org.symdyn.simulation;

import org.symdyn.manifold.StateSpace;

/**
 * One segment of an {@link IntegrationLoop} with events: an integrator step with the hybrid system's modes fixed,
 * cut at the first root of its event functions. The root is bracketed between the segment's start (no event) and
 * the integrator step's end (an event), and the bracket [lo, hi] shrinks by the Illinois variant of regula falsi:
 * <pre>
 *   τ = min over the functions negative at hi of  lo + (hi − lo) a / (a − c),   a = s_lo g(lo), c = s_hi g(hi)
 * </pre>
 * with the scale s of the end kept twice in a row halved (so that the kept end does not stall the bracket), τ held
 * {@code 0.25 × tolerance} inside the bracket, bisection after 60 trials and at most 200 trials. Each trial
 * re-integrates from the segment's start to τ.
 *
 * <p>Allocated at construction; a segment allocates nothing. Not thread-safe.
 */
final class EventLocation {
    private final Integrator integrator;
    private final DormandPrince45 adaptive;
    private final HybridEvents hybrid;
    private final double tolerance;
    private final int nq;
    private final int nv;
    private final double[] q0;
    private final double[] v0;
    private final double[] qLo;
    private final double[] vLo;
    private final double[] qHi;
    private final double[] vHi;
    private final double[] qTry;
    private final double[] vTry;
    private final double[] gLo;
    private final double[] gHi;
    private final double[] gTry;
    /** The segment start's time, for the re-integrations. */
    private double t;
    /** Segments cut at an event since the loop's reset. */
    long events;

    EventLocation(Integrator integrator, DormandPrince45 adaptive, HybridEvents hybrid, StateSpace space,
            double tolerance) {
        this.integrator = integrator;
        this.adaptive = adaptive;
        this.hybrid = hybrid;
        this.tolerance = tolerance;
        this.nq = space.nq();
        this.nv = space.nv();
        int n = hybrid.eventFunctionCount();
        q0 = new double[nq];
        v0 = new double[nv];
        qLo = new double[nq];
        vLo = new double[nv];
        qHi = new double[nq];
        vHi = new double[nv];
        qTry = new double[nq];
        vTry = new double[nv];
        gLo = new double[n];
        gHi = new double[n];
        gTry = new double[n];
    }

    /**
     * One integrator step of at most {@code remaining} from (t, q, v) with the modes fixed; if an event function
     * changed sign, the step is cut at its first root and (q, v) left just before it. Returns the time advanced.
     */
    double segment(double start, double remaining, double[] q, double[] v) {
        t = start;
        System.arraycopy(q, 0, q0, 0, nq);
        System.arraycopy(v, 0, v0, 0, nv);
        hybrid.events(q0, v0, gLo);
        System.arraycopy(q0, 0, qHi, 0, nq);
        System.arraycopy(v0, 0, vHi, 0, nv);
        if (adaptive != null) {
            adaptive.reset(); // the modes (and perhaps v, by a jump) changed since the last evaluation
        }
        double limit = hybrid.segmentLimit(t, q0, v0, remaining);
        double taken = integrator.step(t, Math.min(remaining, limit), qHi, vHi);
        if (!hybrid.events(qHi, vHi, gHi)) {
            System.arraycopy(qHi, 0, q, 0, nq);
            System.arraycopy(vHi, 0, v, 0, nv);
            return taken;
        }
        events++;
        double proposal = adaptive != null ? adaptive.proposedStep() : Double.NaN;
        System.arraycopy(q0, 0, qLo, 0, nq);
        System.arraycopy(v0, 0, vLo, 0, nv);
        double lo = 0;
        double hi = taken;
        double scaleLo = 1;
        double scaleHi = 1;
        int lastMoved = 0; // +1 hi, −1 lo
        for (int it = 0; it < 200 && hi - lo > tolerance; it++) {
            double tau = hi;
            if (it < 60) {
                for (int p = 0; p < gHi.length; p++) {
                    if (gHi[p] < 0) {
                        double a = scaleLo * gLo[p];
                        double c = scaleHi * gHi[p];
                        tau = Math.min(tau, lo + (hi - lo) * (a / (a - c)));
                    }
                }
            } else {
                tau = 0.5 * (lo + hi); // a safeguard: regula falsi has not closed the bracket
            }
            double guard = 0.25 * tolerance;
            tau = Math.max(lo + guard, Math.min(hi - guard, tau));
            advance(tau);
            if (hybrid.events(qTry, vTry, gTry)) {
                hi = tau;
                System.arraycopy(qTry, 0, qHi, 0, nq);
                System.arraycopy(vTry, 0, vHi, 0, nv);
                System.arraycopy(gTry, 0, gHi, 0, gHi.length);
                scaleLo = lastMoved == 1 ? 0.5 * scaleLo : 1; // Illinois: halve the end kept twice
                scaleHi = 1;
                lastMoved = 1;
            } else {
                lo = tau;
                System.arraycopy(qTry, 0, qLo, 0, nq);
                System.arraycopy(vTry, 0, vLo, 0, nv);
                System.arraycopy(gTry, 0, gLo, 0, gLo.length);
                scaleHi = lastMoved == -1 ? 0.5 * scaleHi : 1;
                scaleLo = 1;
                lastMoved = -1;
            }
        }
        if (adaptive != null) {
            adaptive.initialStep(proposal);
        }
        // just before the event (no gap closed yet, no slip reversed), unless that is the segment's start
        if (lo > 0) {
            System.arraycopy(qLo, 0, q, 0, nq);
            System.arraycopy(vLo, 0, v, 0, nv);
            return lo;
        }
        System.arraycopy(qHi, 0, q, 0, nq);
        System.arraycopy(vHi, 0, v, 0, nv);
        return hi;
    }

    /** (qTry, vTry) = the state a time tau after the segment start (q0, v0), by the integrator. */
    private void advance(double tau) {
        System.arraycopy(q0, 0, qTry, 0, nq);
        System.arraycopy(v0, 0, vTry, 0, nv);
        if (!integrator.isAdaptive()) {
            integrator.step(t, tau, qTry, vTry);
            return;
        }
        double done = 0;
        while (tau - done > 0) {
            double rest = tau - done;
            if (adaptive != null) {
                adaptive.reset();
                adaptive.initialStep(rest); // try the whole rest first: the trial ends exactly at tau
            }
            double taken = integrator.step(t + done, rest, qTry, vTry);
            done = taken == rest ? tau : done + taken;
        }
    }
}
