package org.symdyn.samples;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.constraints.ConstraintSet;
import org.symdyn.model.Model;
import org.symdyn.samples.generated.FourbarDynamics;
import org.symdyn.simulation.DriftControl;
import org.symdyn.simulation.RungeKutta4;
import org.symdyn.simulation.SimulationLog;
import org.symdyn.simulation.Simulator;
import org.symdyn.solvers.Assembly;

/**
 * The passive four-bar of {@code fourbar.urdf} (crank 1 m, coupler 2 m, rocker 1.5 m, ground 2 m, gravity 9.81 m/s²
 * along -y) simulated for 10 s with the class generated from that file at build time ({@link FourbarDynamics}: H,
 * C, and the loop's φ, G and γ), RK4 at h = 1 ms, zero joint torques, twice: with Baumgarte stabilisation
 * (T_stab = 0.1 s) and with projection onto the constraints after every step. Prints a summary of each run and
 * writes a plot of the constraint error and the energy of both runs as SVG.
 *
 * <p>The generated class alone runs the assembly, the constrained solves and the simulation (one fused evaluation of
 * H, C, G, γ, φ, φ̇ per right-hand side); the model file is read only for the energy's potential term, which needs
 * the links' masses.
 *
 * <pre>  java -jar samples/target/fourbar-demo.jar [plot.svg]      (default: fourbar-drift.svg)</pre>
 */
public final class FourBarDemo {
    /** Simulated time (s). */
    static final double T_END = 10;
    /** RK4 step (s). */
    static final double STEP = 1e-3;
    /** Baumgarte time constant (s): α = β = 1/T. */
    static final double T_STAB = 0.1;
    /** Crank angle of the initial configuration (rad) and the crank rate asked for (rad/s). */
    static final double CRANK_ANGLE = 0.3;
    static final double CRANK_RATE = 2.0;
    /** Rough guess of the coupler and rocker joint angles (rad) that assembly corrects. */
    static final double[] GUESS = {CRANK_ANGLE, 0.3, -2.6};
    /** Assembly weights: the crank angle and rate are held (weight 10⁶), the others adjust. */
    static final double[] WEIGHTS = {1e6, 1, 1};

    private FourBarDemo() {
    }

    /** A configuration with φ(q) = 0 and G(q) v = 0. */
    record State(double[] q, double[] v, int iterations, double residual) {
    }

    /** The outcome of one run. */
    record Run(String name, DriftControl drift, long steps, long nanos, double finalPhi, double finalPhidot,
            double maxPhi, double maxPhidot, double initialEnergy, double finalEnergy, double maxEnergyDrift,
            long projectionFailures, double[] time, double[] phi, double[] energy) {
        double relativeDrift() {
            return maxEnergyDrift / Math.abs(initialEnergy);
        }
    }

    public static void main(String[] args) throws Exception {
        Path svg = Path.of(args.length > 0 ? args[0] : "fourbar-drift.svg");
        System.exit(run(svg, T_END, System.out) ? 0 : 1);
    }

    /**
     * Runs both simulations for {@code tEnd} seconds, prints the summary and writes the plot.
     *
     * @return true if both runs ended with finite states
     */
    static boolean run(Path svg, double tEnd, PrintStream out) throws Exception {
        Model model = SampleModels.load("fourbar.urdf");
        FourbarDynamics probe = new FourbarDynamics();
        String sha = SampleModels.sha256(SampleModels.bytes("fourbar.urdf"));
        out.printf(Locale.ROOT, "Four-bar (fourbar.urdf, SHA-256 %s...): generated %s (%s)%n",
                sha.substring(0, 12), probe.getClass().getSimpleName(),
                sha.equals(probe.sourceSha256()) ? "made from this file" : "WARNING: made from another version");

        State s0 = assemble(model);
        out.printf(Locale.ROOT, "Assembled from the guess q = (%.2f, %.2f, %.2f) rad in %d Newton steps "
                + "(|phi| %.1e m):%n  q0 = (%.6f, %.6f, %.6f) rad, v0 = (%.6f, %.6f, %.6f) rad/s%n", GUESS[0],
                GUESS[1], GUESS[2], s0.iterations(), s0.residual(), s0.q()[0], s0.q()[1], s0.q()[2], s0.v()[0],
                s0.v()[1], s0.v()[2]);
        out.printf(Locale.ROOT, "Simulating %.0f s with RK4, h = %.0e s, zero torque, gravity (%.2f, %.2f, %.2f) "
                + "m/s^2 (timed after a %.1f s warm-up run of each)%n%n", tEnd, STEP, model.gravity(0),
                model.gravity(1), model.gravity(2), Math.min(1.0, tEnd));

        simulate(model, DriftControl.BAUMGARTE, s0, Math.min(1.0, tEnd));
        simulate(model, DriftControl.PROJECTION, s0, Math.min(1.0, tEnd));
        Run baumgarte = simulate(model, DriftControl.BAUMGARTE, s0, tEnd);
        Run projection = simulate(model, DriftControl.PROJECTION, s0, tEnd);

        out.printf(Locale.ROOT, "%-34s %14s %14s%n", "", "Baumgarte", "projection");
        row(out, "steps", "%14d", baumgarte.steps(), projection.steps());
        row(out, "wall time (ms)", "%14.1f", baumgarte.nanos() / 1e6, projection.nanos() / 1e6);
        row(out, "final |phi| (m)", "%14.3e", baumgarte.finalPhi(), projection.finalPhi());
        row(out, "final |phidot| (m/s)", "%14.3e", baumgarte.finalPhidot(), projection.finalPhidot());
        row(out, "max |phi| over the run (m)", "%14.3e", baumgarte.maxPhi(), projection.maxPhi());
        row(out, "max |phidot| over the run (m/s)", "%14.3e", baumgarte.maxPhidot(), projection.maxPhidot());
        row(out, "E0 = T + V at t = 0 (J)", "%14.9f", baumgarte.initialEnergy(), projection.initialEnergy());
        row(out, "E at the end (J)", "%14.9f", baumgarte.finalEnergy(), projection.finalEnergy());
        row(out, "max |E - E0| (J)", "%14.3e", baumgarte.maxEnergyDrift(), projection.maxEnergyDrift());
        row(out, "max |E - E0| / |E0|", "%14.3e", baumgarte.relativeDrift(), projection.relativeDrift());
        row(out, "projection failures", "%14s", "-", projection.projectionFailures());
        out.println();
        out.println("|phi|: Euclidean norm of the loop's position error (rocker tip minus ground pivot, x and y);");
        out.println("|phidot| = |G v|; E: kinetic + gravitational potential energy, V = 0 at the ground pivot.");

        Files.writeString(svg, plot(baumgarte, projection, tEnd), StandardCharsets.UTF_8);
        out.println("Plot: " + svg.toAbsolutePath().normalize());
        return Double.isFinite(baumgarte.finalEnergy()) && Double.isFinite(projection.finalEnergy());
    }

    private static void row(PrintStream out, String label, String format, Object a, Object b) {
        out.printf(Locale.ROOT, "%-34s " + format + " " + format + "%n", label, a, b);
    }

    /** The assembled initial state, computed with generated constraint functions. */
    static State assemble(Model model) {
        ConstraintData set = boundSet();
        Assembly assembly = new Assembly(set);
        double[] q = new double[model.nq()];
        if (!assembly.assembleQ(GUESS, WEIGHTS, q)) {
            throw new IllegalStateException("assembly did not converge: |phi| = " + assembly.lastError());
        }
        int iterations = assembly.lastIterations();
        double residual = assembly.lastError();
        double[] v = new double[model.nv()];
        assembly.assembleV(q, new double[] {CRANK_RATE, 0, 0}, WEIGHTS, v);
        return new State(q, v, iterations, residual);
    }

    /** The model's constraints, as the generated class states them, bound to a new generated instance. */
    static ConstraintData boundSet() {
        FourbarDynamics generated = new FourbarDynamics();
        return ConstraintSet.of(generated).bind(generated);
    }

    /** One run from s0 for tEnd seconds, every step recorded. */
    static Run simulate(Model model, DriftControl drift, State s0, double tEnd) {
        Simulator sim = Simulator.builder(model)
                .dynamics(new FourbarDynamics()) // the model's loop is bound to the class's own constraint code
                .integrator(RungeKutta4::new)
                .driftControl(drift)
                .baumgarteTimeConstant(T_STAB)
                .build();
        sim.setState(0, s0.q(), s0.v());
        int records = (int) Math.ceil(tEnd / STEP) + 2;
        SimulationLog log = new SimulationLog(records);
        long t0 = System.nanoTime();
        long steps = sim.run(tEnd, STEP, log);
        long nanos = System.nanoTime() - t0;
        int n = log.size();
        double[] time = new double[n];
        double[] phi = new double[n];
        double[] energy = new double[n];
        for (int i = 0; i < n; i++) {
            time[i] = log.time(i);
            phi[i] = log.positionError(i);
            energy[i] = log.totalEnergy(i);
        }
        String name = drift == DriftControl.BAUMGARTE ? "Baumgarte" : "projection";
        return new Run(name, drift, steps, nanos, sim.positionErrorNorm(), sim.velocityErrorNorm(),
                log.maxPositionError(), log.maxVelocityError(), log.initialEnergy(), sim.totalEnergy(),
                log.maxEnergyDrift(), sim.projectionFailures(), time, phi, energy);
    }

    /** The SVG: constraint error (log) and energy change of both runs over time. */
    static String plot(Run baumgarte, Run projection, double tEnd) {
        String red = "#d62728";
        String blue = "#1f77b4";
        String baumgarteLabel = String.format(Locale.ROOT, "Baumgarte stabilisation (T = %.1f s)", T_STAB);
        String projectionLabel = "projection after every step";
        double e0 = baumgarte.initialEnergy();
        double floor = 1e-17; // ‖φ‖ of exactly 0 (possible after projection) is drawn at the axis minimum
        SvgPlot plot = new SvgPlot(
                "Four-bar linkage: constraint drift and energy, generated dynamics",
                String.format(Locale.ROOT, "FourbarDynamics, generated from fourbar.urdf at build time; RK4 with "
                        + "h = %.0f ms for %.0f s; zero torque, gravity 9.81 m/s\u00b2 along \u2212y\n"
                        + "initial state assembled at crank angle %.1f rad, crank rate %.1f rad/s (E\u2080 = %.6f J)",
                        STEP * 1e3, tEnd, CRANK_ANGLE, CRANK_RATE, e0),
                "time t (s)",
                "\u2016\u03c6\u2016: norm of the loop closure error (rocker tip minus ground pivot, x and y); "
                        + "values below 10\u207b\u00b9\u2077 m\n(exact zeros included) are drawn at "
                        + "10\u207b\u00b9\u2077 m. E = T + V: kinetic plus gravitational potential energy, V = 0 at "
                        + "the ground pivot's height.");
        plot.panel(new SvgPlot.Panel("Constraint error \u2016\u03c6(q)\u2016 (log scale)",
                "\u2016\u03c6\u2016", "m", true, floor, List.of(
                        new SvgPlot.Series(baumgarteLabel, red, null, baumgarte.time(), clamp(baumgarte.phi(), floor)),
                        new SvgPlot.Series(projectionLabel, blue, null, projection.time(),
                                clamp(projection.phi(), floor)))));
        plot.panel(new SvgPlot.Panel("Total energy E = T + V: change from the initial energy E\u2080",
                "E \u2212 E\u2080", "J", false, Double.NaN, List.of(
                        new SvgPlot.Series(baumgarteLabel, red, null, baumgarte.time(),
                                minus(baumgarte.energy(), baumgarte.initialEnergy())),
                        new SvgPlot.Series(projectionLabel, blue, null, projection.time(),
                                minus(projection.energy(), projection.initialEnergy())))));
        return plot.render();
    }

    private static double[] clamp(double[] x, double floor) {
        double[] y = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            y[i] = Math.max(x[i], floor);
        }
        return y;
    }

    private static double[] minus(double[] x, double c) {
        double[] y = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            y[i] = x[i] - c;
        }
        return y;
    }
}
