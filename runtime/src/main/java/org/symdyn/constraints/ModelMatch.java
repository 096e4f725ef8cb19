package org.symdyn.constraints;

import java.util.List;
import org.symdyn.contract.ConstraintFunctions;
import org.symdyn.contract.ModelInfo;

/**
 * The refusals of binding: an implementation bound to a {@link ConstraintSet} must describe the set's model (same
 * content hash when both are known, same nq, nv and body count), and the functions of the model's constraints must
 * have the set's model rows under the same constraint names in the same order, so that another model's class with
 * the same sizes cannot give wrong numbers.
 */
final class ModelMatch {
    private ModelMatch() {
    }

    /**
     * Checks that {@code info} describes the set's model: same content hash (when both are known), sizes.
     *
     * @param what the implementation, as the message names it ("dynamics", "kinematics", "constraint functions")
     * @throws IllegalArgumentException naming what differs
     */
    static void checkSameModel(ConstraintSet set, ModelInfo info, String what) {
        int nq = set.nq();
        int nv = set.nv();
        int bodyCount = set.bodyCount();
        String modelName = set.modelName();
        String modelHash = set.modelHash();
        if (info.nq() != nq || info.nv() != nv || info.bodyCount() != bodyCount) {
            throw new IllegalArgumentException("the " + what + " (model '" + info.modelName() + "', nq " + info.nq()
                    + ", nv " + info.nv() + ", " + info.bodyCount() + " bodies) do not match model '" + modelName
                    + "' (nq " + nq + ", nv " + nv + ", " + bodyCount + " bodies)");
        }
        String other = info.modelHash();
        if (modelHash != null && other != null && !modelHash.equals(other)) {
            throw new IllegalArgumentException("the " + what + " were made for another model than the constraint set's"
                    + " ('" + info.modelName() + "', content hash " + other.substring(0, 12) + "..., the set's model '"
                    + modelName + "' has " + modelHash.substring(0, 12) + "...): regenerate the class from the same"
                    + " model file, or build the set from the class itself (ConstraintSet.builder(functions))");
        }
    }

    /**
     * Checks that the functions evaluate the set's model constraints: present, of the same model, with the set's
     * number of model rows and the names of its model groups in order.
     *
     * @throws IllegalArgumentException naming what differs
     */
    static void checkFunctions(ConstraintSet set, ConstraintFunctions functions) {
        if (functions == null) {
            throw new IllegalArgumentException("the set has the model's constraints: give their functions");
        }
        checkSameModel(set, functions, "constraint functions");
        int modelRows = set.modelRowCount();
        if (functions.constraintRows() != modelRows) {
            throw new IllegalArgumentException("the constraint functions have " + functions.constraintRows()
                    + " rows, the model's constraints " + modelRows);
        }
        List<String> names = functions.constraintNames();
        for (int k = 0; k < set.modelGroupCount(); k++) {
            String expected = set.group(k).name();
            if (k >= names.size() || !names.get(k).equals(expected)) {
                throw new IllegalArgumentException("the constraint functions name constraint " + k + " '"
                        + (k < names.size() ? names.get(k) : "(none)") + "', the set's model '" + expected + "'");
            }
        }
    }
}
