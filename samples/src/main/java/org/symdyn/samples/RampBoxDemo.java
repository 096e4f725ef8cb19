package org.symdyn.samples;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;
import org.symdyn.contact.ContactSet;
import org.symdyn.contact.TimeStepper;
import org.symdyn.model.GroundModel;
import org.symdyn.model.Model;
import org.symdyn.samples.generated.RampBoxDynamics;
import org.symdyn.systems.SolveSummary;
import org.symdyn.systems.TimeSteppingSystem;

/**
 * The box of {@code ramp_box.urdf} released at rest on its ramp (20°, μ 0.2 &lt; tan 20°): it slides down with
 * a = g (sin θ − μ cos θ), runs onto the flat floor (μ 0.6) where the ramp meets it and stops. Time stepping with
 * rigid contact and Coulomb friction at h = 1 ms ({@link TimeSteppingSystem}) on the generated class
 * ({@link RampBoxDynamics}); the model file is read for the grounds and the corners ({@link ContactSet#of}), and the
 * ramp's angle and friction are taken from it. Prints the measured acceleration on the ramp against the formula,
 * when the box reached the flat and when it stopped, and writes the trajectory for the command line's viewer:
 *
 * <pre>
 *   java -cp samples/target/fourbar-demo.jar org.symdyn.samples.RampBoxDemo [ramp-box.json]
 *   java -jar cli/target/symdyn.jar view ramp-box.json samples/src/main/symdyn/ramp_box.urdf -o ramp-box.html
 * </pre>
 */
public final class RampBoxDemo {
    /** Time step (s), simulated time (s), the box's start: its centre above the ramp point at this x (m). */
    static final double H = 1e-3;
    static final double T_END = 3.0;
    static final double START_X = -1.2;
    /** Half the box's height (m): its corners are at z = −HALF_HEIGHT in box coordinates. */
    static final double HALF_HEIGHT = 0.05;
    static final double G = 9.81;
    static final int RECORD_EVERY = 10;

    private RampBoxDemo() {
    }

    /** The outcome of a run. */
    record Result(double theta, double mu, double[] time, double[] speed, double[] accel, boolean[] onRamp,
            boolean[] onFloor, SolveSummary summary, double[] finalQ, TrajectoryFile trajectory) {
        /** g (sin θ − μ cos θ), m/s². */
        double expectedAcceleration() {
            return G * (Math.sin(theta) - mu * Math.cos(theta));
        }

        /** Steps with all four corners on the ramp and nothing else. */
        int rampSteps() {
            int n = 0;
            for (boolean b : onRamp) {
                n += b ? 1 : 0;
            }
            return n;
        }

        /** The largest |a − g (sin θ − μ cos θ)| / (g (sin θ − μ cos θ)) over the steps all on the ramp. */
        double rampAccelerationError() {
            double a = expectedAcceleration();
            double worst = 0;
            for (int i = 0; i < time.length; i++) {
                if (onRamp[i]) {
                    worst = Math.max(worst, Math.abs(accel[i] - a) / a);
                }
            }
            return worst;
        }

        /** The end of the first step with a contact on the floor (s; NaN if none). */
        double flatTime() {
            for (int i = 0; i < time.length; i++) {
                if (onFloor[i]) {
                    return time[i];
                }
            }
            return Double.NaN;
        }

        /** The first time after which the speed stays at most {@code tol} (m/s; NaN if it never does). */
        double stopTime(double tol) {
            for (int i = time.length - 1; i >= 0; i--) {
                if (speed[i] > tol) {
                    return i == time.length - 1 ? Double.NaN : time[i + 1];
                }
            }
            return 0;
        }

        /** The largest speed over the steps ending in [from, end] (m/s). */
        double maxSpeedFrom(double from) {
            double m = 0;
            for (int i = 0; i < time.length; i++) {
                if (time[i] >= from - 1e-12) {
                    m = Math.max(m, speed[i]);
                }
            }
            return m;
        }
    }

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args.length > 0 ? args[0] : "ramp-box.json");
        Result r = run(T_END);
        report(System.out, r);
        r.trajectory().write(out);
        System.out.printf(Locale.ROOT, "Trajectory written to %s; view it with%n  java -jar cli/target/symdyn.jar view "
                + "%s samples/src/main/symdyn/ramp_box.urdf -o ramp-box.html%n", out, out);
    }

    /** Releases the box on the ramp and steps until {@code tEnd}. */
    static Result run(double tEnd) throws Exception {
        Model model = SampleModels.load("ramp_box.urdf");
        ContactSet grounds = ContactSet.of(model);
        int rampIndex = -1;
        for (int g = 0; g < grounds.groundCount(); g++) {
            if (grounds.grounds().get(g).name().equals("ramp")) {
                rampIndex = g;
            }
        }
        GroundModel ramp = grounds.grounds().get(rampIndex);
        double[] n = ramp.normal();
        double theta = Math.atan2(n[0], n[2]); // the ramp descends towards +x
        RampBoxDynamics box = new RampBoxDynamics();
        TimeSteppingSystem sys = TimeSteppingSystem.builder(box).contacts(grounds).timeStep(H).build();

        // At rest on the ramp: pitched by θ about y (box x down the slope, box z along the ramp's normal), the bottom
        // face on the ramp plane (through the ramp's point).
        double[] q0 = new double[box.nq()];
        double[] p = ramp.point();
        double along = START_X - p[0];
        double[] surface = {START_X, p[1], p[2] - along * Math.tan(theta)};
        for (int i = 0; i < 3; i++) {
            q0[i] = surface[i] + HALF_HEIGHT * n[i];
        }
        q0[4] = Math.sin(theta / 2); // box_free:qy
        q0[6] = Math.cos(theta / 2); // box_free:qw
        sys.setState(0, q0, new double[box.nv()]);

        int steps = (int) Math.round(tEnd / H);
        double[] time = new double[steps];
        double[] speed = new double[steps];
        double[] accel = new double[steps];
        boolean[] onRamp = new boolean[steps];
        boolean[] onFloor = new boolean[steps];
        TrajectoryFile traj = new TrajectoryFile();
        traj.record(sys);
        TimeStepper stepper = sys.stepper();
        for (int i = 0; i < steps; i++) {
            sys.step();
            time[i] = sys.time();
            double[] v = sys.v();
            speed[i] = Math.sqrt(v[3] * v[3] + v[4] * v[4] + v[5] * v[5]); // origin velocity (box coordinates)
            accel[i] = sys.vdot()[3]; // along the box's x: down the slope while on the ramp
            int count = stepper.contactCount();
            int ramps = 0;
            for (int k = 0; k < count; k++) {
                if (stepper.contacts().ground(k) == rampIndex) {
                    ramps++;
                } else {
                    onFloor[i] = true;
                }
            }
            onRamp[i] = ramps == 4 && count == 4;
            if ((i + 1) % RECORD_EVERY == 0) {
                traj.record(sys);
            }
        }
        return new Result(theta, ramp.friction(), time, speed, accel, onRamp, onFloor, sys.summary(),
                sys.q().clone(), traj);
    }

    static void report(PrintStream out, Result r) {
        double tEnd = r.time()[r.time().length - 1];
        out.printf(Locale.ROOT, "Box on a ramp (ramp_box.urdf, generated RampBoxDynamics): ramp %.1f deg, mu %.2f, "
                + "released at rest, h = %.0f ms, %.1f s%n", Math.toDegrees(r.theta()), r.mu(), H * 1e3, tEnd);
        out.printf(Locale.ROOT, "  contact solves: %s%n", r.summary());
        out.printf(Locale.ROOT, "  on the ramp (%d steps, all four corners on it): acceleration g (sin - mu cos) = "
                + "%.9f m/s^2, measured within %.2e relative%n", r.rampSteps(), r.expectedAcceleration(),
                r.rampAccelerationError());
        out.printf(Locale.ROOT, "  reached the flat at t = %.3f s; stopped (speed <= 1e-9 m/s from then on) at "
                + "t = %.3f s, at x = %.4f m%n", r.flatTime(), r.stopTime(1e-9), r.finalQ()[0]);
    }
}
