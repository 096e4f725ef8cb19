package org.symdyn.solvers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
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

    /** Rows at the leaf of every unbranched chain: min(its dofs, 6) of them, at up to three points (3 + 2 + 1). */
    static ConstraintSet rowsOnEveryLimb(Model model) {
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
            int rows = Math.min(dofs, 6);
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

    private static double rel(double[] expected, double[] actual) {
        return TestMechanisms.maxDiff(expected, actual) / Math.max(1e-300, TestMechanisms.maxAbs(expected));
    }

    /**
     * v̇ and λ within 1e-12 relative of the dense KKT solution refined exactly, and of the Schur complement's answer
     * (limb elimination off) within 1e-12 plus that answer's own error; taken on most random states (not where a
     * limb is near a singular pose); the worst error printed per decade of the pivot ratio.
     */
    @Test
    void forwardDynamicsEqualsTheRefinedKkt() throws Exception {
        Random rnd = new Random(2026_12_04L);
        TreeMap<Integer, Double> worstByDecade = new TreeMap<>();
        StringBuilder report = new StringBuilder();
        for (Model model : robots()) {
            ConstraintData data = rowsOnEveryLimb(model).bindGeneric();
            int nv = data.nv();
            int m = data.size();
            ConstrainedDynamics fd = new ConstrainedDynamics(data);
            double[] vdot = new double[nv];
            double[] vdotSchur = new double[nv];
            int taken = 0;
            int states = 150;
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
                assertEquals(ratio > ConstrainedDynamics.LIMB_PIVOT_RATIO, solver.lastUsedLimbElimination(),
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
                double[] refVdot = java.util.Arrays.copyOf(ref, nv);
                double err = Math.max(rel(refVdot, vdot), rel(refLambda, data.force()));
                double errSchur = Math.max(rel(refVdot, vdotSchur), rel(refLambda, lambdaSchur));
                double diff = Math.max(rel(vdotSchur, vdot), rel(lambdaSchur, data.force()));
                String what = model.name() + " state " + n + " (pivot ratio " + ratio + ")";
                assertTrue(err <= 1e-12, what + " vs the refined KKT: " + err);
                assertTrue(diff <= 1e-12 + errSchur, what + " vs the Schur complement: " + diff);
                worstByDecade.merge((int) Math.floor(Math.log10(ratio)), err, Math::max);
            }
            report.append(String.format(" %s %d/%d;", model.name(), taken, states));
            assertTrue(taken >= states / 10, model.name() + ": the limb solve taken on " + taken + " of " + states);
        }
        System.out.println("limb-by-limb solves taken:" + report);
        worstByDecade.forEach((d, e) -> System.out.printf("  limb pivot ratio in [1e%d, 1e%d): worst relative %.2e%n",
                d, d + 1, e));
    }

    /**
     * The error against the refined KKT solution on every random state, whatever its pivot ratio (the solver called
     * directly): at most 5e-15 / ratio relative (3.3e-15 measured), so {@link ConstrainedDynamics#LIMB_PIVOT_RATIO}
     * (1e-2) keeps an answer taken within 5e-13; printed per decade of the ratio.
     */
    @Test
    void errorGrowsAsTheInverseOfThePivotRatio() throws Exception {
        Random rnd = new Random(11);
        TreeMap<Integer, Double> worstByDecade = new TreeMap<>();
        double worstScaled = 0;
        for (Model model : robots()) {
            ConstraintData data = rowsOnEveryLimb(model).bindGeneric();
            int nv = data.nv();
            int m = data.size();
            LimbElimination limbs = LimbElimination.forTree(data.dynamics().dofParents());
            double[] x = new double[nv];
            double[] y = new double[m];
            for (int n = 0; n < 150; n++) {
                double[] q = DynamicsPropertyTest.randomConfiguration(model, rnd);
                double[] v = TestMechanisms.random(nv, 2, rnd);
                double[] tau = TestMechanisms.random(nv, 10, rnd);
                data.computeSystem(q, v);
                double[] a = new double[nv];
                for (int i = 0; i < nv; i++) {
                    a[i] = tau[i] - data.C()[i];
                }
                double ratio = limbs.solve(data.H(), data.G(), a, false, data.gamma(), x, y);
                if (!(ratio > 1e-8)) {
                    continue;
                }
                double[] ref = FastPathTest.refinedKkt(data.H(), data.G(), a, data.gamma());
                double err = Math.max(rel(java.util.Arrays.copyOf(ref, nv), x),
                        rel(java.util.Arrays.copyOfRange(ref, nv, nv + m), y));
                worstScaled = Math.max(worstScaled, err * ratio);
                worstByDecade.merge((int) Math.floor(Math.log10(ratio)), err, Math::max);
            }
        }
        worstByDecade.forEach((d, e) -> System.out.printf("  limb pivot ratio in [1e%d, 1e%d): worst relative %.2e%n",
                d, d + 1, e));
        System.out.printf("limb-by-limb solve: worst error x pivot ratio %.2e%n", worstScaled);
        assertTrue(worstScaled <= 5e-15, "error x ratio " + worstScaled);
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
                double err = Math.max(rel(refV, vPlus), rel(java.util.Arrays.copyOfRange(ref, nv, nv + m),
                        data.impulse()));
                assertTrue(err <= 1e-12, model.name() + " impulse state " + n + ": " + err);
                worst = Math.max(worst, err);
            }
            assertTrue(taken >= 6, model.name() + ": taken on " + taken + " of 60");
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
        assertTrue(rel(java.util.Arrays.copyOf(ref, biped.nv()), vdot) <= 1e-12);
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
        }
        assertEquals(messages[1], messages[0]);
        assertNull(LimbElimination.forTree(new int[] {-1, 0, 1, 2}), "a serial chain is one block");
        assertNotNull(LimbElimination.forTree(new int[] {-1, -1}), "two chains from the world are two blocks");
    }

    /**
     * A leg nearly straight (its rows' block nearly singular at the knee, pivot ratio under
     * {@link ConstrainedDynamics#LIMB_PIVOT_RATIO}): the Schur complement answers, correctly.
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
        assertTrue(solver.lastLimbPivotRatio() < ConstrainedDynamics.LIMB_PIVOT_RATIO, "ratio "
                + solver.lastLimbPivotRatio());
        assertFalse(solver.lastUsedLimbElimination());
        double[] a = new double[nv];
        for (int i = 0; i < nv; i++) {
            a[i] = tau[i] - data.C()[i];
        }
        double[] ref = FastPathTest.refinedKkt(data.H(), data.G(), a, data.gamma());
        assertTrue(rel(java.util.Arrays.copyOf(ref, nv), vdot) <= 1e-10);
    }

    /** Forward dynamics and impulses through the limb solve allocate nothing after the first call. */
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
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 2000; i++) {
            fd.forwardDynamicsDirect(q, v, tau, out);
            impulses.solveDirect(q, v, out);
        }
        long bytes = threads.getCurrentThreadAllocatedBytes() - before;
        assertTrue(impulses.systemSolver().lastUsedLimbElimination());
        assertEquals(0, bytes, "bytes allocated by 2000 solves");
    }
}
