package org.symdyn.samples;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Random;
import org.symdyn.contact.ContactSet;
import org.symdyn.contact.ContactSettings;
import org.symdyn.contact.TimeStepper;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.model.Model;
import org.symdyn.systems.SolveSummary;
import org.symdyn.systems.TimeSteppingSystem;

/**
 * Boxes poured into a bin: the bin is five static boxes on the world link (a floor 1 × 1 m and four walls 0.3 m
 * high, which hold 100 boxes in three layers), the boxes free 0.1 m cubes of 0.5 kg (μ 0.5 everywhere), released at
 * rest in layers of 6 × 6 above the bin,
 * each turned a little about a random axis (seeded); they fall in, pile up and come to rest. Time stepping at
 * h = 1 ms on the generic runtime, for 10, 30 and 100 boxes. The contact problem is kept sparse
 * ({@link TimeStepper.Builder#sparseDelassus}: H block-diagonal, one 6 x 6 block per box, each contact coupling two
 * boxes) and solved by projected Gauss-Seidel to {@value #TOLERANCE} m/s in at most {@value #SWEEPS} sweeps, so the
 * cost of a step grows with the contacts and the sweeps they need, not with the square of the contacts times the
 * boxes; solves that stop at the sweep bound are counted in the summary. Prints, per run, the wall time per step (median over the
 * run, System.nanoTime around each step; a measure of this machine at that moment, not a benchmark) and of its
 * last {@value #LATE_STEPS} steps, whether the run keeps up with real time (median ≤ h), the contacts at the end, the
 * boxes left outside the bin and the largest speed at the end:
 *
 * <pre>
 *   java -cp samples/target/fourbar-demo.jar org.symdyn.samples.BinDemo [DIR] [SECONDS] [COUNTS...]
 *   java -jar cli/target/symdyn.jar view DIR/bin-100.json DIR/bin-100.urdf -o bin-100.html
 * </pre>
 * (DIR, default {@code bin-demo}, receives bin-N.urdf and bin-N.json for each count N, default 10 30 100; SECONDS
 * is the simulated time, default {@value #T_END}).
 */
public final class BinDemo {
    static final double H = 1e-3;
    static final double T_END = 1.5;
    /** Half the bin's inner width (m), its walls' height and half thickness (m). */
    static final double HALF_WIDTH = 0.5;
    static final double WALL_HEIGHT = 0.3;
    static final double WALL_HALF = 0.02;
    /** Half a box's edge (m), its mass (kg), the friction of every shape. */
    static final double BOX_HALF = 0.05;
    static final double BOX_MASS = 0.5;
    static final double FRICTION = 0.5;
    /** The release grid: boxes per row, spacing (m), the first layer's height (m). */
    static final int ROW = 6;
    static final double SPACING = 0.15;
    static final double FIRST_LAYER = 0.45;
    static final int RECORD_EVERY = 10;
    /** The report's second median is over this many last steps. */
    static final int LATE_STEPS = 100;
    /**
     * The contact solve: projected Gauss-Seidel on the sparse W to 1 µm/s of contact-law violation (a millimetre per
     * step of 1 ms would take 1,000 s), at most 200 sweeps, with a penetration slop of {@value #SLOP} m
     * ({@link ContactSettings#penetrationSlop}): without it the pile never comes to rest (recovering the rounding's
     * last nanometres of depth asks for separating speeds above the tolerance), and 100 boxes took 100-180 sweeps
     * a step, half of the solves at the bound; with it, 2-3 sweeps once the pile has formed.
     */
    static final double TOLERANCE = 1e-6;
    static final int SWEEPS = 200;
    static final double SLOP = 1e-7;

    /** The contact settings of the run: projected Gauss-Seidel, {@link #TOLERANCE}, {@link #SWEEPS}, {@link #SLOP}. */
    public static ContactSettings settings() {
        return ContactSettings.defaults().solver(ContactSettings.Solver.PGS).tolerance(TOLERANCE)
                .maxIterations(SWEEPS).penetrationSlop(SLOP);
    }

    /** The contact set of a run of {@code count} boxes: up to eight contacts per box, besides the default's. */
    public static ContactSet contactSet(Model model, int count) {
        // Up to eight contacts per box (a face on a face, and one box on two), besides the default's four per pair
        // that may touch, which the default bound of 256 would cut at 64 boxes.
        return ContactSet.of(model, 8 * count + 64);
    }

    private BinDemo() {
    }

    /** A run of {@code count} boxes: wall time per step (ns), the end state's numbers, the solves. */
    record Result(int count, long[] stepNanos, int contactsAtEnd, int outside, double finalSpeed, double deepest,
            SolveSummary summary, long dropped, TrajectoryFile trajectory) {
        /** The median wall time of a step (s). */
        double medianStepSeconds() {
            long[] s = stepNanos.clone();
            Arrays.sort(s);
            return s[s.length / 2] * 1e-9;
        }

        /** The median wall time of the last {@code n} steps (s): the cost with the pile formed. */
        double medianOfLastSteps(int n) {
            long[] s = Arrays.copyOfRange(stepNanos, Math.max(0, stepNanos.length - n), stepNanos.length);
            Arrays.sort(s);
            return s[s.length / 2] * 1e-9;
        }

        /** Whether the median step takes at most h: the run keeps up with real time. */
        boolean realTime() {
            return medianStepSeconds() <= H;
        }
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args.length > 0 ? args[0] : "bin-demo");
        double seconds = args.length > 1 ? Double.parseDouble(args[1]) : T_END;
        int[] counts = args.length > 2 ? Arrays.stream(args, 2, args.length).mapToInt(Integer::parseInt).toArray()
                : new int[] {10, 30, 100};
        Files.createDirectories(dir);
        for (int n : counts) {
            String urdf = sceneUrdf(n);
            Path file = dir.resolve("bin-" + n + ".urdf");
            Files.writeString(file, urdf);
            Result r = run(n, seconds);
            report(System.out, r);
            Path traj = dir.resolve("bin-" + n + ".json");
            r.trajectory().write(traj);
            System.out.printf(Locale.ROOT, "  view it with: java -jar cli/target/symdyn.jar view %s %s -o bin-%d.html"
                    + "%n", traj, file, n);
        }
    }

    /** The scene file: the bin's five boxes on the world link, {@code count} free boxes on floating joints. */
    public static String sceneUrdf(int count) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, """
                <?xml version="1.0"?>
                <!-- %d boxes poured into a bin of five static boxes (SymDyn BinDemo). -->
                <robot name="bin_%d" xmlns:symdyn="urn:symdyn:1">
                  <link name="world">
                """, count, count));
        double w = HALF_WIDTH + WALL_HALF;
        double[][] walls = {
            {0, 0, -WALL_HALF, w + WALL_HALF, w + WALL_HALF, WALL_HALF},
            {w, 0, WALL_HEIGHT / 2, WALL_HALF, w + WALL_HALF, WALL_HEIGHT / 2},
            {-w, 0, WALL_HEIGHT / 2, WALL_HALF, w + WALL_HALF, WALL_HEIGHT / 2},
            {0, w, WALL_HEIGHT / 2, HALF_WIDTH, WALL_HALF, WALL_HEIGHT / 2},
            {0, -w, WALL_HEIGHT / 2, HALF_WIDTH, WALL_HALF, WALL_HEIGHT / 2}};
        String[] names = {"bin_floor", "bin_east", "bin_west", "bin_north", "bin_south"};
        for (int i = 0; i < walls.length; i++) {
            double[] b = walls[i];
            String geometry = String.format(Locale.ROOT, "<origin xyz=\"%s %s %s\"/><geometry><box size=\"%s %s %s\"/>"
                    + "</geometry>", b[0], b[1], b[2], 2 * b[3], 2 * b[4], 2 * b[5]);
            sb.append(String.format(Locale.ROOT, "    <collision name=\"%s\">%s%n      <symdyn:contact friction=\"%s\""
                    + " restitution=\"0\"/></collision>%n    <visual>%s<material name=\"%s\"><color rgba=\"0.6 0.6 "
                    + "0.65 1\"/></material></visual>%n", names[i], geometry, FRICTION, geometry, names[i]));
        }
        sb.append("  </link>\n");
        double inertia = BOX_MASS * (2 * BOX_HALF) * (2 * BOX_HALF) / 6;
        for (int k = 0; k < count; k++) {
            String box = String.format(Locale.ROOT, "<geometry><box size=\"%s %s %s\"/></geometry>", 2 * BOX_HALF,
                    2 * BOX_HALF, 2 * BOX_HALF);
            sb.append(String.format(Locale.ROOT, """
                      <link name="box%d">
                        <inertial><origin xyz="0 0 0"/><mass value="%s"/>
                          <inertia ixx="%s" ixy="0" ixz="0" iyy="%s" iyz="0" izz="%s"/></inertial>
                        <collision name="box%d">%s<symdyn:contact friction="%s" restitution="0"/></collision>
                        <visual>%s<material name="box%d"><color rgba="%s"/></material></visual>
                      </link>
                      <joint name="box%d_free" type="floating"><parent link="world"/><child link="box%d"/></joint>
                    """, k, BOX_MASS, inertia, inertia, inertia, k, box, FRICTION, box, k, colour(k), k, k));
        }
        return sb.append("</robot>\n").toString();
    }

    private static String colour(int k) {
        String[] c = {"0.85 0.33 0.1 1", "0.93 0.69 0.13 1", "0.47 0.67 0.19 1", "0.3 0.75 0.93 1",
            "0.49 0.18 0.56 1"};
        return c[k % c.length];
    }

    /** The release: layers of ROW × ROW boxes above the bin, each turned by up to 0.3 rad about a random axis. */
    public static double[] release(int count) {
        Random rnd = new Random(7);
        double[] q = new double[7 * count];
        for (int k = 0; k < count; k++) {
            int layer = k / (ROW * ROW), i = k % ROW, j = (k / ROW) % ROW;
            q[7 * k] = (i - (ROW - 1) / 2.0) * SPACING;
            q[7 * k + 1] = (j - (ROW - 1) / 2.0) * SPACING;
            q[7 * k + 2] = FIRST_LAYER + layer * SPACING;
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

    /** Pours {@code count} boxes and steps until {@code tEnd}. */
    static Result run(int count, double tEnd) throws Exception {
        Model model = SampleModels.parse(sceneUrdf(count), "bin-" + count + ".urdf");
        TimeSteppingSystem sys = TimeSteppingSystem.builder(new GenericDynamics(model))
                .contacts(contactSet(model, count)).settings(settings()).sparseDelassus(true).timeStep(H).build();
        sys.setState(0, release(count), new double[6 * count]);
        int steps = (int) Math.round(tEnd / H);
        long[] nanos = new long[steps];
        double deepest = Double.POSITIVE_INFINITY;
        TrajectoryFile traj = new TrajectoryFile();
        traj.record(sys);
        for (int i = 0; i < steps; i++) {
            long t0 = System.nanoTime();
            sys.step();
            nanos[i] = System.nanoTime() - t0;
            for (int k = 0; k < sys.stepper().contactCount(); k++) {
                deepest = Math.min(deepest, sys.stepper().contacts().gap(k));
            }
            if ((i + 1) % RECORD_EVERY == 0) {
                traj.record(sys);
            }
        }
        double[] q = sys.q();
        int outside = 0;
        for (int k = 0; k < count; k++) {
            boolean in = Math.abs(q[7 * k]) < HALF_WIDTH && Math.abs(q[7 * k + 1]) < HALF_WIDTH && q[7 * k + 2] > 0
                    && q[7 * k + 2] < WALL_HEIGHT + 4 * BOX_HALF;
            outside += in ? 0 : 1;
        }
        double speed = 0;
        for (double v : sys.v()) {
            speed = Math.max(speed, Math.abs(v));
        }
        return new Result(count, nanos, sys.stepper().contactCount(), outside, speed, deepest, sys.summary(),
                sys.stepper().droppedContacts(), traj);
    }

    static void report(PrintStream out, Result r) {
        out.printf(Locale.ROOT, "%d boxes poured into a bin (five static boxes), h = %.0f ms, %.1f s, generic "
                + "runtime:%n", r.count(), H * 1e3, r.stepNanos().length * H);
        out.printf(Locale.ROOT, "  wall time per step: median %.3f ms (%s real time: h = %.0f ms); %d contacts at the "
                + "end, %d dropped over the run; median of the last %d steps %.3f ms%n", r.medianStepSeconds() * 1e3,
                r.realTime() ? "at least as fast as" : "slower than", H * 1e3, r.contactsAtEnd(), r.dropped(),
                LATE_STEPS, r.medianOfLastSteps(LATE_STEPS) * 1e3);
        out.printf(Locale.ROOT, "  boxes outside the bin %d; largest |v| at the end %.2e; deepest contact %.2e m; "
                + "solves: %s%n", r.outside(), r.finalSpeed(), r.deepest(), r.summary());
    }
}
