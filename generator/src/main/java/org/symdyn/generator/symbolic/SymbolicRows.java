package org.symdyn.generator.symbolic;

import java.util.List;
import org.matheclipse.core.interfaces.IExpr;

/**
 * The rows of one constraint of a model over symbolic values, as its runtime twin (a
 * {@link org.symdyn.constraints.ConstraintRows}) defines them. G and γ follow from the velocity rows by
 * differentiation ({@link SymbolicConstraints}).
 */
interface SymbolicRows {
    /** φ(q), one entry per row. */
    List<IExpr> positionErrors();

    /** φ̇ = G(q) v, one entry per row, linear in the symbols of v. */
    List<IExpr> velocityErrors();
}
