package org.symdyn.benchmarks;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Random;
import java.util.Set;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.contract.Dynamics;
import org.symdyn.model.Body;
import org.symdyn.model.Joint;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;
import org.symdyn.io.urdf.UrdfReader;

/**
 * What every dynamics benchmark shares: reading a shared model (floating base or not), the seeded state it is
 * evaluated at, the preallocated outputs, and the checks that refuse to time garbage. The generic and the
 * generated benchmarks both build their state here, so they time the same calls at the same state.
 */
final class BenchmarkStates {
    /** Models whose root is a floating base (read with {@code Options(true, false)}). */
    static final Set<String> FLOATING = Set.of("hyq_no_sensors", "solo12", "romeo_small");
    static final long SEED = 20240531L;

    private BenchmarkStates() {
    }

    /** The model {@code name} from {@code shared/models}, with a floating base if it is one of {@link #FLOATING}. */
    static Model readModel(String name) throws Exception {
        Path file = SharedModels.urdf(name);
        return UrdfReader.read(file, new UrdfReader.Options(FLOATING.contains(name), false));
    }

    /**
     * A model's benchmark state (q, v, v̇ = {@code a}, τ, drawn in this order from {@link #SEED}) and the outputs
     * of the five methods, allocated once.
     */
    static final class State {
        final String name;
        final Model model;
        final double[] q;
        final double[] v;
        final double[] a;
        final double[] tau;
        final DMatrixRMaj hOut;
        final double[] cOut;
        final double[] gOut;
        final double[] tauOut;
        final double[] vdotOut;

        State(String name, Model model) {
            this.name = name;
            this.model = model;
            int nv = model.nv();
            Random rnd = new Random(SEED);
            q = randomConfiguration(model, rnd);
            v = uniform(rnd, nv, 1.0);
            a = uniform(rnd, nv, 1.0);
            tau = uniform(rnd, nv, 1.0);
            hOut = new DMatrixRMaj(nv, nv);
            cOut = new double[nv];
            gOut = new double[nv];
            tauOut = new double[nv];
            vdotOut = new double[nv];
        }

        /** Evaluates all five methods of {@code d} at this state into this state's outputs. */
        void evaluate(Dynamics d) {
            d.massMatrix(q, hOut);
            d.biasForces(q, v, cOut);
            d.gravityForces(q, gOut);
            d.forwardDynamics(q, v, tau, vdotOut);
            d.inverseDynamics(q, v, vdotOut, tauOut);
        }

        /**
         * Refuses to time garbage: evaluates {@code d}, then requires finite outputs and ID(FD(τ)) = τ to 1e-6
         * relative. Leaves the outputs filled.
         */
        void sanityCheck(Dynamics d) {
            evaluate(d);
            double scale = 1;
            double err = 0;
            for (int k = 0; k < model.nv(); k++) {
                requireFinite(cOut[k], "C");
                requireFinite(gOut[k], "g");
                requireFinite(vdotOut[k], "FD");
                err = Math.max(err, Math.abs(tauOut[k] - tau[k]));
                scale = Math.max(scale, Math.abs(tau[k]));
            }
            for (double x : hOut.data) {
                requireFinite(x, "H");
            }
            if (err > 1e-6 * scale) {
                throw new IllegalStateException(name + ": ID(FD(tau)) differs from tau by " + err);
            }
        }

        /**
         * Refuses to time wrong code: evaluates {@code reference} and {@code candidate} at this state and requires
         * every output of the candidate (H, C, g, FD, and ID at the benchmark's v̇) to equal the reference to
         * {@code tol} relative to the largest entry of that output (at least 1). Leaves the candidate's outputs
         * filled. Returns the worst relative difference seen.
         */
        double requireSameAs(Dynamics reference, Dynamics candidate, double tol) {
            int nv = model.nv();
            State ref = new State(name, model);
            ref.evaluate(reference);
            evaluate(candidate);
            double worst = 0;
            worst = Math.max(worst, compare(ref.hOut.data, hOut.data, tol, "massMatrix"));
            worst = Math.max(worst, compare(ref.cOut, cOut, tol, "biasForces"));
            worst = Math.max(worst, compare(ref.gOut, gOut, tol, "gravityForces"));
            worst = Math.max(worst, compare(ref.vdotOut, vdotOut, tol, "forwardDynamics"));
            // ID at the benchmark's v̇ (the input inverseDynamics is timed at), the same for both.
            double[] t1 = new double[nv];
            double[] t2 = new double[nv];
            reference.inverseDynamics(q, v, a, t1);
            candidate.inverseDynamics(q, v, a, t2);
            worst = Math.max(worst, compare(t1, t2, tol, "inverseDynamics"));
            return worst;
        }

        private double compare(double[] expected, double[] actual, double tol, String what) {
            double scale = 1;
            for (double x : expected) {
                scale = Math.max(scale, Math.abs(x));
            }
            double diff = 0;
            for (int i = 0; i < expected.length; i++) {
                if (!Double.isFinite(actual[i])) {
                    throw new IllegalStateException(name + ": generated " + what + "[" + i + "] is " + actual[i]);
                }
                diff = Math.max(diff, Math.abs(expected[i] - actual[i]));
            }
            if (diff > tol * scale) {
                throw new IllegalStateException(String.format(
                        "%s: %s differs from the generic runtime by %.3g (scale %.3g, relative %.3g > %.1g):"
                                + " refusing to time wrong code", name, what, diff, scale, diff / scale, tol));
            }
            return diff / scale;
        }

        private void requireFinite(double x, String what) {
            if (!Double.isFinite(x)) {
                throw new IllegalStateException(name + ": " + what + " is not finite at the benchmark state");
            }
        }

        /** One line describing the model, for the benchmark log. */
        String describe() {
            return String.format("%s: %s, nq = %d, nv = %d, bodies = %d", name,
                    model.hasFloatingBase() ? "floating base" : "fixed base", model.nq(), model.nv(),
                    model.bodyCount());
        }
    }

    /**
     * Waits until the JIT compilers have been idle for {@code quietMillis} (at most {@code maxMillis}), and returns
     * how long it waited. Called at the end of set-up so that the warm-up starts with an empty compile queue: the
     * generated benchmark's set-up runs Symja and javac, which leave hundreds of hot methods queued for C2, and on a
     * 2-core machine (one C2 thread) those are otherwise compiled during the warm-up, ahead of the benchmarked code.
     */
    static long awaitIdleJit(long quietMillis, long maxMillis) throws InterruptedException {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        long start = System.nanoTime();
        if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
            return 0;
        }
        long last = jit.getTotalCompilationTime();
        long quietSince = System.nanoTime();
        while ((System.nanoTime() - start) / 1_000_000 < maxMillis) {
            Thread.sleep(50);
            long now = jit.getTotalCompilationTime();
            if (now != last) {
                last = now;
                quietSince = System.nanoTime();
            } else if ((System.nanoTime() - quietSince) / 1_000_000 >= quietMillis) {
                break;
            }
        }
        return (System.nanoTime() - start) / 1_000_000;
    }

    /** Joint positions uniform in [-1, 1] rad (or m); unit quaternions for floating and ball joints. */
    static double[] randomConfiguration(Model m, Random rnd) {
        double[] q = uniform(rnd, m.nq(), 1.0);
        for (Body b : m.bodies()) {
            Joint j = b.joint();
            int qi = j.qIndex();
            if (j.type() == JointType.FLOATING) {
                randomUnitQuaternion(rnd, q, qi + 3);
            } else if (j.type() == JointType.BALL) {
                randomUnitQuaternion(rnd, q, qi);
            }
        }
        return q;
    }

    private static void randomUnitQuaternion(Random rnd, double[] q, int off) {
        double n2;
        do {
            n2 = 0;
            for (int k = 0; k < 4; k++) {
                q[off + k] = rnd.nextGaussian();
                n2 += q[off + k] * q[off + k];
            }
        } while (n2 < 1e-6);
        double inv = 1 / Math.sqrt(n2);
        for (int k = 0; k < 4; k++) {
            q[off + k] *= inv;
        }
    }

    static double[] uniform(Random rnd, int n, double half) {
        double[] x = new double[n];
        for (int k = 0; k < n; k++) {
            x[k] = half * (2 * rnd.nextDouble() - 1);
        }
        return x;
    }
}
