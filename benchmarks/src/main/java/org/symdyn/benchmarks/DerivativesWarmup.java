package org.symdyn.benchmarks;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.contract.DynamicsDerivatives;
import org.symdyn.io.ModelFileReader;
import org.symdyn.model.Model;

/**
 * How long a fresh JVM takes until a generated class's derivatives run at their steady speed (issue 35's warm-up
 * question: a controller that starts cold must know when it is warm). Not JMH: JMH's warm-up is what this measures.
 *
 * <pre>
 *   java -cp benchmarks/target/benchmarks.jar org.symdyn.benchmarks.DerivativesWarmup CLASSES_DIR CLASS MODEL [SECONDS [floating]]
 * </pre>
 * CLASSES_DIR holds the compiled class (from {@code symdyn generate --derivatives} and javac), CLASS its name, MODEL
 * the model file (for nq, nv and a state; {@code floating} reads it with a floating base, as {@code generate --floating}). From the first call, {@code forwardDynamicsDerivatives} (∂v̇/∂q, ∂v̇/∂v,
 * H⁻¹) runs back to back on states that move a little every call (so that no value stays constant), timed in batches
 * of 50 calls, for SECONDS (default 20). Prints the steady time per call (median of the last quarter's batches), the
 * first call's time, and the elapsed time and call count from which on the median of every window of 40 batches
 * stays within 1.2x of steady.
 * Run it pinned to one CPU ({@code taskset -c 1}: the JIT's compiler threads share the CPU with the calls) and on two
 * ({@code taskset -c 0,1}: they compile on the other).
 */
public final class DerivativesWarmup {
    private static final int BATCH = 50;
    /** Batches per window of the settling criterion. */
    private static final int WINDOW = 40;

    private DerivativesWarmup() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            System.err.println("usage: DerivativesWarmup CLASSES_DIR CLASS MODEL [SECONDS]");
            System.exit(2);
        }
        double seconds = args.length > 3 ? Double.parseDouble(args[3]) : 20;
        Model model = ModelFileReader.read(Path.of(args[2]), new ModelFileReader.Options(args.length > 4
                && args[4].equals("floating"), false, false));
        long tLoad = System.nanoTime();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {Path.of(args[0]).toUri().toURL()},
                DerivativesWarmup.class.getClassLoader())) {
            DynamicsDerivatives d = (DynamicsDerivatives) loader.loadClass(args[1]).getDeclaredConstructor()
                    .newInstance();
            run(d, model, seconds, tLoad);
        }
    }

    private static void run(DynamicsDerivatives d, Model model, double seconds, long tLoad) {
        int nv = model.nv();
        double[] q = model.neutralConfiguration();
        double[] v = new double[nv];
        double[] tau = new double[nv];
        DMatrixRMaj a = new DMatrixRMaj(nv, nv);
        DMatrixRMaj b = new DMatrixRMaj(nv, nv);
        DMatrixRMaj c = new DMatrixRMaj(nv, nv);
        int maxBatches = (int) (seconds * 1e9 / 1000 / BATCH) + 1;
        double[] perCall = new double[Math.min(maxBatches, 10_000_000)];
        double[] at = new double[perCall.length];
        long start = System.nanoTime();
        long t = System.nanoTime();
        d.forwardDynamicsDerivatives(q, v, tau, a, b, c);
        double first = (System.nanoTime() - t) / 1e3;
        int n = 0;
        long end = start + (long) (seconds * 1e9);
        double phase = 0;
        while (n < perCall.length) {
            long b0 = System.nanoTime();
            if (b0 > end) {
                break;
            }
            for (int k = 0; k < BATCH; k++) {
                phase += 1e-3;
                int j = (int) (phase * 1000) % nv;
                int qj = Math.min(j, q.length - 1);
                q[qj] = 0.3 * Math.sin(phase + j);
                v[j] = Math.cos(phase * 1.3 + j);
                tau[j] = 0.5 * Math.sin(phase * 0.7 + j);
                if (model.hasFloatingBase()) {
                    q[3] = 0;
                    q[4] = 0;
                    q[5] = 0;
                    q[6] = 1;
                }
                d.forwardDynamicsDerivatives(q, v, tau, a, b, c);
            }
            long b1 = System.nanoTime();
            perCall[n] = (b1 - b0) / 1e3 / BATCH;
            at[n] = (b1 - start) / 1e9;
            n++;
        }
        double[] tail = Arrays.copyOfRange(perCall, n - n / 4, n);
        Arrays.sort(tail);
        double steady = tail[tail.length / 2];
        // settled: the first batch from which on every window of WINDOW batches has its median within 1.2x of steady
        // (single slow batches, a GC or the timer, do not count)
        int settled = n;
        double[] window = new double[WINDOW];
        for (int i = n - WINDOW; i >= 0; i--) {
            System.arraycopy(perCall, i, window, 0, WINDOW);
            Arrays.sort(window);
            if (window[WINDOW / 2] > 1.2 * steady) {
                break;
            }
            settled = i;
        }
        // The last window above 1.2x can be the run's own last one (a loaded machine): then it never settled.
        String settling = settled < n ? String.format(Locale.ROOT, "from t = %.2f s (after %d calls) on", at[settled],
                (long) settled * BATCH) : "never (the last window was above it: rerun longer or on a quieter machine)";
        System.out.printf(Locale.ROOT, "%s (nv %d): first call %.0f us (class loaded %.0f ms before); steady %.2f us"
                + " per call; windows within 1.2x of steady %s; batches of %d calls: %d%n",
                model.name(), nv, first, (start - tLoad) / 1e6, steady, settling, BATCH, n);
        for (double mark : new double[] {0.01, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10}) {
            int i = 0;
            while (i < n && at[i] < mark) {
                i++;
            }
            if (i < n) {
                System.out.printf(Locale.ROOT, "  t = %5.2f s: %.2f us per call (%.1fx steady)%n", at[i], perCall[i],
                        perCall[i] / steady);
            }
        }
    }
}
