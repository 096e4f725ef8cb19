package org.symdyn.spark;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.SparkSession;
import org.symdyn.rollout.Outcomes;
import org.symdyn.rollout.RolloutSpec;
import org.symdyn.rollout.Rollouts;
import org.symdyn.samples.QuadrupedRollouts;
import org.symdyn.samples.generated.QuadrupedDynamics;

/**
 * What Spark's local mode costs over plain threads, the same machine and thread count: the samples' quadruped
 * drops (1 s at 1 ms, generated class) run by {@link Rollouts} on 2 threads and by {@link SparkRollouts} in
 * {@code local[2]}, with as many partitions as cores and with 8 per core. Each figure the median of 5 runs after
 * a warm-up of both; the session's start is timed once. Not a test: run it on a quiet machine (README.md says how).
 *
 * <pre>
 *   java @spark-jvm-options -cp ... org.symdyn.spark.SparkOverhead 100 1000
 * </pre>
 */
public final class SparkOverhead {
    private static final int REPEATS = 5;

    private SparkOverhead() {
    }

    public static void main(String[] args) {
        int[] counts = args.length == 0 ? new int[] {100, 1000} : Arrays.stream(args).mapToInt(Integer::parseInt)
                .toArray();
        long t0 = System.nanoTime();
        SparkSession spark = LocalSpark.session(SparkOverhead.class);
        double startup = (System.nanoTime() - t0) * 1e-9;
        try {
            Rollouts threads = Rollouts.builder(QuadrupedDynamics::new, QuadrupedRollouts.systems()).threads(2)
                    .build();
            RolloutJob job = RolloutJob.generated(QuadrupedDynamics.class.getName(),
                    model -> QuadrupedRollouts.systems());
            List<RolloutSpec> warm = QuadrupedRollouts.dropSpecs(300, 1);
            threads.run(warm, Outcomes.finalState());
            SparkRollouts.run(SparkRollouts.specs(spark, warm, 16), job).collectAsList();
            System.out.printf(Locale.ROOT, "SparkSession local[2] start: %.2f s%n", startup);
            System.out.printf(Locale.ROOT, "%6s %12s %16s %16s%n", "N", "threads(2)", "local[2], 2 p.",
                    "local[2], 16 p.");
            for (int n : counts) {
                List<RolloutSpec> specs = QuadrupedRollouts.dropSpecs(n, 2026);
                double[] t = new double[REPEATS];
                double[] s2 = new double[REPEATS];
                double[] s16 = new double[REPEATS];
                for (int r = 0; r < REPEATS; r++) {
                    long a = System.nanoTime();
                    threads.run(specs, Outcomes.finalState());
                    long b = System.nanoTime();
                    SparkRollouts.run(SparkRollouts.specs(spark, specs, 2), job).collectAsList();
                    long c = System.nanoTime();
                    SparkRollouts.run(SparkRollouts.specs(spark, specs, 16), job).collectAsList();
                    long d = System.nanoTime();
                    t[r] = (b - a) * 1e-9;
                    s2[r] = (c - b) * 1e-9;
                    s16[r] = (d - c) * 1e-9;
                }
                double mt = median(t);
                double m2 = median(s2);
                double m16 = median(s16);
                System.out.printf(Locale.ROOT, "%6d %10.2f s %9.2f s %+4.0f%% %9.2f s %+4.0f%%%n", n, mt, m2,
                        100 * (m2 / mt - 1), m16, 100 * (m16 / mt - 1));
            }
            // the fixed costs alone: rollouts of no step (each still builds its system and sets its state)
            int n = counts[counts.length - 1];
            List<RolloutSpec> empty = QuadrupedRollouts.dropSpecs(n, 2026).stream()
                    .map(s -> new RolloutSpec(s.q0(), s.v0(), s.parameters(), s.seed(), 0, s.timeStep())).toList();
            double[] t = new double[REPEATS];
            double[] s2 = new double[REPEATS];
            double[] s16 = new double[REPEATS];
            for (int r = 0; r < REPEATS; r++) {
                long a = System.nanoTime();
                threads.run(empty, Outcomes.finalState());
                long b = System.nanoTime();
                SparkRollouts.run(SparkRollouts.specs(spark, empty, 2), job).collectAsList();
                long c = System.nanoTime();
                SparkRollouts.run(SparkRollouts.specs(spark, empty, 16), job).collectAsList();
                long d = System.nanoTime();
                t[r] = (b - a) * 1e-9;
                s2[r] = (c - b) * 1e-9;
                s16[r] = (d - c) * 1e-9;
            }
            System.out.printf(Locale.ROOT, "%6d rollouts of 0 s: threads %.3f s, local[2] 2 p. %.3f s, 16 p. %.3f s%n",
                    n, median(t), median(s2), median(s16));
        } finally {
            spark.stop();
        }
    }

    private static double median(double[] x) {
        double[] s = x.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }
}
