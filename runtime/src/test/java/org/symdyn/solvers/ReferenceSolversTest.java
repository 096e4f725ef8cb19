package org.symdyn.solvers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.constraints.ConstraintSet;
import org.symdyn.constraints.SolverSettings;
import org.symdyn.constraints.TestMechanisms;
import org.symdyn.model.Model;
import org.symdyn.testing.SharedFiles;
import org.symdyn.testing.TestJson;

/**
 * Constrained forward dynamics, impulses, Baumgarte stabilisation and assembly against RBDL's values (cross-checked
 * with Simbody) in shared/reference/fourbar.json and planar_leg_contact.json, at the README's 1e-9 relative
 * tolerance, for every method and every linear-solver choice. λ and Λ of every method are compared with RBDL's
 * direct values (its null-space multipliers are wrong; its range-space impulse has the opposite sign).
 */
class ReferenceSolversTest {
    private static final double TOL = 1e-9;
    /** Worst relative error per quantity over all tests of this class (printed for the report). */
    private static final Map<String, Double> WORST = new TreeMap<>();

    @AfterAll
    static void printWorst() {
        WORST.forEach((k, v) -> System.out.printf("worst relative error %-40s %.2e%n", k, v));
    }

    private static void check(String quantity, double[] expected, double[] actual) {
        assertEquals(expected.length, actual.length, quantity + " length");
        double scale = TestMechanisms.maxAbs(expected);
        double rel = TestMechanisms.maxDiff(expected, actual) / (scale > 0 ? scale : 1);
        WORST.merge(quantity, rel, Math::max);
        assertTrue(rel <= TOL, quantity + ": relative error " + rel + "\n expected " + java.util.Arrays.toString(
                expected) + "\n actual   " + java.util.Arrays.toString(actual));
    }

    private static final SolverSettings.KktSolver[] KKT = SolverSettings.KktSolver.values();
    private static final SolverSettings.SpdSolver[] SPD = SolverSettings.SpdSolver.values();

    /** One bound set per linear-solver combination (LU+Cholesky, QR+LDLᵀ), so both of each are exercised. */
    private static List<ConstraintData> sets(Model model) {
        ConstraintData a = ConstraintSet.of(model).bindGeneric();
        ConstraintData b = ConstraintSet.of(model).bindGeneric();
        a.settings().kktSolver(KKT[0]).spdSolver(SPD[0]);
        b.settings().kktSolver(KKT[1]).spdSolver(SPD[1]);
        return List.of(a, b);
    }

    private static void checkDynamics(String prefix, ConstraintData set, double[] q, double[] v, double[] tau,
            Map<String, Object> direct) {
        ConstrainedDynamics fd = new ConstrainedDynamics(set);
        double[] vdot = new double[set.nv()];
        for (ConstraintSolverMethod method : ConstraintSolverMethod.values()) {
            fd.forwardDynamics(method, q, v, tau, vdot);
            String what = prefix + " " + method + " " + set.settings().kktSolver() + "/" + set.settings().spdSolver();
            check(prefix + " qddot", TestJson.vector(direct.get("qddot")), vdot);
            check(prefix + " lambda", TestJson.vector(direct.get("lambda")), set.force().clone());
            assertEquals(set.size(), fd.systemSolver().lastRank(), what);
        }
    }

    private static void checkImpulses(String prefix, ConstraintData set, double[] q, double[] vMinus,
            double[] target, Map<String, Object> direct) {
        ImpulseSolver solver = new ImpulseSolver(set);
        System.arraycopy(target, 0, set.impulseTarget(), 0, target.length);
        double[] vPlus = new double[set.nv()];
        for (ConstraintSolverMethod method : ConstraintSolverMethod.values()) {
            solver.solve(method, q, vMinus, vPlus);
            check(prefix + " impulse qdot_plus", TestJson.vector(direct.get("qdot_plus")), vPlus);
            check(prefix + " impulse Lambda", TestJson.vector(direct.get("impulse")), set.impulse().clone());
        }
    }

    @Test
    void fourBarDynamicsImpulsesAndBaumgarte() throws Exception {
        Path file = SharedFiles.require("reference/fourbar.json");
        Map<String, Object> ref = TestJson.object(TestJson.parse(file));
        Model model = TestMechanisms.fourBar();
        int samples = 0;
        for (ConstraintData set : sets(model)) {
            for (Object o : TestJson.list(ref.get("samples"))) {
                Map<String, Object> s = TestJson.object(o);
                Map<String, Object> cs = TestJson.object(s.get("consistent_state"));
                double[] q = TestJson.vector(cs.get("q"));
                double[] v = TestJson.vector(cs.get("qdot"));
                double[] tau = TestJson.vector(cs.get("tau"));
                set.disableBaumgarte(0);
                checkDynamics("fourbar consistent", set, q, v, tau, TestJson.object(cs.get("fd_direct")));
                checkImpulses("fourbar", set, q, TestJson.vector(cs.get("impulse_qdot_minus")),
                        TestJson.vector(cs.get("impulse_v_plus")), TestJson.object(cs.get("impulse_direct")));

                Map<String, Object> in = TestJson.object(s.get("inconsistent_state"));
                double[] qi = TestJson.vector(in.get("q"));
                double[] vi = TestJson.vector(in.get("qdot"));
                double[] ti = TestJson.vector(in.get("tau"));
                Map<String, Object> off = TestJson.object(in.get("baumgarte_off"));
                checkDynamics("fourbar baumgarte off", set, qi, vi, ti, TestJson.object(off.get("fd_direct")));

                Map<String, Object> on = TestJson.object(in.get("baumgarte_on_Tstab_0.1"));
                set.setBaumgarteTimeConstant(0, 0.1);
                set.enableBaumgarte(0);
                double[] coefficients = {set.baumgarteAlpha(0), set.baumgarteBeta(0)};
                assertEquals((Double) on.get("baumgarte_alpha"), coefficients[0], 1e-12);
                assertEquals((Double) on.get("baumgarte_beta"), coefficients[1], 1e-12);
                set.computeSystem(qi, vi);
                check("fourbar baumgarte on gamma", TestJson.vector(on.get("gamma")), set.gamma().clone());
                checkDynamics("fourbar baumgarte on", set, qi, vi, ti, TestJson.object(on.get("fd_direct")));
                set.disableBaumgarte(0);
                samples++;
            }
        }
        assertTrue(samples >= 2);
    }

    @Test
    void planarLegDynamicsAndImpulses() throws Exception {
        Path file = SharedFiles.require("reference/planar_leg_contact.json");
        Map<String, Object> ref = TestJson.object(TestJson.parse(file));
        Model model = TestMechanisms.planarLeg();
        int samples = 0;
        for (ConstraintData set : sets(model)) {
            for (Object o : TestJson.list(ref.get("samples"))) {
                Map<String, Object> s = TestJson.object(o);
                double[] q = TestJson.vector(s.get("q"));
                double[] v = TestJson.vector(s.get("qdot"));
                double[] tau = TestJson.vector(s.get("tau"));
                checkDynamics("leg", set, q, v, tau, TestJson.object(s.get("fd_direct")));
                checkImpulses("leg", set, q, TestJson.vector(s.get("impulse_qdot_minus")),
                        TestJson.vector(s.get("impulse_v_plus")), TestJson.object(s.get("impulse_direct")));
                samples++;
            }
        }
        assertTrue(samples >= 2);
    }

    @Test
    void fourBarAssembly() throws Exception {
        Path file = SharedFiles.require("reference/fourbar.json");
        Map<String, Object> ref = TestJson.object(TestJson.parse(file));
        for (ConstraintData set : sets(TestMechanisms.fourBar())) {
            Assembly assembly = new Assembly(set);
            for (Object o : TestJson.list(ref.get("samples"))) {
                Map<String, Object> s = TestJson.object(o);
                Map<String, Object> aq = TestJson.object(s.get("assembly_q"));
                double[] qOut = new double[3];
                boolean ok = assembly.assembleQ(TestJson.vector(aq.get("q_init")),
                        TestJson.vector(aq.get("weights")), (Double) aq.get("tolerance"),
                        (int) (double) (Double) aq.get("max_iter"), qOut);
                assertEquals(aq.get("success"), ok);
                check("fourbar assembly q_out", TestJson.vector(aq.get("q_out")), qOut);
                assertTrue(assembly.lastError() < 1e-12, "error " + assembly.lastError());
                double[] phi = new double[2];
                set.positionError(TestJson.vector(aq.get("q_init")), phi);
                check("fourbar position error at q_init", TestJson.vector(aq.get("position_error_at_q_init")), phi);

                Map<String, Object> av = TestJson.object(s.get("assembly_qdot"));
                double[] vOut = new double[3];
                assembly.assembleV(TestJson.vector(av.get("q")), TestJson.vector(av.get("qdot_init")),
                        TestJson.vector(av.get("weights")), vOut);
                check("fourbar assembly qdot_out", TestJson.vector(av.get("qdot_out")), vOut);
            }
        }
    }

    @Test
    void planarLegVelocityAssembly() throws Exception {
        Path file = SharedFiles.require("reference/planar_leg_contact.json");
        Map<String, Object> ref = TestJson.object(TestJson.parse(file));
        for (ConstraintData set : sets(TestMechanisms.planarLeg())) {
            Assembly assembly = new Assembly(set);
            for (Object o : TestJson.list(ref.get("samples"))) {
                Map<String, Object> s = TestJson.object(o);
                Map<String, Object> av = TestJson.object(s.get("assembly_qdot"));
                double[] vOut = new double[5];
                assembly.assembleV(TestJson.vector(s.get("q")), TestJson.vector(av.get("qdot_init")),
                        TestJson.vector(av.get("weights")), vOut);
                check("leg assembly qdot_out", TestJson.vector(av.get("qdot_out")), vOut);
            }
        }
    }
}
