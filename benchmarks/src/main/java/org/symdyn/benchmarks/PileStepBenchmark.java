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
import org.symdyn.contact.ContactReport;
import org.symdyn.contact.ContactSettings;
import org.symdyn.contact.TimeStepper;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.model.Model;
import org.symdyn.samples.BinDemo;
import org.symdyn.samples.SampleModels;

/**
 * A pile of free boxes in a bin (issue 31, item 4): the samples' {@link BinDemo} scene (its URDF: a 1 m square bin
 * of five static boxes, {@code boxes} free 0.1 m cubes of 0.5 kg released in layers of 6 x 6, μ = 0.5), stepped
 * for {@value #SETTLE} s at set-up so the pile has formed, then one step per call from wherever the pile is (it
 * rests: the state hardly moves). The generic runtime with {@link BinDemo#settings()} (1e-6 m/s in at most 200
 * sweeps, a penetration slop of 1e-7 m), the solver chosen by {@code solver}: {@code pgs} (projected Gauss-Seidel)
 * or {@code admm} (the exact-cone ADMM); {@code delassus}: {@code sparse} ({@code TimeStepper.Builder.sparseDelassus(true)}: LᵀL of H, rows on their
 * supports, W never formed: Gauss-Seidel through Σ λ y, ADMM's λ step through the sparse Cholesky of σ I + Yᵀ Y)
 * or {@code dense} (W formed whole from the same rows). Set-up prints the contacts, iterations and whether the
 * solve converged, and the stepper's summary of the settling second. The dense path takes about 1.5 s per step at
 * 100 boxes with PGS, and ADMM's dense buffers (15 m², m the stepper's capacity of 2,600 rows) do not fit a default
 * heap there: give {@code -p boxes=10,30 -p delassus=dense} to compare it.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 2, timeUnit = TimeUnit.SECONDS)
@Fork(1)
public class PileStepBenchmark {
    private static final double H = 1e-3;
    private static final double SETTLE = 1.5;

    @Param({"10", "30", "100"})
    public int boxes;

    @Param({"sparse"})
    public String delassus;

    /** {@code pgs} or {@code admm} (the exact-cone ADMM, on the sparse W through {@code SparseNormalMatrix}). */
    @Param({"pgs"})
    public String solver;

    private TimeStepper stepper;
    private double[] q;
    private double[] v;
    private double[] tau;

    @Setup
    public void setUp() throws Exception {
        Model model = SampleModels.parse(BinDemo.sceneUrdf(boxes), "bin-" + boxes + ".urdf");
        ContactSettings settings = BinDemo.settings().solver(ContactSettings.Solver.valueOf(
                solver.toUpperCase(java.util.Locale.ROOT)));
        stepper = TimeStepper.builder(new GenericDynamics(model)).contacts(BinDemo.contactSet(model, boxes))
                .settings(settings).sparseDelassus(delassus.equals("sparse")).build();
        q = BinDemo.release(boxes);
        v = new double[6 * boxes];
        tau = new double[6 * boxes];
        ContactReport r = null;
        for (int i = 0; i < Math.round(SETTLE / H); i++) {
            r = stepper.step(q, v, tau, H, q, v);
        }
        System.out.printf("%n[pile] %d boxes, %s, %s: %d contacts after %.1f s; last solve %s; %s%n", boxes,
                delassus, solver, stepper.contactCount(), SETTLE, r, stepper.summary());
    }

    @Benchmark
    public ContactReport step() {
        return stepper.step(q, v, tau, H, q, v);
    }
}
