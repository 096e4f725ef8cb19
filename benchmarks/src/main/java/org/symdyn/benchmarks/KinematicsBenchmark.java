package org.symdyn.benchmarks;

import java.util.Random;
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
import org.symdyn.contract.Kinematics;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.generator.GeneratorOptions;
import org.symdyn.model.Frame;
import org.symdyn.model.Model;

/**
 * Point and body kinematics of a tool point, generic against generated: the point Jacobian (3 × nv), the point bias
 * acceleration J̇v and the body Jacobian (6 × nv) of the body that carries the frame {@code frame} (default iiwa14's
 * flange {@code iiwa_link_ee}, fixed to link 7), at the frame's origin given in that body's coordinates at run
 * time. The model comes from {@code shared/models} ({@link BenchmarkStates#readModel}); the state is random but
 * fixed (seed {@link BenchmarkStates#SEED}, joint positions and v uniform in [-1, 1]). The generated class is
 * generated and compiled in memory at set-up; set-up checks it agrees with {@link GenericDynamics} within 1e-10
 * relative on all three outputs.
 *
 * <p>{@code kinematicsForm} ({@link KinematicsFormParameter}): the generated class with the generator's default
 * kinematics ({@code default}: a straight-line method per body, a query computing the body's branch only) or, with
 * {@code -p kinematicsForm=default,compact}, also in the compact form ({@code compact}: shared passes, each query a
 * pass over the whole tree), so that one run measures both; the generic backend does not read it.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Fork(1)
public class KinematicsBenchmark {
    @Param({"iiwa14_no_collision"})
    public String model;

    @Param({"iiwa_link_ee"})
    public String frame;

    @Param({"generic", "generated"})
    public String backend;

    @Param({KinematicsFormParameter.DEFAULT})
    public String kinematicsForm;

    private Kinematics kinematics;
    private int body;
    private double[] point;
    private double[] q;
    private double[] v;
    private DMatrixRMaj pointJ;
    private DMatrixRMaj bodyJ;
    private double[] bias;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        Model m = BenchmarkStates.readModel(model);
        Frame f = m.frame(frame);
        if (f == null || f.bodyIndex() < 0) {
            throw new IllegalArgumentException(model + " has no frame '" + frame + "' on a moving body; frames: "
                    + m.frames().stream().map(Frame::name).toList());
        }
        body = f.bodyIndex();
        point = f.pose().translationArray();
        GenericDynamics generic = new GenericDynamics(m);
        if (backend.equals("generic")) {
            kinematics = generic;
        } else if (backend.equals("generated")) {
            kinematics = KinematicsFormParameter.generate(m,
                    GeneratorOptions.of("bench.gen", GeneratedDynamicsBenchmark.className(model)), kinematicsForm);
        } else {
            throw new IllegalArgumentException("backend must be generic or generated: " + backend);
        }
        Random rnd = new Random(BenchmarkStates.SEED);
        q = BenchmarkStates.randomConfiguration(m, rnd);
        v = BenchmarkStates.uniform(rnd, m.nv(), 1.0);
        pointJ = new DMatrixRMaj(3, m.nv());
        bodyJ = new DMatrixRMaj(6, m.nv());
        bias = new double[3];

        DMatrixRMaj expectedPoint = new DMatrixRMaj(3, m.nv());
        DMatrixRMaj expectedBody = new DMatrixRMaj(6, m.nv());
        double[] expectedBias = new double[3];
        generic.pointJacobian(q, body, point, expectedPoint);
        generic.bodyJacobian(q, body, expectedBody);
        generic.pointBiasAcceleration(q, v, body, point, expectedBias);
        requireClose(pointJacobian().data, expectedPoint.data, "point Jacobian");
        requireClose(bodyJacobian().data, expectedBody.data, "body Jacobian");
        requireClose(pointBiasAcceleration(), expectedBias, "J̇v");
        long idle = BenchmarkStates.awaitIdleJit(DynamicsBenchmark.IDLE_JIT_MILLIS,
                DynamicsBenchmark.MAX_JIT_WAIT_MILLIS);
        System.out.printf("# %s (%s, kinematics %s): frame %s on body %s, point %s; waited %d ms for an idle JIT%n",
                model, backend, backend.equals("generic") ? "interpreted" : kinematicsForm, frame, m.body(body).name(),
                java.util.Arrays.toString(point), idle);
    }

    private void requireClose(double[] x, double[] expected, String what) {
        double scale = 1;
        double diff = 0;
        for (int i = 0; i < x.length; i++) {
            if (!Double.isFinite(x[i])) {
                throw new IllegalStateException(model + " (" + backend + "): " + what + "[" + i + "] is " + x[i]);
            }
            scale = Math.max(scale, Math.abs(expected[i]));
            diff = Math.max(diff, Math.abs(x[i] - expected[i]));
        }
        if (diff > 1e-10 * scale) {
            throw new IllegalStateException(model + " (" + backend + "): " + what + " differs from the generic one by "
                    + diff);
        }
    }

    /** J (3 × nv) of the tool point, world coordinates. */
    @Benchmark
    public DMatrixRMaj pointJacobian() {
        kinematics.pointJacobian(q, body, point, pointJ);
        return pointJ;
    }

    /** J̇v of the tool point: its classical acceleration at v̇ = 0, world coordinates. */
    @Benchmark
    public double[] pointBiasAcceleration() {
        kinematics.pointBiasAcceleration(q, v, body, point, bias);
        return bias;
    }

    /** The body Jacobian (6 × nv) of the flange's body, [ω; v_origin] in body coordinates. */
    @Benchmark
    public DMatrixRMaj bodyJacobian() {
        kinematics.bodyJacobian(q, body, bodyJ);
        return bodyJ;
    }
}
