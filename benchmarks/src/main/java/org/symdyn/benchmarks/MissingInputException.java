package org.symdyn.benchmarks;

/**
 * A file a benchmark reads at set-up (a shared robot model, a sample model) cannot be found. Its message is one
 * line that says where it was looked for and how to point at it, fit to be printed as it is: {@link BenchmarkMain}
 * and the stand-alone mains print it and exit with status 1 instead of a stack trace.
 */
final class MissingInputException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    MissingInputException(String message) {
        super(message);
    }
}
