package org.symdyn.cli;

import java.io.PrintStream;
import picocli.CommandLine.Option;

/**
 * {@code -q}/{@code --quiet} of the commands whose work may take long ({@code generate}, {@code evaluate},
 * {@code simulate}, {@code rollouts}, {@code view}): no progress or information lines on standard error, for
 * scripts. Results, warnings and errors are printed as without it.
 */
final class QuietOption {
    @Option(names = {"-q", "--quiet"}, order = 89,
            description = "No progress lines on standard error (by default long work prints its stages, and"
                    + " simulate and rollouts a progress bar or periodic lines); results, warnings and errors as"
                    + " usual.")
    boolean quiet;

    private Progress progress;

    /** The progress of the command, printing to {@code err} ({@link #close} ends it). */
    Progress progress(PrintStream err) {
        progress = Progress.of(err, quiet);
        return progress;
    }

    /** Ends the command's progress, if it has one, when the command ends, also by an error ({@link Progress#close}). */
    void close() {
        if (progress != null) {
            progress.close();
        }
    }
}
