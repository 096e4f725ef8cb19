package org.symdyn.solvers;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.constraints.ConstraintSet;
import org.symdyn.constraints.SolverSettings;
import org.symdyn.constraints.SolverSettings.RankPolicy;
import org.symdyn.constraints.TestMechanisms;
import org.symdyn.contract.ConstraintType;
import org.symdyn.model.Model;

/**
 * The structure-exploiting fast path (Schur complement on H's tree-sparse LᵀL, redundancy from its pivots) against
 * the rank-revealing path it replaces ({@link SolverSettings#exploitStructure} off) and against a dense KKT solve
 * by EJML: the same v̇, λ, v⁺ and Λ within 1e-12 relative on random states of every test mechanism (multi-dof and
 * floating joints, branches, loops, contacts, couplers); singular and dependent rows reported identically; the
 * fallback taken exactly when a Schur pivot is small; no allocation.
 */
class FastPathTest {
    private static final double[] FOOT = {0, 0, -0.3};
    private static final double TOL = 1e-12;

    /** Bound sets: the test mechanisms with their model constraints and with contacts and couplers added in code. */
    static List<ConstraintData> sets() throws Exception {
        List<ConstraintSet> descriptions = new ArrayList<>();
        descriptions.add(ConstraintSet.of(TestMechanisms.spatialMechanism()));
        descriptions.add(ConstraintSet.of(TestMechanisms.fourBar()));
        descriptions.add(ConstraintSet.of(TestMechanisms.planarLeg()));
        descriptions.add(SolverPropertyTest.bipedSet());
        descriptions.add(SolverTestSupport.tripodSet());
        ConstraintSet.Builder both = ConstraintSet.builder(TestMechanisms.floatingBiped()).withoutModelConstraints();
        for (int body : new int[] {2, 4}) {
            for (double[] n : new double[][] {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}) {
                both.addContact(body, FOOT, n);
            }
        }
        descriptions.add(both.build());
        List<ConstraintData> out = new ArrayList<>();
        for (ConstraintSet d : descriptions) {
            out.add(d.bindGeneric());
        }
        return out;
    }

    private static double rel(double[] expected, double[] actual) {
        return TestMechanisms.maxDiff(expected, actual) / Math.max(1e-300, TestMechanisms.maxAbs(expected));
    }

    /**
     * The reference: [H Gᵀ; G 0][x; y] = [a; b] by EJML's dense LU, refined twice with residuals computed exactly
     * (BigDecimal), so accurate to rounding whatever the conditioning of the test states.
     */
    static double[] refinedKkt(DMatrixRMaj h, DMatrixRMaj g, double[] a, double[] b) {
        int nv = h.numRows;
        int m = g.numRows;
        int n = nv + m;
        DMatrixRMaj k = new DMatrixRMaj(n, n);
        double[] rhs = new double[n];
        for (int i = 0; i < nv; i++) {
            for (int j = 0; j < nv; j++) {
                k.set(i, j, h.get(i, j));
            }
            for (int r = 0; r < m; r++) {
                k.set(i, nv + r, g.get(r, i));
                k.set(nv + r, i, g.get(r, i));
            }
            rhs[i] = a[i];
        }
        System.arraycopy(b, 0, rhs, nv, m);
        double[] x = SolverTestSupport.solve(k, rhs);
        for (int pass = 0; pass < 2; pass++) {
            double[] res = new double[n];
            for (int i = 0; i < n; i++) {
                java.math.BigDecimal s = new java.math.BigDecimal(rhs[i]);
                for (int j = 0; j < n; j++) {
                    s = s.subtract(new java.math.BigDecimal(k.get(i, j)).multiply(new java.math.BigDecimal(x[j])));
                }
                res[i] = s.doubleValue();
            }
            double[] dx = SolverTestSupport.solve(k, res);
            for (int i = 0; i < n; i++) {
                x[i] += dx[i];
            }
        }
        return x;
    }

    /**
     * v̇ and λ of the fast path within 1e-12 relative of the (refined) dense KKT solution, and of the rank-revealing
     * path's within 1e-12 plus that path's own error (on a few ill-conditioned random states the KKT LU and the
     * unrefined range-space method are themselves up to 1e-12 from the exact answer; the refined fast path is not).
     */
    @Test
    void forwardDynamicsEqualsTheDenseKktAndTheRankRevealingPath() throws Exception {
        Random rnd = new Random(1717);
        double worstRef = 0;
        double worstOldRef = 0;
        double worstOld = 0;
        int solves = 0;
        for (ConstraintData set : sets()) {
            Model model = set.set().model();
            int nv = set.nv();
            int m = set.size();
            ConstrainedDynamics fd = new ConstrainedDynamics(set);
            double[] vdot = new double[nv];
            double[] vdotOld = new double[nv];
            for (int n = 0; n < 200; n++) {
                double[] q = TestMechanisms.randomQ(model, rnd);
                double[] v = TestMechanisms.random(nv, 2, rnd);
                double[] tau = TestMechanisms.random(nv, 10, rnd);
                set.settings().spdSolver(SolverSettings.SpdSolver.values()[n % 2]);
                for (ConstraintSolverMethod method : new ConstraintSolverMethod[] {ConstraintSolverMethod.DIRECT,
                    ConstraintSolverMethod.RANGE_SPACE_SPARSE}) {
                    set.settings().exploitStructure(false);
                    fd.forwardDynamics(method, q, v, tau, vdotOld);
                    double[] lambdaOld = set.force().clone();
                    set.settings().exploitStructure(true);
                    fd.forwardDynamics(method, q, v, tau, vdot);
                    double[] lambda = set.force().clone();
                    assertFalse(fd.systemSolver().lastFellBack(), model.name() + " " + method + " fell back");
                    String what = model.name() + " " + method + " state " + n;
                    double[] a = new double[nv];
                    for (int i = 0; i < nv; i++) {
                        a[i] = tau[i] - set.C()[i];
                    }
                    double[] ref = refinedKkt(set.H(), set.G(), a, set.gamma());
                    double[] refVdot = java.util.Arrays.copyOf(ref, nv);
                    double[] refLambda = new double[m];
                    for (int r = 0; r < m; r++) {
                        refLambda[r] = -ref[nv + r];
                    }
                    double errNew = Math.max(rel(refVdot, vdot), rel(refLambda, lambda));
                    double errOld = Math.max(rel(refVdot, vdotOld), rel(refLambda, lambdaOld));
                    double diff = Math.max(rel(vdotOld, vdot), rel(lambdaOld, lambda));
                    assertTrue(errNew <= TOL, what + " vs dense KKT: " + errNew);
                    assertTrue(diff <= TOL + errOld, what + " vs rank-revealing path: " + diff + " (its error "
                            + errOld + ")");
                    worstRef = Math.max(worstRef, errNew);
                    worstOldRef = Math.max(worstOldRef, errOld);
                    worstOld = Math.max(worstOld, diff);
                    solves++;
                }
            }
        }
        System.out.printf("constrained FD (%d solves), worst relative: fast path vs exact %.2e, rank-revealing path"
                + " vs exact %.2e, fast vs rank-revealing %.2e%n", solves, worstRef, worstOldRef, worstOld);
    }

    /**
     * The refinement threshold {@link ConstrainedSystemSolver#REFINE_PIVOT_RATIO}: unrefined, solves whose Schur
     * pivot ratio is above it stay within 2e-13 of the exact answer (so the skipped refinement costs no accuracy the
     * contract needs); refined (below it) within 1e-13.
     */
    /**
     * A matrix H that is not positive definite, after a well-posed solve: the solve is refused and the pivot ratio
     * reads 0 (a failed pivot), not the previous solve's.
     */
    @Test
    void aFailedFactorisationOfHResetsThePivotRatio() throws Exception {
        ConstraintData data = ConstraintSet.of(TestMechanisms.fourBar()).bindGeneric();
        ConstrainedDynamics fd = new ConstrainedDynamics(data);
        int nv = data.nv();
        double[] vdot = new double[nv];
        fd.forwardDynamicsRangeSpaceSparse(new double[] {0.3, -0.2, 0.4}, new double[nv], new double[nv], vdot);
        ConstrainedSystemSolver solver = fd.systemSolver();
        assertTrue(solver.lastSchurPivotRatio() > 0);
        DMatrixRMaj h = data.H().copy();
        h.set(0, 0, -1);
        DMatrixRMaj g = data.G().copy();
        assertThrows(ArithmeticException.class, () -> solver.solve(ConstraintSolverMethod.RANGE_SPACE_SPARSE, h, g,
                new double[nv], new double[g.numRows], new double[nv], new double[g.numRows]));
        assertEquals(0, solver.lastSchurPivotRatio());
    }

    @Test
    void refinementIsSkippedOnlyWhereItIsNotNeeded() throws Exception {
        Random rnd = new Random(77);
        double worstUnrefined = 0;
        try {
            ConstrainedSystemSolver.refineBelow = -1;
            for (ConstraintData set : sets()) {
                Model model = set.set().model();
                int nv = set.nv();
                int m = set.size();
                ConstrainedDynamics fd = new ConstrainedDynamics(set);
                double[] vdot = new double[nv];
                for (int n = 0; n < 300; n++) {
                    double[] q = TestMechanisms.randomQ(model, rnd);
                    double[] v = TestMechanisms.random(nv, 2, rnd);
                    double[] tau = TestMechanisms.random(nv, 10, rnd);
                    fd.forwardDynamicsDirect(q, v, tau, vdot);
                    if (fd.systemSolver().lastSchurPivotRatio() <= ConstrainedSystemSolver.REFINE_PIVOT_RATIO) {
                        continue;
                    }
                    double[] a = new double[nv];
                    for (int i = 0; i < nv; i++) {
                        a[i] = tau[i] - set.C()[i];
                    }
                    double[] ref = refinedKkt(set.H(), set.G(), a, set.gamma());
                    double[] refLambda = new double[m];
                    for (int r = 0; r < m; r++) {
                        refLambda[r] = -ref[nv + r];
                    }
                    double err = Math.max(rel(java.util.Arrays.copyOf(ref, nv), vdot), rel(refLambda, set.force()));
                    worstUnrefined = Math.max(worstUnrefined, err);
                }
            }
        } finally {
            ConstrainedSystemSolver.refineBelow = ConstrainedSystemSolver.REFINE_PIVOT_RATIO;
        }
        assertTrue(worstUnrefined <= 2e-13, "unrefined above the threshold: " + worstUnrefined);
        System.out.printf("unrefined solves above the refinement threshold: worst relative %.2e%n", worstUnrefined);
    }

    @Test
    void impulsesEqualTheRankRevealingPath() throws Exception {
        Random rnd = new Random(1718);
        double worst = 0;
        double worstOld = 0;
        for (ConstraintData set : sets()) {
            Model model = set.set().model();
            int nv = set.nv();
            ImpulseSolver solver = new ImpulseSolver(set);
            double[] vPlus = new double[nv];
            double[] vPlusOld = new double[nv];
            for (int n = 0; n < 100; n++) {
                double[] q = TestMechanisms.randomQ(model, rnd);
                double[] vMinus = TestMechanisms.random(nv, 2, rnd);
                for (int r = 0; r < set.size(); r++) {
                    set.impulseTarget()[r] = n % 3 == 0 ? rnd.nextDouble() - 0.5 : 0;
                }
                for (ConstraintSolverMethod method : new ConstraintSolverMethod[] {ConstraintSolverMethod.DIRECT,
                    ConstraintSolverMethod.RANGE_SPACE_SPARSE}) {
                    set.settings().exploitStructure(false);
                    solver.solve(method, q, vMinus, vPlusOld);
                    double[] impulseOld = set.impulse().clone();
                    set.settings().exploitStructure(true);
                    solver.solve(method, q, vMinus, vPlus);
                    assertFalse(solver.systemSolver().lastFellBack());
                    // Reference: [H Gᵀ; G 0][v⁺ - v⁻; Λ] = [0; target - G v⁻], refined exactly.
                    int nvv = nv;
                    int m = set.size();
                    double[] gv = TestMechanisms.mult(set.G(), vMinus);
                    double[] b = new double[m];
                    for (int r = 0; r < m; r++) {
                        b[r] = set.impulseTarget()[r] - gv[r];
                    }
                    double[] ref = refinedKkt(set.H(), set.G(), new double[nvv], b);
                    double[] refV = new double[nvv];
                    for (int i = 0; i < nvv; i++) {
                        refV[i] = vMinus[i] + ref[i];
                    }
                    double[] refImpulse = java.util.Arrays.copyOfRange(ref, nvv, nvv + m);
                    double errNew = Math.max(rel(refV, vPlus), rel(refImpulse, set.impulse()));
                    double errOld = Math.max(rel(refV, vPlusOld), rel(refImpulse, impulseOld));
                    double d = Math.max(rel(vPlusOld, vPlus), rel(impulseOld, set.impulse()));
                    String what = model.name() + " " + method + " impulse state " + n;
                    assertTrue(errNew <= TOL, what + " vs dense KKT " + errNew);
                    assertTrue(d <= TOL + errOld, what + " vs rank-revealing path " + d + " (its error " + errOld
                            + ")");
                    worst = Math.max(worst, errNew);
                    worstOld = Math.max(worstOld, errOld);
                }
            }
            java.util.Arrays.fill(set.impulseTarget(), 0);
        }
        System.out.printf("impulses, worst relative: fast path vs exact %.2e, rank-revealing path vs exact %.2e%n",
                worst, worstOld);
    }

    @Test
    void kokkevisEqualsItsRankRevealingPath() throws Exception {
        Random rnd = new Random(1719);
        double worst = 0;
        for (ConstraintData set : sets()) {
            if (set.set().groups().stream().anyMatch(g -> g.type() != ConstraintType.CONTACT)) {
                continue;
            }
            Model model = set.set().model();
            int nv = set.nv();
            KokkevisContactDynamics kok = new KokkevisContactDynamics(set);
            double[] vdot = new double[nv];
            double[] vdotOld = new double[nv];
            for (int n = 0; n < 100; n++) {
                double[] q = TestMechanisms.randomQ(model, rnd);
                double[] v = TestMechanisms.random(nv, 2, rnd);
                double[] tau = TestMechanisms.random(nv, 10, rnd);
                set.settings().exploitStructure(false);
                kok.forwardDynamics(q, v, tau, vdotOld);
                double[] lambdaOld = set.force().clone();
                set.settings().exploitStructure(true);
                kok.forwardDynamics(q, v, tau, vdot);
                assertFalse(kok.lastFellBack());
                double d = Math.max(rel(vdotOld, vdot), rel(lambdaOld, set.force()));
                assertTrue(d <= TOL, model.name() + " Kokkevis " + d);
                worst = Math.max(worst, d);
            }
        }
        System.out.printf("Kokkevis, fast vs rank-revealing path: worst relative %.2e%n", worst);
    }

    /** A state of the four-bars of {@link #dependentFourBars}. */
    static final double[] DEPENDENT_Q = {-0.6267463657112392, 1.9327102732977162, -2.4162820189990875};
    static final double[] DEPENDENT_V = {0.9345454184438046, -1.262049653047284, -0.550848343503073};
    static final double[] DEPENDENT_TAU = {0.3935663892622818, -0.6841094728691886, 4.850863919853213};

    /** Four-bars whose loop rows are dependent: joint axes (x, y, x) and (x, y, z). */
    static List<Model> dependentFourBars() throws Exception {
        double[] x = {0, 0, 0, 1, 0, 0};
        double[] y = {0, 0, 0, 0, 1, 0};
        double[] z = {0, 0, 0, 0, 0, 1};
        return List.of(TestMechanisms.fourBarWithAxes(x, y, x), TestMechanisms.fourBarWithAxes(x, y, z));
    }

    /** Every redundant case gives the same exception (kind, rank, rows, message) on both paths. */
    @Test
    void dependentRowsAreReportedAsByTheRankRevealingPath() throws Exception {
        double[] q = DEPENDENT_Q;
        double[] v = DEPENDENT_V;
        double[] tau = DEPENDENT_TAU;
        for (Model model : dependentFourBars()) {
            for (boolean rankCheck : new boolean[] {true, false}) {
                for (ConstraintSolverMethod method : new ConstraintSolverMethod[] {ConstraintSolverMethod.DIRECT,
                    ConstraintSolverMethod.RANGE_SPACE_SPARSE}) {
                    ConstraintData set = ConstraintSet.of(model).bindGeneric();
                    set.settings().rankCheck(rankCheck);
                    ConstrainedDynamics fd = new ConstrainedDynamics(set);
                    set.settings().exploitStructure(false);
                    ConstraintRankException old = assertThrows(ConstraintRankException.class,
                            () -> fd.forwardDynamics(method, q, v, tau, new double[3]));
                    set.settings().exploitStructure(true);
                    ConstraintRankException now = assertThrows(ConstraintRankException.class,
                            () -> fd.forwardDynamics(method, q, v, tau, new double[3]));
                    assertTrue(fd.systemSolver().lastFellBack());
                    assertEquals(old.getMessage(), now.getMessage());
                    assertEquals(old.kind(), now.kind());
                    assertEquals(old.rank(), now.rank());
                    assertEquals(old.involvedRows(), now.involvedRows());
                }
            }
        }
    }

    /** Dropping dependent rows gives bit for bit the rank-revealing path's answer (it is that path). */
    @Test
    void droppedRowsGoThroughTheRankRevealingPath() throws Exception {
        double[] x = {0, 0, 0, 1, 0, 0};
        double[] y = {0, 0, 0, 0, 1, 0};
        ConstraintData set = ConstraintSet.of(TestMechanisms.fourBarWithAxes(x, y, x)).bindGeneric();
        set.settings().rankPolicy(RankPolicy.DROP_DEPENDENT_ROWS);
        ConstrainedDynamics fd = new ConstrainedDynamics(set);
        Random rnd = new Random(5);
        Model model = set.set().model();
        for (int n = 0; n < 20; n++) {
            double[] q = TestMechanisms.randomQ(model, rnd);
            double[] v = TestMechanisms.random(3, 1, rnd);
            double[] tau = TestMechanisms.random(3, 5, rnd);
            for (ConstraintSolverMethod method : new ConstraintSolverMethod[] {ConstraintSolverMethod.DIRECT,
                ConstraintSolverMethod.RANGE_SPACE_SPARSE}) {
                double[] a = new double[3];
                double[] b = new double[3];
                set.settings().exploitStructure(false);
                fd.forwardDynamics(method, q, v, tau, a);
                double[] la = set.force().clone();
                set.settings().exploitStructure(true);
                fd.forwardDynamics(method, q, v, tau, b);
                assertTrue(fd.systemSolver().lastFellBack());
                assertEquals(1, fd.systemSolver().lastDroppedRows());
                assertArrayEquals(a, b);
                assertArrayEquals(la, set.force());
            }
        }
    }

    /**
     * The fallback trigger: two contact rows at one foot whose normals differ by an angle ε. Independent for the QR
     * (|R_11| / |R_00| ≈ ε ≫ 1e-10) but with a Schur pivot ratio ≈ ε² ≤ 1e-8 for ε = 1e-5: the solve leaves the
     * fast path and returns the rank-revealing path's answer bit for bit; for ε = 0.1 it stays on the fast path.
     * With the rank check off the floor is {@link SpdFactorization#PIVOT_RATIO}, so ε = 1e-5 stays fast too.
     */
    @Test
    void aSmallSchurPivotSendsTheSolveToTheRankRevealingPath() throws Exception {
        Random rnd = new Random(9);
        for (double eps : new double[] {1e-5, 0.1}) {
            ConstraintData set = SolverTestSupport.bipedContacts(true, new double[] {1, 0, 0},
                    new double[] {Math.cos(eps), Math.sin(eps), 0}, new double[] {0, 0, 1}).bindGeneric();
            Model model = set.set().model();
            ConstrainedDynamics fd = new ConstrainedDynamics(set);
            ImpulseSolver imp = new ImpulseSolver(set);
            KokkevisContactDynamics kok = new KokkevisContactDynamics(set);
            double[] a = new double[10];
            double[] b = new double[10];
            for (int n = 0; n < 20; n++) {
                double[] q = TestMechanisms.randomQ(model, rnd);
                double[] v = TestMechanisms.random(10, 1, rnd);
                double[] tau = TestMechanisms.random(10, 5, rnd);
                for (ConstraintSolverMethod method : new ConstraintSolverMethod[] {ConstraintSolverMethod.DIRECT,
                    ConstraintSolverMethod.RANGE_SPACE_SPARSE}) {
                    set.settings().rankCheck(true).exploitStructure(false);
                    fd.forwardDynamics(method, q, v, tau, a);
                    double[] la = set.force().clone();
                    set.settings().exploitStructure(true);
                    fd.forwardDynamics(method, q, v, tau, b);
                    ConstrainedSystemSolver s = fd.systemSolver();
                    if (eps < 1e-3) {
                        assertTrue(s.lastFellBack(), "eps " + eps);
                        assertArrayEquals(a, b);
                        assertArrayEquals(la, set.force());
                    } else {
                        assertFalse(s.lastFellBack(), "eps " + eps);
                        assertTrue(s.lastSchurPivotRatio() > ConstrainedSystemSolver.SCHUR_RANK_RATIO);
                        assertTrue(rel(a, b) <= TOL && rel(la, set.force()) <= TOL);
                    }
                    set.settings().rankCheck(false);
                    fd.forwardDynamics(method, q, v, tau, b);
                    assertFalse(s.lastFellBack(), "eps " + eps + " without the rank check");
                    imp.solve(method, q, v, b);
                    assertFalse(imp.systemSolver().lastFellBack());
                    set.settings().rankCheck(true);
                    imp.solve(method, q, v, b);
                    assertEquals(eps < 1e-3, imp.systemSolver().lastFellBack());
                }
                set.settings().exploitStructure(false);
                kok.forwardDynamics(q, v, tau, a);
                double[] la = set.force().clone();
                set.settings().exploitStructure(true);
                kok.forwardDynamics(q, v, tau, b);
                assertEquals(eps < 1e-3, kok.lastFellBack());
                if (eps < 1e-3) {
                    assertArrayEquals(a, b);
                    assertArrayEquals(la, set.force());
                } else {
                    assertTrue(rel(a, b) <= TOL);
                }
            }
        }
    }

    /** H not positive definite (assembly with a zero weight): the direct method falls back to the KKT LU. */
    @Test
    void indefiniteHGoesThroughTheKktFactorisation() throws Exception {
        ConstraintData set = ConstraintSet.of(TestMechanisms.fourBar()).bindGeneric();
        Assembly asm = new Assembly(set);
        double[] q = {-0.6267463657112392, 1.9327102732977162, -2.4162820189990875};
        double[] v0 = {0.3, -0.2, 0.5};
        double[] a = new double[3];
        double[] b = new double[3];
        for (double[] w : new double[][] {{1, 0, 1}, {1, 2, 3}}) {
            set.settings().exploitStructure(false);
            asm.assembleV(q, v0, w, a);
            set.settings().exploitStructure(true);
            asm.assembleV(q, v0, w, b);
            assertTrue(rel(a, b) <= TOL, java.util.Arrays.toString(w) + ": " + rel(a, b));
        }
    }

    @Test
    void fastPathDoesNotAllocate() throws Exception {
        ConstraintData set = SolverTestSupport.tripodSet().bindGeneric();
        Model model = set.set().model();
        Random rnd = new Random(3);
        double[] q = TestMechanisms.randomQ(model, rnd);
        double[] v = TestMechanisms.random(12, 1, rnd);
        double[] tau = TestMechanisms.random(12, 5, rnd);
        double[] out = new double[12];
        ConstrainedDynamics fd = new ConstrainedDynamics(set);
        ImpulseSolver imp = new ImpulseSolver(set);
        KokkevisContactDynamics kok = new KokkevisContactDynamics(set);
        long bytes = SolverTestSupport.allocatedBytes(2000, () -> {
            fd.forwardDynamicsDirect(q, v, tau, out);
            fd.forwardDynamicsRangeSpaceSparse(q, v, tau, out);
            imp.solveDirect(q, v, out);
            kok.forwardDynamics(q, v, tau, out);
        });
        assertFalse(fd.systemSolver().lastFellBack());
        assertTrue(bytes < 2000, bytes + " bytes in 2000 rounds");
    }
}
