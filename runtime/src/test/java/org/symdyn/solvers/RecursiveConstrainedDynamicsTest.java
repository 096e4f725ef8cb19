package org.symdyn.solvers;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.junit.jupiter.api.Test;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.constraints.ConstraintSet;
import org.symdyn.constraints.SolverSettings.RankPolicy;
import org.symdyn.constraints.TestMechanisms;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.model.Model;

/**
 * The recursive method ({@link RecursiveConstrainedDynamics}: K = G H⁻¹ Gᵀ from the articulated-body inertias, no H)
 * against an exact reference (the dense KKT system refined in exact arithmetic) and the Schur-complement fast path,
 * on random states of every test mechanism of {@link FastPathTest} (floating and multi-dof joints, branches, loops,
 * contacts, couplers, Baumgarte terms); K itself against G H⁻¹ Gᵀ formed densely; dependent rows reported and dropped
 * as by the other methods; impulses; no allocation.
 */
class RecursiveConstrainedDynamicsTest {
    private static final double TOL = 1e-12;

    private static double rel(double[] expected, double[] actual) {
        return TestMechanisms.maxDiff(expected, actual) / Math.max(1e-300, TestMechanisms.maxAbs(expected));
    }

    @Test
    void forwardDynamicsEqualsTheExactKktSolutionAndTheSchurComplement() throws Exception {
        Random rnd = new Random(4242);
        double worstRef = 0;
        double worstSchur = 0;
        double worstK = 0;
        int solves = 0;
        for (ConstraintData set : FastPathTest.sets()) {
            Model model = set.set().model();
            int nv = set.nv();
            int m = set.size();
            ConstrainedDynamics fd = new ConstrainedDynamics(set);
            RecursiveConstrainedDynamics recursive = fd.recursiveMethod();
            assertNotNull(recursive, model.name());
            double[] vdot = new double[nv];
            double[] vdotSchur = new double[nv];
            for (int n = 0; n < 200; n++) {
                double[] q = TestMechanisms.randomQ(model, rnd);
                double[] v = TestMechanisms.random(nv, 2, rnd);
                double[] tau = TestMechanisms.random(nv, 10, rnd);
                if (n % 7 == 3) {
                    set.enableBaumgarte(n % set.set().groupCount());
                }
                fd.forwardDynamicsDirect(q, v, tau, vdotSchur);
                double[] lambdaSchur = set.force().clone();
                fd.forwardDynamicsRecursive(q, v, tau, vdot);
                double[] lambda = set.force().clone();
                assertFalse(recursive.lastFellBack(), model.name() + " state " + n + " fell back");
                assertEquals(m, recursive.lastRank());
                // The data's G and γ workspaces double as the model rows' outputs of G and γ evaluated alone (the
                // recursive method's calls): the reference recomputes them all at this state.
                set.computeSystem(q, v);
                double[] a = new double[nv];
                for (int i = 0; i < nv; i++) {
                    a[i] = tau[i] - set.C()[i];
                }
                double[] ref = FastPathTest.refinedKkt(set.H(), set.G(), a, set.gamma());
                double[] refVdot = java.util.Arrays.copyOf(ref, nv);
                double[] refLambda = new double[m];
                for (int r = 0; r < m; r++) {
                    refLambda[r] = -ref[nv + r];
                }
                String what = model.name() + " state " + n;
                double err = Math.max(rel(refVdot, vdot), rel(refLambda, lambda));
                double schur = Math.max(rel(vdotSchur, vdot), rel(lambdaSchur, lambda));
                assertTrue(err <= TOL, what + " vs exact KKT: " + err);
                assertTrue(schur <= TOL, what + " vs Schur complement: " + schur);
                double k = rel(denseDelassus(set.H(), set.G()).data, recursive.delassusMatrix().data);
                assertTrue(k <= TOL, what + " K vs G H⁻¹ Gᵀ: " + k);
                worstRef = Math.max(worstRef, err);
                worstSchur = Math.max(worstSchur, schur);
                worstK = Math.max(worstK, k);
                solves++;
                for (int g = 0; g < set.set().groupCount(); g++) {
                    set.disableBaumgarte(g);
                }
            }
        }
        assertEquals(1200, solves);
        System.out.printf("recursive constrained FD (%d solves), worst relative: vs exact %.2e, vs Schur complement"
                + " %.2e, K vs dense G H⁻¹ Gᵀ %.2e%n", solves, worstRef, worstSchur, worstK);
    }

    @Test
    void impulsesEqualTheExactKktSolution() throws Exception {
        Random rnd = new Random(99);
        double worst = 0;
        for (ConstraintData set : FastPathTest.sets()) {
            Model model = set.set().model();
            int nv = set.nv();
            int m = set.size();
            ImpulseSolver solver = new ImpulseSolver(set);
            assertNotNull(solver.recursiveMethod());
            double[] vPlus = new double[nv];
            for (int n = 0; n < 100; n++) {
                double[] q = TestMechanisms.randomQ(model, rnd);
                double[] vMinus = TestMechanisms.random(nv, 2, rnd);
                double[] target = n % 2 == 0 ? new double[m] : TestMechanisms.random(m, 1, rnd);
                System.arraycopy(target, 0, set.impulseTarget(), 0, m);
                solver.solveRecursive(q, vMinus, vPlus);
                double[] impulse = set.impulse().clone();
                set.computeImpulseSystem(q);
                double[] hv = TestMechanisms.mult(set.H(), vMinus);
                double[] ref = FastPathTest.refinedKkt(set.H(), set.G(), hv, target);
                double[] refV = java.util.Arrays.copyOf(ref, nv);
                double[] refImpulse = java.util.Arrays.copyOfRange(ref, nv, nv + m);
                // v⁺ can be much smaller than v⁻ (the impact stops most of the motion): measure against v⁻.
                double ev = TestMechanisms.maxDiff(refV, vPlus) / Math.max(TestMechanisms.maxAbs(vMinus),
                        TestMechanisms.maxAbs(refV));
                double e = Math.max(ev, rel(refImpulse, impulse));
                assertTrue(e <= TOL, model.name() + " state " + n + ": " + e);
                worst = Math.max(worst, e);
            }
        }
        System.out.printf("recursive impulses, worst relative vs exact %.2e%n", worst);
    }

    /** Dependent rows: the same exception as the rank-revealing path, and with the drop policy the same answer. */
    @Test
    void dependentRowsAreReportedAndDroppedAsByTheOtherMethods() throws Exception {
        double[] q = FastPathTest.DEPENDENT_Q;
        double[] v = FastPathTest.DEPENDENT_V;
        double[] tau = FastPathTest.DEPENDENT_TAU;
        for (Model model : FastPathTest.dependentFourBars()) {
            ConstraintData set = ConstraintSet.of(model).bindGeneric();
            ConstrainedDynamics fd = new ConstrainedDynamics(set);
            ConstraintRankException direct = assertThrows(ConstraintRankException.class,
                    () -> fd.forwardDynamicsDirect(q, v, tau, new double[3]));
            ConstraintRankException recursive = assertThrows(ConstraintRankException.class,
                    () -> fd.forwardDynamicsRecursive(q, v, tau, new double[3]));
            assertTrue(fd.recursiveMethod().lastFellBack());
            assertEquals(direct.getMessage(), recursive.getMessage());
            assertEquals(direct.kind(), recursive.kind());
            assertEquals(direct.involvedRows(), recursive.involvedRows());
        }
        ConstraintData set = ConstraintSet.of(FastPathTest.dependentFourBars().get(0)).bindGeneric();
        set.settings().rankPolicy(RankPolicy.DROP_DEPENDENT_ROWS);
        ConstrainedDynamics fd = new ConstrainedDynamics(set);
        Random rnd = new Random(5);
        double[] a = new double[3];
        double[] b = new double[3];
        for (int n = 0; n < 20; n++) {
            double[] qn = TestMechanisms.randomQ(set.set().model(), rnd);
            double[] vn = TestMechanisms.random(3, 1, rnd);
            double[] tn = TestMechanisms.random(3, 5, rnd);
            fd.forwardDynamicsDirect(qn, vn, tn, a);
            double[] la = set.force().clone();
            fd.forwardDynamicsRecursive(qn, vn, tn, b);
            assertTrue(fd.recursiveMethod().lastRank() < set.size());
            assertTrue(rel(a, b) <= 1e-10, "v̇ " + rel(a, b));
            assertTrue(rel(la, set.force()) <= 1e-10, "λ " + rel(la, set.force()));
        }
    }

    /**
     * Nearly dependent rows, K solved on the rank-revealing path (a Cholesky pivot of K below 1e-8 of its largest
     * diagonal entry, or the structure not exploited): the answer is refined there too. The four-bar's three links
     * without their loop, the rocker's tip held along x and y, the chain almost stretched (relative angles d and
     * -0.6 d: the x row shrinks like d, K's condition number grows like 1/d²). Unrefined, v̇ and λ were 6.2e-9
     * (d = 3e-5) and 8.9e-8 (d = 1e-5) from the exact solution, impulses likewise; refined, 3.9e-12 and 5.0e-12
     * (impulses 1.3e-12 and 1.3e-11). The bound 1e-10 sits between. The direct and range-space methods on that path
     * are refined too ({@code DirectMethod}, {@code RangeSpaceMethod}; the direct method's LU was 6.5e-9 and 4.2e-8
     * off unrefined) and held to the same bound.
     */
    @Test
    void theRankRevealingPathIsRefined() throws Exception {
        ConstraintSet.Builder b = ConstraintSet.builder(TestMechanisms.fourBar()).withoutModelConstraints();
        b.addContact(2, new double[] {1.5, 0, 0}, new double[] {1, 0, 0});
        b.addContact(2, new double[] {1.5, 0, 0}, new double[] {0, 1, 0});
        ConstraintData set = b.build().bindGeneric();
        ConstrainedDynamics fd = new ConstrainedDynamics(set);
        ImpulseSolver impulses = new ImpulseSolver(set);
        double[] v = {0.9, -1.2, -0.5};
        double[] tau = {0.4, -0.7, 4.9};
        double[] out = new double[3];
        for (boolean exploit : new boolean[] {true, false}) {
            set.settings().exploitStructure(exploit);
            for (double d : new double[] {3e-5, 1e-5}) {
                double[] q = {0.3, d, -0.6 * d};
                String what = "d = " + d + (exploit ? "" : ", structure not exploited");
                fd.forwardDynamicsRecursive(q, v, tau, out);
                double[] lambda = set.force().clone();
                assertEquals(exploit, fd.recursiveMethod().lastFellBack(), what);
                assertEquals(2, fd.recursiveMethod().lastRank(), what);
                set.computeSystem(q, v);
                double[] a = new double[3];
                for (int i = 0; i < 3; i++) {
                    a[i] = tau[i] - set.C()[i];
                }
                double[] ref = FastPathTest.refinedKkt(set.H(), set.G(), a, set.gamma());
                double err = Math.max(rel(java.util.Arrays.copyOf(ref, 3), out),
                        rel(new double[] {-ref[3], -ref[4]}, lambda));
                assertTrue(err <= 1e-10, what + ": v̇, λ " + err);
                for (ConstraintSolverMethod method : new ConstraintSolverMethod[] {ConstraintSolverMethod.DIRECT,
                    ConstraintSolverMethod.RANGE_SPACE_SPARSE}) {
                    fd.forwardDynamics(method, q, v, tau, out);
                    err = Math.max(rel(java.util.Arrays.copyOf(ref, 3), out),
                            rel(new double[] {-ref[3], -ref[4]}, set.force()));
                    assertTrue(err <= 1e-10, what + ": " + method + "'s v̇, λ " + err);
                }

                impulses.solveRecursive(q, v, out);
                double[] impulse = set.impulse().clone();
                set.computeImpulseSystem(q);
                double[] ri = FastPathTest.refinedKkt(set.H(), set.G(), TestMechanisms.mult(set.H(), v),
                        new double[2]);
                err = Math.max(TestMechanisms.maxDiff(java.util.Arrays.copyOf(ri, 3), out)
                        / TestMechanisms.maxAbs(v), rel(java.util.Arrays.copyOfRange(ri, 3, 5), impulse));
                assertTrue(err <= 1e-10, what + ": v⁺, Λ " + err);
                for (ConstraintSolverMethod method : new ConstraintSolverMethod[] {ConstraintSolverMethod.DIRECT,
                    ConstraintSolverMethod.RANGE_SPACE_SPARSE}) {
                    impulses.solve(method, q, v, out);
                    err = Math.max(TestMechanisms.maxDiff(java.util.Arrays.copyOf(ri, 3), out)
                            / TestMechanisms.maxAbs(v), rel(java.util.Arrays.copyOfRange(ri, 3, 5), set.impulse()));
                    assertTrue(err <= 1e-10, what + ": " + method + "'s v⁺, Λ " + err);
                }
            }
        }
    }

    /**
     * The interpreter of a content-equal copy of the set's model (binding checks the content) runs the recursion on
     * its own model, with the same answer as the direct method.
     */
    @Test
    void theInterpreterOfAModelCopyIsAccepted() throws Exception {
        ConstraintSet description = ConstraintSet.of(TestMechanisms.fourBar());
        GenericDynamics other = new GenericDynamics(TestMechanisms.fourBar());
        ConstraintData data = description.bind(other, other,
                new org.symdyn.constraints.GenericModel(TestMechanisms.fourBar()));
        assertTrue(RecursiveConstrainedDynamics.applies(data));
        ConstrainedDynamics fd = new ConstrainedDynamics(data);
        assertNotNull(fd.recursiveMethod());
        double[] q = {0.3, 0.3, -2.6};
        double[] v = {0.2, -0.1, 0.4};
        double[] a = new double[3];
        double[] b = new double[3];
        fd.forwardDynamicsDirect(q, v, new double[3], a);
        fd.forwardDynamicsRecursive(q, v, new double[3], b);
        assertTrue(fd.lastUsedRecursive());
        assertTrue(rel(a, b) <= TOL, "v̇ " + rel(a, b));
    }

    /** A chain of revolute links with its tip held (x, y, z): 30 links (mean squared depth 315) or the given n. */
    static ConstraintData tipHeldChain(int n) throws Exception {
        var b = Model.builder("chain" + n);
        String parent = "world";
        for (int i = 0; i < n; i++) {
            double[] axis = i % 3 == 0 ? new double[] {0, 0, 1} : i % 3 == 1 ? new double[] {0, 1, 0}
                    : new double[] {1, 0, 0};
            b.addBody("l" + i, parent, "j" + i, org.symdyn.model.JointType.REVOLUTE, axis,
                    org.symdyn.spatial.Pose.translation(0, 0, i == 0 ? 0 : 0.2),
                    org.symdyn.spatial.RigidBodyInertia.of(1.0, new double[] {0.01, 0.0, 0.1}, 0.02, 0, 0, 0.02, 0,
                            0.005));
            parent = "l" + i;
        }
        Model m = b.build();
        ConstraintSet.Builder sb = ConstraintSet.builder(m).withoutModelConstraints();
        for (int k = 0; k < 3; k++) {
            double[] normal = new double[3];
            normal[k] = 1;
            sb.addContact(n - 1, new double[] {0, 0, 0.2}, normal);
        }
        return sb.build().bindGeneric();
    }

    /**
     * The direct method (the default) runs the recursive one on a deep tree only: a 30-link chain switches (and its
     * answer is the exact KKT solution's within 1e-11: cond(H) of a long chain makes every method's error grow,
     * 1.7e-12 by the Schur path and 1.4e-12 by the recursion at 30 links in a one-off check), the branched test
     * mechanisms do not.
     */
    @Test
    void theDirectMethodRunsTheRecursiveOneOnDeepTrees() throws Exception {
        ConstraintData chain = tipHeldChain(30);
        assertEquals(31 * 61 / 6.0, RecursiveConstrainedDynamics.meanSquaredDepth(chain.dynamics().dofParents()),
                1e-12);
        assertTrue(RecursiveConstrainedDynamics.replacesDirectMethod(chain));
        ConstrainedDynamics fd = new ConstrainedDynamics(chain);
        Random rnd = new Random(8);
        int nv = chain.nv();
        double[] vdot = new double[nv];
        double worst = 0;
        for (int n = 0; n < 10; n++) {
            double[] q = TestMechanisms.random(nv, 0.5, rnd);
            double[] v = TestMechanisms.random(nv, 0.5, rnd);
            double[] tau = TestMechanisms.random(nv, 0.5, rnd);
            fd.forwardDynamicsDirect(q, v, tau, vdot);
            assertTrue(fd.lastUsedRecursive());
            chain.computeSystem(q, v);
            double[] a = new double[nv];
            for (int i = 0; i < nv; i++) {
                a[i] = tau[i] - chain.C()[i];
            }
            double[] ref = FastPathTest.refinedKkt(chain.H(), chain.G(), a, chain.gamma());
            double e = rel(java.util.Arrays.copyOf(ref, nv), vdot);
            assertTrue(e <= 1e-11, "state " + n + ": " + e);
            worst = Math.max(worst, e);
        }
        System.out.printf("30-link chain, direct method run recursively: worst relative vs exact %.2e%n", worst);
        for (ConstraintData set : FastPathTest.sets()) {
            assertFalse(RecursiveConstrainedDynamics.replacesDirectMethod(set), set.set().model().name());
            ConstrainedDynamics branched = new ConstrainedDynamics(set);
            Model model = set.set().model();
            branched.forwardDynamicsDirect(TestMechanisms.randomQ(model, rnd), new double[set.nv()],
                    new double[set.nv()], new double[set.nv()]);
            assertFalse(branched.lastUsedRecursive());
        }
    }

    /**
     * Rows nearly dependent (two normals at a chain's tip 1e-7 rad apart: the QR keeps both, K squares their
     * conditioning) are handed to the direct method whether or not the structure is exploited: with it off the
     * recursive method kept its own answer, 2.6e-3 off at 1e-7 rad and 0.25 at 1e-8 (a probing helper's finding, on
     * fixed-base solo12 with a knee near straight and on this chain, where the direct method is itself the recursion).
     */
    @Test
    void nearlyDependentRowsAreAnsweredByTheDirectMethodWithOrWithoutTheStructure() throws Exception {
        ConstraintData chain = tipHeldChain(30);
        Model m = chain.set().model();
        int tip = m.bodyCount() - 1;
        double delta = 1e-7;
        ConstraintSet.Builder rows = ConstraintSet.builder(m).withoutModelConstraints();
        rows.addContact(tip, new double[] {0.05, 0, 0.1}, new double[] {0, 0, 1});
        rows.addContact(tip, new double[] {0.05, 0, 0.1}, new double[] {Math.sin(delta), 0, Math.cos(delta)});
        rows.addContact(tip, new double[] {0.05, 0, 0.1}, new double[] {0, 1, 0});
        ConstraintData data = rows.build().bindGeneric();
        ConstrainedDynamics fd = new ConstrainedDynamics(data);
        Random rnd = new Random(7);
        int nv = data.nv();
        double[] exact = new double[nv];
        double[] vdot = new double[nv];
        for (boolean exploit : new boolean[] {true, false}) {
            data.settings().exploitStructure(exploit);
            for (int n = 0; n < 10; n++) {
                double[] q = TestMechanisms.random(nv, 1, rnd);
                double[] v = TestMechanisms.random(nv, 2, rnd);
                double[] tau = TestMechanisms.random(nv, 10, rnd);
                fd.forwardDynamics(ConstraintSolverMethod.NULL_SPACE, q, v, tau, exact);
                for (ConstraintSolverMethod method : new ConstraintSolverMethod[] {ConstraintSolverMethod.DIRECT,
                        ConstraintSolverMethod.RECURSIVE}) {
                    fd.forwardDynamics(method, q, v, tau, vdot);
                    assertFalse(fd.lastUsedRecursive(), method + ", structure " + exploit + ": handed over");
                    assertTrue(fd.recursiveMethod().lastNearlyDependent());
                    double e = rel(exact, vdot);
                    assertTrue(e <= 1e-10, method + ", structure " + exploit + ", state " + n + ": " + e);
                }
            }
        }
    }

    /**
     * A recursive solve evaluates G and γ into its own arrays: the data's workspaces keep the last computeSystem's
     * (a set of model rows only, where the rows' outputs and the workspaces were one array before).
     */
    @Test
    void aRecursiveSolveLeavesTheDataWorkspacesAlone() throws Exception {
        ConstraintData data = ConstraintSet.of(TestMechanisms.fourBar()).bindGeneric();
        data.enableBaumgarte(0);
        ConstrainedDynamics fd = new ConstrainedDynamics(data);
        ImpulseSolver impulses = new ImpulseSolver(data);
        double[] qa = {0.3, 0.3, -2.6};
        double[] va = {0.2, -0.1, 0.4};
        data.computeSystem(qa, va);
        double[] g = data.G().data.clone();
        double[] gamma = data.gamma().clone();
        fd.forwardDynamicsRecursive(new double[] {0.5, -0.2, 1.1}, new double[] {1, 2, 3}, new double[3],
                new double[3]);
        impulses.solveRecursive(new double[] {0.7, 0.1, -1.0}, new double[] {1, 2, 3}, new double[3]);
        assertArrayEquals(g, data.G().data);
        assertArrayEquals(gamma, data.gamma());
    }

    @Test
    void doesNotAllocate() throws Exception {
        ConstraintData set = SolverTestSupport.tripodSet().bindGeneric();
        set.enableBaumgarte(1);
        ConstrainedDynamics fd = new ConstrainedDynamics(set);
        ImpulseSolver impulses = new ImpulseSolver(set);
        Random rnd = new Random(2);
        Model model = set.set().model();
        double[] q = TestMechanisms.randomQ(model, rnd);
        double[] v = TestMechanisms.random(model.nv(), 1, rnd);
        double[] tau = TestMechanisms.random(model.nv(), 5, rnd);
        double[] out = new double[model.nv()];
        long bytes = SolverTestSupport.allocatedBytes(1000, () -> fd.forwardDynamicsRecursive(q, v, tau, out));
        assertTrue(bytes < 4096, "forward dynamics allocated " + bytes + " bytes");
        bytes = SolverTestSupport.allocatedBytes(1000, () -> impulses.solveRecursive(q, v, out));
        assertTrue(bytes < 4096, "impulses allocated " + bytes + " bytes");
    }

    /** G H⁻¹ Gᵀ by EJML from H and G (test reference). */
    private static DMatrixRMaj denseDelassus(DMatrixRMaj h, DMatrixRMaj g) {
        DMatrixRMaj gt = new DMatrixRMaj(g.numCols, g.numRows);
        CommonOps_DDRM.transpose(g, gt);
        DMatrixRMaj x = new DMatrixRMaj(h.numRows, g.numRows);
        assertTrue(CommonOps_DDRM.solve(h, gt, x));
        DMatrixRMaj k = new DMatrixRMaj(g.numRows, g.numRows);
        CommonOps_DDRM.mult(g, x, k);
        return k;
    }
}
