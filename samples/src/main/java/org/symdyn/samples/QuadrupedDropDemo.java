package org.symdyn.samples;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;
import org.symdyn.contact.ContactSet;
import org.symdyn.contact.TimeStepper;
import org.symdyn.model.Model;
import org.symdyn.samples.generated.QuadrupedDynamics;
import org.symdyn.systems.Devices;
import org.symdyn.systems.SolveSummary;
import org.symdyn.systems.TimeSteppingSystem;

/**
 * The quadruped of {@code quadruped.urdf} dropped onto its floor under its own PD servos: released at rest
 * {@value #DROP} m above its standing height, time stepping with rigid contact and Coulomb friction at h = 1 ms
 * ({@link TimeSteppingSystem}), the dynamics, the 12 servos and the trunk's IMU all from the generated class
 * ({@link QuadrupedDynamics}, {@link Devices#declared}); the model file is read for the floor and the four foot
 * points ({@link ContactSet#of}: the generated class does not carry grounds) and for the masses. It lands, settles
 * and stands; the demo prints when it settled, the feet's normal impulses against m g h, the base height over the
 * last second and the IMU, and writes the trajectory in the form of {@code symdyn simulate}'s output, for the
 * command line's viewer:
 *
 * <pre>
 *   java -cp samples/target/fourbar-demo.jar org.symdyn.samples.QuadrupedDropDemo [quadruped-drop.json]
 *   java -jar cli/target/symdyn.jar view quadruped-drop.json samples/src/main/symdyn/quadruped.urdf \
 *       -o quadruped-drop.html
 * </pre>
 */
public final class QuadrupedDropDemo {
    /** Time step (s), simulated time (s), drop height above standing (m). */
    static final double H = 1e-3;
    static final double T_END = 4.0;
    static final double DROP = 0.03;
    /** The model's gravity (the file's default; the generated contract does not carry it). */
    static final double[] GRAVITY = {0, 0, -9.81};
    /** Every how many steps the trajectory file records a sample. */
    static final int RECORD_EVERY = 10;

    private QuadrupedDropDemo() {
    }

    /** The outcome of a drop. */
    record Result(double mass, double[] time, double[] height, double[] normalSum, int[] contacts,
            SolveSummary summary, double[] imu, double[] finalQ, TrajectoryFile trajectory) {
        /**
         * The settling time (s): the first time after which the base height stays within {@code heightTol} (m) of
         * its final value and the normal impulses of every step sum to m g h within {@code impulseTol} relative.
         */
        double settlingTime(double heightTol, double impulseTol) {
            double end = height[height.length - 1];
            double mgh = mass * -GRAVITY[2] * H;
            for (int i = height.length - 1; i >= 0; i--) {
                if (Math.abs(height[i] - end) > heightTol || Math.abs(normalSum[i] - mgh) > impulseTol * mgh) {
                    return time[i];
                }
            }
            return 0;
        }

        /** max − min of the base height from {@code from} to the end (m). */
        double heightVariation(double from) {
            double lo = Double.POSITIVE_INFINITY;
            double hi = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < time.length; i++) {
                if (time[i] > from - 1e-12) {
                    lo = Math.min(lo, height[i]);
                    hi = Math.max(hi, height[i]);
                }
            }
            return hi - lo;
        }

        /** The largest |Σ normal impulses − m g h| / (m g h) over the steps ending after {@code from}. */
        double impulseError(double from) {
            double mgh = mass * -GRAVITY[2] * H;
            double worst = 0;
            for (int i = 0; i < time.length; i++) {
                if (time[i] > from + 1e-12) {
                    worst = Math.max(worst, Math.abs(normalSum[i] - mgh) / mgh);
                }
            }
            return worst;
        }

        /** The fewest feet in contact over the steps ending after {@code from}. */
        int fewestContacts(double from) {
            int fewest = Integer.MAX_VALUE;
            for (int i = 0; i < time.length; i++) {
                if (time[i] > from + 1e-12) {
                    fewest = Math.min(fewest, contacts[i]);
                }
            }
            return fewest;
        }
    }

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args.length > 0 ? args[0] : "quadruped-drop.json");
        Result r = drop(T_END);
        report(System.out, r);
        r.trajectory().write(out);
        System.out.printf(Locale.ROOT, "Trajectory written to %s; view it with%n  java -jar cli/target/symdyn.jar view "
                + "%s samples/src/main/symdyn/quadruped.urdf -o quadruped-drop.html%n", out, out);
    }

    /** Drops the quadruped and steps until {@code tEnd}. */
    static Result drop(double tEnd) throws Exception {
        Model model = SampleModels.load("quadruped.urdf");
        double mass = 0;
        for (int b = 0; b < model.bodyCount(); b++) {
            mass += model.body(b).inertia().mass();
        }
        QuadrupedDynamics robot = new QuadrupedDynamics();
        ContactSet feet = ContactSet.of(model);
        TimeSteppingSystem sys = TimeSteppingSystem.builder(robot)
                .contacts(feet)
                .timeStep(H)
                .devices(Devices.declared(robot, GRAVITY))
                .build();
        double[] q0 = QuadrupedStandingDemo.standingPose(model);
        q0[2] += DROP;
        sys.setState(0, q0, new double[robot.nv()]);

        int steps = (int) Math.round(tEnd / H);
        double[] time = new double[steps];
        double[] height = new double[steps];
        double[] normal = new double[steps];
        int[] count = new int[steps];
        TrajectoryFile traj = new TrajectoryFile();
        traj.record(sys);
        TimeStepper stepper = sys.stepper();
        for (int i = 0; i < steps; i++) {
            sys.step();
            time[i] = sys.time();
            height[i] = sys.q()[2];
            count[i] = stepper.contactCount();
            for (int k = 0; k < count[i]; k++) {
                normal[i] += stepper.contactImpulse(k, 0);
            }
            if ((i + 1) % RECORD_EVERY == 0) {
                traj.record(sys);
            }
        }
        return new Result(mass, time, height, normal, count, sys.summary(), sys.reading("base_imu").clone(),
                sys.q().clone(), traj);
    }

    static void report(PrintStream out, Result r) {
        double settle = r.settlingTime(1e-6, 1e-6);
        double tEnd = r.time()[r.time().length - 1];
        double mgh = r.mass() * -GRAVITY[2] * H;
        out.printf(Locale.ROOT, "Quadruped drop (quadruped.urdf, generated QuadrupedDynamics, 12 declared servos, IMU "
                + "base_imu): mass %.3f kg, dropped %.3f m, h = %.0f ms, %.1f s%n", r.mass(), DROP, H * 1e3, tEnd);
        out.printf(Locale.ROOT, "  contact solves: %s%n", r.summary());
        out.printf(Locale.ROOT, "  settled (base height within 1e-6 m of its final %.6f m, normal impulses within "
                + "1e-6 of m g h) at t = %.3f s%n",
                r.finalQ()[2], settle);
        out.printf(Locale.ROOT, "  last second: base height varies by %.2e m, feet in contact >= %d, normal impulses "
                + "per step sum to m g h = %.6f N s within %.2e relative%n", r.heightVariation(tEnd - 1),
                r.fewestContacts(tEnd - 1), mgh, r.impulseError(tEnd - 1));
        double[] f = r.imu();
        out.printf(Locale.ROOT, "  IMU at the end: gyro (%.2e, %.2e, %.2e) rad/s, specific force (%.6f, %.6f, %.6f) "
                + "m/s^2 (|f| %.6f)%n", f[0], f[1], f[2], f[3], f[4], f[5], Math.sqrt(f[3] * f[3] + f[4] * f[4]
                + f[5] * f[5]));
    }
}
