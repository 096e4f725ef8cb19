package org.symdyn.simulation;

import java.util.function.DoubleConsumer;
import java.util.function.DoubleSupplier;

/**
 * The steps of a run from t_0 to t_end in steps of h: n = ⌈(t_end − t_0)/h − 10⁻⁶⌉ steps (a remainder below 10⁻⁶ h
 * joins the last step), step k ending at t_0 + k h and the last at t_end, each step's length taken as its end less
 * the time reached (asked again while an adaptive integrator stops short: {@link #reached}). Counting the steps,
 * not summing them: a run that added h to t until t_end was reached ended with
 * a step of the sum's rounding alone (1.7e-8 s after 10⁶ steps of 1 ms), and a time-stepping system divided its
 * impulses and Δv by it (a box at rest read an IMU and a floor force of 0; a helper's probe and a review's).
 */
public final class StepGrid {
    private StepGrid() {
    }

    /**
     * The number of steps from t0 to tEnd: 0 when tEnd is not beyond t0 by more than 10⁻⁹ h (or 10⁻¹² of |t_end|).
     *
     * @throws IllegalArgumentException if tEnd is not finite or h is not positive and finite
     */
    public static long count(double t0, double tEnd, double h) {
        if (!Double.isFinite(tEnd)) {
            throw new IllegalArgumentException("end time must be a finite number of seconds, got " + tEnd);
        }
        if (!(h > 0) || Double.isInfinite(h)) {
            throw new IllegalArgumentException("step must be positive and finite, got " + h);
        }
        if (reached(t0, tEnd, h)) {
            return 0;
        }
        return Math.max(1, (long) Math.ceil((tEnd - t0) / h - 1e-6));
    }

    /**
     * True once t is within 10⁻⁹ h (or 10⁻¹² of |target|) of the target: an adaptive integrator may take less than
     * it was asked, and is asked again for the rest.
     */
    public static boolean reached(double t, double target, double h) {
        return !(target - t > Math.max(1e-9 * h, 1e-12 * Math.max(1, Math.abs(target))));
    }

    /**
     * Runs from the clock's time to t_end: each step of the grid asked of {@code step} (its length), again while the
     * clock has not reached the step's end.
     *
     * @param clock the time reached (s)
     * @param step  takes a step of the given length (s)
     * @return the number of steps taken
     * @throws IllegalArgumentException if tEnd is not finite or h is not positive and finite
     */
    public static long run(double tEnd, double h, DoubleSupplier clock, DoubleConsumer step) {
        double t0 = clock.getAsDouble();
        long n = count(t0, tEnd, h);
        long taken = 0;
        for (long k = 1; k <= n; k++) {
            double target = end(t0, tEnd, h, k, n);
            do { // an adaptive integrator may take less than it was asked
                step.accept(target - clock.getAsDouble());
                taken++;
            } while (!reached(clock.getAsDouble(), target, h));
        }
        return taken;
    }

    /** Where step k of n (1-based) ends: t0 + k h, and t_end for the last. */
    public static double end(double t0, double tEnd, double h, long k, long n) {
        return k >= n ? tEnd : t0 + k * h;
    }
}
