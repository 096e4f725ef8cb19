package org.symdyn.samples;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.symdyn.contact.ContactSet;
import org.symdyn.contract.DeclaredDevices;
import org.symdyn.model.JointDamping;
import org.symdyn.model.Model;
import org.symdyn.model.ModelException;
import org.symdyn.rollout.FinalState;
import org.symdyn.rollout.RolloutResult;
import org.symdyn.rollout.RolloutSpec;
import org.symdyn.rollout.Rollouts;
import org.symdyn.rollout.SystemFactory;
import org.symdyn.samples.generated.QuadrupedDynamics;
import org.symdyn.systems.Devices;
import org.symdyn.systems.TimeSteppingSystem;

/**
 * The sample quadruped dropped many times ({@link Rollouts}): from random heights and attitudes, with random
 * friction, under its 12 declared PD servos holding the standing pose, on the generated {@link QuadrupedDynamics};
 * after 1 s, how many stand? The batch runs on every core, and its final states are the same bits on 1 thread,
 * N threads, another JVM or a Spark executor (the {@code spark} module runs these same specifications).
 *
 * <pre>
 *   java -cp samples/target/fourbar-demo.jar org.symdyn.samples.QuadrupedRollouts [COUNT [THREADS]]
 * </pre>
 *
 * <p>Each drop: the trunk {@value #MIN_DROP}-{@value #MAX_DROP} m above its standing height, rolled and pitched
 * by up to ±{@value #MAX_TILT} rad, any yaw, friction μ uniform in [{@value #MIN_FRICTION}, {@value #MAX_FRICTION}],
 * the legs in the standing pose, at rest; 1 s at h = 1 ms. It stands when, at the end, the trunk is upright (its z
 * axis within {@value #UPRIGHT_DEG}° of the vertical) and within {@value #HEIGHT_TOLERANCE} m of its standing height.
 */
public final class QuadrupedRollouts {
    static final double MIN_DROP = 0.0;
    static final double MAX_DROP = 0.3;
    static final double MAX_TILT = 0.9;
    static final double MIN_FRICTION = 0.1;
    static final double MAX_FRICTION = 1.2;
    static final double UPRIGHT_DEG = 20;
    static final double HEIGHT_TOLERANCE = 0.05;
    static final double DURATION = 1.0;
    static final double H = 1e-3;
    /** The model's gravity (the file's default; the generated contract does not carry it). */
    static final double[] GRAVITY = {0, 0, -9.81};

    private static final Model MODEL = load();
    private static final double[] STANDING = QuadrupedStandingDemo.standingPose(MODEL);

    private QuadrupedRollouts() {
    }

    private static Model load() {
        try {
            return SampleModels.load("quadruped.urdf");
        } catch (ModelException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /**
     * {@code count} drops drawn from {@code seed} (the same specifications on every JVM: {@link SplittableRandom}'s
     * algorithm is specified, and the attitude's quaternion is computed with {@code StrictMath}).
     */
    public static List<RolloutSpec> dropSpecs(int count, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<RolloutSpec> specs = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            double[] q0 = STANDING.clone();
            q0[2] += random.nextDouble(MIN_DROP, MAX_DROP);
            double roll = random.nextDouble(-MAX_TILT, MAX_TILT);
            double pitch = random.nextDouble(-MAX_TILT, MAX_TILT);
            double yaw = random.nextDouble(-Math.PI, Math.PI);
            double cr = StrictMath.cos(roll / 2), sr = StrictMath.sin(roll / 2);
            double cp = StrictMath.cos(pitch / 2), sp = StrictMath.sin(pitch / 2);
            double cy = StrictMath.cos(yaw / 2), sy = StrictMath.sin(yaw / 2);
            // (x, y, z, w) of Rz(yaw) Ry(pitch) Rx(roll)
            q0[3] = sr * cp * cy - cr * sp * sy;
            q0[4] = cr * sp * cy + sr * cp * sy;
            q0[5] = cr * cp * sy - sr * sp * cy;
            q0[6] = cr * cp * cy + sr * sp * sy;
            TreeMap<String, Double> parameters = new TreeMap<>();
            parameters.put("friction", random.nextDouble(MIN_FRICTION, MAX_FRICTION));
            specs.add(new RolloutSpec(q0, new double[MODEL.nv()], parameters, random.nextLong(), DURATION, H));
        }
        return specs;
    }

    /**
     * The drop's system: the floor and the four toes ({@link ContactSet#of}), the joints' limits and damping, the
     * generated class's declared servos and IMU. Not {@link SystemFactory#of}: the model file also declares the 12
     * bilateral foot rows of {@code QuadrupedStandingDemo}, which would pin the feet.
     */
    public static SystemFactory systems() {
        return (functions, spec) -> TimeSteppingSystem.builder(functions)
                .contacts(ContactSet.of(MODEL))
                .jointLimits(MODEL)
                .jointDamping(JointDamping.of(MODEL))
                .devices(Devices.of(((DeclaredDevices) functions).devices(), functions, GRAVITY))
                .timeStep(spec.timeStep())
                .build();
    }

    /** Whether the quadruped stands at this final state (see the class comment). */
    public static boolean standing(FinalState end) {
        double[] q = end.q();
        double x = q[3], y = q[4];
        // the world z component of the trunk's z axis: R[2][2] = 1 - 2 (x² + y²)
        double upZ = 1 - 2 * (x * x + y * y);
        return upZ >= Math.cos(Math.toRadians(UPRIGHT_DEG)) && Math.abs(q[2] - STANDING[2]) <= HEIGHT_TOLERANCE;
    }

    /** The standing trunk height (m). */
    static double standingHeight() {
        return STANDING[2];
    }

    /** Runs {@code specs} on {@code threads} threads. */
    static List<RolloutResult<FinalState>> run(List<RolloutSpec> specs, int threads) {
        return Rollouts.builder(QuadrupedDynamics::new, systems()).threads(threads).build()
                .run(specs, org.symdyn.rollout.Outcomes.finalState());
    }

    /** How many of the results stand. */
    static int standingCount(List<RolloutResult<FinalState>> results) {
        int n = 0;
        for (RolloutResult<FinalState> r : results) {
            if (!r.failed() && standing(r.outcome())) {
                n++;
            }
        }
        return n;
    }

    public static void main(String[] args) {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : Runtime.getRuntime().availableProcessors();
        report(System.out, count, threads);
    }

    static void report(PrintStream out, int count, int threads) {
        List<RolloutSpec> specs = dropSpecs(count, 2026);
        long steps = 0;
        for (RolloutSpec s : specs) {
            steps += s.stepCount();
        }
        out.printf(Locale.ROOT, "Quadruped drops (quadruped.urdf, generated QuadrupedDynamics): %d rollouts of %.1f s "
                + "at h = %.0f ms, drop %.2f-%.2f m, tilt up to %.2f rad, friction %.2f-%.2f%n", count, DURATION,
                H * 1e3, MIN_DROP, MAX_DROP, MAX_TILT, MIN_FRICTION, MAX_FRICTION);
        run(dropSpecs(Math.min(count, 200), 1), threads); // warm-up: the JIT compiles the step before the timing
        long t0 = System.nanoTime();
        List<RolloutResult<FinalState>> one = run(specs, 1);
        long t1 = System.nanoTime();
        List<RolloutResult<FinalState>> many = run(specs, threads);
        long t2 = System.nanoTime();
        int failed = 0;
        int same = 0;
        for (int i = 0; i < count; i++) {
            failed += one.get(i).failed() ? 1 : 0;
            same += !one.get(i).failed() && !many.get(i).failed()
                    && one.get(i).outcome().sameBits(many.get(i).outcome()) ? 1 : 0;
        }
        out.printf(Locale.ROOT, "  standing after %.1f s: %d of %d (%d failed); 1 thread %.2f s (%.0f steps/s), "
                + "%d threads %.2f s (%.0f steps/s, %.2fx)%n", DURATION, standingCount(one), count, failed,
                (t1 - t0) * 1e-9, steps / ((t1 - t0) * 1e-9), threads, (t2 - t1) * 1e-9, steps / ((t2 - t1) * 1e-9),
                (double) (t1 - t0) / (t2 - t1));
        out.printf(Locale.ROOT, "  final states the same bits on 1 and %d threads: %d of %d%n", threads, same,
                count - failed);
    }
}
