package org.symdyn.samples;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.symdyn.contact.ContactKinematics;
import org.symdyn.contact.ContactSet;
import org.symdyn.contact.ShapePair;
import org.symdyn.contact.TimeStepper;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.io.MeshPolicy;
import org.symdyn.io.PackagePath;
import org.symdyn.io.urdf.UrdfReader;
import org.symdyn.model.Model;
import org.symdyn.systems.PdServo;
import org.symdyn.systems.SolveSummary;
import org.symdyn.systems.TimeSteppingSystem;

/**
 * Solo12 (the team's {@code shared/models/solo12.urdf}, floating base, its STL collision meshes from
 * {@code shared/packages} as convex hulls) dropped onto a floor and standing on its own collision shapes. The model
 * declares no ground: the floor z = 0 (μ 1) is added in code ({@link ContactSet#withGround}); the shape pairs that
 * overlap at the start (the base's and upper legs' hulls) are excluded ({@link ContactSet#withoutOverlapsAt}) and
 * printed. Twelve PD servos ({@link PdServo}: kp {@value #KP} N m/rad, kd {@value #KD} N m s/rad, at most
 * {@value #MAX_TORQUE} N m) hold the standing posture (hip abduction 0, hip flexion ±{@value #HFE} rad, knee
 * ∓{@value #KFE_ABS} rad: front legs forward-bent, hind legs backward-bent), from which the robot is released at rest
 * with its lowest point {@value #DROP} m above the floor. Time stepping at h = 1 ms on the generic runtime; prints
 * the excluded pairs, the base's height and tilt at the end, the largest relative difference between the floor's
 * normal impulses per step and m g h after settling, and the deepest contact (smallest gap) of any step:
 *
 * <pre>
 *   java -cp samples/target/fourbar-demo.jar org.symdyn.samples.Solo12Demo [SHARED_DIR] [solo12.json]
 *   java -jar cli/target/symdyn.jar view solo12.json SHARED_DIR/models/solo12.urdf --floating \
 *        --package-path SHARED_DIR/packages -o solo12.html
 * </pre>
 * SHARED_DIR defaults to {@code ../shared}; without it the demo says so and stops. The page draws the contacts on the
 * floor but not the floor itself, which the model file does not declare.
 */
public final class Solo12Demo {
    static final double H = 1e-3;
    static final double T_END = 2.0;
    /** The impulse check starts here (s): the robot has settled. */
    static final double SETTLED = 1.5;
    static final double HFE = 0.8;
    static final double KFE_ABS = 1.6;
    static final double KP = 10;
    static final double KD = 0.1;
    static final double MAX_TORQUE = 2.7;
    static final double DROP = 0.03;
    static final double FRICTION = 1.0;
    static final String[] LEGS = {"FL", "FR", "HL", "HR"};
    static final int RECORD_EVERY = 10;

    private Solo12Demo() {
    }

    /** A run: the pairs excluded, per step the floor's normal impulse sum and the smallest gap, the end state. */
    record Result(List<String> excluded, double mass, double[] time, double[] floorImpulse, double[] smallestGap,
            double startHeight, double[] finalQ, double[] finalV, SolveSummary summary, long dropped,
            TrajectoryFile trajectory) {
        /** The largest |Σ floor normal impulses − m g h| / (m g h) over the steps ending after {@link #SETTLED}. */
        double impulseError() {
            double mgh = mass * 9.81 * H;
            double worst = 0;
            for (int i = 0; i < time.length; i++) {
                if (time[i] > SETTLED + 1e-12) {
                    worst = Math.max(worst, Math.abs(floorImpulse[i] - mgh) / mgh);
                }
            }
            return worst;
        }

        /** The smallest gap of any contact at any step (m; negative: penetration). */
        double deepest() {
            return Arrays.stream(smallestGap).min().orElse(Double.POSITIVE_INFINITY);
        }

        /** The base's tilt at the end: the angle between its z axis and the world's (rad). */
        double finalTilt() {
            double qx = finalQ[3], qy = finalQ[4];
            return Math.acos(Math.max(-1, Math.min(1, 1 - 2 * (qx * qx + qy * qy))));
        }

        /** The largest |v| entry at the end. */
        double finalSpeed() {
            double m = 0;
            for (double x : finalV) {
                m = Math.max(m, Math.abs(x));
            }
            return m;
        }
    }

    public static void main(String[] args) throws Exception {
        Path shared = SharedFolder.of(args);
        Path out = Path.of(args.length > 1 ? args[1] : "solo12.json");
        Path urdf = shared.resolve("models/solo12.urdf");
        if (!SharedFolder.has(shared, "solo12.urdf", "Solo12 demo")) {
            return;
        }
        Result r = run(shared, T_END);
        report(System.out, r);
        r.trajectory().write(out);
        System.out.printf(Locale.ROOT, "Trajectory written to %s; view it with%n  java -jar cli/target/symdyn.jar view "
                + "%s %s --floating --package-path %s -o solo12.html%n", out, out, urdf, shared.resolve("packages"));
    }

    /** The model with its collision meshes, on a floating base. */
    static Model load(Path shared) throws Exception {
        return UrdfReader.read(shared.resolve("models/solo12.urdf"), new UrdfReader.Options(true, false)
                .withMeshes(MeshPolicy.REQUIRED, PackagePath.of(List.of(shared.resolve("packages")))));
    }

    /** The standing posture with the base at the origin, level. */
    static double[] posture(Model model) {
        double[] q = model.neutralConfiguration();
        for (String leg : LEGS) {
            double sign = leg.startsWith("F") ? 1 : -1;
            q[model.qNames().indexOf(leg + "_HFE")] = sign * HFE;
            q[model.qNames().indexOf(leg + "_KFE")] = -sign * KFE_ABS;
        }
        return q;
    }

    /** Drops the robot and steps until {@code tEnd}. */
    static Result run(Path shared, double tEnd) throws Exception {
        Model model = load(shared);
        GenericDynamics robot = new GenericDynamics(model);
        double[] q0 = posture(model);
        List<ShapePair> overlapping = new ArrayList<>();
        ContactSet apart = ContactSet.of(model).withoutOverlapsAt(robot, q0, 0, overlapping);
        List<String> excluded = overlapping.stream().map(p -> p.first().name() + "|" + p.second().name()).toList();
        ContactSet set = apart.withGround("floor", new double[3], new double[] {0, 0, 1}, FRICTION, 0);
        q0[2] += DROP - lowestPoint(model, robot, q0);

        List<PdServo> servos = new ArrayList<>();
        for (String leg : LEGS) {
            for (String joint : new String[] {"_HAA", "_HFE", "_KFE"}) {
                String name = leg + joint;
                int qi = model.qNames().indexOf(name);
                servos.add(new PdServo(name + "_servo", qi, model.vNames().indexOf(name), KP, KD, q0[qi],
                        MAX_TORQUE));
            }
        }
        TimeSteppingSystem sys = TimeSteppingSystem.builder(robot).contacts(set).timeStep(H).actuators(servos)
                .build();
        sys.setState(0, q0, new double[model.nv()]);
        double mass = 0;
        for (int b = 0; b < model.bodyCount(); b++) {
            mass += model.body(b).inertia().mass();
        }

        int steps = (int) Math.round(tEnd / H);
        double[] time = new double[steps];
        double[] floor = new double[steps];
        double[] smallest = new double[steps];
        TrajectoryFile traj = new TrajectoryFile();
        traj.record(sys);
        TimeStepper st = sys.stepper();
        for (int i = 0; i < steps; i++) {
            sys.step();
            time[i] = sys.time();
            smallest[i] = Double.POSITIVE_INFINITY;
            for (int k = 0; k < st.contactCount(); k++) {
                smallest[i] = Math.min(smallest[i], st.contacts().gap(k));
                if (st.contacts().otherName(k).equals("floor")) {
                    floor[i] += st.contactImpulse(k, 0);
                }
            }
            if ((i + 1) % RECORD_EVERY == 0) {
                traj.record(sys);
            }
        }
        return new Result(excluded, mass, time, floor, smallest, q0[2], sys.q().clone(), sys.v().clone(),
                sys.summary(), st.droppedContacts(), traj);
    }

    /** The lowest point of the collision shapes above z = 0 at q (m): the smallest gap to a floor there. */
    static double lowestPoint(Model model, GenericDynamics robot, double[] q) {
        // Every shape's gap to the floor, with a margin that takes them all and room for every pair's contacts.
        ContactSet probe = ContactSet.of(model, 4096).withGround("floor", new double[3], new double[] {0, 0, 1}, 1, 0);
        ContactKinematics k = new ContactKinematics(probe, robot, model.nv());
        k.update(q, 10);
        double lowest = Double.POSITIVE_INFINITY;
        for (int c = 0; c < k.count(); c++) {
            if (k.otherName(c).equals("floor")) {
                lowest = Math.min(lowest, k.gap(c));
            }
        }
        return lowest;
    }

    static void report(PrintStream out, Result r) {
        out.printf(Locale.ROOT, "Solo12 (shared/models/solo12.urdf, floating base, STL collision meshes as convex "
                + "hulls, %.3f kg) dropped %.0f mm onto a floor (mu %.1f) added in code, 12 PD servos (kp %.0f, kd "
                + "%.2f, |tau| <= %.1f N m) holding HFE +-%.1f, KFE -+%.1f rad; h = %.0f ms, %.1f s%n", r.mass(),
                DROP * 1e3, FRICTION, KP, KD, MAX_TORQUE, HFE, KFE_ABS, H * 1e3, r.time()[r.time().length - 1]);
        out.printf(Locale.ROOT, "  shape pairs overlapping at the start, excluded (%d): %s%n", r.excluded().size(),
                String.join(", ", r.excluded()));
        out.printf(Locale.ROOT, "  contact solves: %s; contacts dropped %d%n", r.summary(), r.dropped());
        out.printf(Locale.ROOT, "  base height %.4f m at the start, %.4f m at the end; tilt %.2e rad; largest |v| at "
                + "the end %.2e%n", r.startHeight(), r.finalQ()[2], r.finalTilt(), r.finalSpeed());
        out.printf(Locale.ROOT, "  after %.1f s the floor's normal impulses per step sum to m g h within %.2e "
                + "(relative)%n", SETTLED, r.impulseError());
        out.printf(Locale.ROOT, "  deepest contact of any step: gap %.3e m (%s 1 mm)%n", r.deepest(),
                r.deepest() >= -1e-3 ? "within" : "beyond");
    }
}
