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

    /** The index of the parameter of that name, or -1. */
    default int parameterIndex(String name) {
        return parameterNames().indexOf(name);
    }
}
