package org.symdyn.benchmarks;

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
import org.symdyn.constraints.ConstraintSet;
import org.symdyn.contact.ContactProblem;
import org.symdyn.contact.ContactReport;
import org.symdyn.contact.ContactSet;
import org.symdyn.contact.ContactSettings;
import org.symdyn.contact.ContactSolver;
import org.symdyn.contact.TimeStepper;
import org.symdyn.contract.ModelFunctions;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.model.Model;

/**
 * Time stepping with unilateral contact (issue 11): the sample quadruped standing on its four feet (the model file's
 * floor and contact points: 4 contacts, 12 unknowns), h = 1 ms, τ the static-equilibrium torques of
 * {@link ConstrainedSolverBenchmark} (the robot stands still, every contact sticks).
 * <ul>
 * <li>{@code step}: one whole step from the same state every call (H, C, H's factor, the contact Jacobians, W,
 * the solve warm-started from the previous call, v⁺ and q⁺);</li>
 * <li>{@code solveWarm}: the contact solve alone on a step's problem whose state was moved (v perturbed by up to 1e-4 rad/s or m/s, a step's change in a running simulation),
 * warm-started from the unperturbed step's impulses, as in a running simulation;</li>
 * <li>{@code solveCold}: the same problem from λ = 0.</li>
 * </ul>
 * Backends: the generated class alone ({@code generated}, compiled in memory at set-up) or {@link GenericDynamics}.
 * Set-up checks that every solve converges.
 *
 * <p>{@code kinematicsForm} ({@link KinematicsFormParameter}): the generated class with the generator's default
 * kinematics ({@code default}: a straight-line method per body, a query computing the body's branch only) or, with
 * {@code -p kinematicsForm=default,compact}, also in the compact form ({@code compact}: shared passes, each query a
 * pass over the whole tree), so that one run measures both; the generic backend does not read it.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Fork(1)
public class ContactStepBenchmark {
    private static final double H = 1e-3;

    @Param({"generated", "generic"})
    public String backend;

    @Param({"ADMM", "PGS"})
    public String solver;

    @Param({KinematicsFormParameter.DEFAULT})
    public String kinematicsForm;

    private TimeStepper stepper;
    private double[] q0;
    private double[] v0;
    private double[] q;
    private double[] v;
    private double[] tau;
    private ContactProblem problem;
    private ContactSolver contactSolver;
    private ContactReport report;
    private double[] warm;
    private double[] lambda;

    @Setup
    public void setUp() throws Exception {
        Model m = ConstrainedSolverBenchmark.readModel("quadruped");
        q0 = new double[m.nq()];
        tau = new double[m.nv()];
        ConstrainedSolverBenchmark.standing(m, "quadruped", ConstraintSet.of(m), q0, tau);
        v0 = new double[m.nv()];
        ContactSettings settings = ContactSettings.defaults().solver(ContactSettings.Solver.valueOf(solver));
        ContactSet contacts = ContactSet.of(m);
        if (backend.equals("generated")) {
            ModelFunctions f = ConstrainedSolverBenchmark.generatedFunctions(m, kinematicsForm);
            stepper = TimeStepper.builder(f).contacts(contacts).settings(settings).build();
        } else if (backend.equals("generic")) {
            stepper = TimeStepper.builder(new GenericDynamics(m)).contacts(contacts).settings(settings).build();
        } else {
            throw new IllegalArgumentException("backend must be generated or generic: " + backend);
        }
        q = q0.clone();
        v = v0.clone();
        check(stepper.step(q, v, tau, H, q, v));
        if (stepper.contactCount() != 4) {
            throw new IllegalStateException("the quadruped should stand on 4 contacts, found " + stepper.contactCount());
        }
        // the solve alone: the problem of a moved state, warm-started from the unmoved step's impulses
        int rows = stepper.problem().rows();
        warm = new double[rows];
        for (int k = 0; k < 4; k++) {
            for (int c = 0; c < 3; c++) {
                warm[3 * k + c] = stepper.contactImpulse(k, c);
            }
        }
        double[] vMoved = BenchmarkStates.uniform(new java.util.Random(BenchmarkStates.SEED), m.nv(), 1e-4);
        System.arraycopy(q0, 0, q, 0, q.length);
        check(stepper.step(q, vMoved, tau, H, q, vMoved));
        ContactProblem last = stepper.problem();
        problem = new ContactProblem(rows);
        for (int k = 0; k < last.blockCount(); k++) {
            problem.addCoulomb(last.blockFriction(k));
        }
        System.arraycopy(last.delassus(), 0, problem.delassus(), 0, rows * rows);
        System.arraycopy(last.offset(), 0, problem.offset(), 0, rows);
        contactSolver = settings.newSolver(rows);
        report = new ContactReport();
        lambda = new double[rows];
        System.arraycopy(warm, 0, lambda, 0, rows);
        check(report, contactSolver.solve(problem, lambda, report));
        int warmIterations = report.iterations();
        java.util.Arrays.fill(lambda, 0);
        check(report, contactSolver.solve(problem, lambda, report));
        System.out.println("# ContactStepBenchmark " + backend + " " + solver + " kinematics "
                + (backend.equals("generic") ? "interpreted" : kinematicsForm) + ": warm solve " + warmIterations
                + " iterations, cold " + report.iterations());
    }

    private static void check(ContactReport r) {
        if (!r.converged()) {
            throw new IllegalStateException("contact solve did not converge: " + r);
        }
    }

    private static void check(ContactReport r, boolean converged) {
        if (!converged) {
            throw new IllegalStateException("contact solve did not converge: " + r);
        }
    }

    @Benchmark
    public double step() {
        System.arraycopy(q0, 0, q, 0, q.length);
        System.arraycopy(v0, 0, v, 0, v.length);
        stepper.step(q, v, tau, H, q, v);
        return q[2] + v[5];
    }

    @Benchmark
    public double solveWarm() {
        System.arraycopy(warm, 0, lambda, 0, lambda.length);
        contactSolver.solve(problem, lambda, report);
        return lambda[2];
    }

    @Benchmark
    public double solveCold() {
        java.util.Arrays.fill(lambda, 0);
        contactSolver.solve(problem, lambda, report);
        return lambda[2];
    }
}
