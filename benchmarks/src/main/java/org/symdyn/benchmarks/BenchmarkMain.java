package org.symdyn.benchmarks;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.NoBenchmarksException;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;

/**
 * The main class of {@code benchmarks.jar}: JMH's command line (every option of {@code org.openjdk.jmh.Main}), with
 * two checks JMH does not make.
 * <ul>
 * <li><b>Before the run</b>, every model file that the selected benchmarks' set-ups will read must exist. If one does
 * not (no {@code ../shared}, a wrong {@code -Dsymdyn.shared}, a model name mistyped in {@code -p model=...}), it
 * prints one line per distinct problem on stderr and exits with status 1: no fork is started. (JMH itself would
 * print a stack trace per benchmark, an empty result table, and exit 0.)</li>
 * <li><b>After the run</b>, a benchmark and parameter combination that left no result (its set-up or the benchmark
 * threw; JMH printed the exception and went on) makes the exit status 1, with one line naming the failed runs.</li>
 * </ul>
 * Help and the listing options ({@code -h}, {@code -l}, {@code -lp}, {@code -lprof}, {@code -lrf}) and command
 * lines JMH cannot parse go to JMH unchanged.
 */
public final class BenchmarkMain {
    private static final String PREFIX = "symdyn benchmarks: ";

    private BenchmarkMain() {
    }

    public static void main(String[] args) throws Exception {
        CommandLineOptions options;
        try {
            options = new CommandLineOptions(args);
        } catch (CommandLineOptionException e) {
            org.openjdk.jmh.Main.main(args); // JMH prints its own message and exits 1
            return;
        }
        if (options.shouldHelp() || options.shouldList() || options.shouldListWithParams()
                || options.shouldListProfilers() || options.shouldListResultFormats()) {
            org.openjdk.jmh.Main.main(args);
            return;
        }
        System.exit(run(options));
    }

    /** Checks, runs and checks again; the exit status. */
    static int run(CommandLineOptions options) {
        SortedSet<BenchmarkListEntry> selected = Prerequisites.selected(options);
        Set<Prerequisites.Run> runs = Prerequisites.runs(selected, options);
        List<String> missing = Prerequisites.missingInputs(selected, runs);
        if (!missing.isEmpty()) {
            for (String m : missing) {
                System.err.println(PREFIX + m);
            }
            return 1;
        }
        Collection<RunResult> results;
        try {
            results = new Runner(options).run();
        } catch (NoBenchmarksException e) {
            System.err.println(PREFIX + "no benchmark matches " + options.getIncludes()
                    + " (java -jar benchmarks.jar -l lists them)");
            return 1;
        } catch (RunnerException e) {
            // -foe true (JMH has printed the failure) or a profiler that could not start.
            System.err.println(PREFIX + "the run stopped: " + e.getMessage()
                    + (e.getCause() != null ? ": " + e.getCause() : ""));
            return 1;
        }
        List<Prerequisites.Run> failed = Prerequisites.failed(runs, results);
        if (!failed.isEmpty()) {
            System.err.println(PREFIX + failed.size() + " of " + runs.size() + " runs failed (their errors are above): "
                    + failed);
            return 1;
        }
        return 0;
    }
}
