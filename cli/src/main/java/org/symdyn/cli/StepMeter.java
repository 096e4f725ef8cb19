package org.symdyn.cli;

import java.util.Locale;
import org.symdyn.generator.GenerationProgress;

/**
 * How far a simulation of n steps has come, on standard error through a {@link Progress}: on a terminal a one-line
 * bar redrawn in place at most {@value #REDRAWS_PER_SECOND} times a second
 * ({@code simulating [########------------]  40%  t = 4 / 10 s  12.1 s (18 s left)}),
 * otherwise a line each time another tenth of the steps is done or {@value #LINE_EVERY_SECONDS} s have passed since
 * the last line, whichever comes first. Nothing is shown during the grace period ({@link Progress#afterMillis}), so
 * a short run prints nothing; a run that showed something ends with {@code simulated n steps (t = T s) in D}.
 * Nothing at all with {@code --quiet}.
 *
 * <p>The same meter counts other units of work ({@link #counting}: {@code symdyn rollouts} counts finished rollouts,
 * {@code running [########------------]  40%  40/100 rollouts  12.1 s (18 s left)}), without the simulated time.
 *
 * <p>A bar written by hand rather than by a progress-bar library: the one line needs no terminal width (it is under
 * 80 columns), and the libraries that would fit bring a terminal library (JLine) into the command line's jar.
 */
final class StepMeter {
    /** The most bar redraws per second. */
    static final int REDRAWS_PER_SECOND = 10;
    /** The longest time between two lines when standard error is not a terminal, s. */
    static final int LINE_EVERY_SECONDS = 5;
    /** The bar's width in characters. */
    static final int BAR = 20;

    private final Progress progress;
    private final long total;
    /** The step size (s), or NaN when the meter counts units of work rather than steps. */
    private final double step;
    /** What the bar says is happening ("simulating"), what the last line says happened ("simulated"), the unit. */
    private final String doing;
    private final String doneWord;
    private final String unit;
    private final long start = System.nanoTime();
    private long lastShown = Long.MIN_VALUE;
    private long lastTenth;
    private boolean shown;
    /** The next step at which the clock is read: every step would cost a clock read per step for nothing. */
    private long nextCheck = 1;
    private long checkEvery = 1;

    /**
     * @param total the number of steps
     * @param step  the step size, s (to show the simulated time)
     */
    StepMeter(Progress progress, long total, double step) {
        this(progress, total, step, "simulating", "simulated", "steps");
    }

    private StepMeter(Progress progress, long total, double step, String doing, String done, String unit) {
        this.progress = progress;
        this.total = total;
        this.step = step;
        this.doing = doing;
        this.doneWord = done;
        this.unit = unit;
    }

    /**
     * A meter of {@code total} units of work that are not steps of a simulation: shows {@code doing}, the count of
     * {@code unit}, the time taken and left; ends with {@code "<done> <n> <unit> in <duration>"}.
     */
    static StepMeter counting(Progress progress, long total, String doing, String done, String unit) {
        return new StepMeter(progress, total, Double.NaN, doing, done, unit);
    }

    /** {@code done} of the steps are done. */
    void update(long done) {
        if (progress.quiet() || done < nextCheck) {
            return;
        }
        long now = System.nanoTime();
        long elapsedMillis = (now - start) / 1_000_000;
        // read the clock about every millisecond of work (at most every 1024 steps)
        if (elapsedMillis < 1) {
            checkEvery = Math.min(1024, checkEvery * 2);
        }
        nextCheck = done + checkEvery;
        if (elapsedMillis < progress.afterMillis()) {
            return;
        }
        long tenth = done * 10 / total;
        if (progress.terminal()) {
            if (!shown || now - lastShown >= 1_000_000_000L / REDRAWS_PER_SECOND || done == total) {
                progress.bar(bar(done, elapsedMillis));
                lastShown = now;
                shown = true;
            }
        } else if (!shown || tenth > lastTenth || now - lastShown >= LINE_EVERY_SECONDS * 1_000_000_000L) {
            progress.info(line(done, elapsedMillis));
            lastShown = now;
            lastTenth = tenth;
            shown = true;
        }
    }

    /** The run ended after {@code done} steps: the bar is cleared and, if anything was shown, a last line says so. */
    void finish(long done) {
        progress.clearBar();
        if (shown) {
            String time = Double.isNaN(step) ? "" : " (t = " + seconds(done * step) + " s)";
            progress.info(doneWord + " " + done + " " + unit + time + " in "
                    + GenerationProgress.duration(Progress.millisSince(start)));
        }
    }

    /** {@code simulating [########------------]  40%  t = 4 / 10 s  12.1 s (18 s left)}: under 80 columns. */
    private String bar(long done, long elapsedMillis) {
        int filled = (int) (BAR * done / total);
        if (Double.isNaN(step)) {
            return String.format(Locale.ROOT, "%s [%s%s] %3d%%  %d/%d %s  %s%s", doing, "#".repeat(filled),
                    "-".repeat(BAR - filled), done * 100 / total, done, total, unit,
                    GenerationProgress.duration(elapsedMillis), left(done, elapsedMillis));
        }
        return String.format(Locale.ROOT, "simulating [%s%s] %3d%%  t = %s / %s s  %s%s", "#".repeat(filled),
                "-".repeat(BAR - filled), done * 100 / total, seconds(done * step), seconds(total * step),
                GenerationProgress.duration(elapsedMillis), left(done, elapsedMillis));
    }

    /** {@code simulating  40%  4000/10000 steps  t = 4 s  12.1 s (18 s left)}. */
    private String line(long done, long elapsedMillis) {
        if (Double.isNaN(step)) {
            return String.format(Locale.ROOT, "%s %3d%%  %d/%d %s  %s%s", doing, done * 100 / total, done, total,
                    unit, GenerationProgress.duration(elapsedMillis), left(done, elapsedMillis));
        }
        return String.format(Locale.ROOT, "simulating %3d%%  %d/%d steps  t = %s s  %s%s", done * 100 / total, done,
                total, seconds(done * step), GenerationProgress.duration(elapsedMillis), left(done, elapsedMillis));
    }

    /** The time left if the remaining steps take as long each as the done ones, as {@code " (18 s left)"}. */
    private String left(long done, long elapsedMillis) {
        return done == 0 ? "" : " (" + GenerationProgress.duration(Math.round(elapsedMillis * (double) (total - done)
                / done)) + " left)";
    }

    /** A simulated time to the millisecond (the microsecond in runs shorter than a second), as JSON writes it. */
    private String seconds(double t) {
        double unit = total * step < 1 ? 1e6 : 1e3;
        return org.symdyn.cli.json.JsonWriter.formatNumber(Math.round(t * unit) / unit);
    }
}
