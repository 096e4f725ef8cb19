package org.symdyn.solvers;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.junit.jupiter.api.Test;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.constraints.ConstraintSet;
import org.symdyn.constraints.TestMechanisms;
import org.symdyn.dynamics.DynamicsPropertyTest;
import org.symdyn.model.Model;
import org.symdyn.spatial.Pose;

/**
 * The limb-by-limb solve of the direct method ({@link LimbElimination}) on floating robots with rows added in code on
 * every limb (as many as the limb has dofs, up to six: a point's three, a second point's two, a third point's one):
 * against the dense KKT system refined exactly, on random states; used wherever it is well conditioned; the Schur
 * complement (and its rank report) wherever it does not apply or is not; impulses alike; no allocation.
 */
class LimbEliminationTest {
    /** The Schur path's rank floor, as the solver passes it with the rank check on. */
    private static final double FLOOR = ConstrainedSystemSolver.SCHUR_RANK_RATIO;
    private static final double[][] AXES = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    /**
     * The limbs' rows' directions: tilted off the world axes, so that a row also moves a leg whose joints all turn
     * about the world's y axis (the built-in biped's).
     */
    private static final double[][] NORMALS = {unit(1, 0.2, 0.3), unit(-0.2, 1, 0.4), unit(0.3, -0.4, 1)};

    /** The robots: the built-in biped and the shared floating robots (skipped with a message when absent). */
    private static List<Model> robots() throws Exception {
        List<Model> out = new ArrayList<>();
        out.add(TestMechanisms.floatingBiped());
        for (String file : new String[] {"solo12.urdf", "anymal.urdf", "hyq_no_sensors.urdf", "romeo_small.urdf"}) {
            out.add(DynamicsPropertyTest.model(file));
        }
        return out;
    }

    /** {@link #rowsOnEveryLimb(Model, int)} with up to six rows. */
    static ConstraintSet rowsOnEveryLimb(Model model) {
        return rowsOnEveryLimb(model, 6);
    }

    /**
     * Rows at the leaf of every unbranched chain: min(its dofs, most) of them, at up to three points (3 + 2 + 1).
     * With most = 1, one row per limb: it may barely move its limb (a normal along a straight leg) and still move the
     * trunk.
     */
    static ConstraintSet rowsOnEveryLimb(Model model, int most) {
        int nb = model.bodyCount();
        int[] children = new int[nb];
        for (int b = 0; b < nb; b++) {
            if (model.body(b).parentIndex() >= 0) {
                children[model.body(b).parentIndex()]++;
            }
        }
        ConstraintSet.Builder set = ConstraintSet.builder(model).withoutModelConstraints();
        for (int leaf = 0; leaf < nb; leaf++) {
            if (children[leaf] != 0) {
                continue;
            }
            int dofs = 0;
            for (int b = leaf; b >= 0 && children[b] <= 1 && model.body(b).joint().nv() < 6;
                    b = model.body(b).parentIndex()) {
                dofs += model.body(b).joint().nv();
            }
            int rows = Math.min(dofs, most);
            for (int r = 0; r < rows; r++) {
                int point = r < 3 ? 0 : r < 5 ? 1 : 2;
                double[] p = {0.02 + 0.1 * (point == 1 ? 1 : 0), -0.01 + 0.05 * (point == 2 ? 1 : 0), -0.03};
                set.addContact(leaf, p, NORMALS[r < 3 ? r : r < 5 ? r - 2 : 2]);
            }
        }
        return set.build();
    }

    private static double[] unit(double x, double y, double z) {
        double n = Math.sqrt(x * x + y * y + z * z);
        return new double[] {x / n, y / n, z / n};
    }

    /** One contact row per body, at the point, along world axis {@code axes[k]}. */
    private static ConstraintSet contacts(Model model, int[] bodies, double[] point, int... axes) {
        ConstraintSet.Builder set = ConstraintSet.builder(model).withoutModelConstraints();
        for (int k = 0; k < bodies.length; k++) {
            set.addContact(bodies[k], point, AXES[axes[k]]);
        }
        return set.build();
    }

    /**
     * A random positive definite H with the dof tree's sparsity: Lᵀ L for L lower triangular with L_ij ≠ 0 only where j
     * is i or an ancestor of i (Featherstone's factorisation fills nothing in, so its product has the tree's zeros).
     */
    private static DMatrixRMaj treeSparseH(int[] parents, Random rnd) {
        int n = parents.length;
        DMatrixRMaj l = new DMatrixRMaj(n, n);
        for (int i = 0; i < n; i++) {
            l.set(i, i, 1 + rnd.nextDouble());
            for (int j = parents[i]; j >= 0; j = parents[j]) {
                l.set(i, j, rnd.nextDouble() - 0.5);
            }
        }
        DMatrixRMaj h = new DMatrixRMaj(n, n);
        CommonOps_DDRM.multTransA(l, l, h);
        return h;
    }

    private static double rel(double[] expected, double[] actual) {
        return TestMechanisms.maxDiff(expected, actual) / Math.max(1e-300, TestMechanisms.maxAbs(expected));
    }

    /**
     * v̇ and λ within 1e-12 relative of the dense KKT solution refined exactly, and of the Schur complement's answer
     * (limb elimination off) within 1e-12 plus that answer's own error, with as many rows per limb as its dofs (up to
     * six) and with one; taken exactly where the pivot ratio is above the threshold, on half of all the random states
     * and on some of every set's but romeo_small's with as many rows as dofs on five limbs (an arm's six rows at
     * random angles are nearly dependent: 2 of 150 states passed the LDLᵀ pivots alone, none the rows' pivots were
     * each eliminated last); the share taken and the worst error per decade of the ratio printed.
     */
    @Test
    void forwardDynamicsEqualsTheRefinedKkt() throws Exception {
        Random rnd = new Random(2026_12_04L);
        TreeMap<Integer, Double> worstByDecade = new TreeMap<>();
        StringBuilder report = new StringBuilder();
        int takenAll = 0;
        int statesAll = 0;
        for (Model model : robots()) {
            for (int most : new int[] {6, 1}) {
                int states = 150;
                int taken = checkForwardDynamics(rowsOnEveryLimb(model, most).bindGeneric(), states, rnd,
                        worstByDecade);
                report.append(String.format(" %s (%s) %d/%d;", model.name(), most == 1 ? "a row per limb" : "rows",
                        taken, states));
                if (most == 1 || !model.name().startsWith("romeo")) {
                    assertTrue(taken > 0, model.name() + ": the limb solve never taken");
                }
                takenAll += taken;
                statesAll += states;
            }
        }
        assertTrue(takenAll >= statesAll / 2, "the limb solve taken on " + takenAll + " of " + statesAll);
        System.out.println("limb-by-limb solves taken:" + report);
        worstByDecade.forEach((d, e) -> System.out.printf("  limb pivot ratio in [1e%d, 1e%d): worst relative %.2e%n",
                d, d + 1, e));
    }

    /** {@link #forwardDynamicsEqualsTheRefinedKkt} on one bound set; returns the number of states it was taken on. */
    private static int checkForwardDynamics(ConstraintData data, int states, Random rnd,
            TreeMap<Integer, Double> worstByDecade) {
        Model model = data.set().model();
        int nv = data.nv();
        int m = data.size();
        ConstrainedDynamics fd = new ConstrainedDynamics(data);
        double[] vdot = new double[nv];
        double[] vdotSchur = new double[nv];
        int taken = 0;
        for (int n = 0; n < states; n++) {
            double[] q = DynamicsPropertyTest.randomConfiguration(model, rnd);
            double[] v = TestMechanisms.random(nv, 2, rnd);
            double[] tau = TestMechanisms.random(nv, 10, rnd);
            data.settings().limbElimination(false);
            fd.forwardDynamicsDirect(q, v, tau, vdotSchur);
            double[] lambdaSchur = data.force().clone();
            data.settings().limbElimination(true);
            fd.forwardDynamicsDirect(q, v, tau, vdot);
            ConstrainedSystemSolver solver = fd.systemSolver();
            double ratio = solver.lastLimbPivotRatio();
            assertFalse(Double.isNaN(ratio), model.name() + ": the limb solve did not apply");
            assertEquals(ratio > LimbElimination.ACCEPT_RATIO, solver.lastUsedLimbElimination(),
                    model.name() + " state " + n + " ratio " + ratio);
            if (!solver.lastUsedLimbElimination()) {
                continue;
            }
            taken++;
            assertEquals(m, solver.lastRank());
            assertTrue(Double.isNaN(solver.lastSchurPivotRatio()));
            double[] a = new double[nv];
            for (int i = 0; i < nv; i++) {
                a[i] = tau[i] - data.C()[i];
            }
            double[] ref = FastPathTest.refinedKkt(data.H(), data.G(), a, data.gamma());
            double[] refLambda = new double[m];
            for (int r = 0; r < m; r++) {
                refLambda[r] = -ref[nv + r];
            }
            double[] refVdot = Arrays.copyOf(ref, nv);
            double err = Math.max(rel(refVdot, vdot), rel(refLambda, data.force()));
            double errSchur = Math.max(rel(refVdot, vdotSchur), rel(refLambda, lambdaSchur));
            double diff = Math.max(rel(vdotSchur, vdot), rel(lambdaSchur, data.force()));
            String what = model.name() + " state " + n + " (pivot ratio " + ratio + ")";
            assertTrue(err <= 1e-12, what + " vs the refined KKT: " + err);
            assertTrue(diff <= 1e-12 + errSchur, what + " vs the Schur complement: " + diff);
            worstByDecade.merge((int) Math.floor(Math.log10(ratio)), err, Math::max);
        }
        return taken;
    }

    /**
     * Six rows on one 6-dof limb ordered so that K_l = J A⁻¹ Jᵀ = L D Lᵀ with every multiplier of L at -c and every
     * pivot after the first ρ of its diagonal entry (a review's Kahan-like rows): K_l's scaled condition number is
     * about 4e5 at c = 10, ρ = 0.1, and the answer 1e-11 off, while each Cholesky pivot over its row's entry read
     * 0.069 and was taken. The ratio of each row's pivot were it eliminated last declines it, and whatever it is,
     * error times ratio stays within the documented 1e-14.
     */
    @Test
    void illOrderedRowsOnOneLimbAreDeclined() {
        // dofs 0-5 a trunk (chain), 6-11 a limb of six, 12-13 a limb of two, both hanging from dof 5
        int[] parents = {-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 5, 12};
        int nv = parents.length, n = 6, m = 6;
        Random rnd = new Random(5);
        for (double c : new double[] {4, 10, 13}) {
            DMatrixRMaj h = treeSparseH(parents, rnd);
            DMatrixRMaj a = new DMatrixRMaj(n, n);
            CommonOps_DDRM.extract(h, 6, 12, 6, 12, a, 0, 0);
            DMatrixRMaj r = a.copy();
            assertTrue(org.ejml.dense.row.factory.DecompositionFactory_DDRM.chol(n, true).decompose(r));
            for (int i = 0; i < n; i++) {
                for (int j = i + 1; j < n; j++) {
                    r.set(i, j, 0);
                }
            }
            // K = F Fᵀ, F = L D^½: d_0 = 1, then each d_j = ρ / (1 - ρ) Σ_k<j c² d_k so that d_j = ρ K_jj
            double rho = 0.1;
            double[] d = new double[n];
            d[0] = 1;
            double sum = c * c * d[0];
            for (int j = 1; j < n; j++) {
                d[j] = rho / (1 - rho) * sum;
                sum += c * c * d[j];
            }
            DMatrixRMaj f = new DMatrixRMaj(n, n);
            for (int i = 0; i < n; i++) {
                for (int j = 0; j <= i; j++) {
                    f.set(i, j, (i == j ? 1 : -c) * Math.sqrt(d[j]));
                }
            }
            DMatrixRMaj jl = new DMatrixRMaj(m, n);
            CommonOps_DDRM.multTransB(f, r, jl); // J_l = F Rᵀ, so J_l A⁻¹ J_lᵀ = F Fᵀ
            DMatrixRMaj g = new DMatrixRMaj(m, nv);
            for (int i = 0; i < m; i++) {
                for (int k = 0; k < n; k++) {
                    g.set(i, 6 + k, jl.get(i, k));
                }
                for (int k = 0; k < 6; k++) {
                    g.set(i, k, 0.1 * (rnd.nextDouble() - 0.5));
                }
            }
            double[] force = TestMechanisms.random(nv, 10, rnd);
            double[] b = TestMechanisms.random(m, 1, rnd);
            double[] x = new double[nv];
            double[] y = new double[m];
            double ratio = LimbElimination.forTree(parents, m).solve(h, g, force, false, b, x, y, FLOOR);
            double[] ref = FastPathTest.refinedKkt(h, g, force, b);
            double err = Math.max(rel(Arrays.copyOf(ref, nv), x), rel(Arrays.copyOfRange(ref, nv, nv + m), y));
            String what = "c " + c + ": ratio " + ratio + ", error " + err;
            assertTrue(ratio < LimbElimination.ACCEPT_RATIO, what);
            assertTrue(err * ratio <= 1e-14, what);
        }
    }

    /**
     * The error against the refined KKT solution on every random state (the solver called directly, whatever its
     * ratio), with as many rows per limb as dofs and with one: at most 1e-14 / ratio relative (5.5e-15 measured over
     * 999 solves), so {@link LimbElimination#ACCEPT_RATIO} (0.05) keeps an answer taken within 2e-13; printed
     * per decade.
     */
    @Test
    void errorGrowsAsTheInverseOfThePivotRatio() throws Exception {
        Random rnd = new Random(11);
        TreeMap<Integer, Double> worstByDecade = new TreeMap<>();
        double worstScaled = 0;
        int solves = 0;
        for (Model model : robots()) {
            for (int most : new int[] {6, 1}) {
                ConstraintData data = rowsOnEveryLimb(model, most).bindGeneric();
                int nv = data.nv();
                int m = data.size();
                LimbElimination limbs = LimbElimination.forTree(data.dynamics().dofParents(), m);
                double[] x = new double[nv];
                double[] y = new double[m];
                for (int n = 0; n < 100; n++) {
                    double[] q = DynamicsPropertyTest.randomConfiguration(model, rnd);
                    double[] v = TestMechanisms.random(nv, 2, rnd);
                    double[] tau = TestMechanisms.random(nv, 10, rnd);
                    data.computeSystem(q, v);
                    double[] a = new double[nv];
                    for (int i = 0; i < nv; i++) {
                        a[i] = tau[i] - data.C()[i];
                    }
                    double ratio = limbs.solve(data.H(), data.G(), a, false, data.gamma(), x, y, FLOOR);
                    if (!(ratio > 1e-8)) {
                        continue;
                    }
                    double[] ref = FastPathTest.refinedKkt(data.H(), data.G(), a, data.gamma());
                    double err = Math.max(rel(Arrays.copyOf(ref, nv), x), rel(Arrays.copyOfRange(ref, nv, nv + m),
                            y));
                    worstScaled = Math.max(worstScaled, err * ratio);
                    worstByDecade.merge((int) Math.floor(Math.log10(ratio)), err, Math::max);
                    solves++;
                }
            }
        }
        worstByDecade.forEach((d, e) -> System.out.printf("  limb pivot ratio in [1e%d, 1e%d): worst relative %.2e%n",
                d, d + 1, e));
        System.out.printf("limb-by-limb solve (%d solves): worst error x pivot ratio %.2e%n", solves, worstScaled);
        assertTrue(solves >= 500, "solves with a ratio above 1e-8: " + solves);
        assertTrue(worstScaled <= 1e-14, "error x ratio " + worstScaled);
    }

    /**
     * The cases a limb's own pivots do not see (a synthetic tree-sparse H: a 2-dof trunk, two 2-dof limbs, one row on
     * each): rows whose limb entries shrink by σ while their trunk entries stay (the ratio falls as σ², and the error
     * of an answer stays within 1e-14 / ratio), and two rows equal on the trunk, tiny on their limbs (nearly
     * dependent through the trunk: the ratio falls below the threshold, so the rank check is the Schur path's).
     */
    @Test
    void rowsCoupledThroughTheTrunkLowerTheRatio() {
        int[] parents = {-1, 0, 1, 2, 1, 4};
        LimbElimination limbs = LimbElimination.forTree(parents, 2);
        assertArrayEquals(new int[] {0, 1}, limbs.trunkDofs());
        Random rnd = new Random(6);
        DMatrixRMaj h = treeSparseH(parents, rnd);
        double[] a = TestMechanisms.random(6, 1, rnd);
        double[] b = TestMechanisms.random(2, 1, rnd);
        double[] x = new double[6];
        double[] y = new double[2];
        double previous = 2;
        for (double sigma : new double[] {1, 1e-2, 1e-4, 1e-6}) {
            DMatrixRMaj g = new DMatrixRMaj(new double[][] {{0.7, -0.4, sigma, 0.5 * sigma, 0, 0},
                {0.2, 0.9, 0, 0, -0.8 * sigma, sigma}});
            double ratio = limbs.solve(h, g, a, false, b, x, y, FLOOR);
            assertTrue(ratio < previous && ratio < 2 * sigma * sigma, "σ " + sigma + ": ratio " + ratio);
            previous = ratio;
            if (ratio == 0) {
                continue;
            }
            double[] ref = FastPathTest.refinedKkt(h, g, a, b);
            double err = Math.max(rel(Arrays.copyOf(ref, 6), x), rel(Arrays.copyOfRange(ref, 6, 8), y));
            assertTrue(err * ratio <= 1e-14, "σ " + sigma + ": error " + err + " at ratio " + ratio);
        }
        for (double sigma : new double[] {1e-11, 5e-11}) {
            DMatrixRMaj g = new DMatrixRMaj(new double[][] {{0.7, -0.4, sigma, 0.5 * sigma, 0, 0},
                {0.7, -0.4, 0, 0, -0.8 * sigma, sigma}});
            double ratio = limbs.solve(h, g, a, false, b, x, y, FLOOR);
            assertTrue(ratio < 1e-18, "σ " + sigma + ": ratio " + ratio);
        }
    }

    /** Impulses (a = H v⁻): v⁺ and Λ within 1e-12 relative of the refined KKT solution. */
    @Test
    void impulsesEqualTheRefinedKkt() throws Exception {
        Random rnd = new Random(4);
        double worst = 0;
        StringBuilder report = new StringBuilder();
        for (Model model : robots()) {
            ConstraintData data = rowsOnEveryLimb(model).bindGeneric();
            int nv = data.nv();
            int m = data.size();
            ImpulseSolver impulses = new ImpulseSolver(data);
            double[] vPlus = new double[nv];
            int taken = 0;
            for (int n = 0; n < 60; n++) {
                double[] q = DynamicsPropertyTest.randomConfiguration(model, rnd);
                double[] vMinus = TestMechanisms.random(nv, 2, rnd);
                for (int r = 0; r < m; r++) {
                    data.impulseTarget()[r] = n % 2 == 0 ? rnd.nextDouble() - 0.5 : 0;
                }
                impulses.solveDirect(q, vMinus, vPlus);
                if (!impulses.systemSolver().lastUsedLimbElimination()) {
                    continue;
                }
                taken++;
                double[] gv = TestMechanisms.mult(data.G(), vMinus);
                double[] b = new double[m];
                for (int r = 0; r < m; r++) {
                    b[r] = data.impulseTarget()[r] - gv[r];
                }
                double[] ref = FastPathTest.refinedKkt(data.H(), data.G(), new double[nv], b);
                double[] refV = new double[nv];
                for (int i = 0; i < nv; i++) {
                    refV[i] = vMinus[i] + ref[i];
                }
                double err = Math.max(rel(refV, vPlus), rel(Arrays.copyOfRange(ref, nv, nv + m),
                        data.impulse()));
                assertTrue(err <= 1e-12, model.name() + " impulse state " + n + ": " + err);
                worst = Math.max(worst, err);
            }
            assertTrue(taken > 0 || model.name().startsWith("romeo"), model.name() + ": never taken");
            report.append(String.format(" %s %d/60;", model.name(), taken));
        }
        System.out.printf("limb-by-limb impulses: worst relative %.2e; taken:%s%n", worst, report);
    }

    /**
     * Where it does not apply the Schur complement answers: a row on the trunk alone, a row between two limbs, more
     * rows on a limb than its dofs (dependent: reported by name as before), and a serial chain (no solver at all).
     */
    @Test
    void otherRowsGoToTheSchurComplement() throws Exception {
        Model biped = TestMechanisms.floatingBiped();
        Random rnd = new Random(9);
        double[] q = TestMechanisms.randomQ(biped, rnd);
        double[] v = TestMechanisms.random(biped.nv(), 1, rnd);
        double[] tau = TestMechanisms.random(biped.nv(), 5, rnd);
        double[] vdot = new double[biped.nv()];
        double[] foot = {0, 0, -0.3};
        ConstraintSet.Builder trunkRow = ConstraintSet.builder(biped).withoutModelConstraints();
        trunkRow.addContact(2, foot, AXES[0]);
        trunkRow.addContact(0, new double[] {0.1, 0, 0}, AXES[2]);
        ConstraintSet onTrunk = trunkRow.build();
        ConstraintSet.Builder loop = ConstraintSet.builder(biped).withoutModelConstraints();
        loop.addLoop(2, Pose.translation(0, 0, -0.3), 4, Pose.translation(0, 0, -0.3), new double[] {0, 0, 0, 1, 0, 0});
        ConstraintSet twoLimbs = loop.build();
        for (ConstraintSet set : new ConstraintSet[] {onTrunk, twoLimbs}) {
            ConstraintData data = set.bindGeneric();
            ConstrainedDynamics fd = new ConstrainedDynamics(data);
            fd.forwardDynamicsDirect(q, v, tau, vdot);
            assertFalse(fd.systemSolver().lastUsedLimbElimination());
            assertTrue(Double.isNaN(fd.systemSolver().lastLimbPivotRatio()));
            assertTrue(fd.systemSolver().lastSchurPivotRatio() > 0);
        }
        // Three rows at a foot of a two-dof leg: more rows than the leg's dofs (independent through the trunk).
        ConstraintData three = contacts(biped, new int[] {2, 2, 2}, foot, 0, 1, 2).bindGeneric();
        ConstrainedDynamics threeFd = new ConstrainedDynamics(three);
        threeFd.forwardDynamicsDirect(q, v, tau, vdot);
        assertFalse(threeFd.systemSolver().lastUsedLimbElimination());
        assertTrue(Double.isNaN(threeFd.systemSolver().lastLimbPivotRatio()));
        double[] a = new double[biped.nv()];
        for (int i = 0; i < a.length; i++) {
            a[i] = tau[i] - three.C()[i];
        }
        double[] ref = FastPathTest.refinedKkt(three.H(), three.G(), a, three.gamma());
        assertTrue(rel(Arrays.copyOf(ref, biped.nv()), vdot) <= 1e-12);
        String[] messages = new String[2];
        // Two equal rows on one leg (no more than its dofs): K_l is singular, and the rank report is the same as the
        // Schur complement's.
        ConstraintSet twice = contacts(biped, new int[] {2, 2}, foot, 0, 0);
        for (int k = 0; k < 2; k++) {
            ConstraintData data = twice.bindGeneric();
            data.settings().limbElimination(k == 0);
            ConstrainedDynamics fd = new ConstrainedDynamics(data);
            messages[k] = assertThrows(ConstraintRankException.class, () -> fd.forwardDynamicsDirect(q, v, tau,
                    vdot)).getMessage();
            if (k == 0) {
                assertEquals(0, fd.systemSolver().lastLimbPivotRatio(), "the limb solve ran and declined");
            }
        }
        assertEquals(messages[1], messages[0]);
    }

    /**
     * The partition of the dof tree: romeo_small's (a floating base, two 6-dof legs, a torso joint above a 4-dof head
     * chain and two 7-dof arms), two chains from the world (no trunk), and a serial chain (one block: none).
     */
    @Test
    void theTreeSplitsIntoTrunkAndLimbs() {
        int[] romeo = {-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 5, 12, 13, 14, 15, 16, 5, 18, 19, 20, 21, 18, 23, 24, 25,
            26, 27, 28, 18, 30, 31, 32, 33, 34, 35};
        LimbElimination limbs = LimbElimination.forTree(romeo, 12);
        assertArrayEquals(new int[] {0, 1, 2, 3, 4, 5, 18}, limbs.trunkDofs());
        int[][] expected = {{6, 7, 8, 9, 10, 11}, {12, 13, 14, 15, 16, 17}, {19, 20, 21, 22},
            {23, 24, 25, 26, 27, 28, 29}, {30, 31, 32, 33, 34, 35, 36}};
        assertEquals(expected.length, limbs.limbs().length);
        for (int l = 0; l < expected.length; l++) {
            assertArrayEquals(expected[l], limbs.limbs()[l], "limb " + l);
        }
        LimbElimination fromWorld = LimbElimination.forTree(new int[] {-1, 0, -1, 2, 3}, 2);
        assertEquals(0, fromWorld.trunkDofs().length);
        assertArrayEquals(new int[] {2, 3, 4}, fromWorld.limbs()[1]);
        assertNull(LimbElimination.forTree(new int[] {-1, 0, 1, 2}, 2), "a serial chain is one block");
    }

    /**
     * No trunk (two arms from the world, a row at each hand) on a synthetic tree-sparse H: the answer is the refined
     * KKT solution's, each limb solved alone; and an impulse that stops nearly all of the motion (v⁻ mostly along
     * H⁻¹ Gᵀ, so v⁺ is a thousandth of it) within 1e-12 of v⁺'s own size.
     */
    @Test
    void limbsFromTheWorldAndAnImpulseThatStopsTheMotion() {
        int[] parents = {-1, 0, -1, 2, 3};
        LimbElimination limbs = LimbElimination.forTree(parents, 2);
        Random rnd = new Random(8);
        DMatrixRMaj h = treeSparseH(parents, rnd);
        DMatrixRMaj g = new DMatrixRMaj(new double[][] {{0.3, -1.1, 0, 0, 0}, {0, 0, 0.4, 0.9, -0.6}});
        double[] a = TestMechanisms.random(5, 1, rnd);
        double[] b = TestMechanisms.random(2, 1, rnd);
        double[] x = new double[5];
        double[] y = new double[2];
        assertTrue(limbs.solve(h, g, a, false, b, x, y, FLOOR) > LimbElimination.ACCEPT_RATIO);
        double[] ref = FastPathTest.refinedKkt(h, g, a, b);
        assertTrue(rel(Arrays.copyOf(ref, 5), x) <= 1e-14 && rel(Arrays.copyOfRange(ref, 5, 7), y) <= 1e-14);
        // v⁻ = v_f + H⁻¹ Gᵀ μ with G v_f = 0: v⁺ = v_f for the target 0 (H⁻¹ Gᵀ μ is H-orthogonal to G's null space).
        double[] vFree = {0, 1.1e-3, 0.3e-3, 0.6e-3, 0.5e-3};
        vFree[0] = 1.1 * vFree[1] / 0.3;
        vFree[4] = (0.4 * vFree[2] + 0.9 * vFree[3]) / 0.6;
        double[] kick = SolverTestSupport.solve(h, TestMechanisms.multTrans(g, new double[] {0.8, -1.3}));
        double[] vMinus = new double[5];
        for (int i = 0; i < 5; i++) {
            vMinus[i] = vFree[i] + kick[i];
        }
        double ratio = limbs.solve(h, g, vMinus, true, new double[2], x, y, FLOOR);
        assertTrue(ratio > LimbElimination.ACCEPT_RATIO);
        double err = rel(vFree, x);
        System.out.printf("an impulse that stops the motion: v⁺ relative error %.2e (|v⁺| / |v⁻| %.1e)%n", err,
                TestMechanisms.maxAbs(vFree) / TestMechanisms.maxAbs(vMinus));
        assertTrue(err <= 1e-12, "v⁺ " + err);
    }

    /**
     * What the ratio cannot see (from the second review): a row of roundoff alone (its ratio is 1: it is invariant to
     * the row's scale) fails the Schur path's rank floor, so the rank check decides; and an infinite diagonal entry
     * of H, which a Cholesky factor would pass with an infinite pivot, is declined before it factorises.
     */
    @Test
    void tinyRowsAndInfiniteInertiasAreDeclined() {
        int[] parents = {-1, 0, -1, 2, 3};
        LimbElimination limbs = LimbElimination.forTree(parents, 2);
        DMatrixRMaj h = treeSparseH(parents, new Random(12));
        double[] a = {0.3, -0.2, 0.5, 0.1, -0.4};
        double[] b = {0.2, -0.1};
        double[] x = new double[5];
        double[] y = new double[2];
        for (double s : new double[] {1e-12, 1e-17}) {
            DMatrixRMaj g = new DMatrixRMaj(new double[][] {{0.3 * s, -1.1 * s, 0, 0, 0}, {0, 0, 0.4, 0.9, -0.6}});
            assertEquals(0, limbs.solve(h, g, a, false, b, x, y, FLOOR), "a row of scale " + s);
        }
        DMatrixRMaj g = new DMatrixRMaj(new double[][] {{0.3, -1.1, 0, 0, 0}, {0, 0, 0.4, 0.9, -0.6}});
        assertTrue(limbs.solve(h, g, a, false, b, x, y, FLOOR) > LimbElimination.ACCEPT_RATIO);
        for (int d : new int[] {0, 3}) {
            DMatrixRMaj infinite = h.copy();
            infinite.set(d, d, Double.POSITIVE_INFINITY);
            assertEquals(LimbElimination.NOT_APPLICABLE, limbs.solve(infinite, g, a, false, b, x, y, FLOOR),
                    "H[" + d + "][" + d + "] infinite");
        }
    }

    /**
     * A leg nearly straight (its rows' block nearly singular at the knee, pivot ratio under
     * {@link LimbElimination#ACCEPT_RATIO}): the Schur complement answers, correctly.
     */
    @Test
    void aStraightLegIsLeftToTheSchurComplement() throws Exception {
        Model biped = TestMechanisms.floatingBiped();
        double[] foot = {0, 0, -0.3};
        ConstraintData data = contacts(biped, new int[] {2, 2, 4}, foot, 0, 2, 0).bindGeneric();
        double[] q = biped.neutralConfiguration();
        int nv = data.nv();
        double[] tau = TestMechanisms.random(nv, 5, new Random(3));
        double[] vdot = new double[nv];
        ConstrainedDynamics fd = new ConstrainedDynamics(data);
        q[biped.body(2).joint().qIndex()] = 1e-3;
        fd.forwardDynamicsDirect(q, new double[nv], tau, vdot);
        ConstrainedSystemSolver solver = fd.systemSolver();
        assertTrue(solver.lastLimbPivotRatio() < LimbElimination.ACCEPT_RATIO, "ratio "
                + solver.lastLimbPivotRatio());
        assertFalse(solver.lastUsedLimbElimination());
        double[] a = new double[nv];
        for (int i = 0; i < nv; i++) {
            a[i] = tau[i] - data.C()[i];
        }
        double[] ref = FastPathTest.refinedKkt(data.H(), data.G(), a, data.gamma());
        assertTrue(rel(Arrays.copyOf(ref, nv), vdot) <= 1e-10);
    }

    /**
     * Forward dynamics and impulses through the limb solve allocate nothing once warm: the last of three rounds of
     * 2000 calls (the first round measured 800 B in all, once, while the JIT compiled).
     */
    @Test
    void allocatesNothing() throws Exception {
        Model model = TestMechanisms.floatingBiped();
        ConstraintData data = contacts(model, new int[] {2, 2, 4, 4}, new double[] {0, 0, -0.3}, 0, 2, 0, 2)
                .bindGeneric();
        ConstrainedDynamics fd = new ConstrainedDynamics(data);
        ImpulseSolver impulses = new ImpulseSolver(data);
        Random rnd = new Random(5);
        double[] q = model.neutralConfiguration();
        for (int leg : new int[] {1, 3}) {
            q[model.body(leg).joint().qIndex()] = -0.5;
            q[model.body(leg + 1).joint().qIndex()] = 1.0;
        }
        double[] v = TestMechanisms.random(model.nv(), 1, rnd);
        double[] tau = TestMechanisms.random(model.nv(), 5, rnd);
        double[] out = new double[model.nv()];
        fd.forwardDynamicsDirect(q, v, tau, out);
        impulses.solveDirect(q, v, out);
        assertTrue(fd.systemSolver().lastUsedLimbElimination(), "pivot ratio " + fd.systemSolver()
                .lastLimbPivotRatio());
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long bytes = 0;
        for (int round = 0; round < 3; round++) {
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 2000; i++) {
                fd.forwardDynamicsDirect(q, v, tau, out);
                impulses.solveDirect(q, v, out);
            }
            bytes = threads.getCurrentThreadAllocatedBytes() - before;
        }
        assertTrue(impulses.systemSolver().lastUsedLimbElimination());
        assertEquals(0, bytes, "bytes allocated by the last 2000 solves");
    }
}
