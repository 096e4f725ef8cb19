package org.symdyn.solvers;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.constraints.ConstraintSet;
import org.symdyn.constraints.TestMechanisms;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;
import org.symdyn.model.ModelException;
import org.symdyn.spatial.Pose;
import org.symdyn.spatial.RigidBodyInertia;

/** Models, dense reference computations and an allocation probe for the Kokkevis and inverse-dynamics tests. */
final class SolverTestSupport {
    static final double[] FOOT = {0, 0, -0.3};

    private SolverTestSupport() {
    }

    /**
     * A floating trunk (body 0) with three two-link legs at 120° (hip and knee about the leg's tangential axis), no
     * constraints: nq = 13, nv = 12; feet at (0, 0, -0.3) of bodies 2, 4, 6.
     */
    static Model tripod() throws ModelException {
        RigidBodyInertia trunk = RigidBodyInertia.of(6, new double[] {0.01, -0.02, 0.03}, 0.15, 0.01, 0.002, 0.2,
                0.003, 0.25);
        RigidBodyInertia thigh = RigidBodyInertia.of(1.2, new double[] {0.01, 0, -0.15}, 0.015, 0, 0.001, 0.016, 0,
                0.002);
        RigidBodyInertia shank = RigidBodyInertia.of(0.6, new double[] {0, 0.01, -0.14}, 0.008, 0, 0, 0.009, 0,
                0.001);
        var b = Model.builder("tripod").addBody("trunk", "world", "base", JointType.FLOATING, null, Pose.IDENTITY,
                trunk);
        for (int leg = 0; leg < 3; leg++) {
            double a = 2 * Math.PI * leg / 3 + 0.2;
            double[] tangential = {-Math.sin(a), Math.cos(a), 0};
            b.addBody("thigh" + leg, "trunk", "hip" + leg, JointType.REVOLUTE, tangential,
                    Pose.translation(0.3 * Math.cos(a), 0.3 * Math.sin(a), -0.05), thigh)
                    .addBody("shank" + leg, "thigh" + leg, "knee" + leg, JointType.REVOLUTE, tangential,
                            Pose.translation(0, 0, -0.3), shank);
        }
        return b.build();
    }

    /** The tripod with every foot held in x, y and z (9 rows, groups foot0..foot2). */
    static ConstraintSet tripodSet() throws ModelException {
        ConstraintSet.Builder setBuilder = ConstraintSet.builder(tripod()).withoutModelConstraints();
        for (int leg = 0; leg < 3; leg++) {
            int body = 2 + 2 * leg;
            setBuilder.addContact(body, FOOT, new double[] {1, 0, 0}, "foot" + leg + "_x", ConstraintSet.NO_ID);
            setBuilder.addContact(body, FOOT, new double[] {0, 1, 0}, "foot" + leg + "_y", ConstraintSet.NO_ID);
            setBuilder.addContact(body, FOOT, new double[] {0, 0, 1}, "foot" + leg + "_z", ConstraintSet.NO_ID);
        }
        return setBuilder.build();
    }

    /** The floating biped with contacts only: left foot along the given normals, right foot along z if asked. */
    static ConstraintSet bipedContacts(boolean rightFoot, double[]... leftNormals) throws ModelException {
        ConstraintSet.Builder setBuilder = ConstraintSet.builder(TestMechanisms.floatingBiped()).withoutModelConstraints();
        int k = 0;
        for (double[] n : leftNormals) {
            setBuilder.addContact(2, FOOT, n, "left" + k++, ConstraintSet.NO_ID);
        }
        if (rightFoot) {
            setBuilder.addContact(4, FOOT, new double[] {0, 0, 1}, "right_z", ConstraintSet.NO_ID);
        }
        return setBuilder.build();
    }

    /** H, C, G, γ of a bound set at (q, v), computed afresh (not from the set's workspaces). */
    static final class Terms {
        final DMatrixRMaj h;
        final double[] c;
        final DMatrixRMaj g;
        final double[] gamma;

        Terms(ConstraintData set, double[] q, double[] v) {
            int nv = set.nv();
            h = new DMatrixRMaj(nv, nv);
            c = new double[nv];
            g = new DMatrixRMaj(set.size(), nv);
            gamma = new double[set.size()];
            set.dynamics().massMatrix(q, h);
            set.dynamics().biasForces(q, v, c);
            set.jacobian(q, g);
            set.gamma(q, v, gamma);
        }
    }

    /** x = A⁻¹ b by EJML's dense LU (test reference). */
    static double[] solve(DMatrixRMaj a, double[] b) {
        DMatrixRMaj x = new DMatrixRMaj(b.length, 1);
        if (!CommonOps_DDRM.solve(a, new DMatrixRMaj(b.length, 1, true, b), x)) {
            throw new AssertionError("reference system is singular");
        }
        return x.data;
    }

    /** Relative difference ‖a - b‖∞ / max(‖a‖∞, floor). */
    static double rel(double[] expected, double[] actual, double floor) {
        return TestMechanisms.maxDiff(expected, actual) / Math.max(floor, TestMechanisms.maxAbs(expected));
    }

    /** The numerical rank of a matrix by SVD (test reference). */
    static int rank(DMatrixRMaj a, double tol) {
        if (a.numRows == 0 || a.numCols == 0) {
            return 0;
        }
        double[] sv = org.ejml.dense.row.SingularOps_DDRM.singularValues(a);
        double max = 0;
        for (double s : sv) {
            max = Math.max(max, s);
        }
        int r = 0;
        for (double s : sv) {
            r += s > tol * max ? 1 : 0;
        }
        return r;
    }

    /** {@link org.symdyn.testing.Allocations#allocatedBytes}. */
    static long allocatedBytes(int rounds, Runnable body) {
        return org.symdyn.testing.Allocations.allocatedBytes(rounds, body);
    }
}
