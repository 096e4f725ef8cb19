package org.symdyn.generator;

import java.util.ArrayList;
import java.util.List;
import org.matheclipse.core.interfaces.IExpr;
import org.symdyn.generator.emit.MethodEmitter;

/** The assignments a generated method ends with: its symbolic results stored into its output arrays. */
final class Outputs {
    private Outputs() {
    }

    /** Assignments {@code name[k] = values[k]}. */
    static List<MethodEmitter.Output> vector(String name, IExpr[] values) {
        List<MethodEmitter.Output> out = new ArrayList<>();
        for (int k = 0; k < values.length; k++) {
            out.add(new MethodEmitter.Output(name + "[" + k + "]", values[k]));
        }
        return out;
    }

    /** Assignments {@code name.data[r * columns + c] = values[r][c]}: a row-major {@code DMatrixRMaj}. */
    static List<MethodEmitter.Output> matrix(String name, IExpr[][] values) {
        List<MethodEmitter.Output> out = new ArrayList<>();
        for (int r = 0; r < values.length; r++) {
            for (int c = 0; c < values[r].length; c++) {
                out.add(new MethodEmitter.Output(name + ".data[" + (r * values[r].length + c) + "]", values[r][c]));
            }
        }
        return out;
    }

    /** The parts' assignments, one after the other. */
    @SafeVarargs
    static List<MethodEmitter.Output> concat(List<MethodEmitter.Output>... parts) {
        List<MethodEmitter.Output> out = new ArrayList<>();
        for (List<MethodEmitter.Output> p : parts) {
            out.addAll(p);
        }
        return out;
    }
}
