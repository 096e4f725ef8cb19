package org.symdyn.constraints;

import org.ejml.data.DMatrixRMaj;
import org.symdyn.contract.ConstraintFunctions;

/**
 * The rows of a model's own constraints, evaluated by a {@link ConstraintFunctions} (generic or generated) that
 * stacks them in model order. The functions evaluate all model rows at once, so this adapter evaluates them into
 * scratch and copies them into the set's outputs at rows [0, rows).
 */
final class ModelFunctionRows {
    private final int rows;
    private ConstraintFunctions functions;
    private double[] scratch;
    private DMatrixRMaj gScratch;

    ModelFunctionRows(int rows) {
        this.rows = rows;
    }

    int rowCount() {
        return rows;
    }

    void bind(ConstraintFunctions f, int nv) {
        if (f.constraintRows() != rows) {
            throw new IllegalArgumentException("the constraint functions have " + f.constraintRows()
                    + " rows, the model's constraints " + rows);
        }
        functions = f;
        scratch = new double[rows];
        gScratch = new DMatrixRMaj(rows, nv);
    }

    void positionError(double[] q, double[] phi) {
        functions.positionError(q, scratch);
        System.arraycopy(scratch, 0, phi, 0, rows);
    }

    void velocityError(double[] q, double[] v, double[] phidot) {
        functions.velocityError(q, v, scratch);
        System.arraycopy(scratch, 0, phidot, 0, rows);
    }

    void jacobian(double[] q, DMatrixRMaj g) {
        functions.constraintJacobian(q, gScratch);
        // G is m x nv row-major and the model rows come first: one contiguous copy.
        System.arraycopy(gScratch.data, 0, g.data, 0, rows * gScratch.numCols);
    }

    void gamma(double[] q, double[] v, double[] gamma) {
        functions.gamma(q, v, scratch);
        System.arraycopy(scratch, 0, gamma, 0, rows);
    }
}
