package org.symdyn.dynamics;

import org.symdyn.contract.ModelParameters;
import org.symdyn.model.Model;

/**
 * The numbers an implementation evaluates when its model declares parameters ({@link Model#parameters()}) and the
 * caller may set them ({@link ModelParameters#setParameter}, a generated class or the interpreter): the declared model
 * with the implementation's current values ({@link Model#withParameters}). For a runtime part that builds its own
 * structures from a {@link Model} beside the bound implementation (the motion derivatives of the constraint and
 * contact rows), so that a joint moved by an origin parameter moves there too.
 *
 * <p>{@link #current()} compares the implementation's values with the last ones seen (k reads, no allocation) and
 * builds a new model only when one changed; the same instance is returned in between, so that a caller can tell a
 * change by reference.
 */
public final class ParameterizedModel {
    private final Model declared;
    private final ModelInterpreter interpreter;
    private final ModelParameters parameters;
    private final double[] seen;
    private Model current;

    /**
     * @param declared       the model as declared (the one the implementation was bound against)
     * @param implementation the bound dynamics; its parameters are followed when it implements
     *                       {@link ModelParameters} and the model has some
     */
    public ParameterizedModel(Model declared, Object implementation) {
        this.declared = declared;
        this.current = declared;
        boolean any = !declared.parameters().isEmpty();
        this.interpreter = any && implementation instanceof ModelInterpreter mi ? mi : null;
        this.parameters = any && interpreter == null && implementation instanceof ModelParameters mp
                && mp.parameterNames().size() == declared.parameters().size() ? mp : null;
        this.seen = declared.parameters().stream().mapToDouble(org.symdyn.model.ParameterModel::value).toArray();
    }

    /**
     * The declared model with the implementation's current parameter values; the declared model itself when it has
     * none or the implementation does not let them be set.
     *
     * @throws IllegalArgumentException if a parameter was set to a value that is not finite, naming it
     */
    public Model current() {
        if (interpreter != null) {
            return interpreter.interpretedModel();
        }
        if (parameters == null) {
            return declared;
        }
        boolean changed = false;
        for (int k = 0; k < seen.length; k++) {
            double x = parameters.parameter(k);
            if (Double.compare(x, seen[k]) != 0) {
                seen[k] = x;
                changed = true;
            }
        }
        if (changed) {
            current = declared.withParameters(seen);
        }
        return current;
    }
}
