package org.symdyn.solvers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.constraints.ConstraintSet;
import org.symdyn.constraints.SolverSettings;
import org.symdyn.constraints.TestMechanisms;
import org.symdyn.model.Model;

/**
 * KKT residuals and agreement of the three methods (and both factorisation choices) on random states of a 3-D
 * mechanism (loop, contact, coupler, ball joint), a floating biped with contacts and a coupler added in code, and
 * the four-bar; impulses likewise.
 */
class SolverPropertyTest {
    private static final double[] FOOT = {0, 0, -0.3};

    /** Floating biped: left foot held in x, y, z; right foot in z; hips mirrored by a coupler (5 rows, nv 10). */
    static ConstraintSet bipedSet() throws Exception {
        ConstraintSet.Builder setBuilder = ConstraintSet.builder(TestMechanisms.floatingBiped()).withoutModelConstraints();
        setBuilder.addContact(2, FOOT, new double[] {1, 0, 0}, "left_x", 1);
        setBuilder.addContact(2, FOOT, new double[] {0, 1, 0}, "left_y", 2);
        setBuilder.addContact(2, FOOT, new double[] {0, 0, 1}, "left_z", 3);
        setBuilder.addContact(4, FOOT, new double[] {0, 0, 1}, "right_z", 4);
        setBuilder.addCoupler(3, 1, -1, 0, "hips", 5);
        return setBuilder.build();
    }

    private static List<ConstraintData> sets() throws Exception {
        List<ConstraintData> out = new ArrayList<>();
        for (int combo = 0; combo < 2; combo++) {
            List<ConstraintSet> these = List.of(ConstraintSet.of(TestMechanisms.spatialMechanism()), bipedSet(),
                    ConstraintSet.of(TestMechanisms.fourBar()));
            for (ConstraintSet description : these) {
                ConstraintData set = description.bindGeneric();
                set.settings().kktSolver(SolverSettings.KktSolver.values()[combo])
                        .spdSolver(SolverSettings.SpdSolver.values()[combo]);
                out.add(set);
            }
        }
        return out;
    }

    private static double rel(double[] expected, double[] actual) {
        return TestMechanisms.maxDiff(expected, actual) / Math.max(1e-300, TestMechanisms.maxAbs(expected));
    }

    @Test
    void forwardDynamicsSatisfiesKktAndMethodsAgree() throws Exception {
        Random rnd = new Random(17);
        int checked = 0;
        for (ConstraintData set : sets()) {
            Model model = set.set().model();
            int nv = model.nv();
            int m = set.size();
            ConstrainedDynamics fd = new ConstrainedDynamics(set);
            double[] vdot = new double[nv];
            double[] vdotDirect = new double[nv];
            double[] lambdaDirect = new double[m];
            for (int n = 0; n < 25; n++) {
                double[] q = TestMechanisms.randomQ(model, rnd);
                double[] v = TestMechanisms.random(nv, 2, rnd);
                double[] tau = TestMechanisms.random(nv, 10, rnd);
                if (n % 5 == 0) {
                    set.enableBaumgarte(n % set.set().groupCount());
                }
                for (ConstraintSolverMethod method : ConstraintSolverMethod.values()) {
                    fd.forwardDynamics(method, q, v, tau, vdot);
                    double[] lambda = set.force().clone();
                    if (method == ConstraintSolverMethod.RECURSIVE) {
                        // The recursive method forms neither H nor C: fill the workspaces the residuals read.
                        set.computeSystem(q, v);
                    }
                    // H v̇ + C - τ - Gᵀ λ = 0 and G v̇ - γ = 0, relative to the size of the terms.
                    double[] hv = TestMechanisms.mult(set.H(), vdot);
                    double[] gl = TestMechanisms.multTrans(set.G(), lambda);
                    double scale = Math.max(1, Math.max(TestMechanisms.maxAbs(hv), Math.max(TestMechanisms.maxAbs(
                            set.C()), Math.max(TestMechanisms.maxAbs(tau), TestMechanisms.maxAbs(gl)))));
                    double worst = 0;
                    for (int i = 0; i < nv; i++) {
                        worst = Math.max(worst, Math.abs(hv[i] + set.C()[i] - tau[i] - gl[i]));
                    }
                    assertTrue(worst <= 1e-11 * scale, method + " dynamics residual " + worst / scale);
                    double[] gv = TestMechanisms.mult(set.G(), vdot);
                    double cScale = Math.max(1, Math.max(TestMechanisms.maxAbs(set.gamma()), TestMechanisms.maxAbs(
                            gv)));
                    assertTrue(TestMechanisms.maxDiff(gv, set.gamma()) <= 1e-11 * cScale, method
                            + " constraint residual");
                    if (method == ConstraintSolverMethod.DIRECT) {
                        System.arraycopy(vdot, 0, vdotDirect, 0, nv);
                        System.arraycopy(lambda, 0, lambdaDirect, 0, m);
                    } else {
                        assertTrue(rel(vdotDirect, vdot) <= 1e-9, model.name() + " " + method + " vdot "
                                + rel(vdotDirect, vdot));
                        assertTrue(rel(lambdaDirect, lambda) <= 1e-9, model.name() + " " + method + " lambda "
                                + rel(lambdaDirect, lambda));
                    }
                    checked++;
                }
                for (int g = 0; g < set.set().groupCount(); g++) {
                    set.disableBaumgarte(g);
                }
            }
        }
        assertEquals(2 * 3 * 25 * ConstraintSolverMethod.values().length, checked);
    }

    @Test
    void impulsesReachTargetVelocitiesAndMethodsAgree() throws Exception {
        Random rnd = new Random(23);
        for (ConstraintData set : sets()) {
            Model model = set.set().model();
            int nv = model.nv();
            int m = set.size();
            ImpulseSolver solver = new ImpulseSolver(set);
            double[] vPlus = new double[nv];
            double[] vDirect = new double[nv];
            double[] lDirect = new double[m];
            DMatrixRMaj h = new DMatrixRMaj(nv, nv);
            for (int n = 0; n < 20; n++) {
                double[] q = TestMechanisms.randomQ(model, rnd);
                double[] vMinus = TestMechanisms.random(nv, 2, rnd);
                double[] target = n % 2 == 0 ? new double[m] : TestMechanisms.random(m, 1, rnd);
                System.arraycopy(target, 0, set.impulseTarget(), 0, m);
                for (ConstraintSolverMethod method : ConstraintSolverMethod.values()) {
                    solver.solve(method, q, vMinus, vPlus);
                    double[] impulse = set.impulse().clone();
                    if (method == ConstraintSolverMethod.RECURSIVE) {
                        // The recursive method forms no H: fill the G workspace the checks read.
                        set.computeImpulseSystem(q);
                    }
                    set.dynamics().massMatrix(q, h);
                    double[] dv = new double[nv];
                    for (int i = 0; i < nv; i++) {
                        dv[i] = vPlus[i] - vMinus[i];
                    }
                    double[] hdv = TestMechanisms.mult(h, dv);
                    double[] gl = TestMechanisms.multTrans(set.G(), impulse);
                    double scale = Math.max(1, TestMechanisms.maxAbs(gl));
                    for (int i = 0; i < nv; i++) {
                        assertEquals(0, hdv[i] + gl[i], 1e-11 * scale, method + " momentum");
                    }
                    double[] gv = TestMechanisms.mult(set.G(), vPlus);
                    assertTrue(TestMechanisms.maxDiff(gv, target) <= 1e-11 * Math.max(1, TestMechanisms.maxAbs(gv)),
                            method + " target velocity");
                    if (method == ConstraintSolverMethod.DIRECT) {
                        System.arraycopy(vPlus, 0, vDirect, 0, nv);
                        System.arraycopy(impulse, 0, lDirect, 0, m);
                    } else {
                        assertTrue(rel(vDirect, vPlus) <= 1e-9, method + " v+");
                        assertTrue(rel(lDirect, impulse) <= 1e-9, method + " impulse");
                    }
                }
            }
        }
    }

    /** With the rank check off the direct and range-space methods give the same answers on independent rows. */
    @Test
    void rankCheckOffGivesSameResults() throws Exception {
        ConstraintData checked = bipedSet().bindGeneric();
        ConstraintData unchecked = bipedSet().bindGeneric();
        unchecked.settings().rankCheck(false);
        ConstrainedDynamics a = new ConstrainedDynamics(checked);
        ConstrainedDynamics b = new ConstrainedDynamics(unchecked);
        Random rnd = new Random(29);
        Model model = checked.set().model();
        double[] va = new double[10];
        double[] vb = new double[10];
        for (int n = 0; n < 10; n++) {
            double[] q = TestMechanisms.randomQ(model, rnd);
            double[] v = TestMechanisms.random(10, 2, rnd);
            double[] tau = TestMechanisms.random(10, 10, rnd);
            for (ConstraintSolverMethod method : ConstraintSolverMethod.values()) {
                a.forwardDynamics(method, q, v, tau, va);
                b.forwardDynamics(method, q, v, tau, vb);
                assertTrue(rel(va, vb) <= 1e-12);
                assertTrue(rel(checked.force(), unchecked.force()) <= 1e-12);
            }
        }
    }
}
