package org.symdyn.constraints;

import org.ejml.data.DMatrixRMaj;
import org.symdyn.contract.ConstraintFunctions;
import org.symdyn.contract.Kinematics;
import org.symdyn.model.Model;

/**
 * The rows of a bound set and their evaluation: the model's rows through its {@link ConstraintFunctions}, each group
 * added in code through its {@link ConstraintRows} provider (made fresh for this binding and bound to the
 * {@link Kinematics}), stacked in the set's row order into φ(q), φ̇(q, v) = G v on holonomic rows, G(q) (m x nv)
 * and γ(q, v) = -Ġ v plus -2α φ̇ - β² φ on the rows of stabilised groups ({@link BaumgarteStabilisation}). A model
 * group also gets a provider (a resolver of its multipliers into body forces) when the set has the {@link Model}
 * and kinematics are bound. Every workspace is allocated here; nothing allocates afterwards.
 */
final class BoundRows {
    final ConstraintFunctions functions;
    final ConstraintGroup[] groups;
    /** Row providers of code groups (bound), and resolvers of model groups (null where none); by group index. */
    final ConstraintRows[] providers;
    final int nv;
    final int m;
    final int modelRows;
    final int modelGroups;
    private final BaumgarteStabilisation stabilisation;
    /** φ and φ̇ of every row as the stabilised γ last read them. */
    final double[] stabPhi;
    final double[] stabPhidot;
    /** The model rows' G, γ, φ and φ̇ when code rows follow them (else the stacked outputs themselves). */
    final DMatrixRMaj gModel;
    final double[] gammaModel;
    final double[] phiModel;
    final double[] phidotModel;

    /**
     * @param g     the stacked G the model rows are written into directly when no code rows follow them
     * @param gamma the stacked γ, likewise
     * @throws IllegalArgumentException if a code group needs kinematics and none are given
     * @throws IllegalStateException    if a provider's row count differs from its group's
     */
    BoundRows(ConstraintSet set, Kinematics kin, ConstraintFunctions functions, BaumgarteStabilisation stabilisation,
            DMatrixRMaj g, double[] gamma) {
        this.functions = functions;
        this.stabilisation = stabilisation;
        this.nv = set.nv();
        this.m = set.size();
        this.modelRows = set.modelRowCount();
        this.modelGroups = set.modelGroupCount();
        this.groups = set.groups().toArray(new ConstraintGroup[0]);
        this.providers = new ConstraintRows[groups.length];
        Model model = set.model();
        for (ConstraintGroup group : groups) {
            ConstraintRows rows = group.isModelConstraint()
                    ? (model != null && kin != null ? ConstraintRows.of(model, model.constraints().get(
                            group.modelConstraint())) : null)
                    : group.newRows();
            if (rows == null) {
                continue;
            }
            if (kin == null) {
                throw new IllegalArgumentException("constraint group '" + group.name() + "' was added in code and is "
                        + "evaluated through kinematics: bind with a Kinematics");
            }
            rows.bind(kin);
            if (rows.rowCount() != group.size()) {
                throw new IllegalStateException("group '" + group.name() + "' was added with " + group.size()
                        + " rows and has " + rows.rowCount() + " now");
            }
            providers[group.index()] = rows;
        }
        stabPhi = new double[m];
        stabPhidot = new double[m];
        boolean separate = modelRows < m;
        gModel = separate ? new DMatrixRMaj(modelRows, nv) : g;
        gammaModel = separate ? new double[modelRows] : gamma;
        phiModel = separate ? new double[modelRows] : stabPhi;
        phidotModel = separate ? new double[modelRows] : stabPhidot;
    }

    /** φ(q) of every row into {@code phi} (m entries). Contact rows are 0. */
    void positionError(double[] q, double[] phi) {
        if (modelRows > 0) {
            functions.positionError(q, phiModel);
            System.arraycopy(phiModel, 0, phi, 0, modelRows);
        }
        for (int i = modelGroups; i < groups.length; i++) {
            providers[i].positionError(q, phi, groups[i].rowOffset());
        }
    }

    /** φ̇(q, v) of every row into {@code phidot} (m entries). */
    void velocityError(double[] q, double[] v, double[] phidot) {
        if (modelRows > 0) {
            functions.velocityError(q, v, phidotModel);
            System.arraycopy(phidotModel, 0, phidot, 0, modelRows);
        }
        for (int i = modelGroups; i < groups.length; i++) {
            providers[i].velocityError(q, v, phidot, groups[i].rowOffset());
        }
    }

    /** G(q) (m x nv) into {@code out}. */
    void jacobian(double[] q, DMatrixRMaj out) {
        if (out.numRows != m || out.numCols != nv) {
            throw new IllegalArgumentException("G must be " + m + "x" + nv + ", got " + out.numRows + "x"
                    + out.numCols);
        }
        if (modelRows > 0 && modelRows == m) {
            // Straight into out: through gModel, which is then the data's G workspace, a caller's own evaluation
            // (the recursive and Kokkevis methods') would overwrite the workspace of the last computeSystem.
            functions.constraintJacobian(q, out);
        } else if (modelRows > 0) {
            functions.constraintJacobian(q, gModel);
            copyModelRows(gModel, out);
        }
        codeJacobian(q, out);
    }

    /** The code groups' rows of G(q) into {@code out}. */
    void codeJacobian(double[] q, DMatrixRMaj out) {
        for (int i = modelGroups; i < groups.length; i++) {
            providers[i].jacobian(q, out, groups[i].rowOffset());
        }
    }

    /** The model rows of {@code from} into the first rows of {@code to} (nothing when they are one matrix). */
    void copyModelRows(DMatrixRMaj from, DMatrixRMaj to) {
        if (from != to) {
            // G is m x nv row-major and the model rows come first: one contiguous copy.
            System.arraycopy(from.data, 0, to.data, 0, modelRows * nv);
        }
    }

    /** γ(q, v) of every row into {@code out} (m entries), stabilised where enabled. */
    void gamma(double[] q, double[] v, double[] out) {
        if (modelRows > 0) {
            // As in jacobian: never through the data's γ workspace when the output is another array.
            double[] model = modelRows == m ? out : gammaModel;
            functions.gamma(q, v, model);
            if (model != out) {
                System.arraycopy(model, 0, out, 0, modelRows);
            }
            readModelErrors(q, v);
        }
        codeGamma(q, v, out);
        stabilise(out);
    }

    /** The model rows' φ and φ̇ into the stacked errors, when a model group is stabilised. */
    private void readModelErrors(double[] q, double[] v) {
        if (stabilisation.anyEnabledBelow(modelGroups)) {
            functions.positionError(q, phiModel);
            functions.velocityError(q, v, phidotModel);
            copyModelErrors();
        }
    }

    /** Code group i's φ and φ̇ into the stacked errors, when it is stabilised. */
    private void readCodeErrors(int i, double[] q, double[] v) {
        if (stabilisation.enabled[i]) {
            providers[i].positionError(q, stabPhi, groups[i].rowOffset());
            providers[i].velocityError(q, v, stabPhidot, groups[i].rowOffset());
        }
    }

    /**
     * The Baumgarte terms alone into {@code out} (m entries): -2α φ̇ - β² φ on the rows of stabilised groups, 0 on
     * the others (the γ of {@link #gamma} less -Ġ v).
     */
    void stabilisationTerms(double[] q, double[] v, double[] out) {
        java.util.Arrays.fill(out, 0, m, 0.0);
        if (modelRows > 0) {
            readModelErrors(q, v);
        }
        for (int i = modelGroups; i < groups.length; i++) {
            readCodeErrors(i, q, v);
        }
        stabilise(out);
    }

    /** The model rows' φ and φ̇ into the stacked errors the stabilisation reads. */
    void copyModelErrors() {
        if (phiModel != stabPhi) {
            System.arraycopy(phiModel, 0, stabPhi, 0, modelRows);
            System.arraycopy(phidotModel, 0, stabPhidot, 0, modelRows);
        }
    }

    /** The code groups' γ into {@code out}, and their φ and φ̇ where stabilised. */
    void codeGamma(double[] q, double[] v, double[] out) {
        for (int i = modelGroups; i < groups.length; i++) {
            providers[i].gamma(q, v, out, groups[i].rowOffset());
            readCodeErrors(i, q, v);
        }
    }

    /** Adds -2α φ̇ - β² φ of the last read errors to the rows of the stabilised groups of {@code out}. */
    void stabilise(double[] out) {
        stabilisation.addTerms(groups, stabPhi, stabPhidot, out);
    }

    /** φ(q) of one group into {@code out[0..size)}. */
    void positionError(ConstraintGroup group, double[] q, double[] out) {
        if (!group.isModelConstraint()) {
            providers[group.index()].positionError(q, out, 0);
        } else {
            functions.positionError(q, phiModel);
            System.arraycopy(phiModel, group.rowOffset(), out, 0, group.size());
        }
    }

    /** φ̇(q, v) of one group into {@code out[0..size)}. */
    void velocityError(ConstraintGroup group, double[] q, double[] v, double[] out) {
        if (!group.isModelConstraint()) {
            providers[group.index()].velocityError(q, v, out, 0);
        } else {
            functions.velocityError(q, v, phidotModel);
            System.arraycopy(phidotModel, group.rowOffset(), out, 0, group.size());
        }
    }
}
