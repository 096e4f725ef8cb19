package org.symdyn.dynamics;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.junit.jupiter.api.Test;
import org.symdyn.constraints.TestMechanisms;
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
     * inverse() against H: H H⁻¹ = I to rounding and H⁻¹ exactly symmetric, on the mechanisms above and on trees
     * whose subtrees are not contiguous ranges of dofs (dof 1's subtree {1, 3, 5} interleaved with dof 2's {2, 4}; a
     * binary tree of 21 dofs numbered breadth first; 17 dofs on two roots) and a chain of exactly
     * {@link RangeSpaceFactorization#SWEPT_INVERSE_DOFS}, their H = Lᵀ L from a random L on the tree's pattern. The
     * binary tree and the chain take the row sweeps (one tree, that many dofs), also after a solveRows of 2 n columns
     * has left values in the row workspace, and give solveSquareBlocks' inverse bit for bit; the forest forms U.
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
        parents.add(interleaved);
        matrices.add(treeSparseH(interleaved, 0.5, rnd));
        int[] binary = new int[21];
        int[] twoRoots = new int[17];
        for (int i = 0; i < binary.length; i++) {
            binary[i] = (i - 1) / 2;
        }
        binary[0] = -1;
        for (int i = 0; i < twoRoots.length; i++) {
            twoRoots[i] = i < 2 ? -1 : (i - 2) / 2;
        }
        assertTrue(binary.length >= RangeSpaceFactorization.SWEPT_INVERSE_DOFS
                && twoRoots.length >= RangeSpaceFactorization.SWEPT_INVERSE_DOFS);
        int[] chain = new int[RangeSpaceFactorization.SWEPT_INVERSE_DOFS];
        for (int i = 0; i < chain.length; i++) {
            chain[i] = i - 1;
        }
        for (int[] tree : new int[][] {binary, twoRoots, chain}) {
            parents.add(tree);
            matrices.add(treeSparseH(tree, 0.5, rnd));
        }
        for (int c = 0; c < parents.size(); c++) {
            DMatrixRMaj h = matrices.get(c);
            int n = h.numRows;
            RangeSpaceFactorization ltl = new RangeSpaceFactorization(parents.get(c));
            ltl.factor(h);
            double[] inverse = new double[n * n];
            double[] u = new double[n * n];
            for (int round = 0; round < 2; round++) { // the workspace is reused as it is
                if (round == 1) {
                    ltl.solveRows(TestMechanisms.random(n * 2 * n, 1, rnd), 2 * n, 1);
                }
                ltl.inverse(inverse, u);
                DMatrixRMaj product = new DMatrixRMaj(n, n);
                CommonOps_DDRM.mult(h, DMatrixRMaj.wrap(n, n, inverse), product);
                for (int i = 0; i < n; i++) {
                    for (int j = 0; j < n; j++) {
                        assertEquals(i == j ? 1 : 0, product.get(i, j), 1e-12, "case " + c + " (" + i + ", " + j + ")");
                        assertEquals(inverse[i * n + j], inverse[j * n + i], 0, "symmetry, case " + c);
                    }
                }
                int roots = 0;
                for (int p : parents.get(c)) {
                    roots += p < 0 ? 1 : 0;
                }
                if (n >= RangeSpaceFactorization.SWEPT_INVERSE_DOFS && roots == 1) {
                    double[] swept = new double[n * n];
                    ltl.solveSquareBlocks(new double[n * n], new double[n * n], 1, swept);
                    assertArrayEquals(swept, inverse, "case " + c + ": the sweeps' inverse, bit for bit");
                }
            }
        }
    }

    /**
     * solveRows(X, m, s) = s H⁻¹ X on row-major blocks of 0, 1, 3 and 2 n columns: H times the result is s X to
     * rounding, and each column equals solve() of that column alone, scaled, within rounding of the other order of
     * the sums. Too few entries are refused.
     */
    @Test
    void solveRowsSolvesEveryColumn() throws Exception {
        Random rnd = new Random(41);
        for (Model model : new Model[] {TestMechanisms.floatingBiped(), TestMechanisms.spatialMechanism(),
            TestMechanisms.planarLeg()}) {
            int n = model.nv();
            DMatrixRMaj h = new DMatrixRMaj(n, n);
            new GenericDynamics(model).massMatrix(TestMechanisms.randomQ(model, rnd), h);
            RangeSpaceFactorization ltl = new RangeSpaceFactorization(model.dofParents());
            ltl.factor(h);
            for (int m : new int[] {0, 1, 3, 2 * n}) {
                for (double s : new double[] {1, -1, 0.25}) {
                    double[] b = TestMechanisms.random(n * m, 1, rnd);
                    double[] x = b.clone();
                    ltl.solveRows(x, m, s);
                    DMatrixRMaj hx = new DMatrixRMaj(n, m);
                    CommonOps_DDRM.mult(h, DMatrixRMaj.wrap(n, m, x), hx);
                    for (int i = 0; i < n * m; i++) {
                        assertEquals(s * b[i], hx.data[i], 1e-12, model.name() + " m " + m);
                    }
                    for (int c = 0; c < m; c++) {
                        double[] col = new double[n];
                        for (int r = 0; r < n; r++) {
                            col[r] = b[r * m + c];
                        }
                        ltl.solve(col);
                        for (int r = 0; r < n; r++) {
                            assertEquals(s * col[r], x[r * m + c], 1e-14 * (1 + Math.abs(col[r])), model.name());
                        }
                    }
                }
            }
        }
        RangeSpaceFactorization ltl = new RangeSpaceFactorization(new int[] {-1, 0});
        assertThrows(IllegalArgumentException.class, () -> ltl.solveRows(new double[3], 2, 1));
    }

    /**
     * solveSquareBlocks(A, B, s, inverse) gives s H⁻¹ A, s H⁻¹ B and H⁻¹ as solveRows and inverse() do, to rounding
     * (1e-14 relative), with the inverse exactly symmetric; without an inverse it leaves that alone; after a wider
     * call the narrower one still answers (the workspace, reserved by the constructor, is reused); short blocks are
     * refused.
     */
    @Test
    void solveSquareBlocksSolvesBothAndInverts() throws Exception {
        Random rnd = new Random(43);
        for (Model model : new Model[] {TestMechanisms.floatingBiped(), TestMechanisms.spatialMechanism(),
            TestMechanisms.planarLeg()}) {
            int n = model.nv();
            DMatrixRMaj h = new DMatrixRMaj(n, n);
            new GenericDynamics(model).massMatrix(TestMechanisms.randomQ(model, rnd), h);
            RangeSpaceFactorization ltl = new RangeSpaceFactorization(model.dofParents(), 3 * n);
            ltl.factor(h);
            double[] expectedInverse = new double[n * n];
            ltl.inverse(expectedInverse, new double[n * n]);
            for (boolean withInverse : new boolean[] {true, false, true}) {
                double[] a = TestMechanisms.random(n * n, 1, rnd);
                double[] b = TestMechanisms.random(n * n, 1, rnd);
                double[] expectedA = a.clone();
                double[] expectedB = b.clone();
                ltl.solveRows(expectedA, n, -1);
                ltl.solveRows(expectedB, n, -1);
                double[] inverse = new double[n * n];
                java.util.Arrays.fill(inverse, Double.NaN);
                ltl.solveSquareBlocks(a, b, -1, withInverse ? inverse : null);
                for (int i = 0; i < n * n; i++) {
                    assertEquals(expectedA[i], a[i], 1e-14 * (1 + Math.abs(expectedA[i])), model.name());
                    assertEquals(expectedB[i], b[i], 1e-14 * (1 + Math.abs(expectedB[i])), model.name());
                    if (withInverse) {
                        assertEquals(expectedInverse[i], inverse[i], 1e-13 * (1 + Math.abs(expectedInverse[i])),
                                model.name());
                        assertEquals(inverse[i], inverse[(i % n) * n + i / n], 0, "symmetric");
                    } else {
                        assertTrue(Double.isNaN(inverse[i]));
                    }
                }
            }
        }
        RangeSpaceFactorization ltl = new RangeSpaceFactorization(new int[] {-1, 0});
        assertThrows(IllegalArgumentException.class, () -> ltl.solveSquareBlocks(new double[4], new double[3], 1,
                null));
    }

    /**
     * solveSquareBlocks on dof trees numbered breadth first and by hand, whose subtrees are not runs of consecutive
     * dofs (the sweeps cut the identity's columns at each subtree's largest dof, not at a run's end): s H⁻¹ A, s H⁻¹
     * B and H⁻¹ against EJML's dense inverse, for H = Lᵀ L of a random L on the tree's pattern; one tree deep enough
     * that the root-to-leaf pass gathers four ancestors at once. Twice on one instance, each time after a solveRows of
     * 3 n columns has filled the row workspace past every cut.
     */
    @Test
    void solveSquareBlocksOnTreesNumberedAnyWay() {
        Random rnd = new Random(47);
        int[][] trees = {{-1, 0, 0, 1, 2, 1, 2, 3, 5, 4}, {-1, -1, 0, 1, 0, 1, 2, 4, 3}, {-1, 0, 1, 0, 3, 1, 4, 2},
            {-1, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}};
        for (int[] lambda : trees) {
            int n = lambda.length;
            DMatrixRMaj h = treeSparseH(lambda, 1, rnd);
            DMatrixRMaj hInv = new DMatrixRMaj(n, n);
            assertTrue(CommonOps_DDRM.invert(h.copy(), hInv));
            RangeSpaceFactorization ltl = new RangeSpaceFactorization(lambda);
            ltl.factor(h);
            for (int call = 0; call < 2; call++) {
                ltl.solveRows(TestMechanisms.random(n * 3 * n, 1, rnd), 3 * n, 1);
                DMatrixRMaj a = DMatrixRMaj.wrap(n, n, TestMechanisms.random(n * n, 1, rnd));
                DMatrixRMaj b = DMatrixRMaj.wrap(n, n, TestMechanisms.random(n * n, 1, rnd));
                DMatrixRMaj expectedA = new DMatrixRMaj(n, n);
                DMatrixRMaj expectedB = new DMatrixRMaj(n, n);
                CommonOps_DDRM.mult(-0.5, hInv, a, expectedA);
                CommonOps_DDRM.mult(-0.5, hInv, b, expectedB);
                double[] inverse = new double[n * n];
                ltl.solveSquareBlocks(a.data, b.data, -0.5, inverse);
                String tree = java.util.Arrays.toString(lambda) + " call " + call;
                for (int i = 0; i < n * n; i++) {
                    assertEquals(expectedA.data[i], a.data[i], 1e-12 * (1 + Math.abs(expectedA.data[i])), tree);
                    assertEquals(expectedB.data[i], b.data[i], 1e-12 * (1 + Math.abs(expectedB.data[i])), tree);
                    assertEquals(hInv.data[i], inverse[i], 1e-12 * (1 + Math.abs(hInv.data[i])), tree);
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

    /**
     * H = Lᵀ L for a random L on the dof tree λ's pattern (L_ij for j = i or an ancestor of i; diagonal in
     * [floor, floor + 1), the rest in [-1, 1)): symmetric positive definite and tree-sparse.
     */
    private static DMatrixRMaj treeSparseH(int[] lambda, double floor, Random rnd) {
        int n = lambda.length;
        DMatrixRMaj l = new DMatrixRMaj(n, n);
        for (int i = 0; i < n; i++) {
            l.set(i, i, floor + rnd.nextDouble());
            for (int j = lambda[i]; j >= 0; j = lambda[j]) {
                l.set(i, j, rnd.nextDouble() * 2 - 1);
            }
        }
        DMatrixRMaj h = new DMatrixRMaj(n, n);
        CommonOps_DDRM.multTransA(l, l, h);
        return h;
    }
}
