package org.symdyn.benchmarks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.contract.Dynamics;
import org.symdyn.generator.CodeGenerator;
import org.symdyn.generator.InProcessCompiler;
import org.symdyn.model.Model;

/**
 * Interleaved A/B timing of the generated code before and after issue 18 (branch-free sine/cosine quadrants and
 * edge side), in one JVM: for each model two classes are generated, A with {@code -Dsymdyn.generator.branchyTrig=true}
 * (the pre-issue-18 {@code ?:} quadrant choice) and B as generated now; then rounds of {@code --round-ms} (20) ms
 * call one method of A, then of B (order alternating), {@code --rounds} (150) times per method, and the medians of
 * the per-round ns/call are compared. Interleaving cancels the machine's slow phases, which move separate JMH runs on
 * a shared machine by 10-30 %; the spread of B/A over the rounds is printed as the noise to compare with.
 *
 * <p>{@code --angles small} (default: joint angles in [−0.5, 0.5], the old code's best case, every branch predicted),
 * {@code circle} (uniform over [−π, π], random quadrants every call) or {@code walk} (a slow random walk over the
 * whole circle, like a moving robot). {@code --models iiwa14_no_collision,solo12} (any of ../shared/models).
 *
 * <p>{@code java -cp benchmarks/target/benchmarks.jar org.symdyn.benchmarks.InterleavedAB --models
 * iiwa14_no_collision,solo12 --angles small --rounds 150}
 */
public final class InterleavedAB {
    private static final String[] METHODS = {"massMatrix", "biasForces", "gravityForces", "inverseDynamics",
        "forwardDynamics"};
    private static final int POOL = 256;

    private InterleavedAB() {
    }

    public static void main(String[] args) throws Exception {
        try {
            start(args);
        } catch (MissingInputException e) {
            System.err.println("InterleavedAB: " + e.getMessage());
            System.exit(1);
        }
    }

    private static void start(String[] args) throws Exception {
        List<String> models = List.of("iiwa14_no_collision", "solo12");
        String angles = "small";
        int rounds = 150;
        int roundMs = 20;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--models" -> models = List.of(args[++i].split(","));
                case "--angles" -> angles = args[++i];
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--round-ms" -> roundMs = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        System.out.printf("# A = branchy (pre-issue-18), B = branch-free; angles %s; %d rounds of %d ms per class "
                + "and method%n", angles, rounds, roundMs);
        System.out.printf("%-22s %-16s %10s %10s %8s %16s%n", "model", "method", "A ns", "B ns", "B/A",
                "B/A rounds p10-p90");
        for (String name : models) {
            Model model = BenchmarkStates.readModel(name);
            Dynamics a = generate(model, "AB_" + name + "_A", true);
            Dynamics b = generate(model, "AB_" + name + "_B", false);
            double[][] q = states(model, angles);
            Random rnd = new Random(BenchmarkStates.SEED + 1);
            double[] v = BenchmarkStates.uniform(rnd, model.nv(), 1.0);
            double[] x = BenchmarkStates.uniform(rnd, model.nv(), 1.0);
            for (String method : METHODS) {
                Runnable[] calls = new Runnable[2];
                int[] k = new int[1];
                for (int side = 0; side < 2; side++) {
                    Dynamics d = side == 0 ? a : b;
                    DMatrixRMaj h = new DMatrixRMaj(model.nv(), model.nv());
                    double[] out = new double[model.nv()];
                    calls[side] = switch (method) {
                        case "massMatrix" -> () -> d.massMatrix(q[k[0]++ & (POOL - 1)], h);
                        case "biasForces" -> () -> d.biasForces(q[k[0]++ & (POOL - 1)], v, out);
                        case "gravityForces" -> () -> d.gravityForces(q[k[0]++ & (POOL - 1)], out);
                        case "inverseDynamics" -> () -> d.inverseDynamics(q[k[0]++ & (POOL - 1)], v, x, out);
                        default -> () -> d.forwardDynamics(q[k[0]++ & (POOL - 1)], v, x, out);
                    };
                }
                // Warm both (C2) before timing.
                for (int w = 0; w < 3; w++) {
                    timeRound(calls[0], 300);
                    timeRound(calls[1], 300);
                }
                BenchmarkStates.awaitIdleJit(500, 10_000);
                double[][] ns = new double[2][rounds];
                double[] ratio = new double[rounds];
                for (int r = 0; r < rounds; r++) {
                    int first = r & 1;
                    ns[first][r] = timeRound(calls[first], roundMs);
                    ns[1 - first][r] = timeRound(calls[1 - first], roundMs);
                    ratio[r] = ns[1][r] / ns[0][r];
                }
                double ma = median(ns[0]);
                double mb = median(ns[1]);
                double[] sorted = ratio.clone();
                Arrays.sort(sorted);
                System.out.printf("%-22s %-16s %10.1f %10.1f %8.3f %7.3f-%-8.3f%n", name, method, ma, mb, mb / ma,
                        sorted[rounds / 10], sorted[rounds * 9 / 10]);
            }
        }
    }

    static Dynamics generate(Model model, String className, boolean branchy) throws Exception {
        String old = System.getProperty("symdyn.generator.branchyTrig");
        System.setProperty("symdyn.generator.branchyTrig", Boolean.toString(branchy));
        try {
            CodeGenerator.GeneratedClass gen = new CodeGenerator().generate(model,
                    new CodeGenerator.Options("org.symdyn.benchmarks.ab", className));
            if (branchy != gen.source().contains("& 1) == 0 ?")) {
                throw new IllegalStateException("the branchy switch had no effect on " + className);
            }
            return (Dynamics) InProcessCompiler.compile(gen).type().getDeclaredConstructor().newInstance();
        } finally {
            if (old == null) {
                System.clearProperty("symdyn.generator.branchyTrig");
            } else {
                System.setProperty("symdyn.generator.branchyTrig", old);
            }
        }
    }

    static double[][] states(Model model, String angles) {
        Random rnd = new Random(BenchmarkStates.SEED);
        double[][] q = new double[POOL][];
        double[] walk = LatencyBenchmark.wholeCircle(model, rnd);
        for (int i = 0; i < POOL; i++) {
            switch (angles) {
                case "small" -> {
                    q[i] = BenchmarkStates.randomConfiguration(model, rnd);
                    for (int j = 0; j < q[i].length; j++) {
                        if (!model.qNames().get(j).matches(".*:q[xyzw]$")) {
                            q[i][j] *= 0.5;
                        }
                    }
                }
                case "circle" -> q[i] = LatencyBenchmark.wholeCircle(model, rnd);
                case "walk" -> {
                    q[i] = walk.clone();
                    for (int j = 0; j < walk.length; j++) {
                        if (!model.qNames().get(j).matches(".*:q[xyzw]$")) {
                            walk[j] += 0.05 * (2 * rnd.nextDouble() - 1) + 0.02;
                        }
                    }
                }
                default -> throw new IllegalArgumentException("--angles small|circle|walk: " + angles);
            }
        }
        return q;
    }

    /** ns per call over a round of about {@code millis} ms. */
    private static double timeRound(Runnable call, int millis) {
        long end = System.nanoTime() + millis * 1_000_000L;
        long calls = 0;
        long start = System.nanoTime();
        long now;
        do {
            for (int i = 0; i < 64; i++) {
                call.run();
            }
            calls += 64;
            now = System.nanoTime();
        } while (now < end);
        return (double) (now - start) / calls;
    }

    private static double median(double[] x) {
        double[] s = x.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }
}
