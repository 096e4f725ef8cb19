package org.symdyn.benchmarks;

import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.symdyn.contact.ContactReport;
import org.symdyn.contact.ContactSet;
import org.symdyn.contact.ContactSettings;
import org.symdyn.contact.TimeStepper;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.geometry.Box;
import org.symdyn.model.BodySpec;
import org.symdyn.model.ContactMaterial;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;
import org.symdyn.model.ModelBuilder;
import org.symdyn.model.SourceLocation;
import org.symdyn.spatial.Pose;
import org.symdyn.spatial.RigidBodyInertia;

/**
 * A pile of free boxes in a bin (issue 31, item 4): the samples' {@code BinDemo} scene built in code (a 1 m square
 * bin of five static boxes, {@code boxes} free 0.1 m cubes of 0.5 kg released in layers of 6 x 6, μ = 0.5), stepped
 * for {@value #SETTLE} s at set-up so the pile has formed, then one step per call from wherever the pile is (it
 * rests: the state hardly moves). The generic runtime, to 1e-6 m/s in at most 200 sweeps or iterations with a
 * penetration slop of 1e-7 m (BinDemo's settings); {@code solver}: {@code pgs} (projected Gauss-Seidel) or {@code admm} (the exact-cone ADMM);
 * {@code delassus}: {@code sparse} ({@code TimeStepper.Builder.sparseDelassus(true)}: LᵀL of H, rows on their
 * supports, W never formed: Gauss-Seidel through Σ λ y, ADMM's λ step through the sparse Cholesky of σ I + Yᵀ Y)
 * or {@code dense} (W formed whole from the same rows). Set-up prints the contacts, iterations and whether the
 * solve converged, and the stepper's summary of the settling second. The dense path takes about 1.5 s per step at
 * 100 boxes with PGS, and ADMM's dense buffers (15 m², m the stepper's capacity of 2,600 rows) do not fit a default
 * heap there: give {@code -p boxes=10,30 -p delassus=dense} to compare it.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 2, timeUnit = TimeUnit.SECONDS)
@Fork(1)
public class PileStepBenchmark {
    private static final double H = 1e-3;
    private static final double SETTLE = 1.0;
    private static final double HALF_WIDTH = 0.5;
    private static final double WALL_HEIGHT = 0.3;
    private static final double WALL_HALF = 0.02;
    private static final double BOX_HALF = 0.05;
    private static final double BOX_MASS = 0.5;
    private static final double FRICTION = 0.5;

    @Param({"10", "30", "100"})
    public int boxes;

    @Param({"sparse"})
    public String delassus;

    /** {@code pgs} or {@code admm} (the exact-cone ADMM, on the sparse W through {@code SparseNormalMatrix}). */
    @Param({"pgs"})
    public String solver;

    private TimeStepper stepper;
    private double[] q;
    private double[] v;
    private double[] tau;

    @Setup
    public void setUp() throws Exception {
        Model model = scene(boxes);
        ContactSettings settings = ContactSettings.defaults().solver(ContactSettings.Solver.valueOf(
                solver.toUpperCase(java.util.Locale.ROOT))).tolerance(1e-6).maxIterations(200).penetrationSlop(1e-7);
        stepper = TimeStepper.builder(new GenericDynamics(model)).contacts(ContactSet.of(model, 8 * boxes + 64))
                .settings(settings).sparseDelassus(delassus.equals("sparse")).build();
        q = release(boxes);
        v = new double[6 * boxes];
        tau = new double[6 * boxes];
        ContactReport r = null;
        for (int i = 0; i < Math.round(SETTLE / H); i++) {
            r = stepper.step(q, v, tau, H, q, v);
        }
        System.out.printf("%n[pile] %d boxes, %s, %s: %d contacts after %.1f s; last solve %s; %s%n", boxes,
                delassus, solver, stepper.contactCount(), SETTLE, r, stepper.summary());
    }

    @Benchmark
    public ContactReport step() {
        return stepper.step(q, v, tau, H, q, v);
    }

    static Model scene(int count) throws Exception {
        ModelBuilder b = Model.builder("pile_" + count);
        ContactMaterial material = new ContactMaterial(FRICTION, 0);
        double w = HALF_WIDTH + WALL_HALF;
        double[][] walls = {
            {0, 0, -WALL_HALF, w + WALL_HALF, w + WALL_HALF, WALL_HALF},
            {w, 0, WALL_HEIGHT / 2, WALL_HALF, w + WALL_HALF, WALL_HEIGHT / 2},
            {-w, 0, WALL_HEIGHT / 2, WALL_HALF, w + WALL_HALF, WALL_HEIGHT / 2},
            {0, w, WALL_HEIGHT / 2, HALF_WIDTH, WALL_HALF, WALL_HEIGHT / 2},
            {0, -w, WALL_HEIGHT / 2, HALF_WIDTH, WALL_HALF, WALL_HEIGHT / 2}};
        for (int i = 0; i < walls.length; i++) {
            double[] x = walls[i];
            b.addCollisionShape("wall" + i, "world", Pose.of(new double[] {1, 0, 0, 0, 1, 0, 0, 0, 1},
                    new double[] {x[0], x[1], x[2]}), new Box(x[3], x[4], x[5]), material, SourceLocation.UNKNOWN);
        }
        double inertia = BOX_MASS * (2 * BOX_HALF) * (2 * BOX_HALF) / 6;
        for (int k = 0; k < count; k++) {
            b.addBody(BodySpec.builder("box" + k, "world", "box" + k + "_free", JointType.FLOATING)
                    .inertia(RigidBodyInertia.of(BOX_MASS, new double[3], inertia, 0, 0, inertia, 0, inertia)).build());
            b.addCollisionShape("box" + k, "box" + k, Pose.IDENTITY, new Box(BOX_HALF, BOX_HALF, BOX_HALF), material,
                    SourceLocation.UNKNOWN);
        }
        return b.build();
    }

    /** Layers of 6 x 6 boxes 0.15 m apart from 0.45 m up, each turned by up to 0.3 rad about a seeded axis. */
    static double[] release(int count) {
        Random rnd = new Random(7);
        double[] q = new double[7 * count];
        for (int k = 0; k < count; k++) {
            int layer = k / 36, i = k % 6, j = (k / 6) % 6;
            q[7 * k] = (i - 2.5) * 0.15;
            q[7 * k + 1] = (j - 2.5) * 0.15;
            q[7 * k + 2] = 0.45 + layer * 0.15;
            double[] axis = {rnd.nextGaussian(), rnd.nextGaussian(), rnd.nextGaussian()};
            double norm = Math.sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
            double half = 0.15 * rnd.nextDouble();
            for (int a = 0; a < 3; a++) {
                q[7 * k + 3 + a] = Math.sin(half) * axis[a] / norm;
            }
            q[7 * k + 6] = Math.cos(half);
        }
        return q;
    }
}
