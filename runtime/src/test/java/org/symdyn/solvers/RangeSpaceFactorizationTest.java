package org.symdyn.solvers;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.junit.jupiter.api.Test;
import org.symdyn.constraints.TestMechanisms;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.model.Model;

/** Featherstone's LᵀL on branched trees with multi-dof joints. */
class RangeSpaceFactorizationTest {
    @Test
    void dofParentsFollowJointsAndBodies() throws Exception {
        assertArrayEquals(new int[] {-1, 0, 1, 2, 3, 4, 5, 6, 5, 8},
                TestMechanisms.floatingBiped().dofParents());
        assertArrayEquals(new int[] {-1, 0, 1, 2, 3}, TestMechanisms.planarLeg().dofParents());
        // a, b (child of a), c (ball, child of b), d (child of a), e (child of d)
        assertArrayEquals(new int[] {-1, 0, 1, 2, 3, 0, 5},
                TestMechanisms.spatialMechanism().dofParents());
    }

    /** Lᵀ L rebuilt from the branch pattern alone equals H (no fill-in), and solve() inverts H. */
    @Test
    void factorisationReproducesMassMatrix() throws Exception {
        Random rnd = new Random(31);
        for (Model model : new Model[] {TestMechanisms.floatingBiped(), TestMechanisms.spatialMechanism(),
            TestMechanisms.planarLeg()}) {
            GenericDynamics dyn = new GenericDynamics(model);
            int n = model.nv();
            RangeSpaceFactorization ltl = new RangeSpaceFactorization(model.dofParents());
            assertEquals(n, ltl.size());
            DMatrixRMaj h = new DMatrixRMaj(n, n);
            for (int k = 0; k < 10; k++) {
                dyn.massMatrix(TestMechanisms.randomQ(model, rnd), h);
                ltl.factor(h);
                DMatrixRMaj l = new DMatrixRMaj(n, n);
                for (int i = 0; i < n; i++) {
                    for (int j = 0; j <= i; j++) {
                        l.set(i, j, ltl.l(i, j));
                    }
                }
                DMatrixRMaj ltlProduct = new DMatrixRMaj(n, n);
                CommonOps_DDRM.multTransA(l, l, ltlProduct);
                double scale = CommonOps_DDRM.elementMaxAbs(h);
                for (int i = 0; i < n * n; i++) {
                    assertEquals(h.data[i], ltlProduct.data[i], 1e-13 * scale, model.name());
                }
                double[] b = TestMechanisms.random(n, 1, rnd);
                double[] x = b.clone();
                ltl.solve(x);
                double[] hx = TestMechanisms.mult(h, x);
                assertTrue(TestMechanisms.maxDiff(hx, b) <= 1e-12, model.name());
            }
        }
    }

    @Test
    void indefiniteMatrixIsRefused() {
        RangeSpaceFactorization ltl = new RangeSpaceFactorization(new int[] {-1, 0});
        DMatrixRMaj h = new DMatrixRMaj(new double[][] {{1, 2}, {2, 1}});
        assertThrows(ArithmeticException.class, () -> ltl.factor(h));
        assertThrows(IllegalArgumentException.class, () -> new RangeSpaceFactorization(new int[] {0}));
    }
}
