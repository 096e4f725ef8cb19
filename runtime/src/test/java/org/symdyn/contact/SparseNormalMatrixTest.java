package org.symdyn.contact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.model.Model;
import org.symdyn.solvers.SmallSpd;
import org.symdyn.testing.ShapeScenes;

/**
 * {@link SparseNormalMatrix}'s (W + σ I)⁻¹ r against a dense Cholesky of W + σ I, W formed from the same rows
 * ({@link SparseDelassus#formDense}, checked against J H⁻¹ Jᵀ in {@link SparseDelassusTest}): on random trees (a
 * floating robot, an arm and free boxes, contacts between random bodies, a limit and a loop row) and on a pile of
 * boxes as the time stepper poses it; with and without the refinement step, over σ from 1e-6 to 10 times W's
 * largest diagonal entry; on all rows and on a subset (the polishing solve); and the capacity's message.
 */
class SparseNormalMatrixTest {
    private static final double[] SHIFTS = {1e-10, 1e-8, 1e-6, 1e-4, 1e-2, 1, 10};

    /** Random rows on the tree, as SparseDelassusTest builds them; returns the problem (blocks) over them. */
    static ContactProblem randomRows(Model model, GenericDynamics dyn, SparseDelassus sparse, Random random) {
        int nv = model.nv();
        DofBranches branches = new DofBranches(dyn);
        DMatrixRMaj Hm = new DMatrixRMaj(nv, nv);
        dyn.massMatrix(SparseDelassusTest.randomQ(model, dyn, random), Hm);
        sparse.factor(Hm);
        ContactProblem blocks = new ContactProblem(60, sparse);
        int[] support = new int[2 * branches.maxDepth()];
        for (int c = 0; c < 10; c++) {
            int a = random.nextInt(dyn.bodyCount() + 1) - 1;
            int b = random.nextInt(dyn.bodyCount());
            int len = branches.union(a, b, support, 0);
            double[] values = new double[3 * len];
            for (int e = 0; e < values.length; e++) {
                values[e] = random.nextGaussian();
            }
            blocks.addCoulomb(0.5);
            sparse.addRows3(support, 0, len, values, 0, len, 2 * len);
            if (c % 3 == 0) { // a second contact on the same two bodies: one element of six rows
                for (int e = 0; e < values.length; e++) {
                    values[e] = random.nextGaussian();
                }
                blocks.addCoulomb(0.5);
                sparse.addRows3(support, 0, len, values, 0, len, 2 * len);
            }
        }
        sparse.addUnitRow(branches, random.nextInt(nv), -1);
        blocks.addUnilateral();
        double[] row = new double[nv];
        row[dyn.vIndex(model.bodyIndex("shin1"))] = 0.7;
        row[dyn.vIndex(model.bodyIndex("thigh2"))] = -1.3;
        sparse.addDenseRow(row, 0, branches);
        blocks.addBilateral();
        return blocks;
    }

    /**
     * Normwise backward error of x for (W_SS + σ I) x = r: ‖r − (W_SS + σ I) x‖∞ / (‖W_SS + σ I‖∞ ‖x‖∞ + ‖r‖∞),
     * the residual computed from the dense W.
     */
    private static double backwardError(double[] W, int m, int[] rowsOf, int a, double shift, double norm,
            double[] r, double[] x) {
        double res = 0, xs = 0, rs = 0;
        for (int i = 0; i < a; i++) {
            double v = r[i] - shift * x[i];
            for (int j = 0; j < a; j++) {
                v -= W[rowsOf[i] * m + rowsOf[j]] * x[j];
            }
            res = Math.max(res, Math.abs(v));
            xs = Math.max(xs, Math.abs(x[i]));
            rs = Math.max(rs, Math.abs(r[i]));
        }
        return res / (norm * xs + rs);
    }

    /** Per shift: the dense Cholesky's backward error, and the forward error against it divided by κ. */
    private static final double[] denseBackwardWorst = new double[SHIFTS.length];
    private static final double[] forward = new double[SHIFTS.length];

    /**
     * The largest normwise backward error ({@link #backwardError}) of the sparse solve over the shifts and
     * right-hand sides, for rows held by {@code sparse} and the problem's blocks, per shift into perShift (and the
     * dense solve's, and the forward error over κ, into the fields above); {@code mask} null for all rows.
     */
    private static double worstError(SparseDelassus sparse, ContactProblem blocks, SparseNormalMatrix normal,
            boolean[] mask, Random random, double[] perShift) {
        int m = sparse.rows();
        double[] W = new double[m * m];
        sparse.formDense(blocks, W);
        double wBar = 0;
        for (int i = 0; i < m; i++) {
            wBar = Math.max(wBar, W[i * m + i]);
        }
        normal.analyse(sparse);
        int[] rowsOf = new int[m];
        int a = 0;
        for (int i = 0; i < m; i++) {
            if (mask == null || mask[i]) {
                rowsOf[a++] = i;
            }
        }
        double worst = 0;
        for (int s = 0; s < SHIFTS.length; s++) {
            double shift = SHIFTS[s] * wBar;
            double[] dense = new double[a * a];
            for (int i = 0; i < a; i++) {
                for (int j = 0; j < a; j++) {
                    dense[i * a + j] = W[rowsOf[i] * m + rowsOf[j]] + (i == j ? shift : 0);
                }
            }
            assertEquals(-1, SmallSpd.factor(dense, a, false, 0));
            int slot = mask == null ? normal.factor(s, shift) : normal.factorRows(mask, shift);
            for (int trial = 0; trial < 3; trial++) {
                double[] r = new double[m];
                double[] rs = new double[a];
                for (int i = 0; i < a; i++) {
                    rs[i] = random.nextGaussian();
                    r[rowsOf[i]] = rs[i];
                }
                double[] expected = new double[a];
                SmallSpd.solve(dense, a, false, rs, expected);
                double[] lambda = new double[m];
                normal.solve(slot, r, lambda);
                double[] got = new double[a];
                double scale = 0, err = 0;
                for (int i = 0; i < a; i++) {
                    got[i] = lambda[rowsOf[i]];
                    scale = Math.max(scale, Math.abs(expected[i]));
                    err = Math.max(err, Math.abs(expected[i] - got[i]));
                }
                for (int i = 0; i < m; i++) {
                    if (mask != null && !mask[i]) {
                        assertEquals(0.0, lambda[i], "rows outside the subset stay 0");
                    }
                }
                // κ of W_SS + σ I is at most (‖W_SS‖∞ + σ) / σ: the forward error any backward-stable solve may have
                double norm = 0;
                for (int i = 0; i < a; i++) {
                    double row = shift;
                    for (int j = 0; j < a; j++) {
                        row += Math.abs(W[rowsOf[i] * m + rowsOf[j]]);
                    }
                    norm = Math.max(norm, row);
                }
                double backward = backwardError(W, m, rowsOf, a, shift, norm, rs, got);
                double denseBackward = backwardError(W, m, rowsOf, a, shift, norm, rs, expected);
                forward[s] = Math.max(forward[s], err / scale / (norm / shift));
                perShift[s] = Math.max(perShift[s], backward);
                denseBackwardWorst[s] = Math.max(denseBackwardWorst[s], denseBackward);
                worst = Math.max(worst, backward);
            }
        }
        return worst;
    }

    @Test
    void theWoodburySolveIsTheDenseSolveOnRandomTrees() {
        java.util.Arrays.fill(denseBackwardWorst, 0);
        java.util.Arrays.fill(forward, 0);
        Model model = SparseDelassusTest.tree();
        GenericDynamics dyn = new GenericDynamics(model);
        int nv = model.nv();
        double[] refined = new double[SHIFTS.length], plain = new double[SHIFTS.length];
        double[] subset = new double[SHIFTS.length];
        for (int refinements : new int[] {0, 1}) {
            Random random = new Random(7);
            for (int trial = 0; trial < 20; trial++) {
                SparseDelassus sparse = new SparseDelassus(dyn.dofParents(), 60, 60 * nv);
                ContactProblem blocks = randomRows(model, dyn, sparse, random);
                SparseNormalMatrix normal = new SparseNormalMatrix(nv, 60, 60 * nv, nv * nv);
                normal.refinements = refinements;
                worstError(sparse, blocks, normal, null, random, refinements == 1 ? refined : plain);
                if (refinements == 1) {
                    boolean[] mask = new boolean[sparse.rows()];
                    for (int k = 0; k < blocks.blockCount(); k++) {
                        boolean in = random.nextBoolean();
                        for (int r = blocks.blockStart(k); r < blocks.blockStart(k) + blocks.blockSize(k); r++) {
                            mask[r] = in;
                        }
                    }
                    worstError(sparse, blocks, normal, mask, random, subset);
                }
            }
        }
        System.out.println("[sparse normal] random trees, backward error per σ/w̄ " + java.util.Arrays.toString(
                SHIFTS) + ": Woodbury " + java.util.Arrays.toString(plain) + ", refined " + java.util.Arrays.toString(
                refined) + ", subset refined " + java.util.Arrays.toString(subset) + "; dense Cholesky "
                + java.util.Arrays.toString(denseBackwardWorst) + "; forward error / κ " + java.util.Arrays.toString(
                forward));
        for (int s = 0; s < SHIFTS.length; s++) {
            // refined once: backward stable, as the dense Cholesky is (a few ε = 1.1e-16); the subsets (polishing)
            // from σ = 1e-8 w̄ on, where ADMM polishes
            assertTrue(refined[s] < 1e-15, "σ = " + SHIFTS[s] + " w̄, refined: " + refined[s]);
            assertTrue(subset[s] < (SHIFTS[s] < 1e-8 ? 1e-13 : 1e-15), "σ = " + SHIFTS[s] + " w̄, subset: "
                    + subset[s]);
            assertTrue(forward[s] < 1e-14, "σ = " + SHIFTS[s] + " w̄, forward error over κ: " + forward[s]);
            // Woodbury alone: its backward error grows as σ shrinks, below 1e-15 from 1e-6 w̄ (ADMM's σ stays above
            // 7e-6 w̄), measured 1.8e-14 at 1e-10 w̄
            assertTrue(plain[s] < (SHIFTS[s] < 1e-6 ? 1e-13 : 1e-15), "σ = " + SHIFTS[s] + " w̄, Woodbury alone: "
                    + plain[s]);
        }
    }

    /** A pile of boxes on a floor and on each other (four-point faces: redundant rows), as the stepper poses it. */
    @Test
    void theWoodburySolveIsTheDenseSolveOnAPile() {
        TimeStepper stepper = pile(true);
        ContactProblem p = stepper.problem();
        SparseDelassus sparse = p.sparseDelassus();
        int nv = sparse.nv();
        assertTrue(p.contactCount() >= 16, "the boxes rest on their faces: " + p.contactCount());
        SparseNormalMatrix normal = new SparseNormalMatrix(nv, p.rows(), sparse.entryCapacity(), nv * nv);
        double[] plain = new double[SHIFTS.length], refined = new double[SHIFTS.length];
        java.util.Arrays.fill(forward, 0);
        worstError(sparse, p, normal, null, new Random(3), plain);
        normal.refinements = 1;
        worstError(sparse, p, normal, null, new Random(3), refined);
        System.out.println("[sparse normal] pile of 6 boxes, " + p.contactCount() + " contacts, " + normal.supernodes()
                + " supernodes, " + normal.nonZeros() + " non-zeros (nv² = " + nv * nv + "), backward error per σ/w̄ "
                + java.util.Arrays.toString(SHIFTS) + ": Woodbury " + java.util.Arrays.toString(plain) + ", refined "
                + java.util.Arrays.toString(refined) + ", forward error / κ " + java.util.Arrays.toString(forward));
        for (int s = 0; s < SHIFTS.length; s++) {
            assertTrue(refined[s] < 1e-15, "σ = " + SHIFTS[s] + " w̄, refined: " + refined[s]);
            assertTrue(plain[s] < (SHIFTS[s] < 1e-6 ? 1e-11 : 1e-15), "σ = " + SHIFTS[s] + " w̄, Woodbury alone: "
                    + plain[s]);
            assertTrue(forward[s] < 1e-14, "forward error over κ " + forward[s]);
        }
        assertEquals(6, normal.supernodes(), "a box's six dofs are one supernode");
    }

    /** Six boxes dropped on a floor, in two stacks, after 300 steps of 1 ms. */
    static TimeStepper pile(boolean sparse) {
        Model model = ShapeScenes.sixBoxPile("piles");
        double[] q = ShapeScenes.sixBoxPileStart();
        int n = q.length / 7;
        TimeStepper s = TimeStepper.builder(new GenericDynamics(model)).contacts(ContactSet.of(model))
                .sparseDelassus(sparse).build();
        double[] v = new double[6 * n], tau = new double[6 * n];
        for (int i = 0; i < 300; i++) {
            s.step(q, v, tau, 1e-3, q, v);
        }
        return s;
    }

    @Test
    void exceedingTheCapacityIsAClearError() {
        Model model = SparseDelassusTest.tree();
        GenericDynamics dyn = new GenericDynamics(model);
        int nv = model.nv();
        SparseDelassus sparse = new SparseDelassus(dyn.dofParents(), 60, 60 * nv);
        randomRows(model, dyn, sparse, new Random(1));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> new SparseNormalMatrix(nv, 60, 60 * nv, 20).analyse(sparse));
        assertTrue(e.getMessage().contains("capacity exceeded") && e.getMessage().contains("non-zeros")
                && e.getMessage().contains("capacity 20"), e.getMessage());
        IllegalStateException rows = assertThrows(IllegalStateException.class,
                () -> new SparseNormalMatrix(nv, 10, 60 * nv, nv * nv).analyse(sparse));
        assertTrue(rows.getMessage().contains("rows, capacity 10"), rows.getMessage());
    }
}
