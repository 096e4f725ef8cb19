package org.symdyn.contract;

import java.util.List;

/**
 * Named model numbers that a generated class keeps settable (masses, centres of mass, inertias, joint offsets
 * marked as parameters in the model file; see {@link org.symdyn.model.ParameterModel}). Setting one changes every
 * later result of that instance; it starts at the model's value. Not thread-safe, like the instance itself.
 */
public interface ModelParameters {
    /** The parameters' names, in declaration order. */
    List<String> parameterNames();

    /** The current value of parameter {@code index}. */
    double parameter(int index);

    /**
     * Sets parameter {@code index} (SI units), or refuses the value and changes nothing. Not for a hot path: the
     * check allocates a little.
     *
     * @throws IndexOutOfBoundsException for an index out of range
     * @throws IllegalArgumentException  for a value that is not finite, a negative armature, or a value that makes
     *                                   its link's inertial no physical body (a negative mass or principal moment:
     *                                   {@link ParameterRules}, the rules a model file's numbers keep)
     */
    void setParameter(int index, double value);

    /**
     * Sets every parameter at once (values in declaration order), or refuses the set and changes nothing. The rules
     * are those of {@link #setParameter}, applied to the whole set: values reached one at a time may pass through a
     * non-physical link on the way (a product of inertia raised before the moments that make room for it), which
     * {@link #setParameter} refuses in one order and accepts in another. The default sets them one at a time; the
     * interpreter and generated classes check the set once.
     *
     * @throws IllegalArgumentException for a wrong count, or a set that breaks a rule
     */
    default void setParameters(double[] values) {
        if (values.length != parameterNames().size()) {
            throw new IllegalArgumentException(parameterNames().size() + " parameters, " + values.length
                    + " values given");
        }
        for (int k = 0; k < values.length; k++) {
            setParameter(k, values[k]);
        }
    }

    /** The index of the parameter of that name, or -1. */
    default int parameterIndex(String name) {
        return parameterNames().indexOf(name);
    }
}
