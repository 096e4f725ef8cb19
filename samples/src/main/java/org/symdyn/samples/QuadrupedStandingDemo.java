package org.symdyn.samples;

import java.io.PrintStream;
import java.util.Locale;
import java.util.Random;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.constraints.ConstraintSet;
import org.symdyn.model.Model;
import org.symdyn.samples.generated.QuadrupedDynamics;
import org.symdyn.solvers.ActuationMap;
import org.symdyn.solvers.ConstrainedDynamics;
import org.symdyn.solvers.ConstrainedInverseDynamics;
import org.symdyn.solvers.ConstraintSolverMethod;
import org.symdyn.solvers.KokkevisContactDynamics;

/**
 * The quadruped of {@code quadruped.urdf} standing on its four feet (12 contact rows: x, y and z of each foot), with
 * the class generated from that file ({@link QuadrupedDynamics}: H, C, G, γ):
 * <ol>
 * <li>the joint torques that hold it still (constrained inverse dynamics, floating base unactuated, least-norm
 * contact forces) and the foot forces they leave, whose vertical sum is the robot's weight;</li>
 * <li>forward dynamics with those torques by the direct (KKT) method and by Kokkevis' method: both must give
 * v̇ = 0 and the same forces;</li>
 * <li>the two methods (and the range-space and null-space ones) on random states: largest disagreement and a rough
 * cost per call (System.nanoTime, the fastest of several batches in rounds over all methods; not a JMH
 * benchmark), with the generated and with the generic dynamics.</li>
 * </ol>
 * Every method takes H, C, G and γ from the bound data: from the generated class alone (one fused evaluation), or
 * from the generic runtime for comparison; Kokkevis' method takes its test-force responses from the bound
 * dynamics' forward dynamics.
 *
 * <pre>  java -cp samples/target/fourbar-demo.jar org.symdyn.samples.QuadrupedStandingDemo</pre>
 */
public final class QuadrupedStandingDemo {
    static final String[] LEGS = {"lf", "rf", "lh", "rh"};
    /** Standing posture: hip flexion and knee angles (rad) of every leg. */
    static final double HFE = 0.6;
    static final double KFE = -1.2;
    /** Timing rounds over all methods, and batches per method and round; the fastest batch is reported. */
    static final int ROUNDS = 3;
    static final int BATCHES = 3;

    private QuadrupedStandingDemo() {
    }

    public static void main(String[] args) throws Exception {
        run(System.out, 500, 1000);
    }

    /** A set of the model's contacts bound to the generated class (or the generic runtime). */
    static ConstraintData boundSet(Model model, boolean generated) {
        if (generated) {
            QuadrupedDynamics dyn = new QuadrupedDynamics();
            return ConstraintSet.of(dyn).bind(dyn);
        }
        return ConstraintSet.of(model).bindGeneric();
    }

    /** The standing configuration: legs bent, trunk level at the height that puts the feet on z = 0. */
    static double[] standingPose(Model model) {
        double[] q = model.neutralConfiguration();
        for (String leg : LEGS) {
            q[model.qNames().indexOf(leg + "_hfe")] = HFE;
            q[model.qNames().indexOf(leg + "_kfe")] = KFE;
        }
        QuadrupedDynamics kin = new QuadrupedDynamics();
        double[] rot = new double[9];
        double[] foot = new double[3];
        kin.framePose(q, model.frames().indexOf(model.frame("lf_foot")), rot, foot);
        q[2] = -foot[2]; // trunk_free:z
        return q;
    }

    /** The whole demo: {@code states} random states, {@code timedCalls} calls per timed batch. */
    static void run(PrintStream out, int states, int timedCalls) throws Exception {
        Model model = SampleModels.load("quadruped.urdf");
        int nv = model.nv();
        double mass = 0;
        for (int i = 0; i < model.bodyCount(); i++) {
            mass += model.body(i).inertia().mass();
        }
        double weight = -mass * model.gravity(2);
        double[] q = standingPose(model);
        double[] v = new double[nv];
        out.printf(Locale.ROOT, "Quadruped (quadruped.urdf, generated QuadrupedDynamics): nq %d, nv %d, %d contact "
                + "rows, mass %.2f kg, weight %.3f N%n", model.nq(), nv, model.constraintRowCount(), mass, weight);
        out.printf(Locale.ROOT, "Standing pose: hip flexion %.2f rad, knee %.2f rad, trunk height %.4f m%n%n", HFE,
                KFE, q[2]);

        // 1. Torques that hold the pose.
        ConstraintData set = boundSet(model, true);
        ConstrainedInverseDynamics id = new ConstrainedInverseDynamics(set, ActuationMap.allButFloatingBase(model));
        double[] vdot = new double[nv];
        double[] tau = new double[nv];
        id.inverseDynamics(q, v, new double[nv], vdot, tau);
        double[] lambda = set.force().clone();
        out.println("Holding torques (N m) and foot forces (N) from constrained inverse dynamics:");
        out.printf(Locale.ROOT, "  %-4s %9s %9s %9s   %9s %9s %9s%n", "leg", "haa", "hfe", "kfe", "f_x", "f_y",
                "f_z");
        double fz = 0;
        for (String leg : LEGS) {
            int r = set.set().rowNames().indexOf(leg + "_foot_x");
            out.printf(Locale.ROOT, "  %-4s %9.4f %9.4f %9.4f   %9.4f %9.4f %9.4f%n", leg,
                    tau[model.vNames().indexOf(leg + "_haa")], tau[model.vNames().indexOf(leg + "_hfe")],
                    tau[model.vNames().indexOf(leg + "_kfe")], lambda[r], lambda[r + 1], lambda[r + 2]);
            fz += lambda[r + 2];
        }
        out.printf(Locale.ROOT, "  sum of vertical foot forces %.6f N (weight %.6f N)%n%n", fz, weight);

        // 2. Forward dynamics with those torques: the robot must stay still.
        ConstrainedDynamics direct = new ConstrainedDynamics(set);
        double[] vdotDirect = new double[nv];
        direct.forwardDynamicsDirect(q, v, tau, vdotDirect);
        double[] lambdaDirect = set.force().clone();
        ConstraintData kokkevisSet = boundSet(model, true);
        KokkevisContactDynamics kokkevis = new KokkevisContactDynamics(kokkevisSet);
        double[] vdotKokkevis = new double[nv];
        kokkevis.forwardDynamics(q, v, tau, vdotKokkevis);
        double[] lambdaKokkevis = kokkevisSet.force().clone();
        out.println("Forward dynamics under the holding torques:");
        out.printf(Locale.ROOT, "  direct (KKT):  max |vdot| %.2e, max |lambda - lambda_ID| %.2e N%n",
                maxAbs(vdotDirect), maxDiff(lambdaDirect, lambda));
        out.printf(Locale.ROOT, "  Kokkevis:      max |vdot| %.2e, max |lambda - lambda_ID| %.2e N%n%n",
                maxAbs(vdotKokkevis), maxDiff(lambdaKokkevis, lambda));

        // 3. Random states: agreement and cost.
        compare(out, model, states, timedCalls);
    }

    private static void compare(PrintStream out, Model model, int states, int timedCalls) {
        int nv = model.nv();
        Random rnd = new Random(42);
        double[][] qs = new double[states][];
        double[][] vs = new double[states][];
        double[][] taus = new double[states][];
        double[] stand = standingPose(model);
        for (int n = 0; n < states; n++) {
            // Near the standing pose: joints ±0.3 rad, trunk tilted a little, random velocities and torques.
            double[] q = stand.clone();
            for (int i = 7; i < q.length; i++) {
                q[i] += 0.3 * (2 * rnd.nextDouble() - 1);
            }
            double[] axis = {rnd.nextGaussian(), rnd.nextGaussian(), rnd.nextGaussian()};
            double norm = Math.sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
            double half = 0.1 * rnd.nextDouble();
            for (int i = 0; i < 3; i++) {
                q[3 + i] = Math.sin(half) * axis[i] / norm;
            }
            q[6] = Math.cos(half);
            qs[n] = q;
            vs[n] = uniform(rnd, nv, 1);
            taus[n] = uniform(rnd, nv, 10);
            for (int i = 0; i < 6; i++) {
                taus[n][i] = 0; // no force on the floating base
            }
        }
        ConstraintData reference = boundSet(model, true);
        ConstrainedDynamics directRef = new ConstrainedDynamics(reference);
        double[][] vdotRef = new double[states][nv];
        double[][] lambdaRef = new double[states][];
        for (int n = 0; n < states; n++) {
            directRef.forwardDynamicsDirect(qs[n], vs[n], taus[n], vdotRef[n]);
            lambdaRef[n] = reference.force().clone();
        }
        out.printf(Locale.ROOT, "%d random states near the pose: largest difference from the direct method on "
                + "generated code%n(relative to max(1, largest entry)), and the cost per call (fastest of %d batches "
                + "of %d calls):%n", states, ROUNDS * BATCHES, timedCalls);
        out.printf(Locale.ROOT, "  %-36s %11s %11s %12s%n", "method, dynamics", "vdot", "lambda", "us per call");
        String[] methods = {"DIRECT", "RANGE_SPACE_SPARSE", "NULL_SPACE", "KOKKEVIS"};
        int k = 0;
        String[] names = new String[2 * methods.length];
        Solver[] solvers = new Solver[names.length];
        double[] dv = new double[names.length];
        double[] dl = new double[names.length];
        for (boolean generated : new boolean[] {true, false}) {
            for (String method : methods) {
                ConstraintData set = boundSet(model, generated);
                Solver solver;
                if (method.equals("KOKKEVIS")) {
                    KokkevisContactDynamics kokkevis = new KokkevisContactDynamics(set);
                    solver = kokkevis::forwardDynamics;
                } else {
                    ConstrainedDynamics cd = new ConstrainedDynamics(set);
                    ConstraintSolverMethod m = ConstraintSolverMethod.valueOf(method);
                    solver = (q, v, tau, vdot) -> cd.forwardDynamics(m, q, v, tau, vdot);
                }
                double[] vdot = new double[nv];
                for (int n = 0; n < states; n++) {
                    solver.solve(qs[n], vs[n], taus[n], vdot);
                    dv[k] = Math.max(dv[k], relDiff(vdotRef[n], vdot));
                    dl[k] = Math.max(dl[k], relDiff(lambdaRef[n], set.force()));
                }
                names[k] = method.toLowerCase(Locale.ROOT).replace('_', '-') + ", "
                        + (generated ? "generated" : "generic");
                solvers[k++] = solver;
            }
        }
        // Timing: every solver in turn, in several rounds (the first ones also warm the JIT up); the fastest batch
        // of all rounds is reported, which is robust against a busy machine.
        double[] us = new double[names.length];
        java.util.Arrays.fill(us, Double.POSITIVE_INFINITY);
        double[] vdot = new double[nv];
        for (int round = 0; round < ROUNDS; round++) {
            for (int j = 0; j < solvers.length; j++) {
                for (int batch = 0; batch < BATCHES; batch++) {
                    long t0 = System.nanoTime();
                    for (int n = 0; n < timedCalls; n++) {
                        solvers[j].solve(qs[n % states], vs[n % states], taus[n % states], vdot);
                    }
                    us[j] = Math.min(us[j], (System.nanoTime() - t0) / 1e3 / timedCalls);
                }
            }
        }
        for (int j = 0; j < names.length; j++) {
            out.printf(Locale.ROOT, "  %-36s %11.2e %11.2e %12.2f%n", names[j], dv[j], dl[j], us[j]);
        }
    }

    @FunctionalInterface
    private interface Solver {
        void solve(double[] q, double[] v, double[] tau, double[] vdot);
    }

    private static double[] uniform(Random rnd, int n, double range) {
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = (2 * rnd.nextDouble() - 1) * range;
        }
        return x;
    }

    private static double maxAbs(double[] x) {
        double m = 0;
        for (double e : x) {
            m = Math.max(m, Math.abs(e));
        }
        return m;
    }

    private static double maxDiff(double[] a, double[] b) {
        double m = 0;
        for (int i = 0; i < a.length; i++) {
            m = Math.max(m, Math.abs(a[i] - b[i]));
        }
        return m;
    }

    private static double relDiff(double[] expected, double[] actual) {
        return maxDiff(expected, actual) / Math.max(1, maxAbs(expected));
    }
}
