package org.symdyn.cli;

import java.io.PrintStream;
import picocli.CommandLine.Option;

/**
 * {@code -q}/{@code --quiet} of the commands whose work may take long ({@code generate}, {@code evaluate},
 * {@code simulate}, {@code view}): no progress or information lines on standard error, for scripts. Results,
 * warnings and errors are printed as without it.
 */
final class QuietOption {
    @Option(names = {"-q", "--quiet"}, order = 89,
            description = "No progress lines on standard error (by default long work prints its stages, and"
                    + " simulate a progress bar or periodic lines); results, warnings and errors as usual.")
    boolean quiet;

    /** The progress of a command printing to {@code err}. */
    Progress progress(PrintStream err) {
        return Progress.of(err, quiet);
    }
}
