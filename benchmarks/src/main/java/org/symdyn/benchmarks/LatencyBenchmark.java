package org.symdyn.benchmarks;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.constraints.ConstraintSet;
import org.symdyn.contract.Dynamics;
import org.symdyn.contract.Kinematics;
import org.symdyn.contract.ModelFunctions;
import org.symdyn.generator.CodeGenerator;
import org.symdyn.generator.GeneratedClass;
import org.symdyn.generator.GeneratorOptions;
import org.symdyn.model.Model;
import org.symdyn.io.urdf.UrdfReader;
import org.symdyn.solvers.Assembly;
import org.symdyn.solvers.ConstrainedDynamics;

/**
 * Per-call latency of generated code as a real-time loop sees it (issue 18; JMH reports averages): every call timed
 * with {@link System#nanoTime()}, then median, p99, p99.9, p99.99 and max, calls over 10 µs, GC events and heap bytes
 * allocated per call (the thread's allocation counter) over at least 10⁶ consecutive calls, for every dynamics
 * method (H, C, g, inverse and forward dynamics) and the point Jacobian, J̇v and body Jacobian of the last body of
 * iiwa14 and solo12 (floating base), and the four-bar's direct constrained forward dynamics bound to its generated
 * class alone ({@link ConstrainedDynamics#forwardDynamicsDirect}), plus an empty call (the timer and the platform
 * alone).
 *
 * <p>Two processes: this one generates the models' classes and compiles them to class files ({@code --classes}, a
 * temporary folder by default), then runs the measurement in a fresh JVM (no generator garbage, no Symja code in
 * the JIT's queue), with {@code --epsilon} under Epsilon GC (a collector that never collects: any allocation in a
 * timed loop would show as heap growth, and a sustained one as an OutOfMemoryError), {@code --jvm "flags"} for other
 * flags. {@code --isolate-core N} pins the measuring thread alone to CPU N and every other thread of the JVM (JIT,
 * GC, ...) to the remaining CPUs, via {@code taskset -p} on Linux thread ids. States: 256 configurations over the
 * whole circle (unit quaternions for the floating base), cycled, so every quadrant is in the profile.
 *
 * <p>Usage (from the repository root; see benchmarks/README.md):
 * {@code java -cp benchmarks/target/benchmarks.jar org.symdyn.benchmarks.LatencyBenchmark [--calls 1000000]
 * [--warmup 300000] [--epsilon] [--isolate-core 1] [--jvm "-XX:+UnlockDiagnosticVMOptions
 * -XX:GuaranteedSafepointInterval=0"] [--models iiwa14_no_collision,solo12] [--no-constrained] [--branchy]}.
 * {@code --branchy} generates the pre-issue-18 sine/cosine (for an A/B of the tail).
 */
public final class LatencyBenchmark {
    static final String PACKAGE = "org.symdyn.benchmarks.latency";
    static final String FOURBAR_CLASS = "Latency_fourbar";
    private static final int POOL = 256;

    private LatencyBenchmark() {
    }

    /** Parsed command line. */
    static final class Options {
        long calls = 1_000_000;
        long warmup = 300_000;
        boolean epsilon;
        int isolateCore = -1;
        String jvm = "";
        List<String> models = List.of("iiwa14_no_collision", "solo12");
        boolean constrained = true;
        boolean branchy;
        Path classes;
        Path measure;

        static Options parse(String[] args) {
            Options o = new Options();
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--calls" -> o.calls = Long.parseLong(args[++i]);
                    case "--warmup" -> o.warmup = Long.parseLong(args[++i]);
                    case "--epsilon" -> o.epsilon = true;
                    case "--isolate-core" -> o.isolateCore = Integer.parseInt(args[++i]);
                    case "--jvm" -> o.jvm = args[++i];
                    case "--models" -> o.models = List.of(args[++i].split(","));
                    case "--no-constrained" -> o.constrained = false;
                    case "--branchy" -> o.branchy = true;
                    case "--classes" -> o.classes = Path.of(args[++i]);
                    case "--measure" -> o.measure = Path.of(args[++i]);
                    default -> throw new IllegalArgumentException("unknown option " + args[i]
                            + "; see the class comment");
                }
            }
            return o;
        }

        List<String> measureArgs() {
            List<String> a = new ArrayList<>(List.of("--calls", "" + calls, "--warmup", "" + warmup,
                    "--isolate-core", "" + isolateCore, "--models", String.join(",", models)));
            if (!constrained) {
                a.add("--no-constrained");
            }
            return a;
        }
    }

    public static void main(String[] args) throws Exception {
        try {
            start(args);
        } catch (MissingInputException e) {
            System.err.println("LatencyBenchmark: " + e.getMessage());
            System.exit(1);
        }
    }

    private static void start(String[] args) throws Exception {
        Options o = Options.parse(args);
        if (o.measure != null) {
            measure(o);
            return;
        }
        Path dir = o.classes != null ? o.classes : Files.createTempDirectory("symdyn-latency");
        generate(o, dir);
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString()));
        if (o.epsilon) {
            command.addAll(List.of("-XX:+UnlockExperimentalVMOptions", "-XX:+UseEpsilonGC", "-Xms1g", "-Xmx1g",
                    "-XX:+AlwaysPreTouch"));
        }
        if (!o.jvm.isBlank()) {
            command.addAll(List.of(o.jvm.trim().split("\\s+")));
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), LatencyBenchmark.class.getName(),
                "--measure", dir.toString()));
        command.addAll(o.measureArgs());
        System.out.println("# measuring JVM: " + String.join(" ", command));
        int rc = new ProcessBuilder(command).inheritIO().start().waitFor();
        if (rc != 0) {
            throw new IllegalStateException("the measuring JVM exited with " + rc);
        }
    }

    /** Generates and compiles the classes of the models (and the four-bar) into {@code dir}. */
    static void generate(Options o, Path dir) throws Exception {
        if (o.branchy) {
            System.setProperty("symdyn.generator.branchyTrig", "true");
        }
        List<String> files = new ArrayList<>();
        for (String name : o.models) {
            Model model = BenchmarkStates.readModel(name);
            files.add(write(dir, model, "Latency_" + name));
        }
        if (o.constrained) {
            files.add(write(dir, UrdfReader.read(ConstrainedSolverBenchmark.fourbarFile()), FOURBAR_CLASS));
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        List<String> args = new ArrayList<>(List.of("-d", dir.toString(), "-cp", System.getProperty("java.class.path"),
                "-proc:none", "-nowarn"));
        args.addAll(files);
        if (javac.run(null, null, null, args.toArray(String[]::new)) != 0) {
            throw new IllegalStateException("javac failed on the generated classes in " + dir);
        }
        System.out.println("# generated and compiled " + files.size() + " classes into " + dir
                + (o.branchy ? " (branchy sine/cosine, pre-issue-18)" : ""));
    }

    private static String write(Path dir, Model model, String className) throws Exception {
        GeneratedClass gen = new CodeGenerator().generate(model,
                GeneratorOptions.of(PACKAGE, className));
        Path file = dir.resolve(className + ".java");
        Files.writeString(file, gen.source());
        return file.toString();
    }

    /** One timed case: a call at state {@code i} of its pool. */
    abstract static class Case {
        final String name;

        Case(String name) {
            this.name = name;
        }

        abstract void call(int i);
    }

    // ------------------------------------------------------------------ measuring JVM

    static void measure(Options o) throws Exception {
        ClassLoader loader = new URLClassLoader(new URL[] {o.measure.toUri().toURL()},
                LatencyBenchmark.class.getClassLoader());
        List<Case> cases = new ArrayList<>();
        cases.add(new Case("empty call (timer + platform)") {
            @Override
            void call(int i) {
            }
        });
        for (String name : o.models) {
            Model model = BenchmarkStates.readModel(name);
            Dynamics d = (Dynamics) loader.loadClass(PACKAGE + ".Latency_" + name).getDeclaredConstructor()
                    .newInstance();
            Random rnd = new Random(BenchmarkStates.SEED);
            double[][] q = new double[POOL][];
            double[][] v = new double[POOL][];
            double[][] x = new double[POOL][];
            for (int i = 0; i < POOL; i++) {
                q[i] = wholeCircle(model, rnd);
                v[i] = BenchmarkStates.uniform(rnd, model.nv(), 1.0);
                x[i] = BenchmarkStates.uniform(rnd, model.nv(), 1.0);
            }
            double[] out = new double[model.nv()];
            DMatrixRMaj h = new DMatrixRMaj(model.nv(), model.nv());
            cases.add(new Case(name + " massMatrix") {
                @Override
                void call(int i) {
                    d.massMatrix(q[i & (POOL - 1)], h);
                }
            });
            cases.add(new Case(name + " biasForces") {
                @Override
                void call(int i) {
                    int k = i & (POOL - 1);
                    d.biasForces(q[k], v[k], out);
                }
            });
            cases.add(new Case(name + " gravityForces") {
                @Override
                void call(int i) {
                    d.gravityForces(q[i & (POOL - 1)], out);
                }
            });
            Kinematics kin = (Kinematics) d;
            int tip = model.bodyCount() - 1;
            double[] point = {0.01, 0.02, 0.03};
            DMatrixRMaj j3 = new DMatrixRMaj(3, model.nv());
            DMatrixRMaj j6 = new DMatrixRMaj(6, model.nv());
            double[] bias = new double[3];
            cases.add(new Case(name + " pointJacobian (last body)") {
                @Override
                void call(int i) {
                    kin.pointJacobian(q[i & (POOL - 1)], tip, point, j3);
                }
            });
            cases.add(new Case(name + " pointBiasAcceleration") {
                @Override
                void call(int i) {
                    int k = i & (POOL - 1);
                    kin.pointBiasAcceleration(q[k], v[k], tip, point, bias);
                }
            });
            cases.add(new Case(name + " bodyJacobian (last body)") {
                @Override
                void call(int i) {
                    kin.bodyJacobian(q[i & (POOL - 1)], tip, j6);
                }
            });
            cases.add(new Case(name + " forwardDynamics") {
                @Override
                void call(int i) {
                    int k = i & (POOL - 1);
                    d.forwardDynamics(q[k], v[k], x[k], out);
                }
            });
            cases.add(new Case(name + " inverseDynamics") {
                @Override
                void call(int i) {
                    int k = i & (POOL - 1);
                    d.inverseDynamics(q[k], v[k], x[k], out);
                }
            });
        }
        if (o.constrained) {
            cases.add(constrainedCase(loader.loadClass(PACKAGE + "." + FOURBAR_CLASS)));
        }
        if (o.isolateCore >= 0) {
            System.out.println("# " + isolate(o.isolateCore));
        }
        long[] lat = new long[(int) o.calls];
        System.out.printf("# %d timed calls per case after %d warm-up calls; JVM %s %s; GC %s; %d CPUs%n", o.calls,
                o.warmup, System.getProperty("java.vm.version"), ManagementFactory.getRuntimeMXBean()
                        .getInputArguments(), gcNames(), Runtime.getRuntime().availableProcessors());
        System.out.printf("%-46s %9s %9s %9s %9s %9s %10s %8s %4s %10s %12s%n", "case (ns per call)", "median",
                "p99", "p99.9", "p99.99", "max", ">10µs", "≥100µs", "GCs", "B/call", "heap Δ B");
        for (Case c : cases) {
            run(c, o.warmup, lat);
        }
    }

    /**
     * The constrained case, in one method so that it is easy to adapt when the solver API changes: the four-bar's
     * generated class alone bound to its {@link ConstraintSet} ({@link ConstraintData}, one fused evaluation per solve),
     * (q, v) assembled, {@link ConstrainedDynamics#forwardDynamicsDirect}.
     */
    static Case constrainedCase(Class<?> generated) throws Exception {
        Model model = UrdfReader.read(ConstrainedSolverBenchmark.fourbarFile());
        ModelFunctions instance = (ModelFunctions) generated.getDeclaredConstructor().newInstance();
        ConstraintData set = ConstraintSet.of(model).bind(instance);
        ConstrainedDynamics solver = new ConstrainedDynamics(set);
        Assembly assembly = new Assembly(set);
        double[] weights = new double[model.nv()];
        Arrays.fill(weights, 1.0);
        double[] q = new double[model.nq()];
        if (!assembly.assembleQ(ConstrainedSolverBenchmark.GUESS, weights, q)) {
            throw new IllegalStateException("four-bar did not assemble");
        }
        Random rnd = new Random(BenchmarkStates.SEED);
        double[] v = new double[model.nv()];
        assembly.assembleV(q, BenchmarkStates.uniform(rnd, model.nv(), 1.0), weights, v);
        double[][] tau = new double[POOL][];
        for (int i = 0; i < POOL; i++) {
            tau[i] = BenchmarkStates.uniform(rnd, model.nv(), 1.0);
        }
        double[] vdot = new double[model.nv()];
        return new Case("fourbar ConstrainedDynamics.forwardDynamicsDirect") {
            @Override
            void call(int i) {
                solver.forwardDynamicsDirect(q, v, tau[i & (POOL - 1)], vdot);
            }
        };
    }

    /** Joint coordinates uniform in [-π, π], a uniformly random unit quaternion for a floating base. */
    static double[] wholeCircle(Model m, Random rnd) {
        double[] q = BenchmarkStates.uniform(rnd, m.nq(), Math.PI);
        double[] unit = BenchmarkStates.randomConfiguration(m, rnd); // has the unit quaternions
        for (int i = 0; i < m.nq(); i++) {
            if (m.nq() > m.nv() && m.qNames().get(i).matches(".*:q[xyzw]$")) {
                q[i] = unit[i];
            }
        }
        return q;
    }

    private static void run(Case c, long warmup, long[] lat) throws InterruptedException {
        for (long i = 0; i < warmup; i++) {
            c.call((int) i);
        }
        BenchmarkStates.awaitIdleJit(500, 10_000);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory
                .getThreadMXBean();
        long tid = Thread.currentThread().getId();
        threads.getThreadAllocatedBytes(tid); // the first call initialises lazily (allocates)
        long gcBefore = gcCount();
        long heapBefore = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        long allocBefore = threads.getThreadAllocatedBytes(tid);
        int n = lat.length;
        for (int i = 0; i < n; i++) {
            long t0 = System.nanoTime();
            c.call(i);
            lat[i] = System.nanoTime() - t0;
        }
        long allocAfter = threads.getThreadAllocatedBytes(tid);
        long heapAfter = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        long gcs = gcCount() - gcBefore;
        long over10 = 0;
        long over100 = 0;
        for (long t : lat) {
            over10 += t > 10_000 ? 1 : 0;
            over100 += t >= 100_000 ? 1 : 0;
        }
        long[] sorted = lat.clone();
        Arrays.sort(sorted);
        System.out.printf("%-46s %9d %9d %9d %9d %9d %10d %8d %4d %10.4f %12d%n", c.name, pct(sorted, 0.5),
                pct(sorted, 0.99), pct(sorted, 0.999), pct(sorted, 0.9999), sorted[n - 1], over10, over100, gcs,
                (double) (allocAfter - allocBefore) / n, heapAfter - heapBefore);
    }

    private static long pct(long[] sorted, double p) {
        return sorted[(int) Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
    }

    private static long gcCount() {
        long n = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            n += Math.max(0, gc.getCollectionCount());
        }
        return n;
    }

    private static String gcNames() {
        List<String> names = new ArrayList<>();
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            names.add(gc.getName());
        }
        return names.isEmpty() ? "(no collector beans: Epsilon)" : String.join(", ", names);
    }

    /**
     * Pins the calling thread to CPU {@code core} and every other thread of this JVM to the other CPUs (Linux,
     * {@code taskset -p}); threads created later inherit their creator's CPUs.
     */
    static String isolate(int core) throws Exception {
        Path self = Path.of("/proc/thread-self").toRealPath();
        String tid = self.getFileName().toString();
        int cpus = Runtime.getRuntime().availableProcessors();
        StringBuilder others = new StringBuilder();
        for (int c = 0; c < cpus; c++) {
            if (c != core) {
                others.append(others.length() == 0 ? "" : ",").append(c);
            }
        }
        if (others.length() == 0) {
            return "--isolate-core ignored: one CPU only";
        }
        int moved = 0;
        try (var tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path t : (Iterable<Path>) tasks::iterator) {
                String id = t.getFileName().toString();
                if (!id.equals(tid)) {
                    taskset(others.toString(), id);
                    moved++;
                }
            }
        }
        taskset(Integer.toString(core), tid);
        return "measuring thread " + tid + " alone on CPU " + core + "; " + moved + " other threads on CPUs "
                + others;
    }

    private static void taskset(String cpus, String tid) throws Exception {
        Process p = new ProcessBuilder("taskset", "-p", "-c", cpus, tid).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        p.waitFor();
    }
}
