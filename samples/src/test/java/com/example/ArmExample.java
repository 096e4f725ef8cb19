package com.example;

import com.example.robots.Arm7Dynamics;
import java.util.Arrays;
import org.ejml.data.DMatrixRMaj;

/** A 7-joint arm through the class generated from arm7.urdf: dynamics, and the Jacobian of a tool frame. */
public class ArmExample {
    public static void main(String[] args) {
        Arm7Dynamics arm = new Arm7Dynamics();           // not thread-safe: one instance per thread, arm.copy()
        int nv = arm.nv();                               // 7; q has nq() entries (here nq = nv)
        double[] q = new double[arm.nq()];               // joint angles in URDF order, named by arm.qNames()
        double[] v = new double[nv];
        double[] tau = new double[nv];
        double[] vdot = new double[nv];
        q[1] = 0.5;
        q[3] = -1.2;
        v[0] = 0.3;

        DMatrixRMaj H = new DMatrixRMaj(nv, nv);         // outputs belong to the caller: allocate once, reuse
        arm.massMatrix(q, H);                            // H(q)
        arm.forwardDynamics(q, v, tau, vdot);            // vdot = H^-1 (tau - C): no torque, the arm falls

        int flange = arm.frameIndex("flange");           // a link fixed to link7: its body and its offset there
        double[] R = new double[9];
        double[] p = new double[3];
        arm.frameOffset(flange, R, p);
        DMatrixRMaj J = new DMatrixRMaj(3, nv);
        arm.pointJacobian(q, arm.frameBody(flange), p, J);   // flange velocity = J v, world coordinates

        System.out.println("arm7: H[0][0] = " + H.get(0, 0) + ", vdot = " + Arrays.toString(vdot));
        System.out.println("arm7: flange Jacobian, column 1 = " + J.get(0, 0) + ", " + J.get(1, 0) + ", "
                + J.get(2, 0));
    }
}
