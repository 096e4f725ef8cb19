package org.symdyn.solvers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.junit.jupiter.api.Test;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.constraints.ConstraintSet;
import org.symdyn.constraints.SolverSettings;
import org.symdyn.constraints.TestMechanisms;
import org.symdyn.model.Model;

/** Kokkevis' method against the direct (KKT) method on the planar leg and floating-base models with 2-9 rows. */
class KokkevisContactDynamicsTest {
    private static final double[] X = {1, 0, 0};
    private static final double[] Y = {0, 1, 0};
    private static final double[] Z = {0, 0, 1};

    private static List<ConstraintData> sets() throws Exception {
        return List.of(ConstraintSet.of(TestMechanisms.planarLeg()).bindGeneric(),
                // Floating base, 2 rows on two feet; 4 rows (one foot in x, y, z and the other in z); 9 rows.
                SolverTestSupport.bipedContacts(true, Z).bindGeneric(),
                SolverTestSupport.bipedContacts(true, X, Y, Z).bindGeneric(),
                SolverTestSupport.bipedContacts(false, new double[] {0, 0.6, 0.8}, new double[] {0.8, -0.36, 0.48})
                        .bindGeneric(),
                SolverTestSupport.tripodSet().bindGeneric());
    }

    @Test
    void matchesDirectMethodOnRandomStates() throws Exception {
        Random rnd = new Random(41);
        double worstVdot = 0;
        double worstLambda = 0;
        double worstK = 0;
        int checked = 0;
        for (ConstraintData set : sets()) {
            Model model = set.set().model();
            int nv = model.nv();
            int m = set.size();
            KokkevisContactDynamics kok = new KokkevisContactDynamics(set);
            ConstrainedDynamics direct = new ConstrainedDynamics(set);
            double[] vdot = new double[nv];
            double[] ref = new double[nv];
            for (int n = 0; n < 40; n++) {
                double[] q = TestMechanisms.randomQ(model, rnd);
                double[] v = TestMechanisms.random(nv, 2, rnd);
                double[] tau = TestMechanisms.random(nv, 10, rnd);
                if (n % 4 == 1) {
                    set.enableBaumgarte(n % set.set().groupCount());
                }
                direct.forwardDynamicsDirect(q, v, tau, ref);
                double[] lref = set.force().clone();
                kok.forwardDynamics(q, v, tau, vdot);
                worstVdot = Math.max(worstVdot, SolverTestSupport.rel(ref, vdot, 1e-6));
                worstLambda = Math.max(worstLambda, SolverTestSupport.rel(lref, set.force(), 1e-6));
                // K = G H⁻¹ Gᵀ
                SolverTestSupport.Terms t = new SolverTestSupport.Terms(set, q, v);
                DMatrixRMaj hinvGt = new DMatrixRMaj(nv, m);
                DMatrixRMaj gt = new DMatrixRMaj(nv, m);
                CommonOps_DDRM.transpose(t.g, gt);
                CommonOps_DDRM.solve(t.h, gt, hinvGt);
                DMatrixRMaj k = new DMatrixRMaj(m, m);
                CommonOps_DDRM.mult(t.g, hinvGt, k);
                worstK = Math.max(worstK, SolverTestSupport.rel(k.data, kok.kokkevisMatrix().data, 1e-6));
                for (int g = 0; g < set.set().groupCount(); g++) {
                    set.disableBaumgarte(g);
                }
                checked++;
            }
        }
        System.out.printf("Kokkevis vs direct: worst relative v̇ %.2e, λ %.2e, K vs G H⁻¹ Gᵀ %.2e (%d states)%n",
                worstVdot, worstLambda, worstK, checked);
        assertTrue(worstVdot <= 1e-9, "v̇ " + worstVdot);
        assertTrue(worstLambda <= 1e-9, "λ " + worstLambda);
        assertTrue(worstK <= 1e-10, "K " + worstK);
        assertEquals(200, checked);
    }

    @Test
    void refusesOtherConstraintTypesByName() throws Exception {
        ConstraintData fourBar = ConstraintSet.of(TestMechanisms.fourBar()).bindGeneric();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new KokkevisContactDynamics(fourBar));
        assertTrue(e.getMessage().contains("contact constraints only") && e.getMessage().contains("'closure'")
                && e.getMessage().contains("LOOP"), e.getMessage());
        ConstraintData biped = SolverPropertyTest.bipedSet().bindGeneric();
        e = assertThrows(IllegalArgumentException.class, () -> new KokkevisContactDynamics(biped));
        assertTrue(e.getMessage().contains("'hips'") && e.getMessage().contains("COUPLER"), e.getMessage());
    }

    @Test
    void dependentRowsAreNamedOrDropped() throws Exception {
        // The left foot held along x twice (and along z): rows left0 and left2 are identical.
        ConstraintData set = SolverTestSupport.bipedContacts(true, X, Z, X).bindGeneric();
        KokkevisContactDynamics kok = new KokkevisContactDynamics(set);
        Random rnd = new Random(7);
        Model model = set.set().model();
        double[] q = TestMechanisms.randomQ(model, rnd);
        double[] v = TestMechanisms.random(10, 1, rnd);
        double[] tau = TestMechanisms.random(10, 5, rnd);
        double[] vdot = new double[10];
        ConstraintRankException e = assertThrows(ConstraintRankException.class,
                () -> kok.forwardDynamics(q, v, tau, vdot));
        assertTrue(e.involvedRows().contains("left0") && e.involvedRows().contains("left2"), e.getMessage());
        // Without the rank check the failed factorisation is diagnosed the same way.
        set.settings().rankCheck(false);
        e = assertThrows(ConstraintRankException.class, () -> kok.forwardDynamics(q, v, tau, vdot));
        assertTrue(e.involvedRows().contains("left0") && e.involvedRows().contains("left2"), e.getMessage());
        set.settings().rankCheck(true).rankPolicy(SolverSettings.RankPolicy.DROP_DEPENDENT_ROWS);
        kok.forwardDynamics(q, v, tau, vdot);
        assertEquals(3, kok.lastRank());
        double[] ref = new double[10];
        new ConstrainedDynamics(set).forwardDynamicsDirect(q, v, tau, ref);
        assertTrue(SolverTestSupport.rel(ref, vdot, 1e-6) <= 1e-9);
        // The multipliers of one valid split: Gᵀ λ agrees with the direct method's.
        SolverTestSupport.Terms t = new SolverTestSupport.Terms(set, q, v);
        double[] lk = set.force().clone();
        new ConstrainedDynamics(set).forwardDynamicsDirect(q, v, tau, ref);
        assertTrue(SolverTestSupport.rel(TestMechanisms.multTrans(t.g, set.force()), TestMechanisms.multTrans(t.g,
                lk), 1e-6) <= 1e-9);
    }

    @Test
    void nonFiniteInputIsReported() throws Exception {
        ConstraintData set = ConstraintSet.of(TestMechanisms.planarLeg()).bindGeneric();
        KokkevisContactDynamics kok = new KokkevisContactDynamics(set);
        double[] q = set.set().model().neutralConfiguration();
        double[] tau = new double[5];
        tau[3] = Double.NaN;
        assertThrows(ArithmeticException.class, () -> kok.forwardDynamics(q, new double[5], tau, new double[5]));
    }

    @Test
    void doesNotAllocate() throws Exception {
        ConstraintData set = SolverTestSupport.tripodSet().bindGeneric();
        set.enableBaumgarte(1);
        KokkevisContactDynamics kok = new KokkevisContactDynamics(set);
        Random rnd = new Random(2);
        Model model = set.set().model();
        double[] q = TestMechanisms.randomQ(model, rnd);
        double[] v = TestMechanisms.random(model.nv(), 1, rnd);
        double[] tau = TestMechanisms.random(model.nv(), 5, rnd);
        double[] vdot = new double[model.nv()];
        long bytes = SolverTestSupport.allocatedBytes(1000, () -> kok.forwardDynamics(q, v, tau, vdot));
        assertTrue(bytes < 4096, "allocated " + bytes + " bytes");
    }
}
