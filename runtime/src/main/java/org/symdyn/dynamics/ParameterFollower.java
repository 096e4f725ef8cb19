package org.symdyn.dynamics;

import java.util.function.Function;
import org.symdyn.contract.ModelParameters;
import org.symdyn.model.Model;

/**
 * A structure a runtime part builds from a {@link Model} beside the bound implementation (the rows' motion
 * derivatives, the energy's masses, the interpreter's articulated-body algorithm), kept on the numbers that
 * implementation evaluates when its model declares parameters ({@link Model#parameters()}) and the caller may set them
 * ({@link ModelParameters#setParameter}, a generated class or the interpreter): built from the declared model with the
 * implementation's current values ({@link Model#withParameters}), so that a joint moved by an origin parameter moves
 * there too. Without it those parts kept the file's numbers, silently.
 *
 * <p>{@link #current()} compares the implementation's values with the last ones seen (k reads, no allocation; the
 * interpreter hands a new model instance on a change) and rebuilds only when one changed, which allocates as the
 * change itself did.
 *
 * @param <T> what is built from the model
 */
public final class ParameterFollower<T> {
    private final Model declared;
    private final ModelInterpreter interpreter;
    private final ModelParameters parameters;
    private final double[] seen;
    private final Function<Model, ? extends T> build;
    private Model current;
    private Model builtFrom;
    private T built;

    /**
     * Builds the structure from the declared model (or the interpreter's current one).
     *
     * @param declared       the model as declared (the one the implementation was bound against)
     * @param implementation the bound dynamics; its parameters are followed when it is an interpreter or implements
     *                       {@link ModelParameters}, and the model has some
     * @param build          the structure of a model
     */
    public ParameterFollower(Model declared, Object implementation, Function<Model, ? extends T> build) {
        this.declared = declared;
        this.current = declared;
        this.build = build;
        boolean any = !declared.parameters().isEmpty();
        this.interpreter = any && implementation instanceof ModelInterpreter mi ? mi : null;
        this.parameters = any && interpreter == null && implementation instanceof ModelParameters mp
                && mp.parameterNames().size() == declared.parameters().size() ? mp : null;
        this.seen = declared.parameters().stream().mapToDouble(org.symdyn.model.ParameterModel::value).toArray();
        current();
    }

    /**
     * The structure of the declared model with the implementation's current parameter values, rebuilt when they
     * changed since the last call.
     *
     * @throws IllegalArgumentException if a parameter was set to a value that is not finite, naming it
     */
    public T current() {
        Model now = model();
        if (now != builtFrom) {
            builtFrom = now;
            built = build.apply(now);
        }
        return built;
    }

    /** The declared model with the current values; the same instance while they do not change. */
    private Model model() {
        if (interpreter != null) {
            return interpreter.interpretedModel();
        }
        if (parameters == null) {
            return declared;
        }
        boolean changed = false;
        for (int k = 0; k < seen.length && !changed; k++) {
            changed = Double.compare(parameters.parameter(k), seen[k]) != 0;
        }
        if (changed) {
            double[] now = new double[seen.length];
            for (int k = 0; k < now.length; k++) {
                now[k] = parameters.parameter(k);
            }
            // values that make no physical body throw here, and again at the next call: never the old model silently
            current = declared.withParameters(now);
            System.arraycopy(now, 0, seen, 0, now.length);
        }
        return current;
    }
}
