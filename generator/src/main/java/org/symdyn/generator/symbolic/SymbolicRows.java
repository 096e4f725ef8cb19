package org.symdyn.generator.symbolic;

import java.util.List;
import org.matheclipse.core.interfaces.IExpr;

/**
 * The rows of one constraint of a model over symbolic values, as its runtime twin (a
 * {@link org.symdyn.constraints.ConstraintRows}) defines them. G and γ follow from the velocity rows by
 * differentiation ({@link SymbolicConstraints}) unless the rows give them in closed form.
 */
interface SymbolicRows {
    /** φ(q), one entry per row. */
    List<IExpr> positionErrors();

    /** φ̇ = G(q) v, one entry per row, linear in the symbols of v. */
    List<IExpr> velocityErrors();

    /**
     * G's rows (nv entries each, one per row of {@link #velocityErrors}) in closed form, or null (the default) to
     * have {@link SymbolicConstraints} take them as ∂φ̇/∂v by differentiation through the graph. A closed form must
     * equal that derivative identically; it pays where the differentiation repeats work the graph cannot share.
     */
    default IExpr[][] jacobianRows() {
        return null;
    }

    /**
     * γ = -Ġ v in closed form (one entry per row), or null (the default) to take it as -d/dt φ̇ at v̇ = 0 through the
     * graph; as for {@link #jacobianRows}, it must equal that derivative identically.
     */
    default IExpr[] gammaRows() {
        return null;
    }
}
