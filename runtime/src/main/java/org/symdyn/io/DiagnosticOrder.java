package org.symdyn.io;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.symdyn.model.Diagnostic;
import org.symdyn.model.ModelException;

/**
 * The order a reader reports a file's problems in: file by file, in the order the files were first named in the
 * list (the main file first), and within a file by line and column; problems at one place keep the order they were
 * found in (a stable sort).
 */
public final class DiagnosticOrder {
    private DiagnosticOrder() {
    }

    /** The diagnostics in that order, as one exception. */
    public static ModelException refusal(List<Diagnostic> diagnostics) {
        Map<String, Integer> rank = new HashMap<>();
        for (Diagnostic d : diagnostics) {
            rank.putIfAbsent(d.location().path(), rank.size());
        }
        List<Diagnostic> ordered = new ArrayList<>(diagnostics);
        ordered.sort(Comparator.<Diagnostic>comparingInt(d -> rank.get(d.location().path()))
                .thenComparingInt(d -> d.location().line()).thenComparingInt(d -> d.location().column()));
        return new ModelException(ordered);
    }
}
