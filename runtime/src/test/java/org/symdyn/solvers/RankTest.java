package org.symdyn.solvers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.constraints.ConstraintSet;
import org.symdyn.constraints.SolverSettings.RankPolicy;
import org.symdyn.constraints.TestMechanisms;
import org.symdyn.model.Model;

/** Redundant, zero and inconsistent constraint rows are detected and reported by name, or dropped on request. */
class RankTest {
    private static final double[] X = {0, 0, 0, 1, 0, 0};
    private static final double[] Y = {0, 0, 0, 0, 1, 0};
    private static final double[] Z = {0, 0, 0, 0, 0, 1};
    private static final double[] Q = {-0.6267463657112392, 1.9327102732977162, -2.4162820189990875};
    private static final double[] V = {0.9345454184438046, -1.262049653047284, -0.550848343503073};
    private static final double[] TAU = {0.3935663892622818, -0.6841094728691886, 4.850863919853213};

    @Test
    void duplicateLoopAxisIsReportedByRowNames() throws Exception {
        for (boolean rankCheck : new boolean[] {true, false}) {
            ConstraintData set = ConstraintSet.of(TestMechanisms.fourBarWithAxes(X, Y, X)).bindGeneric();
            set.settings().rankCheck(rankCheck);
            ConstrainedDynamics fd = new ConstrainedDynamics(set);
            for (ConstraintSolverMethod method : ConstraintSolverMethod.values()) {
                ConstraintRankException e = assertThrows(ConstraintRankException.class,
                        () -> fd.forwardDynamics(method, Q, V, TAU, new double[3]), method + " check " + rankCheck);
                assertEquals(ConstraintRankException.Kind.REDUNDANT, e.kind());
                assertEquals(2, e.rank());
                assertEquals(3, e.rows());
                assertEquals(2, e.involvedRows().size(), e.getMessage());
                assertTrue(e.involvedRows().containsAll(List.of("closure[0]", "closure[2]")), e.getMessage());
                assertTrue(e.getMessage().contains("'closure[0]'") && e.getMessage().contains("'closure[2]'"),
                        e.getMessage());
            }
        }
    }

    @Test
    void droppingDependentRowsGivesTheIndependentSolution() throws Exception {
        ConstraintData two = ConstraintSet.of(TestMechanisms.fourBar()).bindGeneric();
        ConstraintData three = ConstraintSet.of(TestMechanisms.fourBarWithAxes(X, Y, X)).bindGeneric();
        three.settings().rankPolicy(RankPolicy.DROP_DEPENDENT_ROWS);
        ConstrainedDynamics fd2 = new ConstrainedDynamics(two);
        ConstrainedDynamics fd3 = new ConstrainedDynamics(three);
        ImpulseSolver imp2 = new ImpulseSolver(two);
        ImpulseSolver imp3 = new ImpulseSolver(three);
        Assembly asm3 = new Assembly(three);
        double[] a = new double[3];
        double[] b = new double[3];
        for (ConstraintSolverMethod method : ConstraintSolverMethod.values()) {
            fd2.forwardDynamics(method, Q, V, TAU, a);
            fd3.forwardDynamics(method, Q, V, TAU, b);
            assertTrue(TestMechanisms.maxDiff(a, b) <= 1e-9 * TestMechanisms.maxAbs(a), method.toString());
            assertEquals(2, fd3.systemSolver().lastRank());
            assertEquals(1, fd3.systemSolver().lastDroppedRows());
            double[] l2 = two.force();
            double[] l3 = three.force();
            // The x force is shared between the duplicate rows; one of them carries it all.
            assertEquals(l2[0], l3[0] + l3[2], 1e-9 * Math.abs(l2[0]));
            assertTrue(l3[0] == 0 || l3[2] == 0);
            assertEquals(l2[1], l3[1], 1e-9 * Math.abs(l2[1]));
            imp2.solve(method, Q, V, a);
            imp3.solve(method, Q, V, b);
            assertTrue(TestMechanisms.maxDiff(a, b) <= 1e-9 * TestMechanisms.maxAbs(a), method + " impulse");
        }
        double[] qOut = new double[3];
        assertTrue(asm3.assembleQ(new double[] {-0.57, 1.93, -2.32}, new double[] {1, 1, 1}, qOut));
        // the policy holds with the rank check off too: the failed solve's QR drops the row (it was ignored there)
        three.settings().rankCheck(false);
        for (ConstraintSolverMethod method : ConstraintSolverMethod.values()) {
            fd2.forwardDynamics(method, Q, V, TAU, a);
            fd3.forwardDynamics(method, Q, V, TAU, b);
            assertTrue(TestMechanisms.maxDiff(a, b) <= 1e-9 * TestMechanisms.maxAbs(a), method + ", no rank check");
        }
    }

    @Test
    void zeroRowIsNamed() throws Exception {
        // The planar four-bar cannot move along z: that loop row is identically zero.
        ConstraintData set = ConstraintSet.of(TestMechanisms.fourBarWithAxes(X, Y, Z)).bindGeneric();
        ConstrainedDynamics fd = new ConstrainedDynamics(set);
        ConstraintRankException e = assertThrows(ConstraintRankException.class,
                () -> fd.forwardDynamicsRangeSpaceSparse(Q, V, TAU, new double[3]));
        assertEquals(List.of("closure[2]"), e.involvedRows());
        assertTrue(e.getMessage().contains("'closure[2]' is zero"), e.getMessage());
        set.settings().rankPolicy(RankPolicy.DROP_DEPENDENT_ROWS);
        double[] vdot = new double[3];
        fd.forwardDynamicsNullSpace(Q, V, TAU, vdot);
        assertEquals(0, set.force()[2]);
    }

    @Test
    void inconsistentTargetsAreReported() throws Exception {
        Model leg = TestMechanisms.planarLeg();
        ConstraintSet.Builder setBuilder = ConstraintSet.builder(leg);
        setBuilder.addContact(2, new double[] {0, -0.4, 0}, new double[] {1, 0, 0}, "foot_x_again", ConstraintSet.NO_ID);
        ConstraintData set = setBuilder.build().bindGeneric();
        set.settings().rankPolicy(RankPolicy.DROP_DEPENDENT_ROWS);
        double[] q = {-0.15886910465540116, 0.7028782060356273, 0.15709365340949927, 0.831621387125391,
            -1.572779363533194};
        double[] v = {-0.5, 0.89, -0.02, 0.11, -0.88};
        // Consistent duplicates (same γ) are fine when dropped.
        new ConstrainedDynamics(set).forwardDynamicsDirect(q, v, new double[5], new double[5]);
        // Different target velocities along the same direction cannot both hold.
        set.impulseTarget()[2] = 0.1;
        ImpulseSolver solver = new ImpulseSolver(set);
        for (ConstraintSolverMethod method : ConstraintSolverMethod.values()) {
            ConstraintRankException e = assertThrows(ConstraintRankException.class,
                    () -> solver.solve(method, q, v, new double[5]));
            assertEquals(ConstraintRankException.Kind.INCONSISTENT, e.kind());
            assertTrue(e.involvedRows().containsAll(List.of("foot_x", "foot_x_again")), e.getMessage());
        }
        set.settings().rankPolicy(RankPolicy.FAIL);
        ConstraintRankException e = assertThrows(ConstraintRankException.class,
                () -> solver.solveDirect(q, v, new double[5]));
        assertEquals(ConstraintRankException.Kind.REDUNDANT, e.kind());
    }

    @Test
    void nonFiniteInputsAreRefused() throws Exception {
        ConstraintData set = ConstraintSet.of(TestMechanisms.fourBar()).bindGeneric();
        set.settings().rankCheck(false);
        ConstrainedDynamics fd = new ConstrainedDynamics(set);
        for (ConstraintSolverMethod method : ConstraintSolverMethod.values()) {
            assertThrows(ArithmeticException.class,
                    () -> fd.forwardDynamics(method, Q, V, new double[] {0, Double.NaN, 0}, new double[3]));
            assertThrows(ArithmeticException.class,
                    () -> fd.forwardDynamics(method, new double[] {0, Double.NaN, 0}, V, TAU, new double[3]));
        }
        Random rnd = new Random(1);
        double[] vdot = new double[3];
        fd.forwardDynamicsDirect(Q, V, TestMechanisms.random(3, 1, rnd), vdot);
        for (double x : vdot) {
            assertTrue(Double.isFinite(x));
        }
    }

    /**
     * Two contact normals at one point, an angle e apart (e = 1e-7 to 1e-9 rad): independent to the QR's 1e-10 but
     * their Schur pivot is under the fast path's rank floor. The direct method then used the KKT matrix's LU, which
     * nearly dependent rows ruin (v̇ wrong by 140 % at e = 1e-9, |G v̇ − γ| = 1.6e-7, reported as a full-rank solve);
     * it solves in the QR's null space now, as the null-space method does.
     */
    @Test
    void nearlyDependentRowsAreSolvedAccuratelyByTheDirectMethod() throws Exception {
        org.symdyn.model.ModelBuilder chain = Model.builder("chain4");
        String parent = "world";
        for (int i = 0; i < 4; i++) {
            chain.addBody("l" + i, parent, "j" + i, org.symdyn.model.JointType.REVOLUTE,
                    i % 2 == 0 ? new double[] {0, 1, 0} : new double[] {1, 0, 0},
                    org.symdyn.spatial.Pose.translation(0, 0, i == 0 ? 0 : -0.3),
                    org.symdyn.spatial.RigidBodyInertia.of(1, new double[] {0, 0, -0.15}, 0.01, 0, 0, 0.012, 0,
                            0.008));
            parent = "l" + i;
        }
        Model m = chain.build();
        Random r = new Random(3);
        double[] q = new double[4], v = new double[4], tau = new double[4];
        for (int i = 0; i < 4; i++) {
            q[i] = r.nextGaussian();
            v[i] = r.nextGaussian();
            tau[i] = r.nextGaussian();
        }
        for (double e : new double[] {1e-7, 1e-8, 1e-9}) {
            double n = Math.sqrt(1 + e * e);
            ConstraintSet.Builder b = ConstraintSet.builder(m);
            b.addContact(3, new double[] {0, 0, -0.3}, new double[] {0, 0, 1}, "n1", ConstraintSet.NO_ID);
            b.addContact(3, new double[] {0, 0, -0.3}, new double[] {e / n, 0, 1 / n}, "n2", ConstraintSet.NO_ID);
            ConstraintData d = b.build().bindGeneric();
            ConstrainedDynamics fd = new ConstrainedDynamics(d);
            double[] reference = new double[4];
            fd.forwardDynamics(ConstraintSolverMethod.NULL_SPACE, q, v, tau, reference);
            // every method (a helper found the range-space method refusing these rows as "H not positive definite",
            // and the recursive one taking the range-space path given H); with the rank check on, which is what
            // tells the fast path's small pivot from a singular system
            {
                for (ConstraintSolverMethod method : ConstraintSolverMethod.values()) {
                    String what = "e " + e + ", " + method;
                    double[] direct = new double[4];
                    fd.forwardDynamics(method, q, v, tau, direct);
                    if (method != ConstraintSolverMethod.RECURSIVE) { // the interpreter's recursion forms no H
                        assertEquals(2, fd.systemSolver().lastRank(), what);
                        assertTrue(fd.systemSolver().lastFellBack() || method == ConstraintSolverMethod.NULL_SPACE,
                                what + ": off the fast path");
                    }
                    assertTrue(TestMechanisms.maxDiff(reference, direct) <= 1e-6 * TestMechanisms.maxAbs(reference),
                            what + ": " + java.util.Arrays.toString(direct) + " against "
                                    + java.util.Arrays.toString(reference));
                    d.computeSystem(q, v);
                    for (int k = 0; k < 2; k++) {
                        double residual = -d.gamma()[k];
                        for (int j = 0; j < 4; j++) {
                            residual += d.G().get(k, j) * direct[j];
                        }
                        assertTrue(Math.abs(residual) <= 1e-12 * TestMechanisms.maxAbs(direct), what + ", row " + k
                                + ": G v̇ − γ = " + residual);
                    }
                }
            }
        }
    }

    /**
     * Given H (ConstrainedSystemSolver alone), the recursive method is the direct one, bit for bit: off the fast path
     * (structure not exploited), where the two used to differ (RECURSIVE took the range-space path).
     */
    @Test
    void givenHTheRecursiveMethodIsTheDirectOne() throws Exception {
        ConstraintData d = ConstraintSet.of(TestMechanisms.fourBar()).bindGeneric();
        d.settings().exploitStructure(false);
        d.computeSystem(Q, V);
        ConstrainedSystemSolver solver = new ConstrainedSystemSolver(d);
        double[] a = new double[3];
        for (int i = 0; i < 3; i++) {
            a[i] = TAU[i] - d.C()[i];
        }
        double[] x1 = new double[3], y1 = new double[d.size()], x2 = new double[3], y2 = new double[d.size()];
        solver.solve(ConstraintSolverMethod.DIRECT, d.H(), d.G(), a, d.gamma(), x1, y1);
        solver.solve(ConstraintSolverMethod.RECURSIVE, d.H(), d.G(), a, d.gamma(), x2, y2);
        assertEquals(0, TestMechanisms.maxDiff(x1, x2));
        assertEquals(0, TestMechanisms.maxDiff(y1, y2));
    }

    /**
     * A weight matrix positive definite only on the rows' null space (assembly's, with a zero weight), the rank
     * check off: the range-space method's LᵀL of W fails, and the null space of the rows' QR answers, as the direct
     * method does (it threw "H is not positive definite").
     */
    @Test
    void theRangeSpaceMethodSolvesWithAWeightSingularOffTheRowsNullSpace() throws Exception {
        ConstraintData d = ConstraintSet.of(TestMechanisms.fourBar()).bindGeneric();
        d.settings().rankCheck(false);
        d.computeSystem(Q, V);
        ConstrainedSystemSolver solver = new ConstrainedSystemSolver(d);
        org.ejml.data.DMatrixRMaj w = new org.ejml.data.DMatrixRMaj(3, 3);
        w.set(0, 0, 1);
        w.set(1, 1, 2);
        double[] a = {0.3, -0.2, 0.5};
        double[] b = d.gamma().clone();
        double[] x1 = new double[3], y1 = new double[d.size()], x2 = new double[3], y2 = new double[d.size()];
        solver.solve(ConstraintSolverMethod.DIRECT, w, d.G(), a, b, x1, y1);
        solver.solve(ConstraintSolverMethod.RANGE_SPACE_SPARSE, w, d.G(), a, b, x2, y2);
        assertTrue(TestMechanisms.maxDiff(x1, x2) <= 1e-12 * (1 + TestMechanisms.maxAbs(x1)),
                java.util.Arrays.toString(x1) + " against " + java.util.Arrays.toString(x2));
        assertTrue(TestMechanisms.maxDiff(y1, y2) <= 1e-12 * (1 + TestMechanisms.maxAbs(y1)));
    }
}
