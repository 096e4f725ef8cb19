package org.symdyn.benchmarks;

import java.util.Locale;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.constraints.ConstraintSet;
import org.symdyn.contract.ConstrainedSystemFactorization;
import org.symdyn.model.Model;
import org.symdyn.solvers.ConstrainedDynamics;
import org.symdyn.solvers.ConstrainedSystemSolver;

/**
 * The generated constrained forward dynamics of a model with declared rows taken apart (not JMH: plain loops, one
 * JVM): the fused system evaluation (H, C, G, γ), the generated factorisation and the generated solve, each called
 * alone in a loop, then in pairs and all together, and the whole {@link ConstrainedDynamics#forwardDynamicsDirect}
 * beside the unconstrained forward dynamics. When a pair costs more than the sum of its parts, the difference is not
 * arithmetic (the same calls on the same data; nor data traffic: the factorisation reading a copy of H and G pays the
 * same), and it appears as the calls' machine code grows past the instruction cache ({@link CodeFootprint}, printed
 * at the end): most likely instruction fetch (this machine's virtual CPUs expose no hardware counters to confirm it
 * with). Same models, rows and state as {@link ConstrainedSolverBenchmark} (the quadruped and solo12 standing on
 * their feet's 12 declared rows). The "all three" loop is the direct method's generated path without its checks; the
 * pivot ratio printed first says whether {@code forwardDynamicsDirect} also refines (at or below
 * {@link org.symdyn.solvers.ConstrainedSystemSolver#REFINE_PIVOT_RATIO}: one more solve).
 *
 * <p>Usage: {@code taskset -c 1 java -cp benchmarks/target/benchmarks.jar org.symdyn.benchmarks.ConstrainedSolveParts
 * [quadruped|solo12Declared] [calls per round, default 200000] [rounds, default 6]}; the first rounds include the
 * JIT's compilation, so read the last ones. Bad arguments: a usage line and exit status 2; a model file that cannot
 * be found: its one-line message and status 1. See benchmarks/README.md, "Machine code footprint".
 */
public final class ConstrainedSolveParts {
    private ConstrainedSolveParts() {
    }

    private static final String USAGE = "usage: ConstrainedSolveParts [quadruped|solo12Declared] [calls per round"
            + " >= 1, default 200000] [rounds >= 1, default 6]";

    public static void main(String[] args) throws Exception {
        String model = args.length > 0 ? args[0] : "quadruped";
        int calls = args.length > 1 ? positive(args[1]) : 200_000;
        int rounds = args.length > 2 ? positive(args[2]) : 6;
        if (args.length > 3) {
            usageError("too many arguments");
        } else if (!model.equals("quadruped") && !model.equals("solo12Declared")) {
            usageError("model must be quadruped or solo12Declared (a class that declares its rows): " + model);
        } else if (calls < 1 || rounds < 1) {
            usageError("calls and rounds must be whole numbers of at least 1");
        }
        try {
            run(model, calls, rounds);
        } catch (MissingInputException e) {
            System.err.println("ConstrainedSolveParts: " + e.getMessage());
            System.exit(1);
        }
    }

    /** A user's mistake: the problem and the usage on standard error, exit status 2. */
    private static void usageError(String problem) {
        System.err.println("ConstrainedSolveParts: " + problem);
        System.err.println(USAGE);
        System.exit(2);
    }

    /** The argument as a count, or 0 if it is not a whole number of at least 1. */
    private static int positive(String arg) {
        try {
            return Math.max(0, Integer.parseInt(arg.trim()));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static void run(String model, int calls, int rounds) throws Exception {
        Model m = ConstrainedSolverBenchmark.readModel(model);
        ConstraintSet set = ConstrainedSolverBenchmark.constraintSet(m);
        ConstraintData data = ConstrainedSolverBenchmark.bind(set, m, "generated");
        // forwardDynamicsDirect is compared with the sum of the Schur path's parts: keep it on that path.
        data.settings().limbElimination(false);
        ConstrainedSystemFactorization factorisation = data.generatedFactorization();
        if (factorisation == null) {
            throw new IllegalStateException(model + ": the bound class has no generated factorisation of its rows");
        }
        int nv = m.nv();
        int rows = data.size();
        double[] q = new double[m.nq()];
        double[] v = new double[nv];
        double[] tau = new double[nv];
        ConstrainedSolverBenchmark.standing(m, model, set, q, tau);
        ConstrainedDynamics dynamics = new ConstrainedDynamics(data);
        double[] vdot = new double[nv];
        double[] x = new double[nv];
        double[] y = new double[rows];
        double[] a = new double[nv];
        DMatrixRMaj h = data.H();
        DMatrixRMaj g = data.G();
        double sink = 0;
        dynamics.forwardDynamicsDirect(q, v, tau, vdot);
        System.out.printf(Locale.ROOT, "%s: nv %d, %d rows; forwardDynamicsDirect %s the generated factorisation,"
                + " pivot ratio %.3g (refined at or below %.2g); ns per call, %d calls a round%n", model, nv, rows,
                dynamics.systemSolver().lastUsedGeneratedFactorization() ? "uses" : "does NOT use",
                dynamics.systemSolver().lastSchurPivotRatio(), ConstrainedSystemSolver.REFINE_PIVOT_RATIO, calls);
        for (int r = 0; r < rounds; r++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < calls; i++) {
                data.computeSystem(q, v);
            }
            long t1 = System.nanoTime();
            for (int i = 0; i < calls; i++) {
                sink += factorisation.factorConstrainedSystem(h, g);
            }
            long t2 = System.nanoTime();
            for (int i = 0; i < calls; i++) {
                factorisation.solveConstrainedSystem(tau, data.gamma(), x, y);
            }
            long t3 = System.nanoTime();
            for (int i = 0; i < calls; i++) {
                data.computeSystem(q, v);
                sink += factorisation.factorConstrainedSystem(h, g);
            }
            long t4 = System.nanoTime();
            for (int i = 0; i < calls; i++) {
                sink += factorisation.factorConstrainedSystem(h, g);
                factorisation.solveConstrainedSystem(tau, data.gamma(), x, y);
            }
            long t5 = System.nanoTime();
            for (int i = 0; i < calls; i++) {
                data.computeSystem(q, v);
                factorisation.solveConstrainedSystem(tau, data.gamma(), x, y);
            }
            long t6 = System.nanoTime();
            for (int i = 0; i < calls; i++) {
                data.computeSystem(q, v);
                double[] c = data.C();
                for (int k = 0; k < nv; k++) {
                    a[k] = tau[k] - c[k];
                }
                sink += factorisation.factorConstrainedSystem(h, g);
                factorisation.solveConstrainedSystem(a, data.gamma(), x, y);
            }
            long t7 = System.nanoTime();
            for (int i = 0; i < calls; i++) {
                dynamics.forwardDynamicsDirect(q, v, tau, vdot);
            }
            long t8 = System.nanoTime();
            for (int i = 0; i < calls; i++) {
                data.dynamics().forwardDynamics(q, v, tau, vdot);
            }
            long t9 = System.nanoTime();
            double n = calls;
            System.out.printf(Locale.ROOT, "round %d: alone: system %.0f, factor %.0f, solve %.0f (sum %.0f); pairs:"
                    + " system+factor %.0f, factor+solve %.0f, system+solve %.0f; all three %.0f;"
                    + " forwardDynamicsDirect %.0f; unconstrained FD %.0f%n", r + 1, (t1 - t0) / n, (t2 - t1) / n,
                    (t3 - t2) / n, (t3 - t0) / n, (t4 - t3) / n, (t5 - t4) / n, (t6 - t5) / n, (t7 - t6) / n,
                    (t8 - t7) / n, (t9 - t8) / n);
        }
        System.out.println(CodeFootprint.describe(data.dynamics().getClass()));
        System.out.println("# checksum " + (sink + x[0] + vdot[0]));
    }
}
