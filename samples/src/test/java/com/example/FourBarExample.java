package com.example;

import com.example.robots.FourbarDynamics;
import java.util.Arrays;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.constraints.ConstraintSet;
import org.symdyn.solvers.Assembly;
import org.symdyn.solvers.ConstrainedDynamics;
import org.symdyn.solvers.ConstraintSolverMethod;

/** The closed-loop four-bar of fourbar.urdf: close the loop, then solve the constrained dynamics. */
public class FourBarExample {
    public static void main(String[] args) {
        FourbarDynamics fourbar = new FourbarDynamics();   // generated; no model file is read at run time
        ConstraintData data = ConstraintSet.of(fourbar).bind(fourbar);   // the file's loop, per thread

        // Joint angles of zero do not close the loop (the constraints are singular there): assemble first,
        // positions near a guess with phi(q) = 0, then velocities with G v = 0.
        Assembly assembly = new Assembly(data);
        double[] guess = {0.3, 0.3, -2.6};                 // crank, coupler, rocker (rad)
        double[] weights = {1e6, 1, 1};                    // keep the crank where it is, move the others
        double[] q = new double[fourbar.nq()];
        if (!assembly.assembleQ(guess, weights, q)) {
            throw new IllegalStateException("the loop does not close near the guess: |phi| = "
                    + assembly.lastError());
        }
        double[] v = new double[fourbar.nv()];
        assembly.assembleV(q, new double[] {2, 0, 0}, weights, v);   // the crank turning at 2 rad/s

        double[] tau = new double[fourbar.nv()];           // no joint torques: gravity drives it
        double[] vdot = new double[fourbar.nv()];
        ConstrainedDynamics solver = new ConstrainedDynamics(data);
        solver.forwardDynamics(ConstraintSolverMethod.RANGE_SPACE_SPARSE, q, v, tau, vdot);

        System.out.println("fourbar: q = " + Arrays.toString(q) + ", v = " + Arrays.toString(v));
        System.out.println("fourbar: vdot = " + Arrays.toString(vdot) + ", lambda = " + Arrays.toString(data.force()));
    }
}
