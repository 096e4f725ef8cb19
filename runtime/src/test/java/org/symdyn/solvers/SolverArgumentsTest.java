package org.symdyn.solvers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.constraints.ConstraintSet;
import org.symdyn.constraints.TestMechanisms;
import org.symdyn.model.Model;
import org.symdyn.spatial.Pose;

/**
 * Issue 10, item 14: ConstrainedDynamics.forwardDynamics and ImpulseSolver.solve accepted a τ or v⁻ longer than
 * nv silently (and threw ArrayIndexOutOfBoundsException for a shorter one); now every array argument of the public
 * solver entry points is checked by the contract's rule (exact length, outputs not aliasing inputs), with the
 * contract's messages.
 */
class SolverArgumentsTest {
    private static ConstraintData weldedBiped(Model model) {
        ConstraintSet.Builder set = ConstraintSet.builder(model).withoutModelConstraints();
        set.addLoop(-1, Pose.IDENTITY, 0, Pose.IDENTITY, List.of(new double[] {0, 0, 1, 0, 0, 0},
                new double[] {0, 0, 0, 1, 0, 0}), false, 0.1, "weld", ConstraintSet.NO_ID);
        return set.build().bindGeneric();
    }

    private static void refused(String message, Executable call) {
        assertEquals(message, assertThrows(IllegalArgumentException.class, call).getMessage());
    }

    @Test
    void constrainedDynamicsAndImpulsesCheckTheirArguments() throws Exception {
        Model model = TestMechanisms.floatingBiped();
        int nq = model.nq();
        int nv = model.nv();
        ConstraintData data = weldedBiped(model);
        ConstrainedDynamics fd = new ConstrainedDynamics(data);
        ImpulseSolver impulses = new ImpulseSolver(data);
        double[] q = new double[nq];
        q[6] = 1;
        double[] v = new double[nv];
        double[] tau = new double[nv];
        double[] out = new double[nv];
        fd.forwardDynamicsDirect(q, v, tau, out);
        impulses.solveDirect(q, v, out);
        for (ConstraintSolverMethod m : ConstraintSolverMethod.values()) {
            refused("tau must have " + nv + " entries, got " + (nv + 1), () -> fd.forwardDynamics(m, q, v,
                    new double[nv + 1], out));
            refused("tau must have " + nv + " entries, got " + (nv - 1), () -> fd.forwardDynamics(m, q, v,
                    new double[nv - 1], out));
            refused("vdot must have " + nv + " entries, got " + (nv + 1), () -> fd.forwardDynamics(m, q, v, tau,
                    new double[nv + 1]));
            refused("q must have " + nq + " entries, got " + (nq - 1), () -> fd.forwardDynamics(m,
                    new double[nq - 1], v, tau, out));
            refused("vdot must not be the same array as tau (an output may not alias an input or another output)",
                    () -> fd.forwardDynamics(m, q, v, tau, tau));
            refused("vMinus must have " + nv + " entries, got " + (nv + 1), () -> impulses.solve(m, q,
                    new double[nv + 1], out));
            refused("vPlus must have " + nv + " entries, got " + (nv - 1), () -> impulses.solve(m, q, v,
                    new double[nv - 1]));
            refused("vPlus must not be the same array as vMinus (an output may not alias an input or another"
                    + " output)", () -> impulses.solve(m, q, v, v));
        }
    }

    /**
     * Found by a helper probing the API: inverse dynamics accepted an output that was an input (a τ off by 3, or τ
     * written over q), the system solver's public solve any length and aliasing, and ConstraintData's error
     * functions short arrays (ArrayIndexOutOfBoundsException from arraycopy) and long ones.
     */
    @Test
    void inverseDynamicsTheSystemSolverAndTheErrorFunctionsCheckTheirArguments() throws Exception {
        Model model = TestMechanisms.floatingBiped();
        int nq = model.nq();
        int nv = model.nv();
        ConstraintData data = weldedBiped(model);
        double[] q = new double[nq];
        q[6] = 1;
        double[] v = new double[nv];
        double[] x = new double[nv];
        double[] vdot = new double[nv];
        double[] tau = new double[nv];
        ConstrainedInverseDynamics id = new ConstrainedInverseDynamics(data, ActuationMap.allActuated(model));
        id.inverseDynamicsRelaxed(q, v, x, vdot, tau);
        String alias = " (an output may not alias an input or another output)";
        refused("vdot must not be the same array as controls" + alias,
                () -> id.inverseDynamicsRelaxed(q, v, x, x, tau));
        refused("tau must not be the same array as vdot" + alias, () -> id.inverseDynamics(q, v, x, vdot, vdot));
        refused("tau must not be the same array as vdotDesired" + alias, () -> id.inverseDynamics(q, v, x, vdot, x));
        double[] qAsTau = new double[nv];
        refused("vdot must not be the same array as v" + alias, () -> id.inverseDynamics(q, qAsTau, x, qAsTau,
                tau));

        ConstrainedSystemSolver solver = new ConstrainedSystemSolver(data);
        int m = data.size();
        data.computeSystem(q, v);
        double[] a = new double[nv];
        double[] b = new double[m];
        double[] y = new double[m];
        for (ConstraintSolverMethod method : ConstraintSolverMethod.values()) {
            solver.solve(method, data.H(), data.G(), a, b, x, y);
            refused("a must have " + nv + " entries, got " + (nv + 1), () -> solver.solve(method, data.H(),
                    data.G(), new double[nv + 1], b, x, y));
            refused("x must have " + nv + " entries, got " + (nv - 1), () -> solver.solve(method, data.H(),
                    data.G(), a, b, new double[nv - 1], y));
            refused("y must have " + m + " entries, got " + (m + 1), () -> solver.solve(method, data.H(), data.G(),
                    a, b, x, new double[m + 1]));
            refused("x must not be the same array as a" + alias, () -> solver.solve(method, data.H(), data.G(), a,
                    b, a, y));
            refused("y must not be the same array as b" + alias, () -> solver.solve(method, data.H(), data.G(), a,
                    b, x, b));
        }

        refused("phi must have " + m + " entries, got " + (m - 1), () -> data.positionError(q, new double[m - 1]));
        refused("phi must have " + m + " entries, got " + (m + 1), () -> data.positionError(q, new double[m + 1]));
        refused("phidot must have " + m + " entries, got " + (m + 1), () -> data.velocityError(q, v,
                new double[m + 1]));
        refused("out must have at least " + m + " entries, got 1", () -> data.positionError(0, q, new double[1]));
        data.positionError(0, q, new double[m + 3]); // a longer buffer is fine for a group
        refused("phi must have " + m + " entries, got 1", () -> data.baumgarteTerm(0, new double[1], new double[m],
                new double[m]));
    }
}
