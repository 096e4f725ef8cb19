package org.symdyn.benchmarks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Supplier;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * What a JMH run is going to do, known before it starts: the benchmarks and parameter values it selects, the model
 * files their set-ups read (so that {@link BenchmarkMain} can refuse to start when one is missing), and the runs
 * that left no result once it is over.
 */
final class Prerequisites {
    /** The JMH parameter that names the model in every benchmark of this module. */
    static final String MODEL = "model";

    /**
     * For each benchmark class, the file its set-up reads for a value of {@link #MODEL}: the same finder the set-up
     * calls, so the check and the run cannot disagree. {@code PrerequisitesTest} fails for a benchmark class
     * missing here.
     */
    static final Map<String, Function<String, Path>> MODEL_FILES = Map.of(
            GenericDynamicsBenchmark.class.getName(), SharedModels::urdf,
            GeneratedDynamicsBenchmark.class.getName(), SharedModels::urdf,
            KinematicsBenchmark.class.getName(), SharedModels::urdf,
            ConstrainedSolverBenchmark.class.getName(), ConstrainedSolverBenchmark::modelFile,
            SolveKernelsBenchmark.class.getName(), SolveKernelsBenchmark::modelFile,
            DerivativesBenchmark.class.getName(), SharedModels::urdf,
            ConstrainedDerivativesBenchmark.class.getName(), ConstrainedSolverBenchmark::modelFile,
            RolloutBenchmark.class.getName(), m -> m.equals("arm7") ? ConstrainedSolverBenchmark.sampleFile("arm7.urdf")
                    : ConstrainedSolverBenchmark.modelFile(m));

    /**
     * For each benchmark class without a {@link #MODEL} parameter, the file its set-up reads whatever the parameters
     * (null: it reads none). {@code PrerequisitesTest} fails for a benchmark class in neither map.
     */
    static final Map<String, Supplier<Path>> FIXED_FILES = Map.of(
            ContactStepBenchmark.class.getName(), () -> ConstrainedSolverBenchmark.modelFile("quadruped"),
            SystemStepBenchmark.class.getName(), () -> ConstrainedSolverBenchmark.modelFile("quadruped"),
            GeometryBenchmark.class.getName(), () -> null,
            PileStepBenchmark.class.getName(), () -> null,
            MeshContactBenchmark.class.getName(), () -> null,
            ModelReadingBenchmark.class.getName(), () -> null,
            ShapeContactStepBenchmark.class.getName(), () -> SharedModels.urdf("solo12"),
            StepDerivativesBenchmark.class.getName(), () -> SharedModels.urdf("solo12"));

    private Prerequisites() {
    }

    /** One benchmark method with one combination of parameter values (sorted by name). */
    record Run(String benchmark, Map<String, String> params) {
        @Override
        public String toString() {
            String b = benchmark.substring(benchmark.lastIndexOf('.', benchmark.lastIndexOf('.') - 1) + 1);
            return params.isEmpty() ? b : b + " " + params;
        }
    }

    /** The benchmarks of this jar that the options select (JMH's own list and regex matching). */
    static SortedSet<BenchmarkListEntry> selected(CommandLineOptions options) {
        List<String> includes = options.getIncludes().isEmpty() ? List.of(".*") : options.getIncludes();
        return BenchmarkList.defaultList().find(OutputFormatFactory.createFormatInstance(System.out,
                VerboseMode.SILENT), includes, options.getExcludes());
    }

    /** Every run of the selection: the benchmark's parameter values, or those given with {@code -p}. */
    static Set<Run> runs(Collection<BenchmarkListEntry> entries, CommandLineOptions options) {
        Set<Run> runs = new LinkedHashSet<>();
        for (BenchmarkListEntry e : entries) {
            Map<String, List<String>> values = new TreeMap<>();
            if (e.getParams().hasValue()) {
                for (Map.Entry<String, String[]> p : e.getParams().get().entrySet()) {
                    var given = options.getParameter(p.getKey());
                    values.put(p.getKey(), given.hasValue() ? List.copyOf(given.get()) : Arrays.asList(p.getValue()));
                }
            }
            List<Map<String, String>> combinations = new ArrayList<>();
            combinations.add(new TreeMap<>());
            for (Map.Entry<String, List<String>> p : values.entrySet()) {
                List<Map<String, String>> next = new ArrayList<>();
                for (Map<String, String> c : combinations) {
                    for (String v : p.getValue()) {
                        Map<String, String> m = new TreeMap<>(c);
                        m.put(p.getKey(), v);
                        next.add(m);
                    }
                }
                combinations = next;
            }
            for (Map<String, String> c : combinations) {
                runs.add(new Run(e.getUsername(), c));
            }
        }
        return runs;
    }

    /**
     * The problems that would make set-ups fail for want of a file, one line each, without repeats (a missing
     * {@code shared} folder is one line, not one per model). Empty when every file is there.
     */
    static List<String> missingInputs(Collection<BenchmarkListEntry> entries, Set<Run> runs) {
        Map<String, String> classOf = new LinkedHashMap<>();
        for (BenchmarkListEntry e : entries) {
            classOf.put(e.getUsername(), e.getUserClassQName());
        }
        Set<String> problems = new LinkedHashSet<>();
        for (Run run : runs) {
            String model = run.params().get(MODEL);
            Function<String, Path> file = MODEL_FILES.get(classOf.get(run.benchmark()));
            Supplier<Path> fixed = FIXED_FILES.get(classOf.get(run.benchmark()));
            try {
                if (model != null && file != null) {
                    file.apply(model);
                }
                if (fixed != null) {
                    fixed.get();
                }
            } catch (MissingInputException e) {
                problems.add(e.getMessage());
            }
        }
        return List.copyOf(problems);
    }

    /** The runs that produced no result (their set-up or benchmark threw; JMH printed why and went on). */
    static List<Run> failed(Set<Run> runs, Collection<RunResult> results) {
        Set<Run> done = new LinkedHashSet<>();
        for (RunResult r : results) {
            Map<String, String> params = new TreeMap<>();
            for (String key : r.getParams().getParamsKeys()) {
                params.put(key, r.getParams().getParam(key));
            }
            done.add(new Run(r.getParams().getBenchmark(), params));
        }
        List<Run> failed = new ArrayList<>();
        for (Run run : runs) {
            if (!done.contains(run)) {
                failed.add(run);
            }
        }
        return failed;
    }
}
