package org.symdyn.samples;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.contact.ContactReport;
import org.symdyn.contact.ContactSet;
import org.symdyn.contact.StepDerivatives;
import org.symdyn.contact.TimeStepper;
import org.symdyn.manifold.StateSpace;
import org.symdyn.model.Frame;
import org.symdyn.model.JointDamping;
import org.symdyn.model.Model;
import org.symdyn.samples.generated.derivatives.Arm7Dynamics;
import org.symdyn.samples.generated.derivatives.QuadrupedDynamics;
import org.symdyn.solvers.ActuationMap;
import org.symdyn.solvers.ConstrainedInverseDynamics;
import org.symdyn.spatial.Rotations;

/**
 * Trajectory optimisation through the step derivatives: {@link Ilqr} on one {@link TimeStepper} step per stage, its
 * derivatives ∂(q⁺, v⁺)/∂(q, v, τ) from {@link StepDerivatives}, the dynamics from classes generated with their
 * derivatives ({@code org.symdyn.samples.generated.derivatives}: this module's {@code derivatives} execution of the
 * plugin). Two problems, h = {@value #H} s, N = {@value #STEPS} steps (1 s):
 * <ul>
 * <li><b>arm7 reaching</b>: from rest at q = 0 (upright) the flange's origin to {@link #ARM_TARGET_POSTURE}'s flange
 * position, at rest at t = 1 s; no contact, joint limits on, viscous joint damping {@link #ARM_DAMPING} (see there
 * why); controls the 7 joint torques; cost Σ ½ w_τ |τ|² + ½ W_p |p(q_N) − p*|² + ½ W_v |v_N|² (weights
 * {@link #ARM_WEIGHTS}; the terminal Hessian Gauss-Newton, W_p Jᵀ J with J the flange's point Jacobian); starts from
 * τ = 0.</li>
 * <li><b>quadruped trunk shift</b>: the sample quadruped standing on its four toes (the floor and toe points of the
 * model file, {@link ContactSet#of}: unilateral contact with friction 0.8, not the file's bilateral rows), at rest,
 * moves its trunk {@value #SHIFT} m sideways (+y) over its planted feet; controls the 12 joint torques (the base
 * unactuated: its 6 rows of τ are 0); cost on the trunk's position p and orientation (e = log(R*ᵀ R)), its velocity,
 * the joints' velocities and the torques' deviation from the holding torques τ_hold (from constrained inverse
 * dynamics on the file's bilateral foot rows; the starting guess):
 * Σ_k [½ w_p |p − p*|² + ½ w_r |e|² + ½ w_v |v_trunk|² + ½ w_τ |τ − τ_hold|²] + the same terminal terms with
 * W_p, W_r, W_v and ½ W_j |v_joints|² (weights {@link #QUADRUPED_WEIGHTS}).</li>
 * </ul>
 * Each prints per iteration the cost, its decrease, the regularisation μ, the step size and the milliseconds, then the
 * final error against the target and the total time, replays the optimised torques open loop (their state within
 * the contact solver's tolerance of the optimiser's), and writes the replay in {@code symdyn simulate}'s format:
 *
 * <pre>
 *   java -cp samples/target/fourbar-demo.jar org.symdyn.samples.IlqrDemo [ilqr-demo]
 *   java -jar cli/target/symdyn.jar view ilqr-demo/arm.json samples/src/main/symdyn/arm7.urdf -o ilqr-arm.html
 *   java -jar cli/target/symdyn.jar view ilqr-demo/quadruped.json samples/src/main/symdyn/quadruped.urdf \
 *       -o ilqr-quadruped.html
 * </pre>
 */
public final class IlqrDemo {
    /** Time step (s) and number of steps. */
    static final double H = 0.01;
    static final int STEPS = 100;
    /** The posture whose flange position the arm reaches (rad). */
    static final double[] ARM_TARGET_POSTURE = {0.5, 0.8, 0, -0.9, 0, 0.6, 0};
    /** w_τ (1/(N m)² per step), W_p (1/m²), W_v (s²/rad²). */
    static final double[] ARM_WEIGHTS = {1e-2, 1e5, 1e3};
    /**
     * The arm's viscous joint damping (N m s/rad, every joint; the step treats it implicitly); arm7.urdf has none.
     * Measured without it (same weights, limits on or off): the trial rollouts blow up (costs of 1e36 and infinite
     * at step sizes down to 1/256), the line search takes steps of 1/1024 to 1/16, and after 50 iterations the flange
     * is still 0.3-0.6 m from the target. The likely cause is the step's explicit velocity terms (Coriolis) at the
     * several rad/s of the early iterations, with the light wrist coupled to the heavy upper arm; with 0.2 N m s/rad
     * a joint-posture target came within 5 mm in 50 iterations.
     */
    static final double ARM_DAMPING = 1.0;
    /** Sideways shift of the trunk (m). */
    static final double SHIFT = 0.04;
    /** w_p, w_r, w_v, w_τ per step; W_p, W_r, W_v, W_j terminal. */
    static final double[] QUADRUPED_WEIGHTS = {10, 10, 0.1, 1e-3, 1e5, 1e4, 100, 10};
    /** Iteration caps, and the relative decrease below which both stop. */
    static final int ARM_ITERATIONS = 200;
    static final int QUADRUPED_ITERATIONS = 50;
    static final double TOLERANCE = 1e-6;

    private IlqrDemo() {
    }

    /** An optimised problem: the solver's result, the open-loop replay of its controls, the final error (m). */
    record Outcome(String name, Ilqr.Result result, Replay replay, double finalError) {
    }

    /**
     * The optimised controls stepped again from x0: its states, the contacts of each step and how many of them stick
     * ({@link StepDerivatives#mode}), the trajectory file, and its largest deviation from the optimised states.
     */
    record Replay(double[][] x, int[] contacts, int[] sticking, TrajectoryFile trajectory, double deviation) {
        int fewestContacts() {
            int fewest = Integer.MAX_VALUE;
            for (int c : contacts) {
                fewest = Math.min(fewest, c);
            }
            return fewest;
        }

        int fewestSticking() {
            int fewest = Integer.MAX_VALUE;
            for (int c : sticking) {
                fewest = Math.min(fewest, c);
            }
            return fewest;
        }
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args.length > 0 ? args[0] : "ilqr-demo");
        Files.createDirectories(dir);
        PrintStream out = System.out;
        Outcome arm = arm(out);
        arm.replay().trajectory().write(dir.resolve("arm.json"));
        Outcome quadruped = quadruped(out);
        quadruped.replay().trajectory().write(dir.resolve("quadruped.json"));
        out.printf(Locale.ROOT, "Trajectories written to %s; view them with%n", dir);
        out.printf(Locale.ROOT, "  java -jar cli/target/symdyn.jar view %s samples/src/main/symdyn/arm7.urdf -o "
                + "ilqr-%s.html%n", dir.resolve("arm.json"), "arm");
        out.printf(Locale.ROOT, "  java -jar cli/target/symdyn.jar view %s samples/src/main/symdyn/quadruped.urdf -o "
                + "ilqr-%s.html%n", dir.resolve("quadruped.json"), "quadruped");
    }

    /** The arm problem, solved, its iterations printed to {@code out}. */
    static Outcome arm(PrintStream out) throws Exception {
        ArmReach problem = new ArmReach();
        out.printf(Locale.ROOT, "arm7 reaching (generated Arm7Dynamics with derivatives, TimeStepper with joint "
                + "limits, joint damping %.1f N m s/rad, h = %.0f ms, %d steps): flange from (%.4f, %.4f, %.4f) to "
                + "(%.4f, %.4f, %.4f) m%n", ARM_DAMPING, H * 1e3, STEPS, problem.start[0], problem.start[1], problem.start[2], problem.target[0], problem.target[1],
                problem.target[2]);
        Ilqr.Result r = new Ilqr(problem).solve(problem.x0(), new double[STEPS][problem.nv], ARM_ITERATIONS,
                TOLERANCE, it -> print(out, it));
        Replay replay = problem.replay(r);
        double error = problem.flangeError(r.x()[STEPS]);
        double speed = 0;
        for (int i = 0; i < problem.nv; i++) {
            speed = Math.max(speed, Math.abs(r.x()[STEPS][problem.nv + i]));
        }
        double torque = 0;
        for (double[] u : r.u()) {
            for (double t : u) {
                torque = Math.max(torque, Math.abs(t));
            }
        }
        summary(out, r);
        out.printf(Locale.ROOT, "  final flange error %.2e m, largest joint speed at t = 1 s %.2e rad/s, largest "
                + "torque %.2f N m; replay within %.1e of the optimised states%n%n", error, speed, torque,
                replay.deviation());
        return new Outcome("arm", r, replay, error);
    }

    /** The quadruped problem, solved, its iterations printed to {@code out}. */
    static Outcome quadruped(PrintStream out) throws Exception {
        TrunkShift problem = new TrunkShift();
        double[] x0 = problem.x0();
        out.printf(Locale.ROOT, "quadruped trunk shift (generated QuadrupedDynamics with derivatives, TimeStepper with "
                + "the floor and four toe contacts, h = %.0f ms, %d steps): trunk from y = 0 to %.3f m at height "
                + "%.4f m%n", H * 1e3, STEPS, SHIFT, x0[2]);
        double[][] u0 = new double[STEPS][];
        for (int k = 0; k < STEPS; k++) {
            u0[k] = problem.hold.clone();
        }
        Ilqr.Result r = new Ilqr(problem).solve(x0, u0, QUADRUPED_ITERATIONS, TOLERANCE, it -> print(out, it));
        Replay replay = problem.replay(r);
        double[] xN = r.x()[STEPS];
        double error = problem.positionError(xN);
        summary(out, r);
        out.printf(Locale.ROOT, "  final trunk position error %.2e m (at %.4f, %.4f, %.4f m), orientation error %.2e "
                + "rad, trunk speed %.2e m/s; feet in contact at every step >= %d, sticking >= %d; replay within %.1e "
                + "of the optimised states%n%n", error, xN[0], xN[1], xN[2], problem.rotationError(xN),
                Math.sqrt(xN[19 + 3] * xN[19 + 3] + xN[19 + 4] * xN[19 + 4] + xN[19 + 5] * xN[19 + 5]),
                replay.fewestContacts(), replay.fewestSticking(), replay.deviation());
        return new Outcome("quadruped", r, replay, error);
    }

    private static void print(PrintStream out, Ilqr.Iteration it) {
        out.printf(Locale.ROOT, "  iteration %2d  cost %.6e  decrease %.3e  mu %.0e  step %-9s  %.1f ms%n", it.index(),
                it.cost(), it.decrease(), it.mu(), it.step() == 0 ? "none" : Double.toString(it.step()), it.millis());
    }

    private static void summary(PrintStream out, Ilqr.Result r) {
        double perIteration = 0;
        for (Ilqr.Iteration it : r.iterations()) {
            perIteration += it.millis();
        }
        perIteration /= Math.max(1, r.iterations().size());
        out.printf(Locale.ROOT, "  %d iterations (stopped: %s), cost %.6e -> %.6e (%.2e of the initial), %.1f ms per "
                + "iteration, %.2f s in all%n", r.iterations().size(), r.stop(), r.initialCost(), r.cost(),
                r.cost() / r.initialCost(), perIteration, r.millis() / 1e3);
    }

    /** Copies the six nv x nv step derivatives into the 2nv x 2nv f_x and the 2nv x m f_u of the actuated columns. */
    private static void derivatives(StepDerivatives d, int nv, int firstActuated, DMatrixRMaj fx, DMatrixRMaj fu) {
        block(d.dqNextDq(), 0, fx, 0, 0, nv);
        block(d.dqNextDv(), 0, fx, 0, nv, nv);
        block(d.dvNextDq(), 0, fx, nv, 0, nv);
        block(d.dvNextDv(), 0, fx, nv, nv, nv);
        block(d.dqNextDtau(), firstActuated, fu, 0, 0, fu.numCols);
        block(d.dvNextDtau(), firstActuated, fu, nv, 0, fu.numCols);
    }

    /** dst[row0 + i, col0 + j] = src[i, first + j] for the rows of src and {@code cols} columns. */
    private static void block(DMatrixRMaj src, int first, DMatrixRMaj dst, int row0, int col0, int cols) {
        for (int i = 0; i < src.numRows; i++) {
            for (int j = 0; j < cols; j++) {
                dst.unsafe_set(row0 + i, col0 + j, src.unsafe_get(i, first + j));
            }
        }
    }

    // ------------------------------------------------------------------------------------------------ the arm

    /** arm7 from rest at q = 0 to a flange position; x = (q, v), tangent = (δq, δv), u = τ. */
    static final class ArmReach implements Ilqr.Problem {
        final Model model;
        final Arm7Dynamics dyn = new Arm7Dynamics();
        final int nv;
        final TimeStepper stepper;
        final StepDerivatives d;
        final int body;
        final double[] point;
        final double[] start = new double[3];
        final double[] target = new double[3];
        private final double[] q;
        private final double[] v;
        private final double[] qn;
        private final double[] vn;
        private final double[] p = new double[3];
        private final DMatrixRMaj jac;

        ArmReach() throws Exception {
            model = SampleModels.load("arm7.urdf");
            nv = model.nv();
            stepper = stepper();
            d = new StepDerivatives(stepper, model);
            Frame flange = model.frame("flange");
            body = flange.bodyIndex();
            point = flange.pose().translationArray();
            q = new double[nv];
            v = new double[nv];
            qn = new double[nv];
            vn = new double[nv];
            jac = new DMatrixRMaj(3, nv);
            dyn.pointPosition(new double[nv], body, point, start);
            dyn.pointPosition(ARM_TARGET_POSTURE, body, point, target);
        }

        double[] x0() {
            return new double[2 * nv];
        }

        @Override
        public int stateSize() {
            return 2 * nv;
        }

        @Override
        public int tangentSize() {
            return 2 * nv;
        }

        @Override
        public int controlSize() {
            return nv;
        }

        @Override
        public int horizon() {
            return STEPS;
        }

        @Override
        public void step(int k, double[] x, double[] u, double[] next, DMatrixRMaj fx, DMatrixRMaj fu) {
            System.arraycopy(x, 0, q, 0, nv);
            System.arraycopy(x, nv, v, 0, nv);
            if (!stepper.step(q, v, u, H, qn, vn).converged()) {
                Arrays.fill(next, Double.NaN); // a joint-limit solve that failed: the trial is refused
                return;
            }
            System.arraycopy(qn, 0, next, 0, nv);
            System.arraycopy(vn, 0, next, nv, nv);
            if (fx != null) {
                d.compute(q, v, u, H);
                derivatives(d, nv, 0, fx, fu);
            }
        }

        @Override
        public void difference(double[] x0, double[] x1, double[] dx) {
            for (int i = 0; i < dx.length; i++) {
                dx[i] = x1[i] - x0[i];
            }
        }

        @Override
        public double runningCost(int k, double[] x, double[] u, Ilqr.CostDerivatives cd) {
            double w = ARM_WEIGHTS[0];
            double cost = 0;
            for (int i = 0; i < nv; i++) {
                cost += 0.5 * w * u[i] * u[i];
                if (cd != null) {
                    cd.lu.data[i] += w * u[i];
                    cd.luu.add(i, i, w);
                }
            }
            return cost;
        }

        @Override
        public double terminalCost(double[] x, Ilqr.CostDerivatives cd) {
            double wp = ARM_WEIGHTS[1];
            double wv = ARM_WEIGHTS[2];
            System.arraycopy(x, 0, q, 0, nv);
            dyn.pointPosition(q, body, point, p);
            double cost = 0;
            for (int i = 0; i < 3; i++) {
                double e = p[i] - target[i];
                cost += 0.5 * wp * e * e;
            }
            for (int i = 0; i < nv; i++) {
                cost += 0.5 * wv * x[nv + i] * x[nv + i];
            }
            if (cd != null) {
                // Gauss-Newton: ℓ_q = W_p Jᵀ e, ℓ_qq = W_p Jᵀ J (J the flange's point Jacobian)
                dyn.pointJacobian(q, body, point, jac);
                for (int a = 0; a < nv; a++) {
                    double g = 0;
                    for (int i = 0; i < 3; i++) {
                        g += jac.unsafe_get(i, a) * (p[i] - target[i]);
                    }
                    cd.lx.data[a] += wp * g;
                    for (int b = 0; b < nv; b++) {
                        double hh = 0;
                        for (int i = 0; i < 3; i++) {
                            hh += jac.unsafe_get(i, a) * jac.unsafe_get(i, b);
                        }
                        cd.lxx.add(a, b, wp * hh);
                    }
                    cd.lx.data[nv + a] += wv * x[nv + a];
                    cd.lxx.add(nv + a, nv + a, wv);
                }
            }
            return cost;
        }

        double flangeError(double[] x) {
            System.arraycopy(x, 0, q, 0, nv);
            dyn.pointPosition(q, body, point, p);
            return Math.sqrt((p[0] - target[0]) * (p[0] - target[0]) + (p[1] - target[1]) * (p[1] - target[1])
                    + (p[2] - target[2]) * (p[2] - target[2]));
        }

        /** A step with the joint limits and {@link #ARM_DAMPING}, no contact. */
        TimeStepper stepper() {
            double[] damping = new double[nv];
            Arrays.fill(damping, ARM_DAMPING);
            return TimeStepper.builder(dyn).jointLimits(model).jointDamping(JointDamping.perDof(damping)).build();
        }

        Replay replay(Ilqr.Result r) {
            return IlqrDemo.replay(stepper(), model, 0, r);
        }
    }

    /**
     * Steps the optimised controls open loop from the optimiser's x0 on a fresh stepper, recording every state; the
     * deviation is the largest |x_replay − x_optimised| entry.
     */
    private static Replay replay(TimeStepper s, Model model, int firstActuated, Ilqr.Result r) {
        int nq = model.nq();
        int nv = model.nv();
        StepDerivatives modes = new StepDerivatives(s, model);
        double[][] xs = new double[STEPS + 1][];
        int[] contacts = new int[STEPS];
        int[] sticking = new int[STEPS];
        TrajectoryFile file = new TrajectoryFile();
        double[] q = Arrays.copyOf(r.x()[0], nq);
        double[] v = Arrays.copyOfRange(r.x()[0], nq, nq + nv);
        xs[0] = r.x()[0].clone();
        file.record(0, q, v, s, false);
        double[] tau = new double[nv];
        double[] qn = new double[nq];
        double[] vn = new double[nv];
        double deviation = 0;
        for (int k = 0; k < STEPS; k++) {
            System.arraycopy(r.u()[k], 0, tau, firstActuated, r.u()[k].length);
            ContactReport report = s.step(q, v, tau, H, qn, vn);
            if (!report.converged()) {
                throw new IllegalStateException("step " + k + " of the replay: " + report);
            }
            contacts[k] = s.contactCount();
            modes.compute(q, v, tau, H);
            for (int c = 0; c < contacts[k]; c++) {
                sticking[k] += modes.mode(c) == StepDerivatives.STICKING ? 1 : 0;
            }
            file.record((k + 1) * H, qn, vn, s, true);
            double[] x = new double[nq + nv];
            System.arraycopy(qn, 0, x, 0, nq);
            System.arraycopy(vn, 0, x, nq, nv);
            xs[k + 1] = x;
            for (int i = 0; i < x.length; i++) {
                deviation = Math.max(deviation, Math.abs(x[i] - r.x()[k + 1][i]));
            }
            System.arraycopy(qn, 0, q, 0, nq);
            System.arraycopy(vn, 0, v, 0, nv);
        }
        return new Replay(xs, contacts, sticking, file, deviation);
    }

    // ------------------------------------------------------------------------------------------------ the quadruped

    /**
     * The quadruped shifting its trunk; x = (q, v) (nq + nv), tangent = (δq, δv) in the contract's tangent space
     * (the trunk's δq a rotation vector in trunk coordinates and a linear part in trunk coordinates), u = the 12
     * joint torques (τ's rows 6..17).
     */
    static final class TrunkShift implements Ilqr.Problem {
        static final int ACTUATED = 6;
        final Model model;
        final QuadrupedDynamics dyn = new QuadrupedDynamics();
        final StateSpace space;
        final int nq;
        final int nv;
        final int m;
        final TimeStepper stepper;
        final StepDerivatives d;
        final double[] standing;
        final double[] targetQ;
        final double[] hold;
        private final double[] q;
        private final double[] v;
        private final double[] qn;
        private final double[] vn;
        private final double[] tau;
        private final double[] u;
        private final double[] r = new double[9];
        private final double[] jr = new double[9];

        TrunkShift() throws Exception {
            model = SampleModels.load("quadruped.urdf");
            nq = model.nq();
            nv = model.nv();
            m = nv - ACTUATED;
            space = new StateSpace(model);
            stepper = TimeStepper.builder(dyn).contacts(ContactSet.of(model)).jointLimits(model).build();
            d = new StepDerivatives(stepper, model);
            standing = QuadrupedStandingDemo.standingPose(model);
            targetQ = standing.clone();
            targetQ[1] += SHIFT;
            // τ_hold: the joint torques that hold the standing pose on the file's bilateral foot rows (v̇ = 0)
            ConstraintData set = QuadrupedStandingDemo.boundSet(model, true);
            ConstrainedInverseDynamics id = new ConstrainedInverseDynamics(set, ActuationMap.allButFloatingBase(model));
            double[] t = new double[nv];
            id.inverseDynamics(standing, new double[nv], new double[nv], new double[nv], t);
            hold = Arrays.copyOfRange(t, ACTUATED, nv);
            q = new double[nq];
            v = new double[nv];
            qn = new double[nq];
            vn = new double[nv];
            tau = new double[nv];
            u = new double[nv];
        }

        double[] x0() {
            double[] x = new double[nq + nv];
            System.arraycopy(standing, 0, x, 0, nq);
            return x;
        }

        @Override
        public int stateSize() {
            return nq + nv;
        }

        @Override
        public int tangentSize() {
            return 2 * nv;
        }

        @Override
        public int controlSize() {
            return m;
        }

        @Override
        public int horizon() {
            return STEPS;
        }

        @Override
        public void step(int k, double[] x, double[] control, double[] next, DMatrixRMaj fx, DMatrixRMaj fu) {
            System.arraycopy(x, 0, q, 0, nq);
            System.arraycopy(x, nq, v, 0, nv);
            System.arraycopy(control, 0, tau, ACTUATED, m);
            ContactReport report = stepper.step(q, v, tau, H, qn, vn);
            if (!report.converged()) {
                // a trial far from the nominal may give a hard contact problem: its cost says whether it is kept
                Arrays.fill(next, Double.NaN);
                return;
            }
            System.arraycopy(qn, 0, next, 0, nq);
            System.arraycopy(vn, 0, next, nq, nv);
            if (fx != null) {
                d.compute(q, v, tau, H);
                derivatives(d, nv, ACTUATED, fx, fu);
            }
        }

        /** δq by {@link StateSpace#difference} with the trunk's linear part turned into x0's trunk coordinates. */
        @Override
        public void difference(double[] x0, double[] x1, double[] dx) {
            space.difference(x0, x1, u);
            Rotations.fromQuaternion(x0[3], x0[4], x0[5], x0[6], r);
            double a = u[3];
            double b = u[4];
            double c = u[5];
            for (int i = 0; i < 3; i++) {
                u[3 + i] = r[i] * a + r[3 + i] * b + r[6 + i] * c; // Rᵀ (p₁ − p₀)
            }
            System.arraycopy(u, 0, dx, 0, nv);
            for (int i = 0; i < nv; i++) {
                dx[nv + i] = x1[nq + i] - x0[nq + i];
            }
        }

        @Override
        public double runningCost(int k, double[] x, double[] control, Ilqr.CostDerivatives cd) {
            double[] w = QUADRUPED_WEIGHTS;
            double cost = pose(x, w[0], w[1], cd);
            cost += velocity(x, 0, ACTUATED, w[2], cd);
            for (int i = 0; i < m; i++) {
                double e = control[i] - hold[i];
                cost += 0.5 * w[3] * e * e;
                if (cd != null) {
                    cd.lu.data[i] += w[3] * e;
                    cd.luu.add(i, i, w[3]);
                }
            }
            return cost;
        }

        @Override
        public double terminalCost(double[] x, Ilqr.CostDerivatives cd) {
            double[] w = QUADRUPED_WEIGHTS;
            return pose(x, w[4], w[5], cd) + velocity(x, 0, ACTUATED, w[6], cd) + velocity(x, ACTUATED, nv, w[7], cd);
        }

        /**
         * ½ w_p |p − p*|² + ½ w_r |e|², e = log(R*ᵀ R); along the tangent, ∂p/∂δ_lin = R (δ_lin in trunk
         * coordinates) and ∂e/∂δθ = J_r⁻¹(e) (Gauss-Newton Hessians).
         */
        private double pose(double[] x, double wp, double wr, Ilqr.CostDerivatives cd) {
            space.difference(targetQ, x, u); // u[0..2] = e, u[3..5] = p − p*
            double cost = 0;
            for (int i = 0; i < 3; i++) {
                cost += 0.5 * wr * u[i] * u[i] + 0.5 * wp * u[3 + i] * u[3 + i];
            }
            if (cd != null) {
                Rotations.fromQuaternion(x[3], x[4], x[5], x[6], r);
                for (int a = 0; a < 3; a++) {
                    // ℓ_δlin = w_p Rᵀ (p − p*), ℓ_δlinδlin = w_p I
                    cd.lx.data[3 + a] += wp * (r[a] * u[3] + r[3 + a] * u[4] + r[6 + a] * u[5]);
                    cd.lxx.add(3 + a, 3 + a, wp);
                }
                inverseRightJacobian(u[0], u[1], u[2], jr);
                for (int a = 0; a < 3; a++) {
                    cd.lx.data[a] += wr * (jr[a] * u[0] + jr[3 + a] * u[1] + jr[6 + a] * u[2]);
                    for (int b = 0; b < 3; b++) {
                        cd.lxx.add(a, b, wr * (jr[a] * jr[b] + jr[3 + a] * jr[3 + b] + jr[6 + a] * jr[6 + b]));
                    }
                }
            }
            return cost;
        }

        /** ½ w |v_i|² over i in [from, to). */
        private double velocity(double[] x, int from, int to, double w, Ilqr.CostDerivatives cd) {
            double cost = 0;
            for (int i = from; i < to; i++) {
                double vi = x[nq + i];
                cost += 0.5 * w * vi * vi;
                if (cd != null) {
                    cd.lx.data[nv + i] += w * vi;
                    cd.lxx.add(nv + i, nv + i, w);
                }
            }
            return cost;
        }

        /** J_r⁻¹(e) = I + ½ [e]× + c(θ) [e]×², c = 1/θ² − (1 + cos θ)/(2 θ sin θ) (→ 1/12), row-major. */
        private static void inverseRightJacobian(double ex, double ey, double ez, double[] out) {
            double t2 = ex * ex + ey * ey + ez * ez;
            double t = Math.sqrt(t2);
            double c = t < 1e-4 ? 1.0 / 12 + t2 / 720 : 1 / t2 - (1 + Math.cos(t)) / (2 * t * Math.sin(t));
            // [e]×² = e eᵀ − |e|² I
            out[0] = 1 + c * (ex * ex - t2);
            out[1] = -0.5 * ez + c * ex * ey;
            out[2] = 0.5 * ey + c * ex * ez;
            out[3] = 0.5 * ez + c * ey * ex;
            out[4] = 1 + c * (ey * ey - t2);
            out[5] = -0.5 * ex + c * ey * ez;
            out[6] = -0.5 * ey + c * ez * ex;
            out[7] = 0.5 * ex + c * ez * ey;
            out[8] = 1 + c * (ez * ez - t2);
        }

        /** |p − p*| of the trunk (m). */
        double positionError(double[] x) {
            return Math.sqrt((x[0] - targetQ[0]) * (x[0] - targetQ[0]) + (x[1] - targetQ[1]) * (x[1] - targetQ[1])
                    + (x[2] - targetQ[2]) * (x[2] - targetQ[2]));
        }

        /** |log(R*ᵀ R)| of the trunk (rad). */
        double rotationError(double[] x) {
            space.difference(targetQ, x, u);
            return Math.sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
        }

        Replay replay(Ilqr.Result res) {
            TimeStepper s = TimeStepper.builder(dyn).contacts(ContactSet.of(model)).jointLimits(model).build();
            return IlqrDemo.replay(s, model, ACTUATED, res);
        }
    }
}
