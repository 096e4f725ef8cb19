package org.symdyn.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.symdyn.generator.GenerationPipeline.ModelInput;
import org.symdyn.generator.GenerationPipeline.Problem;
import org.symdyn.generator.GenerationProgress;

/**
 * What a command is doing while it works, on standard error: one line when a stage starts and one when it ends,
 * with its duration ({@code romeo_small.urdf: deriving and emitting org.x.RomeoDynamics ...}, then
 * {@code romeo_small.urdf: derived and emitted in 95.3 s}), and warnings at once.
 *
 * <p>Work that ends within the grace period ({@value #DEFAULT_AFTER_MILLIS} ms, or the system property
 * {@value #AFTER_PROPERTY} in milliseconds) prints nothing: a stage's start line is printed once the stage has run
 * that long (by a timer, so a stage that runs for minutes says so after the grace period, not at its end), its end
 * line only when its start line was printed or it took that long. With {@code --quiet} ({@link #quiet}) nothing but
 * warnings is printed. The step meter of a simulation is {@link StepMeter}.
 *
 * <p>As the {@link GenerationProgress} of a {@link org.symdyn.generator.GenerationPipeline} it prints the pipeline's
 * stages and warnings. Thread-safe: the timer prints from its own thread.
 */
final class Progress implements GenerationProgress {
    /** The system property that sets the grace period, in milliseconds. */
    static final String AFTER_PROPERTY = "symdyn.progress.after";
    /** The grace period by default, in milliseconds. */
    static final long DEFAULT_AFTER_MILLIS = 1000;

    /** One daemon thread for every command's pending start lines. */
    private static final class Timer {
        static final ScheduledExecutorService INSTANCE = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "symdyn-progress");
            t.setDaemon(true);
            return t;
        });
    }

    private final PrintStream err;
    private final boolean quiet;
    private final boolean terminal;
    private final long afterMillis;
    private ScheduledFuture<?> pending;
    private boolean startShown;
    /** Whether a step meter's bar is on the terminal's current line (cleared before any other line). */
    private boolean barShown;

    /**
     * @param err      standard error
     * @param quiet    print warnings only
     * @param terminal whether {@code err} is a terminal (a step meter then redraws one line)
     */
    Progress(PrintStream err, boolean quiet, boolean terminal) {
        this.err = err;
        this.quiet = quiet;
        this.terminal = terminal;
        this.afterMillis = Math.max(0, Long.getLong(AFTER_PROPERTY, DEFAULT_AFTER_MILLIS));
    }

    /** The progress of a command that prints to {@code err}; a terminal when it is the process's standard error. */
    static Progress of(PrintStream err, boolean quiet) {
        return new Progress(err, quiet, err == System.err && stderrIsTerminal());
    }

    /**
     * Whether the process's standard error is a terminal: on Linux its file descriptor links to a {@code /dev/pts}
     * or {@code /dev/tty} device; elsewhere, whether the JVM has a console.
     */
    static boolean stderrIsTerminal() {
        Path fd = Path.of("/proc/self/fd/2");
        try {
            if (Files.isSymbolicLink(fd)) {
                String device = Files.readSymbolicLink(fd).toString();
                return device.startsWith("/dev/pts/") || device.startsWith("/dev/tty");
            }
        } catch (IOException | RuntimeException e) {
            // no /proc: fall back to the console below
        }
        return System.console() != null;
    }

    /** Whether nothing but warnings is printed. */
    boolean quiet() {
        return quiet;
    }

    /** The grace period in milliseconds: work that ends sooner prints nothing. */
    long afterMillis() {
        return afterMillis;
    }

    /** Whether standard error is a terminal. */
    boolean terminal() {
        return terminal;
    }

    /**
     * A stage starts: {@code doing} (such as {@code "robot.urdf: reading"}) is printed, followed by {@code " ..."},
     * once the stage has run for the grace period.
     */
    synchronized void started(String doing) {
        if (quiet) {
            return;
        }
        cancelPending();
        startShown = false;
        if (afterMillis == 0) {
            showStart(doing);
            return;
        }
        pending = Timer.INSTANCE.schedule(() -> {
            synchronized (Progress.this) {
                if (pending != null) {
                    pending = null;
                    showStart(doing);
                }
            }
        }, afterMillis, TimeUnit.MILLISECONDS);
    }

    /**
     * The stage ended after {@code millis} ms: {@code done in <duration>} is printed when its start was or the stage
     * took the grace period.
     */
    synchronized void ended(String done, long millis) {
        if (quiet) {
            return;
        }
        cancelPending();
        if (startShown || millis >= afterMillis) {
            line(done + " in " + GenerationProgress.duration(millis));
        }
        startShown = false;
    }

    /** An information line of long work (a step meter's), printed unless quiet. */
    synchronized void info(String text) {
        if (!quiet) {
            line(text);
        }
    }

    /** A warning, printed at once, also when quiet. */
    synchronized void warning(String text) {
        line(text);
    }

    /** Draws {@code text} over the terminal's current line (a step meter's bar); only on a terminal. */
    synchronized void bar(String text) {
        if (!quiet && terminal) {
            err.print("\r" + text + "\u001b[K");
            err.flush();
            barShown = true;
        }
    }

    /**
     * Ends the command's progress: a start line not printed yet never will be (a stage that failed is started but
     * not ended), and a bar is cleared.
     */
    synchronized void close() {
        cancelPending();
        clearBar();
    }

    /** Removes a bar from the terminal's current line. */
    synchronized void clearBar() {
        if (barShown) {
            err.print("\r\u001b[K");
            err.flush();
            barShown = false;
        }
    }

    private void showStart(String doing) {
        line(doing + " ...");
        startShown = true;
    }

    private void cancelPending() {
        if (pending != null) {
            pending.cancel(false);
            pending = null;
        }
    }

    private void line(String text) {
        clearBar();
        err.println(text);
        err.flush();
    }

    @Override
    public void stageStarted(ModelInput input, Stage stage, String className) {
        started(input.name() + ": " + stage.doing() + (className == null ? "" : " " + className));
    }

    @Override
    public void stageEnded(ModelInput input, Stage stage, long millis) {
        ended(input.name() + ": " + stage.done(), millis);
    }

    @Override
    public void warning(Problem warning) {
        warning(warning.toString());
    }

    /** Milliseconds since {@code startNanos} ({@link System#nanoTime}). */
    static long millisSince(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }
}
