package org.symdyn.benchmarks;

import java.util.Locale;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.constraints.ConstraintSet;
import org.symdyn.contract.ConstrainedSystemFactorization;
import org.symdyn.model.Model;
import org.symdyn.solvers.ConstrainedDynamics;

/**
 * The generated constrained forward dynamics of a model with declared rows taken apart (not JMH: plain loops, one
 * JVM): the fused system evaluation (H, C, G, γ), the generated factorisation and the generated solve, each called
 * alone in a loop, then in pairs and all together, and the whole {@link ConstrainedDynamics#forwardDynamicsDirect}
 * beside the unconstrained forward dynamics. When the pairs cost more than the sum of their parts, the difference is
 * not arithmetic (the same calls on the same data) but instruction fetch: the code of the two no longer fits the
 * instruction cache together ({@link CodeFootprint}, printed at the end, gives each method's machine code). Same
 * models and state as {@link ConstrainedSolverBenchmark} (the quadruped and solo12 standing on their feet's 12
 * declared rows).
 *
 * <p>Usage: {@code taskset -c 1 java -cp benchmarks/target/benchmarks.jar org.symdyn.benchmarks.ConstrainedSolveParts
 * [quadruped|solo12Declared] [calls per round, default 200000] [rounds, default 6]}; the first rounds include the
 * JIT's compilation, so read the last ones. See benchmarks/README.md, "Machine code footprint".
 */
public final class ConstrainedSolveParts {
    private ConstrainedSolveParts() {
    }

    public static void main(String[] args) throws Exception {
        String model = args.length > 0 ? args[0] : "quadruped";
        int calls = args.length > 1 ? Integer.parseInt(args[1]) : 200_000;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 6;
        if (!model.equals("quadruped") && !model.equals("solo12Declared")) {
            System.err.println("model must be quadruped or solo12Declared (a model whose rows the class declares): "
                    + model);
            System.exit(2);
        }
        Model m = ConstrainedSolverBenchmark.readModel(model);
        ConstraintSet set = ConstraintSet.of(m);
        ConstraintData data = ConstrainedSolverBenchmark.bind(set, m, "generated");
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
        System.out.printf(Locale.ROOT, "%s: nv %d, %d rows; ns per call, %d calls a round%n", model, nv, rows, calls);
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
