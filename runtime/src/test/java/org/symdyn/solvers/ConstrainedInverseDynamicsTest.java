package org.symdyn.solvers;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.SingularOps_DDRM;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.SingularValueDecomposition_F64;
import org.junit.jupiter.api.Test;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.constraints.ConstraintSet;
import org.symdyn.constraints.SolverSettings;
import org.symdyn.constraints.TestMechanisms;
import org.symdyn.model.Model;

/**
 * Constrained inverse dynamics: the actuation map, the full-actuation test, Koch's exact operator against the
 * document's KKT system and against forward dynamics, its over-constrained extension against its QP, and the
 * relaxed operator against its defining QP solved as a dense KKT system.
 */
class ConstrainedInverseDynamicsTest {

    private static ConstrainedInverseDynamics fourBarCrank() throws Exception {
        ConstraintData set = ConstraintSet.of(TestMechanisms.fourBar()).bindGeneric();
        return new ConstrainedInverseDynamics(set, ActuationMap.ofJoints(set.set().model(), "crank_joint"));
    }

    private static ConstrainedInverseDynamics planarLegWithFreeBase() throws Exception {
        ConstraintData set = ConstraintSet.of(TestMechanisms.planarLeg()).bindGeneric();
        return new ConstrainedInverseDynamics(set, ActuationMap.ofJoints(set.set().model(), "hip", "knee"));
    }

    private static ConstrainedInverseDynamics tripod() throws Exception {
        ConstraintData set = SolverTestSupport.tripodSet().bindGeneric();
        return new ConstrainedInverseDynamics(set, ActuationMap.allButFloatingBase(set.set().model()));
    }

    private static DMatrixRMaj gpt(DMatrixRMaj g, ActuationMap map) {
        DMatrixRMaj p = map.unactuatedSelectionMatrix();
        DMatrixRMaj out = new DMatrixRMaj(g.numRows, p.numRows);
        CommonOps_DDRM.multTransB(g, p, out);
        return out;
    }

    // ---------------------------------------------------------------- actuation map

    @Test
    void actuationMapSelectsDofs() throws Exception {
        Model biped = TestMechanisms.floatingBiped();
        ActuationMap map = ActuationMap.allButFloatingBase(biped);
        assertEquals(4, map.actuatedCount());
        assertEquals(6, map.unactuatedCount());
        assertArrayEquals(new int[] {0, 1, 2, 3, 4, 5}, map.unactuatedDofs());
        assertArrayEquals(new int[] {6, 7, 8, 9}, map.actuatedDofs());
        DMatrixRMaj s = map.selectionMatrix();
        DMatrixRMaj p = map.unactuatedSelectionMatrix();
        DMatrixRMaj sum = new DMatrixRMaj(10, 10);
        CommonOps_DDRM.multTransA(s, s, sum);
        DMatrixRMaj ptp = new DMatrixRMaj(10, 10);
        CommonOps_DDRM.multTransA(p, p, ptp);
        CommonOps_DDRM.addEquals(sum, ptp);
        assertTrue(org.ejml.dense.row.MatrixFeatures_DDRM.isIdentity(sum, 0));
        ActuationMap legs = ActuationMap.ofJoints(biped, "knee_l", "hip_r");
        assertArrayEquals(new int[] {7, 8}, legs.actuatedDofs());
        assertTrue(legs.toString().contains(biped.vNames().get(7)));
        assertEquals(10, ActuationMap.allActuated(biped).actuatedCount());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ActuationMap.ofJoints(biped, "elbow"));
        assertTrue(e.getMessage().contains("'elbow'"));
        assertThrows(IllegalArgumentException.class, () -> ActuationMap.of(biped, new boolean[3]));
        ConstraintData other = ConstraintSet.of(TestMechanisms.fourBar()).bindGeneric();
        assertThrows(IllegalArgumentException.class, () -> new ConstrainedInverseDynamics(other, map));
    }

    // ---------------------------------------------------------------- full actuation

    /**
     * Four-bar, crank driven: n_u = 2 (coupler and rocker) and the loop has 2 rows, so G Pᵀ is 2 x 2: its columns are
     * the tip velocities z × (tip - joint) of the coupler and rocker joints, independent unless those joints and
     * the tip are collinear (rocker angle 0 or π). Fully actuated everywhere else. Planar leg with a free base:
     * 2 contact rows cannot determine 3 base dofs (the trunk pivots about the foot): never fully actuated.
     */
    @Test
    void fullActuationOfFourBarAndPlanarLeg() throws Exception {
        ConstrainedInverseDynamics fb = fourBarCrank();
        ConstrainedInverseDynamics leg = planarLegWithFreeBase();
        Random rnd = new Random(11);
        for (int n = 0; n < 50; n++) {
            double[] q = TestMechanisms.randomQ(fb.constraintData().set().model(), rnd);
            DMatrixRMaj g = new DMatrixRMaj(2, 3);
            fb.constraintData().jacobian(q, g);
            boolean expected = SolverTestSupport.rank(gpt(g, fb.actuation()), 1e-10) == 2;
            assertEquals(expected, fb.isFullyActuated(q));
            assertTrue(fb.isFullyActuated(q), "four-bar at a random state");
            assertEquals(2, fb.lastActuationRank());
            double[] ql = TestMechanisms.randomQ(leg.constraintData().set().model(), rnd);
            assertFalse(leg.isFullyActuated(ql));
            assertEquals(2, leg.lastActuationRank());
        }
        // Rocker aligned with the coupler: singular.
        double[] singular = {0.4, -1.1, 0};
        assertFalse(fb.isFullyActuated(singular));
        assertEquals(1, fb.lastActuationRank());
        NotFullyActuatedException e = assertThrows(NotFullyActuatedException.class,
                () -> fb.inverseDynamics(singular, new double[3], new double[3], new double[3], new double[3]));
        assertEquals(1, e.rank());
        assertEquals(1, e.undeterminedDofs().size());
        assertTrue(e.getMessage().contains("closure[0]") && e.getMessage().contains("inverseDynamicsRelaxed"),
                e.getMessage());
        // Planar leg: the exact operator refuses and names the base dofs.
        double[] q = TestMechanisms.randomQ(leg.constraintData().set().model(), rnd);
        e = assertThrows(NotFullyActuatedException.class,
                () -> leg.inverseDynamics(q, new double[5], new double[5], new double[5], new double[5]));
        List<String> names = leg.constraintData().set().model().vNames();
        for (int k = 0; k < 3; k++) {
            assertTrue(e.getMessage().contains(names.get(k)), e.getMessage());
        }
        assertEquals(3, e.unactuatedCount());
        // Trivial cases: everything actuated; unactuated dofs without constraints.
        ConstraintData fourBar = ConstraintSet.of(TestMechanisms.fourBar()).bindGeneric();
        assertTrue(new ConstrainedInverseDynamics(fourBar, ActuationMap.allActuated(fourBar.set().model()))
                .isFullyActuated(singular));
        ConstraintData free = ConstraintSet.builder(TestMechanisms.floatingBiped()).withoutModelConstraints().build().bindGeneric();
        assertFalse(new ConstrainedInverseDynamics(free, ActuationMap.allButFloatingBase(free.set().model()))
                .isFullyActuated(free.set().model().neutralConfiguration()));
        // Tripod: three point feet fix the floating base.
        assertTrue(tripod().isFullyActuated(TestMechanisms.randomQ(SolverTestSupport.tripod(), rnd)));
    }

    // ---------------------------------------------------------------- exact operator

    /** Koch eq. 5.20 as the document writes it: [H Gᵀ Sᵀ; G 0 0; S 0 0][v̇; -λ; -τ_a] = [-C; γ; S v̇*]. */
    @Test
    void exactMatchesTheDocumentsKktSystem() throws Exception {
        ConstrainedInverseDynamics id = fourBarCrank();
        ConstraintData set = id.constraintData();
        Random rnd = new Random(13);
        double worst = 0;
        double[] vdot = new double[3];
        double[] tau = new double[3];
        for (int n = 0; n < 100; n++) {
            double[] q = TestMechanisms.randomQ(set.set().model(), rnd);
            double[] v = TestMechanisms.random(3, 2, rnd);
            double[] des = TestMechanisms.random(3, 5, rnd);
            if (n % 3 == 0) {
                set.enableBaumgarte(0);
            }
            id.inverseDynamics(q, v, des, vdot, tau);
            SolverTestSupport.Terms t = new SolverTestSupport.Terms(set, q, v);
            DMatrixRMaj a = new DMatrixRMaj(6, 6);
            double[] rhs = new double[6];
            for (int i = 0; i < 3; i++) {
                for (int j = 0; j < 3; j++) {
                    a.set(i, j, t.h.get(i, j));
                }
                for (int r = 0; r < 2; r++) {
                    a.set(i, 3 + r, t.g.get(r, i));
                    a.set(3 + r, i, t.g.get(r, i));
                }
                rhs[i] = -t.c[i];
            }
            a.set(0, 5, 1); // Sᵀ: the crank is dof 0
            a.set(5, 0, 1);
            rhs[3] = t.gamma[0];
            rhs[4] = t.gamma[1];
            rhs[5] = des[0];
            double[] x = SolverTestSupport.solve(a, rhs);
            worst = Math.max(worst, SolverTestSupport.rel(new double[] {x[0], x[1], x[2]}, vdot, 1e-6));
            worst = Math.max(worst, SolverTestSupport.rel(new double[] {-x[3], -x[4]}, set.force(), 1e-6));
            worst = Math.max(worst, SolverTestSupport.rel(new double[] {-x[5], 0, 0}, tau, 1e-6));
            assertEquals(des[0], vdot[0], 1e-12 * Math.max(1, Math.abs(des[0])));
            set.disableBaumgarte(0);
        }
        System.out.printf("exact inverse dynamics vs Koch's KKT (four-bar): worst relative %.2e%n", worst);
        assertTrue(worst <= 1e-9, "exact vs KKT " + worst);
    }

    /** Forward dynamics with actuated forces only, then the exact operator on its v̇, gives back τ and λ. */
    @Test
    void exactInvertsForwardDynamics() throws Exception {
        ConstrainedInverseDynamics id = fourBarCrank();
        ConstraintData set = id.constraintData();
        ConstrainedDynamics fd = new ConstrainedDynamics(set);
        Random rnd = new Random(17);
        double worst = 0;
        double[] vdotFd = new double[3];
        double[] vdot = new double[3];
        double[] tau = new double[3];
        for (int n = 0; n < 100; n++) {
            double[] q = TestMechanisms.randomQ(set.set().model(), rnd);
            double[] v = TestMechanisms.random(3, 2, rnd);
            double[] tauIn = {(rnd.nextDouble() * 2 - 1) * 20, 0, 0};
            fd.forwardDynamicsDirect(q, v, tauIn, vdotFd);
            double[] lambdaFd = set.force().clone();
            id.inverseDynamics(q, v, vdotFd, vdot, tau);
            worst = Math.max(worst, SolverTestSupport.rel(vdotFd, vdot, 1e-6));
            worst = Math.max(worst, SolverTestSupport.rel(tauIn, tau, 1e-6));
            worst = Math.max(worst, SolverTestSupport.rel(lambdaFd, set.force(), 1e-6));
        }
        System.out.printf("exact inverse dynamics inverts forward dynamics (four-bar): worst relative %.2e%n", worst);
        assertTrue(worst <= 1e-9, "round trip " + worst);
    }

    /**
     * More independent rows than unactuated dofs (tripod: 9 rows, n_u = 6; four-bar fully driven: 2 rows, n_u = 0):
     * v̇ solves min ½‖S (v̇ - v̇_des)‖² s.t. G v̇ = γ (dense KKT), λ is the least-norm one (in the range of G Pᵀ) and
     * the equations of motion hold; a consistent v̇_des is reproduced.
     */
    @Test
    void exactOverconstrainedSolvesItsQp() throws Exception {
        ConstraintData fb = ConstraintSet.of(TestMechanisms.fourBar()).bindGeneric();
        List<ConstrainedInverseDynamics> ops = List.of(tripod(),
                new ConstrainedInverseDynamics(fb, ActuationMap.allActuated(fb.set().model())));
        Random rnd = new Random(19);
        double worst = 0;
        double worstEom = 0;
        for (ConstrainedInverseDynamics id : ops) {
            ConstraintData set = id.constraintData();
            ActuationMap map = id.actuation();
            int nv = set.nv();
            int m = set.size();
            DMatrixRMaj s = map.selectionMatrix();
            DMatrixRMaj sts = new DMatrixRMaj(nv, nv);
            CommonOps_DDRM.multTransA(s, s, sts);
            ConstrainedDynamics fd = new ConstrainedDynamics(set);
            double[] vdot = new double[nv];
            double[] tau = new double[nv];
            for (int n = 0; n < 40; n++) {
                double[] q = TestMechanisms.randomQ(set.set().model(), rnd);
                double[] v = TestMechanisms.random(nv, 2, rnd);
                double[] des = TestMechanisms.random(nv, 5, rnd);
                id.inverseDynamics(q, v, des, vdot, tau);
                double[] lambda = set.force().clone();
                SolverTestSupport.Terms t = new SolverTestSupport.Terms(set, q, v);
                DMatrixRMaj a = new DMatrixRMaj(nv + m, nv + m);
                double[] rhs = new double[nv + m];
                for (int i = 0; i < nv; i++) {
                    for (int j = 0; j < nv; j++) {
                        a.set(i, j, sts.get(i, j));
                    }
                    for (int r = 0; r < m; r++) {
                        a.set(i, nv + r, t.g.get(r, i));
                        a.set(nv + r, i, t.g.get(r, i));
                    }
                    rhs[i] = map.isActuated(i) ? des[i] : 0;
                }
                for (int r = 0; r < m; r++) {
                    rhs[nv + r] = t.gamma[r];
                }
                double[] x = SolverTestSupport.solve(a, rhs);
                worst = Math.max(worst, SolverTestSupport.rel(java.util.Arrays.copyOf(x, nv), vdot, 1e-6));
                // λ in the range of B = G Pᵀ: λ = B B⁺ λ (B⁺ by least squares).
                DMatrixRMaj b = gpt(t.g, map);
                if (b.numCols > 0) {
                    DMatrixRMaj coef = new DMatrixRMaj(b.numCols, 1);
                    CommonOps_DDRM.solve(b, new DMatrixRMaj(m, 1, true, lambda), coef);
                    DMatrixRMaj proj = new DMatrixRMaj(m, 1);
                    CommonOps_DDRM.mult(b, coef, proj);
                    worst = Math.max(worst, SolverTestSupport.rel(lambda, proj.data, 1e-6));
                } else {
                    assertEquals(0, TestMechanisms.maxAbs(lambda));
                }
                worstEom = Math.max(worstEom, eomResidual(t, vdot, tau, lambda, map));
                // A consistent v̇_des (from forward dynamics under actuator forces) is reproduced exactly.
                double[] tauIn = TestMechanisms.random(nv, 10, rnd);
                for (int i = 0; i < nv; i++) {
                    tauIn[i] = map.isActuated(i) ? tauIn[i] : 0;
                }
                double[] vdotFd = new double[nv];
                fd.forwardDynamicsDirect(q, v, tauIn, vdotFd);
                id.inverseDynamics(q, v, vdotFd, vdot, tau);
                worst = Math.max(worst, SolverTestSupport.rel(vdotFd, vdot, 1e-6));
                worstEom = Math.max(worstEom, eomResidual(t, vdot, tau, set.force(), map));
            }
        }
        System.out.printf("exact inverse dynamics, over-constrained: worst relative %.2e vs QP, EoM residual %.2e%n",
                worst, worstEom);
        assertTrue(worst <= 1e-9, "over-constrained " + worst);
        assertTrue(worstEom <= 1e-11, "equations of motion " + worstEom);
    }

    /** max(|H v̇ + C - τ - Gᵀ λ|, |G v̇ - γ|, |τ on unactuated dofs|) relative to the size of the terms. */
    private static double eomResidual(SolverTestSupport.Terms t, double[] vdot, double[] tau, double[] lambda,
            ActuationMap map) {
        double[] hv = TestMechanisms.mult(t.h, vdot);
        double[] gl = TestMechanisms.multTrans(t.g, lambda);
        double scale = Math.max(1, Math.max(TestMechanisms.maxAbs(hv), Math.max(TestMechanisms.maxAbs(t.c),
                Math.max(TestMechanisms.maxAbs(tau), TestMechanisms.maxAbs(gl)))));
        double worst = 0;
        for (int i = 0; i < hv.length; i++) {
            worst = Math.max(worst, Math.abs(hv[i] + t.c[i] - tau[i] - gl[i]) / scale);
            if (!map.isActuated(i)) {
                worst = Math.max(worst, Math.abs(tau[i]) / scale);
            }
        }
        double[] gv = TestMechanisms.mult(t.g, vdot);
        double cs = Math.max(1, Math.max(TestMechanisms.maxAbs(gv), TestMechanisms.maxAbs(t.gamma)));
        return Math.max(worst, TestMechanisms.maxDiff(gv, t.gamma) / cs);
    }

    // ---------------------------------------------------------------- relaxed operator

    private static List<ConstrainedInverseDynamics> relaxedCases() throws Exception {
        ConstraintData biped = SolverPropertyTest.bipedSet().bindGeneric();
        return List.of(planarLegWithFreeBase(), fourBarCrank(), tripod(),
                new ConstrainedInverseDynamics(biped, ActuationMap.allButFloatingBase(biped.set().model())));
    }

    /**
     * The document's QP, min ½ v̇ᵀ H v̇ + Cᵀ v̇ + ½ (u* - S v̇)ᵀ W (u* - S v̇) s.t. G v̇ = γ with u* = S x + W⁻¹ S C,
     * solved as a dense KKT system from its Hessian and gradient; and checked against feasible perturbations.
     */
    @Test
    void relaxedSolvesItsDefiningQp() throws Exception {
        Random rnd = new Random(23);
        double worst = 0;
        double worstEom = 0;
        double worstFd = 0;
        int checked = 0;
        for (ConstrainedInverseDynamics id : relaxedCases()) {
            ConstraintData set = id.constraintData();
            ActuationMap map = id.actuation();
            int nv = set.nv();
            int m = set.size();
            int na = map.actuatedCount();
            ConstrainedDynamics fd = new ConstrainedDynamics(set);
            double[] vdot = new double[nv];
            double[] tau = new double[nv];
            double[] vdotOther = new double[nv];
            double[] tauOther = new double[nv];
            double[] vdotFd = new double[nv];
            for (int n = 0; n < 30; n++) {
                double[] q = TestMechanisms.randomQ(set.set().model(), rnd);
                double[] v = TestMechanisms.random(nv, 2, rnd);
                double[] x = TestMechanisms.random(nv, 5, rnd);
                double[] fixed = null;
                if (n % 3 == 2) {
                    fixed = TestMechanisms.random(na, 1, rnd);
                    for (int k = 0; k < na; k++) {
                        fixed[k] = 0.5 + Math.abs(fixed[k]) * (n % 2 == 0 ? 10 : 1000);
                    }
                }
                id.setRelaxedWeights(fixed);
                id.setRelaxedMethod(ConstraintSolverMethod.NULL_SPACE);
                id.inverseDynamicsRelaxed(q, v, x, vdot, tau);
                double[] lambda = set.force().clone();
                double[] w = id.lastRelaxedWeights().clone();
                SolverTestSupport.Terms t = new SolverTestSupport.Terms(set, q, v);
                if (fixed == null) {
                    double max = 0;
                    for (double e : t.h.data) {
                        max = Math.max(max, Math.abs(e));
                    }
                    for (int k = 0; k < na; k++) {
                        assertEquals(100 * max, w[k], 1e-12 * max);
                    }
                } else {
                    assertArrayEquals(fixed, w);
                }
                // Hessian H + SᵀWS, gradient at 0: C - SᵀW u*.
                double[] uStar = new double[nv];
                DMatrixRMaj a = new DMatrixRMaj(nv + m, nv + m);
                double[] rhs = new double[nv + m];
                for (int i = 0; i < nv; i++) {
                    for (int j = 0; j < nv; j++) {
                        a.set(i, j, t.h.get(i, j));
                    }
                    rhs[i] = -t.c[i];
                    for (int r = 0; r < m; r++) {
                        a.set(i, nv + r, t.g.get(r, i));
                        a.set(nv + r, i, t.g.get(r, i));
                    }
                }
                for (int k = 0; k < na; k++) {
                    int j = map.actuatedDof(k);
                    uStar[j] = x[j] + t.c[j] / w[k];
                    a.set(j, j, a.get(j, j) + w[k]);
                    rhs[j] += w[k] * uStar[j];
                }
                for (int r = 0; r < m; r++) {
                    rhs[nv + r] = t.gamma[r];
                }
                double[] sol = SolverTestSupport.solve(a, rhs);
                double[] vRef = java.util.Arrays.copyOf(sol, nv);
                double[] lRef = new double[m];
                for (int r = 0; r < m; r++) {
                    lRef[r] = -sol[nv + r];
                }
                double[] tRef = new double[nv];
                for (int k = 0; k < na; k++) {
                    int j = map.actuatedDof(k);
                    tRef[j] = w[k] * (uStar[j] - vRef[j]);
                }
                worst = Math.max(worst, SolverTestSupport.rel(vRef, vdot, 1e-6));
                worst = Math.max(worst, SolverTestSupport.rel(lRef, lambda, 1e-6));
                worst = Math.max(worst, SolverTestSupport.rel(tRef, tau, 1e-6));
                worstEom = Math.max(worstEom, eomResidual(t, vdot, tau, lambda, map));
                // Optimality: no feasible direction lowers the cost.
                double cost = relaxedCost(t, map, w, uStar, vdot);
                DMatrixRMaj z = nullSpace(t.g);
                for (int trial = 0; trial < 5; trial++) {
                    double[] d = TestMechanisms.mult(z, TestMechanisms.random(z.numCols, 1e-3, rnd));
                    double[] moved = vdot.clone();
                    for (int i = 0; i < nv; i++) {
                        moved[i] += d[i];
                    }
                    assertTrue(relaxedCost(t, map, w, uStar, moved) >= cost - 1e-9 * Math.abs(cost));
                }
                // Every method gives the same answer.
                for (ConstraintSolverMethod method : ConstraintSolverMethod.values()) {
                    id.setRelaxedMethod(method);
                    id.inverseDynamicsRelaxed(q, v, x, vdotOther, tauOther);
                    worst = Math.max(worst, SolverTestSupport.rel(vdot, vdotOther, 1e-6));
                    worst = Math.max(worst, SolverTestSupport.rel(tau, tauOther, 1e-6));
                    worst = Math.max(worst, SolverTestSupport.rel(lambda, set.force(), 1e-6));
                }
                // Physically consistent: forward dynamics under τ gives v̇ and λ back.
                fd.forwardDynamicsDirect(q, v, tau, vdotFd);
                worstFd = Math.max(worstFd, SolverTestSupport.rel(vdot, vdotFd, 1e-6));
                worstFd = Math.max(worstFd, SolverTestSupport.rel(lambda, set.force(), 1e-6));
                checked++;
            }
        }
        System.out.printf("relaxed inverse dynamics vs its QP's KKT: worst relative %.2e; EoM residual %.2e;"
                + " forward dynamics under τ %.2e (%d states)%n", worst, worstEom, worstFd, checked);
        assertTrue(worst <= 1e-9, "relaxed vs QP " + worst);
        assertTrue(worstEom <= 1e-11, "relaxed equations of motion " + worstEom);
        assertTrue(worstFd <= 1e-9, "relaxed vs forward dynamics " + worstFd);
    }

    private static double relaxedCost(SolverTestSupport.Terms t, ActuationMap map, double[] w, double[] uStar,
            double[] vdot) {
        double[] hv = TestMechanisms.mult(t.h, vdot);
        double cost = 0;
        for (int i = 0; i < vdot.length; i++) {
            cost += 0.5 * vdot[i] * hv[i] + t.c[i] * vdot[i];
        }
        for (int k = 0; k < map.actuatedCount(); k++) {
            int j = map.actuatedDof(k);
            double d = uStar[j] - vdot[j];
            cost += 0.5 * w[k] * d * d;
        }
        return cost;
    }

    private static DMatrixRMaj nullSpace(DMatrixRMaj g) {
        SingularValueDecomposition_F64<DMatrixRMaj> svd = DecompositionFactory_DDRM.svd(g.numRows, g.numCols,
                false, true, false);
        assertTrue(svd.decompose(g.copy()));
        return SingularOps_DDRM.nullSpace(svd, null, 1e-12);
    }

    /** With stiff weights on a fully actuated system the relaxed operator approaches the exact one. */
    @Test
    void relaxedApproachesExactWithStiffWeights() throws Exception {
        ConstrainedInverseDynamics id = fourBarCrank();
        ConstraintData set = id.constraintData();
        Random rnd = new Random(29);
        double[] vdot = new double[3];
        double[] tau = new double[3];
        double[] vdotExact = new double[3];
        double[] tauExact = new double[3];
        double previous = Double.POSITIVE_INFINITY;
        for (double factor : new double[] {1e2, 1e4, 1e6}) {
            id.setRelaxedWeightFactor(factor);
            double worst = 0;
            for (int n = 0; n < 20; n++) {
                double[] q = TestMechanisms.randomQ(set.set().model(), rnd);
                double[] v = TestMechanisms.random(3, 2, rnd);
                double[] des = TestMechanisms.random(3, 5, rnd);
                id.inverseDynamics(q, v, des, vdotExact, tauExact);
                id.inverseDynamicsRelaxed(q, v, des, vdot, tau);
                worst = Math.max(worst, SolverTestSupport.rel(vdotExact, vdot, 1));
            }
            assertTrue(worst < previous, "relaxed error should shrink with the weights");
            previous = worst;
        }
        assertTrue(previous <= 1e-4, "relaxed with W = 1e6 max|H| vs exact " + previous);
    }

    // ---------------------------------------------------------------- dependent rows

    @Test
    void dependentRowsAreNamedOrDropped() throws Exception {
        double[] x = {0, 0, 0, 1, 0, 0};
        double[] y = {0, 0, 0, 0, 1, 0};
        ConstraintData dup = ConstraintSet.of(TestMechanisms.fourBarWithAxes(x, y, x)).bindGeneric();
        ConstrainedInverseDynamics id = new ConstrainedInverseDynamics(dup,
                ActuationMap.ofJoints(dup.set().model(), "crank_joint"));
        Random rnd = new Random(31);
        double[] q = TestMechanisms.randomQ(dup.set().model(), rnd);
        double[] v = TestMechanisms.random(3, 1, rnd);
        double[] des = TestMechanisms.random(3, 3, rnd);
        double[] vdot = new double[3];
        double[] tau = new double[3];
        ConstraintRankException e = assertThrows(ConstraintRankException.class,
                () -> id.inverseDynamics(q, v, des, vdot, tau));
        assertTrue(e.involvedRows().contains("closure[0]") && e.involvedRows().contains("closure[2]"),
                e.getMessage());
        e = assertThrows(ConstraintRankException.class, () -> id.inverseDynamicsRelaxed(q, v, des, vdot, tau));
        assertTrue(e.involvedRows().contains("closure[2]"), e.getMessage());
        dup.settings().rankPolicy(SolverSettings.RankPolicy.DROP_DEPENDENT_ROWS);
        ConstrainedInverseDynamics ref = fourBarCrank();
        double[] vdotRef = new double[3];
        double[] tauRef = new double[3];
        id.inverseDynamics(q, v, des, vdot, tau);
        ref.inverseDynamics(q, v, des, vdotRef, tauRef);
        assertTrue(SolverTestSupport.rel(vdotRef, vdot, 1e-6) <= 1e-9);
        assertTrue(SolverTestSupport.rel(tauRef, tau, 1e-6) <= 1e-9);
        id.inverseDynamicsRelaxed(q, v, des, vdot, tau);
        ref.inverseDynamicsRelaxed(q, v, des, vdotRef, tauRef);
        assertTrue(SolverTestSupport.rel(vdotRef, vdot, 1e-6) <= 1e-9);
        assertTrue(SolverTestSupport.rel(tauRef, tau, 1e-6) <= 1e-9);
    }

    @Test
    void doesNotAllocate() throws Exception {
        ConstrainedInverseDynamics id = tripod();
        ConstrainedInverseDynamics leg = planarLegWithFreeBase();
        ConstrainedInverseDynamics fb = fourBarCrank();
        Random rnd = new Random(37);
        Model model = id.constraintData().set().model();
        double[] q = TestMechanisms.randomQ(model, rnd);
        double[] v = TestMechanisms.random(12, 1, rnd);
        double[] des = TestMechanisms.random(12, 3, rnd);
        double[] vdot = new double[12];
        double[] tau = new double[12];
        double[] ql = TestMechanisms.randomQ(leg.constraintData().set().model(), rnd);
        double[] vl = TestMechanisms.random(5, 1, rnd);
        double[] xl = TestMechanisms.random(5, 1, rnd);
        double[] out5 = new double[5];
        double[] tau5 = new double[5];
        double[] qf = {0.3, 0.5, -0.7};
        double[] vf = {0.1, -0.2, 0.3};
        double[] desf = {1, 2, 3};
        double[] out3 = new double[3];
        double[] tau3 = new double[3];
        long bytes = SolverTestSupport.allocatedBytes(2000, () -> {
            id.isFullyActuated(q);
            id.inverseDynamics(q, v, des, vdot, tau);
            id.inverseDynamicsRelaxed(q, v, des, vdot, tau);
            leg.isFullyActuated(ql);
            leg.inverseDynamicsRelaxed(ql, vl, xl, out5, tau5);
            fb.inverseDynamics(qf, vf, desf, out3, tau3);
        });
        assertTrue(bytes < 4096, "allocated " + bytes + " bytes");
    }
}
