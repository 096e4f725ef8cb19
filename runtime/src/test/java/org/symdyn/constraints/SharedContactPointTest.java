package org.symdyn.constraints;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.List;
import java.util.Random;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.model.ConstraintModel;
import org.symdyn.model.ContactConstraintModel;
import org.symdyn.model.CouplerConstraintModel;
import org.symdyn.model.Model;
import org.symdyn.model.SourceLocation;

/**
 * A model's contact rows at one body point share one provider in {@link GenericConstraints} (one point Jacobian,
 * one bias acceleration), also when other rows sit between them: φ, φ̇, G and γ equal those of one
 * {@link ContactRows} per row, bit for bit.
 */
class SharedContactPointTest {
    private static final double[] P = {0.1, -0.05, 0.2};
    private static final double[] R = {0.02, 0.03, -0.1};

    private static ContactConstraintModel contact(String name, int body, double[] point, double... normal) {
        return new ContactConstraintModel(name, body, point, normal, Double.NaN, SourceLocation.UNKNOWN);
    }

    @Test
    void interleavedRowsAtOnePointMatchOneProviderPerRow() throws Exception {
        List<ConstraintModel> constraints = List.of(contact("c_x", 2, P, 1, 0, 0), contact("e_z", 4, R, 0, 0, 1),
                new CouplerConstraintModel("gear", 4, 0, 2.5, 0.1, Double.NaN, SourceLocation.UNKNOWN),
                contact("c_y", 2, P, 0, 1, 0), contact("c_z", 2, P, 0, 0, 1), contact("e_x", 4, R, 1, 0, 0),
                contact("c_other", 2, R, 0, 0.6, 0.8));
        var b = TestMechanisms.spatialBodies(Model.builder("shared").root("base"));
        for (ConstraintModel c : constraints) {
            b.addConstraint(c);
        }
        Model model = b.build();
        GenericConstraints shared = new GenericConstraints(model);
        GenericDynamics kin = new GenericDynamics(model);
        int m = model.constraintRowCount();
        int nv = model.nv();
        ConstraintRows[] single = new ConstraintRows[constraints.size()];
        for (int k = 0; k < single.length; k++) {
            single[k] = ConstraintRows.of(model, constraints.get(k));
            single[k].bind(kin);
        }
        Random rnd = new Random(4);
        for (int n = 0; n < 20; n++) {
            double[] q = TestMechanisms.randomQ(model, rnd);
            double[] v = TestMechanisms.random(nv, 1, rnd);
            DMatrixRMaj g = new DMatrixRMaj(m, nv);
            DMatrixRMaj gRef = new DMatrixRMaj(m, nv);
            double[] gamma = new double[m];
            double[] gammaRef = new double[m];
            double[] phidot = new double[m];
            double[] phidotRef = new double[m];
            double[] phi = new double[m];
            double[] phiRef = new double[m];
            shared.constraintJacobian(q, g);
            shared.gamma(q, v, gamma);
            shared.velocityError(q, v, phidot);
            shared.positionError(q, phi);
            for (int k = 0; k < single.length; k++) {
                single[k].jacobian(q, gRef, k);
                single[k].gamma(q, v, gammaRef, k);
                single[k].velocityError(q, v, phidotRef, k);
                single[k].positionError(q, phiRef, k);
            }
            assertArrayEquals(gRef.data, g.data);
            assertArrayEquals(gammaRef, gamma);
            assertArrayEquals(phidotRef, phidot);
            assertArrayEquals(phiRef, phi);
        }
    }
}
