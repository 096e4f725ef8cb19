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

    /**
     * inverse() against H: H H⁻¹ = I to rounding and H⁻¹ exactly symmetric, on the mechanisms above and on a tree
     * whose subtrees are not contiguous ranges of dofs (dof 1's subtree {1, 3, 5} interleaved with dof 2's {2, 4}),
     * its H = Lᵀ L from a random L on the tree's pattern.
     */
    @Test
    void inverseInvertsH() throws Exception {
        Random rnd = new Random(37);
        java.util.List<int[]> parents = new java.util.ArrayList<>();
        java.util.List<DMatrixRMaj> matrices = new java.util.ArrayList<>();
        for (Model model : new Model[] {TestMechanisms.floatingBiped(), TestMechanisms.spatialMechanism(),
            TestMechanisms.planarLeg()}) {
            DMatrixRMaj h = new DMatrixRMaj(model.nv(), model.nv());
            new GenericDynamics(model).massMatrix(TestMechanisms.randomQ(model, rnd), h);
            parents.add(model.dofParents());
            matrices.add(h);
        }
        int[] interleaved = {-1, 0, 0, 1, 2, 3};
        int n6 = interleaved.length;
        DMatrixRMaj l = new DMatrixRMaj(n6, n6);
        for (int i = 0; i < n6; i++) {
            l.set(i, i, 0.5 + rnd.nextDouble());
            for (int j = interleaved[i]; j >= 0; j = interleaved[j]) {
                l.set(i, j, rnd.nextDouble() * 2 - 1);
            }
        }
        DMatrixRMaj h6 = new DMatrixRMaj(n6, n6);
        CommonOps_DDRM.multTransA(l, l, h6);
        parents.add(interleaved);
        matrices.add(h6);
        for (int c = 0; c < parents.size(); c++) {
            DMatrixRMaj h = matrices.get(c);
            int n = h.numRows;
            RangeSpaceFactorization ltl = new RangeSpaceFactorization(parents.get(c));
            ltl.factor(h);
            double[] inverse = new double[n * n];
            double[] u = new double[n * n];
            for (int round = 0; round < 2; round++) { // the workspace is reused as it is
                ltl.inverse(inverse, u);
                DMatrixRMaj product = new DMatrixRMaj(n, n);
                CommonOps_DDRM.mult(h, DMatrixRMaj.wrap(n, n, inverse), product);
                for (int i = 0; i < n; i++) {
                    for (int j = 0; j < n; j++) {
                        assertEquals(i == j ? 1 : 0, product.get(i, j), 1e-12, "case " + c + " (" + i + ", " + j + ")");
                        assertEquals(inverse[i * n + j], inverse[j * n + i], 0, "symmetry, case " + c);
                    }
                }
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
