package org.symdyn.contact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.model.GroundModel;
import org.symdyn.model.Model;
import org.symdyn.model.SourceLocation;
import org.symdyn.testing.ShapeScenes;

/**
 * {@link ContactIslands}: the islands of a problem are the connected components of W's coupling; solved one by one
 * they give the answer of the whole problem (the same λ where it is unique, the same velocities σ = W λ + b where
 * redundant contacts leave λ free).
 */
class ContactIslandsTest {
    private static final double H = 1e-3;

    /** Two islands whose blocks interleave, plus a lone bilateral row; every island's W positive definite. */
    @Test
    void interleavedIslandsGiveTheSolutionOfTheWholeProblem() {
        Random random = new Random(31);
        // blocks: 0 Coulomb (A), 1 Coulomb (B), 2 unilateral (A), 3 bilateral (C), 4 Coulomb (B), 5 Coulomb (A)
        ContactProblem p = new ContactProblem(16);
        p.addCoulomb(0.6);
        p.addCoulomb(0.3);
        p.addUnilateral();
        p.addBilateral();
        p.addCoulomb(1.0);
        p.addCoulomb(0.8);
        int m = p.rows();
        int[] islandOfRow = new int[m];
        int[] blockIsland = {0, 1, 0, 2, 1, 0};
        for (int k = 0; k < p.blockCount(); k++) {
            for (int r = p.blockStart(k); r < p.blockStart(k) + p.blockSize(k); r++) {
                islandOfRow[r] = blockIsland[k];
            }
        }
        // W = J Jᵀ with each island's rows acting on their own 12 coordinates (more than its rows: definite)
        int dofs = 12;
        double[][] J = new double[m][3 * dofs];
        for (int r = 0; r < m; r++) {
            for (int j = 0; j < dofs; j++) {
                J[r][islandOfRow[r] * dofs + j] = random.nextGaussian();
            }
        }
        double[] W = p.delassus();
        double[] b = p.offset();
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < m; j++) {
                double s = 0;
                for (int c = 0; c < 3 * dofs; c++) {
                    s += J[i][c] * J[j][c];
                }
                W[i * m + j] = s;
            }
            b[i] = random.nextGaussian();
        }
        ContactIslands islands = new ContactIslands(16);
        assertEquals(3, islands.partition(p));
        for (int k = 0; k < p.blockCount(); k++) {
            assertEquals(blockIsland[k], islands.islandOf(k), "block " + k);
        }

        double[] whole = new double[m];
        ContactReport wholeReport = new ContactReport();
        assertTrue(new ProximalAdmm(16, 1e-13, 5000, 0.1, 1e-6).solve(p, whole, wholeReport), wholeReport.toString());
        double[] split = new double[m];
        ContactReport splitReport = new ContactReport();
        assertTrue(islands.solve(new ProximalAdmm(16, 1e-13, 5000, 0.1, 1e-6), p, split, splitReport),
                splitReport.toString());
        for (int r = 0; r < m; r++) {
            assertEquals(whole[r], split[r], 1e-10, "row " + r);
        }
        assertEquals(3, splitReport.islands());
        assertEquals(7, splitReport.largestIslandRows(), "island A: 3 + 1 + 3 rows, island B: 6, island C: 1");
        assertEquals(m, splitReport.rows());
        assertEquals(4, splitReport.contacts());
        // the split report measures what the whole problem's measure says of the same λ
        double[] sigma = new double[m];
        p.velocity(split, sigma);
        ContactReport measured = new ContactReport();
        assertEquals(p.measure(split, sigma, measured), splitReport.contactLawViolation(), 1e-15);
        assertEquals(measured.worstBlock(), splitReport.worstBlock());
    }

    @Test
    void separatePilesOfBoxesAreSolvedAsIslandsWithTheVelocitiesOfOneSolve() {
        ShapeScenes scenes = new ShapeScenes("piles");
        scenes.builder().addGround(new GroundModel("floor", new double[3], new double[] {0, 0, 1}, 0.8, 0,
                SourceLocation.UNKNOWN));
        // two piles of two boxes and a lone box, 1 m apart: three islands
        double[][] at = {{0, 0, 0.1}, {0, 0, 0.3}, {1, 0, 0.1}, {1, 0, 0.3}, {0, 1, 0.1}};
        int n = at.length;
        for (int i = 0; i < n; i++) {
            scenes.freeBox("box" + i, 1 + i, 0.1, 0.1, 0.1, 0.8);
        }
        Model model = scenes.build();
        double[] q = new double[7 * n];
        for (int i = 0; i < n; i++) {
            System.arraycopy(ShapeScenes.pose(at[i][0], at[i][1], at[i][2], 0), 0, q, 7 * i, 7);
        }
        double[] v = new double[6 * n];
        double[] tau = new double[6 * n];
        TimeStepper s = TimeStepper.builder(new GenericDynamics(model)).contacts(ContactSet.of(model)).islands(true)
                .build();
        for (int i = 0; i < 200; i++) {
            ContactReport r = s.step(q, v, tau, H, q, v);
            assertTrue(r.converged(), r.toString());
            assertEquals(3, r.islands(), r.toString());
            assertEquals(24, r.largestIslandRows(), "a pile: 4 floor and 4 box-box points, 3 rows each");
        }
        assertEquals(20, s.contactCount());

        // the last step's problem, solved whole and by islands from the same warm start: the same velocities
        ContactProblem p = s.problem();
        int m = p.rows();
        double[] warm = new double[m];
        double[] whole = warm.clone();
        double[] split = warm.clone();
        ContactReport wr = new ContactReport();
        ContactReport sr = new ContactReport();
        assertTrue(ContactSettings.defaults().newSolver(m).solve(p, whole, wr), wr.toString());
        assertTrue(new ContactIslands(m).solve(ContactSettings.defaults().newSolver(m), p, split, sr), sr.toString());
        double[] sw = new double[m];
        double[] ss = new double[m];
        p.velocity(whole, sw);
        p.velocity(split, ss);
        for (int r = 0; r < m; r++) {
            assertEquals(sw[r], ss[r], 1e-10, "velocity of row " + r);
        }
        assertEquals(3, sr.islands());
        assertEquals(0, wr.islands(), "a solver alone does not split");
    }
}
