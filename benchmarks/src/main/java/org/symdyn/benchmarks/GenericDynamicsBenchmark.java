package org.symdyn.benchmarks;

import java.nio.file.Path;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.ejml.data.DMatrixRMaj;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.model.Body;
import org.symdyn.model.Joint;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;
import org.symdyn.model.urdf.UrdfReader;

/**
 * The generic runtime ({@link GenericDynamics}) on the shared robot models: one call of each dynamics method
 * per operation, at a random but fixed (seeded) state, into preallocated outputs.
 *
 * <p>Defaults (1 fork, 5 x 1 s warm-up, 5 x 1 s measurement) keep a full run of 5 methods x 7 models near
 * 6-7 minutes on 2 cores; floating-base forward dynamics needs 3-4 s of warm-up before C2 has compiled it on a
 * loaded 2-core machine. Override from the command line with {@code -f}, {@code -wi}, {@code -w}, {@code -i},
 * {@code -r}, and pick models with {@code -p model=panda,solo12}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Fork(1)
public class GenericDynamicsBenchmark {
    /** Models whose root is a floating base (read with {@code Options(true, false)}). */
    private static final Set<String> FLOATING = Set.of("hyq_no_sensors", "solo12", "romeo_small");
    private static final long SEED = 20240531L;

    @Param({"double_pendulum_simple", "ur5_robot", "iiwa14_no_collision", "panda", "hyq_no_sensors", "solo12",
            "romeo_small"})
    public String model;

    private GenericDynamics dynamics;
    private double[] q;
    private double[] v;
    private double[] a;
    private double[] tau;

    private DMatrixRMaj hOut;
    private double[] cOut;
    private double[] gOut;
    private double[] tauOut;
    private double[] vdotOut;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        Path file = SharedModels.urdf(model);
        Model m = UrdfReader.read(file, new UrdfReader.Options(FLOATING.contains(model), false));
        dynamics = new GenericDynamics(m);
        int nq = m.nq();
        int nv = m.nv();
        Random rnd = new Random(SEED);
        q = randomConfiguration(m, rnd);
        v = uniform(rnd, nv, 1.0);
        a = uniform(rnd, nv, 1.0);
        tau = uniform(rnd, nv, 1.0);
        hOut = new DMatrixRMaj(nv, nv);
        cOut = new double[nv];
        gOut = new double[nv];
        tauOut = new double[nv];
        vdotOut = new double[nv];
        sanityCheck(nv);
        System.out.printf("# %s: %s, nq = %d, nv = %d, bodies = %d%n", model,
                m.hasFloatingBase() ? "floating base" : "fixed base", nq, nv, m.bodyCount());
    }

    /** Joint positions uniform in [-1, 1] rad (or m); unit quaternions for floating and ball joints. */
    private static double[] randomConfiguration(Model m, Random rnd) {
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

    private static double[] uniform(Random rnd, int n, double half) {
        double[] x = new double[n];
        for (int k = 0; k < n; k++) {
            x[k] = half * (2 * rnd.nextDouble() - 1);
        }
        return x;
    }

    /** Refuses to time garbage: finite outputs and ID(FD(tau)) = tau. */
    private void sanityCheck(int nv) {
        dynamics.massMatrix(q, hOut);
        dynamics.biasForces(q, v, cOut);
        dynamics.gravityForces(q, gOut);
        dynamics.forwardDynamics(q, v, tau, vdotOut);
        dynamics.inverseDynamics(q, v, vdotOut, tauOut);
        double scale = 1;
        double err = 0;
        for (int k = 0; k < nv; k++) {
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
            throw new IllegalStateException(model + ": ID(FD(tau)) differs from tau by " + err);
        }
    }

    private void requireFinite(double x, String what) {
        if (!Double.isFinite(x)) {
            throw new IllegalStateException(model + ": " + what + " is not finite at the benchmark state");
        }
    }

    /** H(q) by the composite-rigid-body algorithm (RBDL: CompositeRigidBodyAlgorithm). */
    @Benchmark
    public DMatrixRMaj massMatrix() {
        dynamics.massMatrix(q, hOut);
        return hOut;
    }

    /** C(q, v): Coriolis, centrifugal and gravity, RNEA with v̇ = 0 (RBDL: NonlinearEffects). */
    @Benchmark
    public double[] biasForces() {
        dynamics.biasForces(q, v, cOut);
        return cOut;
    }

    /** Gravity forces g(q), RNEA with v = v̇ = 0 (no RBDL figure). */
    @Benchmark
    public double[] gravityForces() {
        dynamics.gravityForces(q, gOut);
        return gOut;
    }

    /** τ = ID(q, v, v̇) by RNEA (RBDL: InverseDynamics). */
    @Benchmark
    public double[] inverseDynamics() {
        dynamics.inverseDynamics(q, v, a, tauOut);
        return tauOut;
    }

    /** v̇ = FD(q, v, τ) by the articulated-body algorithm (RBDL: ForwardDynamics, ABA). */
    @Benchmark
    public double[] forwardDynamics() {
        dynamics.forwardDynamics(q, v, tau, vdotOut);
        return vdotOut;
    }
}
