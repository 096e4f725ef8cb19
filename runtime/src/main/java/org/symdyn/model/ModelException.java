package org.symdyn.model;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A model could not be read or built. Carries every problem found, not only the first, each printable as
 * {@code path:[line,col] message}; the exception message is those lines joined by newlines.
 */
public class ModelException extends Exception {
    private static final long serialVersionUID = 1L;

    private final List<Diagnostic> diagnostics;

    public ModelException(List<Diagnostic> diagnostics) {
        super(diagnostics.stream().map(Diagnostic::toString).collect(Collectors.joining("\n")));
        this.diagnostics = List.copyOf(diagnostics);
    }

    public ModelException(Diagnostic diagnostic) {
        this(List.of(diagnostic));
    }

    /** Every problem found, errors and (under strict reading) warnings, in file order. */
    public List<Diagnostic> diagnostics() {
        return diagnostics;
    }
}
