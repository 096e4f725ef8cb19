package org.symdyn.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.openjdk.jmh.annotations.State;
import org.symdyn.contract.Dynamics;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.generator.CodeGenerator;
import org.symdyn.generator.GeneratedClass;
import org.symdyn.generator.GeneratorOptions;
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
 * <p>Same methods and JMH settings as {@link GenericDynamicsBenchmark} (both are {@link DynamicsBenchmark}s).
 */
public class GeneratedDynamicsBenchmark extends DynamicsBenchmark {
    /** Relative bar of generated against generic (as in the generator's GeneratedVsGenericTest). */
    static final double TOLERANCE = 1e-10;
    static final String DUMP_PROPERTY = "symdyn.bench.dumpSource";
    static final String PACKAGE = "org.symdyn.benchmarks.generated";

    @Override
    protected Dynamics create(BenchmarkStates.State state) throws Exception {
        long t0 = System.nanoTime();
        GeneratedClass gen = new CodeGenerator().generate(state.model,
                GeneratorOptions.of(PACKAGE, className(model)));
        long t1 = System.nanoTime();
        dumpSource(gen);
        InProcessCompiler.Compiled compiled = InProcessCompiler.compile(gen);
        long t2 = System.nanoTime();
        Dynamics dynamics = (Dynamics) compiled.type().getDeclaredConstructor().newInstance();
        double worst = state.requireSameAs(new GenericDynamics(state.model), dynamics, TOLERANCE);
        System.out.printf("# generated %s in %d ms, compiled in %d ms; largest method %d B of bytecode;"
                + " worst relative difference from generic %.2g%n",
                gen.qualifiedName(), (t1 - t0) / 1_000_000, (t2 - t1) / 1_000_000, compiled.methodSizes().values()
                        .stream().mapToInt(Integer::intValue).max().orElse(0), worst);
        return dynamics;
    }

    /** A Java class name for a model file name. */
    static String className(String model) {
        StringBuilder b = new StringBuilder("Generated_");
        for (char c : model.toCharArray()) {
            b.append(Character.isJavaIdentifierPart(c) ? c : '_');
        }
        return b.toString();
    }

    private static void dumpSource(GeneratedClass gen) throws IOException {
        String dir = System.getProperty(DUMP_PROPERTY);
        if (dir == null || dir.isBlank()) {
            return;
        }
        Path file = Path.of(dir).resolve(gen.className() + ".java");
        Files.createDirectories(file.getParent());
        Files.writeString(file, gen.source(), StandardCharsets.UTF_8);
        System.out.println("# wrote " + file.toAbsolutePath());
    }
}
