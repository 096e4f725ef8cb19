package org.symdyn.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.ejml.data.DMatrixRMaj;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.symdyn.dynamics.Dynamics;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.generator.CodeGenerator;
import org.symdyn.generator.InProcessCompiler;

/**
 * The generated code: at set-up, the model's class is derived by {@link CodeGenerator}, compiled in memory by
 * {@link InProcessCompiler} and instantiated; each benchmark then times one call of the same method at the same
 * seeded state, into the same preallocated outputs, as {@link GenericDynamicsBenchmark} (the models, state and
 * checks are those of {@link BenchmarkStates}). Run both in one JMH run to compare: {@code 'DynamicsBenchmark'}.
 *
 * <p>Set-up refuses to time wrong code: every output of the generated class must equal the generic runtime's to
 * 1e-10 relative to the largest entry of that output (at least 1), and pass the checks of the generic benchmark.
 * Set-up costs the generation (0.5-3 s per model, plus ~4 s of Symja start-up in each fork) and the in-memory
 * javac run, then waits (up to a minute, typically 5-15 s) until the JIT has been idle for 1 s, so that the
 * warm-up does not share the C2 thread with the hot methods of Symja and javac; the generic benchmark does the
 * same wait, which there is near 1 s. The system property {@code symdyn.bench.dumpSource} (a folder) writes each generated source there.
 *
 * <p>Same JMH settings as {@link GenericDynamicsBenchmark}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Fork(1)
public class GeneratedDynamicsBenchmark {
    /** Relative bar of generated against generic (as in the generator's GeneratedVsGenericTest). */
    static final double TOLERANCE = 1e-10;
    static final String DUMP_PROPERTY = "symdyn.bench.dumpSource";
    static final String PACKAGE = "org.symdyn.benchmarks.generated";
    /** Set-up ends once the JIT has been idle this long (see {@link BenchmarkStates#awaitIdleJit}). */
    static final long IDLE_JIT_MILLIS = 1000;
    static final long MAX_JIT_WAIT_MILLIS = 60_000;

    // Same list as GenericDynamicsBenchmark.model.
    @Param({"double_pendulum_simple", "ur5_robot", "iiwa14_no_collision", "panda", "hyq_no_sensors", "solo12",
            "romeo_small"})
    public String model;

    private Dynamics dynamics;
    private double[] q;
    private double[] v;
    private double[] a;
    private double[] tau;

    private DMatrixRMaj hOut;
    private double[] cOut;
    private double[] gOut;
    private double[] tauOut;
    private double[] vdotOut;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        BenchmarkStates.State state = new BenchmarkStates.State(model, BenchmarkStates.readModel(model));
        long t0 = System.nanoTime();
        CodeGenerator.GeneratedClass gen = new CodeGenerator().generate(state.model,
                new CodeGenerator.Options(PACKAGE, className(model)));
        long t1 = System.nanoTime();
        dumpSource(gen);
        InProcessCompiler.Compiled compiled = InProcessCompiler.compile(gen);
        long t2 = System.nanoTime();
        dynamics = (Dynamics) compiled.type().getDeclaredConstructor().newInstance();

        double worst = state.requireSameAs(new GenericDynamics(state.model), dynamics, TOLERANCE);
        state.sanityCheck(dynamics);
        q = state.q;
        v = state.v;
        a = state.a;
        tau = state.tau;
        hOut = state.hOut;
        cOut = state.cOut;
        gOut = state.gOut;
        tauOut = state.tauOut;
        vdotOut = state.vdotOut;
        long idle = BenchmarkStates.awaitIdleJit(IDLE_JIT_MILLIS, MAX_JIT_WAIT_MILLIS);
        System.out.println("# " + state.describe());
        System.out.printf("# generated %s in %d ms, compiled in %d ms; largest method %d B of bytecode;"
                + " worst relative difference from generic %.2g; waited %d ms for an idle JIT%n",
                gen.qualifiedName(), (t1 - t0) / 1_000_000, (t2 - t1) / 1_000_000, compiled.methodSizes().values()
                        .stream().mapToInt(Integer::intValue).max().orElse(0), worst, idle);
    }

    /** A Java class name for a model file name. */
    static String className(String model) {
        StringBuilder b = new StringBuilder("Generated_");
        for (char c : model.toCharArray()) {
            b.append(Character.isJavaIdentifierPart(c) ? c : '_');
        }
        return b.toString();
    }

    private static void dumpSource(CodeGenerator.GeneratedClass gen) throws IOException {
        String dir = System.getProperty(DUMP_PROPERTY);
        if (dir == null || dir.isBlank()) {
            return;
        }
        Path file = Path.of(dir).resolve(gen.className() + ".java");
        Files.createDirectories(file.getParent());
        Files.writeString(file, gen.source(), StandardCharsets.UTF_8);
        System.out.println("# wrote " + file.toAbsolutePath());
    }

    /** H(q), generated (RBDL: CompositeRigidBodyAlgorithm). */
    @Benchmark
    public DMatrixRMaj massMatrix() {
        dynamics.massMatrix(q, hOut);
        return hOut;
    }

    /** C(q, v): Coriolis, centrifugal and gravity, generated (RBDL: NonlinearEffects). */
    @Benchmark
    public double[] biasForces() {
        dynamics.biasForces(q, v, cOut);
        return cOut;
    }

    /** Gravity forces g(q), generated (no RBDL figure). */
    @Benchmark
    public double[] gravityForces() {
        dynamics.gravityForces(q, gOut);
        return gOut;
    }

    /** τ = ID(q, v, v̇), generated (RBDL: InverseDynamics). */
    @Benchmark
    public double[] inverseDynamics() {
        dynamics.inverseDynamics(q, v, a, tauOut);
        return tauOut;
    }

    /** v̇ = FD(q, v, τ): generated H and C, then a branch-sparse LᵀDL solve (RBDL: ForwardDynamics, ABA). */
    @Benchmark
    public double[] forwardDynamics() {
        dynamics.forwardDynamics(q, v, tau, vdotOut);
        return vdotOut;
    }
}
