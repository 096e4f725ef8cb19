package org.symdyn.samples;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;
import org.symdyn.contact.ContactSet;
import org.symdyn.contract.Dynamics;
import org.symdyn.contract.Kinematics;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.model.Model;
import org.symdyn.samples.generated.BoxStackDynamics;
import org.symdyn.systems.SolveSummary;
import org.symdyn.systems.TimeSteppingSystem;

/**
 * The five boxes of {@code box_stack.urdf} stacked on the floor, released at rest: the stack stands. Time stepping
 * at h = 1 ms with contact between the boxes' collision shapes ({@link ContactSet#of} reads them and the floor from
 * the model file), on the generated class ({@link BoxStackDynamics}) and on the generic runtime
 * ({@link GenericDynamics}); prints each box's largest distance from its start over the run, the normal impulses
 * of the last step against the weight m g h (5 boxes on the floor), and the largest difference between the two
 * backends' configurations:
 *
 * <pre>
 *   java -cp samples/target/fourbar-demo.jar org.symdyn.samples.StackDemo [stack.json]
 *   java -jar cli/target/symdyn.jar view stack.json samples/src/main/symdyn/box_stack.urdf -o stack.html
 * </pre>
 */
public final class StackDemo {
    /** Time step (s), simulated time (s), boxes, and the recorded steps' spacing. */
    static final double H = 1e-3;
    static final double T_END = 10.0;
    static final int BOXES = 5;
    static final double EDGE = 0.2;
    static final int RECORD_EVERY = 20;

    private StackDemo() {
    }

    /**
     * A run of {@code tEnd} s: the largest distance of each box's origin from its start over all steps (m), the final q, the floor's
     * normal impulse in the last step (N s), the solves, and the trajectory (every {@link #RECORD_EVERY} steps).
     */
    record Result(String backend, double tEnd, double[] drift, double[] finalQ, double floorImpulse, double weightImpulse,
            SolveSummary summary, long dropped, TrajectoryFile trajectory) {
        double maxDrift() {
            double m = 0;
            for (double d : drift) {
                m = Math.max(m, d);
            }
            return m;
        }
    }

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args.length > 0 ? args[0] : "stack.json");
        Result generated = run(true, T_END);
        Result generic = run(false, T_END);
        report(System.out, generated, generic);
        generated.trajectory().write(out);
        System.out.printf(Locale.ROOT, "Trajectory written to %s; view it with%n  java -jar cli/target/symdyn.jar view "
                + "%s samples/src/main/symdyn/box_stack.urdf -o stack.html%n", out, out);
    }

    /** The stack at rest: box k (0-based) centred at z = EDGE / 2 + k EDGE, identity orientation. */
    static double[] start(int nq) {
        double[] q = new double[nq];
        for (int k = 0; k < BOXES; k++) {
            q[7 * k + 2] = EDGE / 2 + k * EDGE;
            q[7 * k + 6] = 1; // box{k}_free:qw
        }
        return q;
    }

    /** Steps the stack for {@code tEnd} s on the generated class or the generic runtime. */
    static Result run(boolean generated, double tEnd) throws Exception {
        Model model = SampleModels.load("box_stack.urdf");
        return generated ? run(new BoxStackDynamics(), model, "generated", tEnd)
                : run(new GenericDynamics(model), model, "generic", tEnd);
    }

    private static <T extends Dynamics & Kinematics> Result run(T dynamics, Model model, String backend,
            double tEnd) {
        ContactSet set = ContactSet.of(model);
        TimeSteppingSystem sys = TimeSteppingSystem.builder(dynamics).contacts(set).timeStep(H).build();
        double[] q0 = start(model.nq());
        sys.setState(0, q0, new double[model.nv()]);
        TrajectoryFile traj = new TrajectoryFile();
        traj.record(sys);
        double[] drift = new double[BOXES];
        int steps = (int) Math.round(tEnd / H);
        for (int i = 0; i < steps; i++) {
            sys.step();
            double[] q = sys.q();
            for (int k = 0; k < BOXES; k++) {
                double dx = q[7 * k] - q0[7 * k], dy = q[7 * k + 1] - q0[7 * k + 1], dz = q[7 * k + 2] - q0[7 * k + 2];
                drift[k] = Math.max(drift[k], Math.sqrt(dx * dx + dy * dy + dz * dz));
            }
            if ((i + 1) % RECORD_EVERY == 0) {
                traj.record(sys);
            }
        }
        double floor = 0;
        var st = sys.stepper();
        for (int k = 0; k < st.contactCount(); k++) {
            if (st.contacts().otherName(k).equals("floor")) {
                floor += st.contactImpulse(k, 0);
            }
        }
        double mass = 0;
        for (int b = 0; b < model.bodyCount(); b++) {
            mass += model.body(b).inertia().mass();
        }
        return new Result(backend, tEnd, drift, sys.q().clone(), floor, -mass * model.gravity(2) * H, sys.summary(),
                st.droppedContacts(), traj);
    }

    /** The largest |q_a − q_b| over the entries. */
    static double maxDifference(double[] a, double[] b) {
        double m = 0;
        for (int i = 0; i < a.length; i++) {
            m = Math.max(m, Math.abs(a[i] - b[i]));
        }
        return m;
    }

    static void report(PrintStream out, Result generated, Result generic) {
        out.printf(Locale.ROOT, "Stack of %d boxes (box_stack.urdf: 1 kg cubes of edge %.1f m, mu 0.8), released at "
                + "rest on the floor, h = %.0f ms, %.0f s%n", BOXES, EDGE, H * 1e3, generated.tEnd());
        for (Result r : new Result[] {generated, generic}) {
            out.printf(Locale.ROOT, "  %-9s largest distance from the start, box 1 (bottom) to %d: ", r.backend(),
                    BOXES);
            for (double d : r.drift()) {
                out.printf(Locale.ROOT, "%.2e ", d);
            }
            out.printf(Locale.ROOT, "m%n            floor's normal impulse in the last step %.9f N s (m g h = %.9f); "
                    + "contacts dropped %d; solves: %s%n", r.floorImpulse(), r.weightImpulse(), r.dropped(),
                    r.summary());
        }
        out.printf(Locale.ROOT, "  generated and generic agree within %.2e (largest |q difference| after %.0f s)%n",
                maxDifference(generated.finalQ(), generic.finalQ()), generated.tEnd());
    }
}
