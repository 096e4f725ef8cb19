package org.symdyn.generator.symbolic;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.matheclipse.core.interfaces.IExpr;
import org.symdyn.generator.symbolic.SymbolicInput.Kind;

/**
 * What one generated method leaves in the instance for a later one (a twin limb's two parts, the recursive
 * constrained system and its response): each distinct value once, read back as input k of one {@link Kind}; a
 * number is not stored, it stays itself. {@link #values()} lists the stored values in order, for the first method to
 * write.
 */
public final class KeptValues implements UnaryOperator<IExpr> {
    private final ExpressionGraph g;
    private final Kind kind;
    private final List<IExpr> kept = new ArrayList<>();
    private final Map<IExpr, IExpr> keptAs = new HashMap<>();

    public KeptValues(ExpressionGraph g, Kind kind) {
        this.g = g;
        this.kind = kind;
    }

    /** The value as the later method reads it. */
    @Override
    public IExpr apply(IExpr e) {
        if (e.isNumber()) {
            return e;
        }
        return keptAs.computeIfAbsent(e, x -> {
            kept.add(x);
            return g.input(kind, kept.size() - 1);
        });
    }

    /** The values stored, in the order of their inputs. */
    public List<IExpr> values() {
        return kept;
    }
}
