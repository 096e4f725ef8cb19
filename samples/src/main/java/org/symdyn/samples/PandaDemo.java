package org.symdyn.samples;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.symdyn.contact.ContactSet;
import org.symdyn.contact.ShapePair;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.io.MeshPolicy;
import org.symdyn.io.PackagePath;
import org.symdyn.io.urdf.UrdfReader;
import org.symdyn.model.JointDamping;
import org.symdyn.model.Model;
import org.symdyn.spatial.Rotations;
import org.symdyn.systems.Actuator;
import org.symdyn.systems.PdServo;
import org.symdyn.systems.SolveSummary;
import org.symdyn.systems.TimeSteppingSystem;

/**
 * The Franka panda (the team's {@code shared/models/panda.urdf} with its STL collision meshes, as convex hulls, and
 * its fingers' box-shaped rubber tips) closing its fingers on a box and lifting it: friction alone holds the box. The
 * scene is a wrapper file written at run time beside the trajectory ({@code panda_box.urdf}: the panda's text with
 * a world link, a table (a static box) and a free 4 cm cube of {@value #BOX_MASS} kg; μ 1, the default, everywhere);
 * the team's model file is never copied into the repository. The arm starts in its "ready" pose (hand pointing down)
 * with the fingers open 2 × {@value #OPEN} m around the box, which stands on the table at the tool centre point.
 * Servos: PD on the seven arm joints (kp {@value #ARM_KP} N m/rad, kd {@value #ARM_KD} N m s/rad, the file's effort
 * limits) plus gravity compensation g(q) of the arm, and a PD servo on each finger (kp {@value #FINGER_KP} N/m, at
 * most {@value #GRIP} N: the grip force) closing them; the file's {@code <mimic>} coupling of the fingers is not
 * enforced, each finger has its own servo with the same target. Phases: close (0 to {@value #CLOSE_END} s), lift
 * (the arm's targets move smoothly to a pose {@value #LIFT_DZ} m higher, until {@value #LIFT_END} s), hold (until
 * {@value #T_END} s). Time stepping at h = 1 ms on the generic runtime. Prints the pairs excluded as overlapping at
 * the start, how far the box rose and how far the hand did, and the slip: how far the box moved in the hand's frame
 * from the end of the closing phase to the end:
 *
 * <pre>
 *   java -cp samples/target/fourbar-demo.jar org.symdyn.samples.PandaDemo [SHARED_DIR] [DIR]
 *   java -jar cli/target/symdyn.jar view DIR/panda.json DIR/panda_box.urdf --package-path SHARED_DIR/packages \
 *        -o panda.html
 * </pre>
 * SHARED_DIR defaults to {@code ../shared} (without it the demo says so and stops), DIR to {@code panda-demo}.
 */
public final class PandaDemo {
    static final double H = 1e-3;
    static final double CLOSE_END = 0.5;
    static final double LIFT_END = 1.5;
    static final double T_END = 2.0;
    /** The "ready" pose of the arm's seven joints (rad). */
    static final double[] READY = {0, -Math.PI / 4, 0, -3 * Math.PI / 4, 0, Math.PI / 2, Math.PI / 4};
    /** Each finger's opening at the start (m), the box's half edge (m) and mass (kg). */
    static final double OPEN = 0.035;
    static final double BOX_HALF = 0.02;
    static final double BOX_MASS = 0.1;
    static final double ARM_KP = 300;
    static final double ARM_KD = 2;
    static final double FINGER_KP = 1000;
    static final double FINGER_KD = 2;
    static final double GRIP = 20;
    /** The lift's height (m): the arm's targets move to the pose that raises the tool centre point this much. */
    static final double LIFT_DZ = 0.1;
    static final int RECORD_EVERY = 10;
    static final String[] ARM = {"panda_joint1", "panda_joint2", "panda_joint3", "panda_joint4", "panda_joint5",
        "panda_joint6", "panda_joint7"};
    static final String[] FINGERS = {"panda_finger_joint1", "panda_finger_joint2"};

    private PandaDemo() {
    }

    /** A run: the excluded pairs, the box's and the hand's rise (m), the slip (m), the contacts, the solves. */
    record Result(List<String> excluded, double boxRise, double handRise, double slip, double gripSlip,
            int fingerContacts, double deepest, SolveSummary summary, long dropped, TrajectoryFile trajectory) {
    }

    public static void main(String[] args) throws Exception {
        Path shared = SharedFolder.of(args);
        Path dir = Path.of(args.length > 1 ? args[1] : "panda-demo");
        if (!SharedFolder.has(shared, "panda.urdf", "Panda demo")) {
            return;
        }
        Files.createDirectories(dir);
        Result r = run(shared, dir, T_END);
        report(System.out, r);
        Path traj = dir.resolve("panda.json");
        r.trajectory().write(traj);
        System.out.printf(Locale.ROOT, "Scene and trajectory written to %s; view it with%n  java -jar "
                + "cli/target/symdyn.jar view %s %s --package-path %s -o panda.html%n", dir, traj,
                dir.resolve("panda_box.urdf"), shared.resolve("packages"));
    }

    /**
     * The wrapper scene: the panda's text with a world link holding panda_link0, a table whose top is at
     * {@code tableTop} under (x, y), and the free box.
     */
    static String sceneUrdf(String pandaText, double x, double y, double tableTop) {
        double i = BOX_MASS * (2 * BOX_HALF) * (2 * BOX_HALF) / 6;
        double e = 2 * BOX_HALF;
        String scene = String.format(Locale.ROOT, """
                  <!-- Added by SymDyn's PandaDemo: the world, a table and a free box. -->
                  <link name="world"/>
                  <joint name="world_to_panda" type="fixed"><parent link="world"/><child link="panda_link0"/></joint>
                  <link name="table">
                    <collision name="table"><origin xyz="%s %s %s"/><geometry><box size="0.2 0.2 0.04"/></geometry>
                    </collision>
                    <visual><origin xyz="%s %s %s"/><geometry><box size="0.2 0.2 0.04"/></geometry></visual>
                  </link>
                  <joint name="world_to_table" type="fixed"><parent link="world"/><child link="table"/></joint>
                  <link name="box">
                    <inertial><origin xyz="0 0 0"/><mass value="%s"/>
                      <inertia ixx="%s" ixy="0" ixz="0" iyy="%s" iyz="0" izz="%s"/></inertial>
                    <collision name="box"><geometry><box size="%s %s %s"/></geometry></collision>
                    <visual><geometry><box size="%s %s %s"/></geometry></visual>
                  </link>
                  <joint name="box_free" type="floating"><parent link="world"/><child link="box"/></joint>
                </robot>
                """, x, y, tableTop - 0.02, x, y, tableTop - 0.02, BOX_MASS, i, i, i, e, e, e, e, e, e);
        int end = pandaText.lastIndexOf("</robot>");
        return pandaText.substring(0, end) + scene;
    }

    /** The configuration with the arm at {@code arm}, the fingers open, the box at the origin. */
    static double[] configuration(Model model, double[] arm, double finger) {
        double[] q = model.neutralConfiguration();
        for (int j = 0; j < ARM.length; j++) {
            q[model.qNames().indexOf(ARM[j])] = arm[j];
        }
        for (String f : FINGERS) {
            q[model.qNames().indexOf(f)] = finger;
        }
        return q;
    }

    /** The world pose of a frame: rotation (row-major) and position. */
    static double[][] pose(GenericDynamics kin, Model model, double[] q, String frame) {
        double[] rot = new double[9];
        double[] pos = new double[3];
        kin.framePose(q, model.frames().indexOf(model.frame(frame)), rot, pos);
        return new double[][] {rot, pos};
    }

    /** The arm pose {@code LIFT_DZ} above READY: Gauss-Newton on the tool centre point's position, joints 2, 4, 6. */
    static double[] liftPose(GenericDynamics kin, Model model) {
        double[] arm = READY.clone();
        double[] start = pose(kin, model, configuration(model, READY, OPEN), "panda_hand_tcp")[1];
        double[] goal = {start[0], start[1], start[2] + LIFT_DZ};
        int[] joints = {1, 3, 5};
        for (int it = 0; it < 50; it++) {
            double[] p = pose(kin, model, configuration(model, arm, OPEN), "panda_hand_tcp")[1];
            double[] err = {goal[0] - p[0], goal[1] - p[1], goal[2] - p[2]};
            // The hand stays pointing down when joint 6 keeps joint 4 − joint 2 + joint 6 constant; solve for 2 and 4
            // by finite differences of the tool centre point's x and z.
            double[][] jac = new double[2][2];
            for (int c = 0; c < 2; c++) {
                double[] a = arm.clone();
                a[joints[c]] += 1e-6;
                a[5] = READY[5] + (a[3] - READY[3]) - (a[1] - READY[1]);
                double[] pc = pose(kin, model, configuration(model, a, OPEN), "panda_hand_tcp")[1];
                jac[0][c] = (pc[0] - p[0]) / 1e-6;
                jac[1][c] = (pc[2] - p[2]) / 1e-6;
            }
            double det = jac[0][0] * jac[1][1] - jac[0][1] * jac[1][0];
            double d0 = (jac[1][1] * err[0] - jac[0][1] * err[2]) / det;
            double d1 = (-jac[1][0] * err[0] + jac[0][0] * err[2]) / det;
            arm[1] += d0;
            arm[3] += d1;
            arm[5] = READY[5] + (arm[3] - READY[3]) - (arm[1] - READY[1]);
            if (Math.abs(err[0]) + Math.abs(err[2]) < 1e-12) {
                break;
            }
        }
        return arm;
    }

    /** Closes the fingers on the box, lifts and holds it, until {@code tEnd}. */
    static Result run(Path shared, Path dir, double tEnd) throws Exception {
        PackagePath packages = PackagePath.of(List.of(shared.resolve("packages")));
        String pandaText = Files.readString(shared.resolve("models/panda.urdf"));
        // The arm alone (no meshes needed) places the table and the box at the tool centre point of the ready pose.
        Model arm = UrdfReader.parse(pandaText, "panda.urdf", UrdfReader.Options.DEFAULT);
        GenericDynamics armKin = new GenericDynamics(arm);
        double[][] tcp = pose(armKin, arm, configuration(arm, READY, OPEN), "panda_hand_tcp");
        Path urdf = dir.resolve("panda_box.urdf");
        Files.writeString(urdf, sceneUrdf(pandaText, tcp[1][0], tcp[1][1], tcp[1][2] - BOX_HALF));
        Model model = UrdfReader.read(urdf, UrdfReader.Options.DEFAULT.withMeshes(MeshPolicy.REQUIRED, packages));
        GenericDynamics robot = new GenericDynamics(model);

        double[] q0 = configuration(model, READY, OPEN);
        int box = model.qNames().indexOf("box:x");
        System.arraycopy(tcp[1], 0, q0, box, 3);
        double[] quat = new double[4];
        Rotations.toQuaternion(tcp[0], quat); // the box turned as the hand, so that the fingers close on two faces
        System.arraycopy(quat, 0, q0, box + 3, 4);
        double[] lift = liftPose(robot, model);

        List<ShapePair> overlapping = new ArrayList<>();
        ContactSet set = ContactSet.of(model).withoutOverlapsAt(robot, q0, 0, overlapping);
        List<String> excluded = overlapping.stream().map(p -> p.first().name() + "|" + p.second().name()).toList();
        List<PdServo> armServos = new ArrayList<>();
        List<Actuator> actuators = new ArrayList<>();
        double[] effort = {87, 87, 87, 87, 12, 12, 12};
        for (int j = 0; j < ARM.length; j++) {
            int qi = model.qNames().indexOf(ARM[j]);
            PdServo s = new PdServo(ARM[j] + "_servo", qi, model.vNames().indexOf(ARM[j]), ARM_KP, ARM_KD, q0[qi],
                    effort[j]);
            armServos.add(s);
            actuators.add(s);
        }
        for (String f : FINGERS) {
            actuators.add(new PdServo(f + "_servo", model.qNames().indexOf(f), model.vNames().indexOf(f), FINGER_KP,
                    FINGER_KD, 0, GRIP));
        }
        actuators.add(gravityCompensation(robot, model));
        TimeSteppingSystem sys = TimeSteppingSystem.builder(robot).contacts(set).timeStep(H).actuators(actuators)
                .jointDamping(JointDamping.of(model)).build();
        sys.setState(0, q0, new double[model.nv()]);

        int steps = (int) Math.round(tEnd / H);
        TrajectoryFile traj = new TrajectoryFile();
        traj.record(sys);
        double[] boxInHandAtGrasp = null;
        double boxZAtGrasp = 0;
        double handZAtGrasp = 0;
        double gripSlip = 0;
        double deepest = Double.POSITIVE_INFINITY;
        int fingerContacts = 0;
        for (int i = 0; i < steps; i++) {
            double t = sys.time();
            if (t >= CLOSE_END) {
                double s = Math.min(1, (t - CLOSE_END) / (LIFT_END - CLOSE_END));
                double blend = 0.5 - 0.5 * Math.cos(Math.PI * s); // smooth start and stop
                for (int j = 0; j < ARM.length; j++) {
                    armServos.get(j).setTarget(READY[j] + blend * (lift[j] - READY[j]));
                }
            }
            sys.step();
            for (int k = 0; k < sys.stepper().contactCount(); k++) {
                deepest = Math.min(deepest, sys.stepper().contacts().gap(k));
            }
            double[] q = sys.q();
            double[][] hand = pose(robot, model, q, "panda_hand");
            double[] inHand = inFrame(hand, new double[] {q[box], q[box + 1], q[box + 2]});
            if (boxInHandAtGrasp == null && sys.time() >= CLOSE_END - 1e-9) {
                boxInHandAtGrasp = inHand;
                boxZAtGrasp = q[box + 2];
                handZAtGrasp = hand[1][2];
            } else if (boxInHandAtGrasp != null) {
                gripSlip = Math.max(gripSlip, distance(inHand, boxInHandAtGrasp));
            }
            if ((i + 1) % RECORD_EVERY == 0) {
                traj.record(sys);
            }
        }
        double[] q = sys.q();
        double[][] hand = pose(robot, model, q, "panda_hand");
        double slip = distance(inFrame(hand, new double[] {q[box], q[box + 1], q[box + 2]}), boxInHandAtGrasp);
        for (int k = 0; k < sys.stepper().contactCount(); k++) {
            String a = sys.stepper().contacts().name(k);
            fingerContacts += a.contains("finger") && a.contains("box") ? 1 : 0;
        }
        return new Result(excluded, q[box + 2] - boxZAtGrasp, hand[1][2] - handZAtGrasp, slip, gripSlip,
                fingerContacts, deepest, sys.summary(), sys.stepper().droppedContacts(), traj);
    }

    /** τ = g(q) on the arm's and fingers' coordinates: the servos act as if the robot weighed nothing. */
    static Actuator gravityCompensation(GenericDynamics robot, Model model) {
        int[] dofs = new int[ARM.length + FINGERS.length];
        for (int j = 0; j < ARM.length; j++) {
            dofs[j] = model.vNames().indexOf(ARM[j]);
        }
        for (int j = 0; j < FINGERS.length; j++) {
            dofs[ARM.length + j] = model.vNames().indexOf(FINGERS[j]);
        }
        double[] g = new double[model.nv()];
        return new Actuator() {
            @Override
            public String name() {
                return "gravity_compensation";
            }

            @Override
            public void addForces(double t, double[] q, double[] v, double[] tau) {
                robot.gravityForces(q, g);
                for (int d : dofs) {
                    tau[d] += g[d];
                }
            }
        };
    }

    /** p in the frame (rotation world ← frame, origin): Rᵀ (p − o). */
    static double[] inFrame(double[][] frame, double[] p) {
        double[] r = frame[0];
        double[] d = {p[0] - frame[1][0], p[1] - frame[1][1], p[2] - frame[1][2]};
        return new double[] {r[0] * d[0] + r[3] * d[1] + r[6] * d[2], r[1] * d[0] + r[4] * d[1] + r[7] * d[2],
            r[2] * d[0] + r[5] * d[1] + r[8] * d[2]};
    }

    static double distance(double[] a, double[] b) {
        return Math.sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
    }

    static void report(PrintStream out, Result r) {
        out.printf(Locale.ROOT, "Panda (shared/models/panda.urdf, STL collision hulls, box fingertips) grasping a "
                + "%.0f mm cube of %.2f kg (mu 1): close %.1f s, lift %.2f m by %.1f s, hold to %.1f s; h = %.0f ms%n",
                2e3 * BOX_HALF, BOX_MASS, CLOSE_END, LIFT_DZ, LIFT_END, T_END, H * 1e3);
        out.printf(Locale.ROOT, "  shape pairs overlapping at the start, excluded (%d): %s%n", r.excluded().size(),
                String.join(", ", r.excluded()));
        out.printf(Locale.ROOT, "  contact solves: %s; contacts dropped %d; deepest contact %.2e m%n", r.summary(),
                r.dropped(), r.deepest());
        out.printf(Locale.ROOT, "  from the grasp to the end: the hand rose %.4f m, the box %.4f m; the box moved "
                + "%.2f mm in the hand (largest %.2f mm); %d finger-box contacts at the end%n", r.handRise(),
                r.boxRise(), r.slip() * 1e3, r.gripSlip() * 1e3, r.fingerContacts());
    }
}
