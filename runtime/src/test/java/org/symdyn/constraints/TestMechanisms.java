package org.symdyn.constraints;

import java.util.List;
import java.util.Random;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.model.ContactConstraintModel;
import org.symdyn.model.CouplerConstraintModel;
import org.symdyn.model.JointType;
import org.symdyn.model.LoopConstraintModel;
import org.symdyn.model.Model;
import org.symdyn.model.ModelBuilder;
import org.symdyn.model.ModelException;
import org.symdyn.model.SourceLocation;
import org.symdyn.spatial.Pose;
import org.symdyn.spatial.RigidBodyInertia;

/** Mechanisms and random states shared by the constraint and solver tests. */
public final class TestMechanisms {
    private static final double NAN = Double.NaN;

    private TestMechanisms() {
    }

    /** The four-bar of shared/reference/README.md (loop "closure", 2 rows). */
    public static Model fourBar() throws ModelException {
        return GenericConstraintsTest.fourBar();
    }

    /** The planar leg of shared/reference/README.md (contacts "foot_x", "foot_y"). */
    public static Model planarLeg() throws ModelException {
        return GenericConstraintsTest.planarLeg();
    }

    private static RigidBodyInertia rod(double m, double l) {
        return RigidBodyInertia.of(m, new double[] {l / 2, 0, 0}, 0.001 * m, 0, 0, m * l * l / 12, 0,
                m * l * l / 12);
    }

    /** The four-bar with the given loop axes instead of (x, y). */
    public static Model fourBarWithAxes(double[]... axes) throws ModelException {
        double[] z = {0, 0, 1};
        return Model.builder("fourbar").root("ground").gravity(0, -9.81, 0)
                .addBody("crank", "ground", "crank_joint", JointType.REVOLUTE, z, Pose.IDENTITY, rod(1, 1))
                .addBody("coupler", "crank", "coupler_joint", JointType.REVOLUTE, z, Pose.translation(1, 0, 0),
                        rod(2, 2))
                .addBody("rocker", "coupler", "rocker_joint", JointType.REVOLUTE, z, Pose.translation(2, 0, 0),
                        rod(1.5, 1.5))
                .addConstraint(new LoopConstraintModel("closure", -1, Pose.translation(2, 0, 0), 2,
                        Pose.translation(1.5, 0, 0), List.of(axes), NAN, SourceLocation.UNKNOWN))
                .build();
    }

    private static RigidBodyInertia box() {
        return RigidBodyInertia.of(1.2, new double[] {0.1, 0.05, -0.02}, 0.02, 0.001, 0, 0.03, 0.002, 0.025);
    }

    /**
     * A 3-D closed chain: a ball joint, a branch, a loop with two rotational and two translational axes, a contact
     * and a coupler (nv = 7, 6 rows).
     */
    public static Model spatialMechanism() throws ModelException {
        return spatialBodies(Model.builder("spatial").root("base"))
                .addConstraint(new LoopConstraintModel("loop", 4,
                        Pose.fromXyzRpy(new double[] {0.1, 0.2, 0.3}, new double[] {0.3, 0.2, 0.1}), 2,
                        Pose.fromXyzRpy(new double[] {-0.1, 0, 0.2}, new double[] {-0.2, 0.4, 0}),
                        List.of(new double[] {1, 0, 0, 0, 0, 0}, new double[] {0, 0.6, 0.8, 0, 0, 0},
                                new double[] {0, 0, 0, 1, 0, 0}, new double[] {0, 0, 0, 0, 0.8, -0.6}),
                        NAN, SourceLocation.UNKNOWN))
                .addConstraint(new ContactConstraintModel("touch", 2, new double[] {0.1, 0.2, 0.3},
                        new double[] {0, 0.6, 0.8}, NAN, SourceLocation.UNKNOWN))
                .addConstraint(new CouplerConstraintModel("gear", 4, 0, 2.5, 0.1, NAN, SourceLocation.UNKNOWN))
                .build();
    }

    /** The bodies of {@link #spatialMechanism()} without constraints. */
    public static ModelBuilder spatialBodies(ModelBuilder b) {
        return b.addBody("a", "base", "ja", JointType.REVOLUTE, new double[] {0, 0, 1}, Pose.IDENTITY, box())
                .addBody("b", "a", "jb", JointType.REVOLUTE, new double[] {0, 1, 0.3},
                        Pose.fromXyzRpy(new double[] {0.4, 0, 0.1}, new double[] {0.2, -0.1, 0.3}), box())
                .addBody("c", "b", "jc", JointType.BALL, null, Pose.translation(0.3, 0.1, 0), box())
                .addBody("d", "a", "jd", JointType.PRISMATIC, new double[] {1, 0, 0}, Pose.translation(0, 0.2, 0),
                        box())
                .addBody("e", "d", "je", JointType.REVOLUTE, new double[] {1, 0, 0}, Pose.translation(0, 0.1, 0),
                        box());
    }

    /**
     * A floating trunk (body 0) with two two-link legs (bodies 1-2 and 3-4, revolute about y), no constraints:
     * nq = 11, nv = 10, a branched tree for the sparse factorisation and quaternion assembly.
     */
    public static Model floatingBiped() throws ModelException {
        double[] y = {0, 1, 0};
        RigidBodyInertia trunk = RigidBodyInertia.of(8, new double[] {0.02, 0, 0.05}, 0.2, 0.01, 0, 0.3, 0, 0.25);
        RigidBodyInertia thigh = RigidBodyInertia.of(1.5, new double[] {0, 0, -0.15}, 0.02, 0, 0, 0.02, 0, 0.002);
        RigidBodyInertia shank = RigidBodyInertia.of(0.8, new double[] {0, 0.01, -0.15}, 0.01, 0, 0, 0.01, 0,
                0.001);
        return Model.builder("biped")
                .addBody("trunk", "world", "base", JointType.FLOATING, null, Pose.IDENTITY, trunk)
                .addBody("thigh_l", "trunk", "hip_l", JointType.REVOLUTE, y, Pose.translation(0, 0.15, -0.1), thigh)
                .addBody("shank_l", "thigh_l", "knee_l", JointType.REVOLUTE, y, Pose.translation(0, 0, -0.3), shank)
                .addBody("thigh_r", "trunk", "hip_r", JointType.REVOLUTE, y, Pose.translation(0, -0.15, -0.1),
                        thigh)
                .addBody("shank_r", "thigh_r", "knee_r", JointType.REVOLUTE, y, Pose.translation(0, 0, -0.3),
                        shank)
                .build();
    }

    /** A random configuration: coordinates uniform in [-1, 1], quaternions normalised. */
    public static double[] randomQ(Model model, Random rnd) {
        double[] q = new double[model.nq()];
        for (int i = 0; i < q.length; i++) {
            q[i] = rnd.nextDouble() * 2 - 1;
        }
        for (int b = 0; b < model.bodyCount(); b++) {
            var j = model.body(b).joint();
            int o = j.type() == JointType.FLOATING ? j.qIndex() + 3 : j.type() == JointType.BALL ? j.qIndex() : -1;
            if (o >= 0) {
                double n = Math.sqrt(q[o] * q[o] + q[o + 1] * q[o + 1] + q[o + 2] * q[o + 2] + q[o + 3] * q[o + 3]);
                for (int k = 0; k < 4; k++) {
                    q[o + k] /= n;
                }
            }
        }
        return q;
    }

    /** A random vector with entries uniform in [-s, s]. */
    public static double[] random(int n, double s, Random rnd) {
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = (rnd.nextDouble() * 2 - 1) * s;
        }
        return x;
    }

    /** ‖a - b‖∞. */
    public static double maxDiff(double[] a, double[] b) {
        double d = 0;
        for (int i = 0; i < a.length; i++) {
            d = Math.max(d, Math.abs(a[i] - b[i]));
        }
        return d;
    }

    /** ‖a‖∞. */
    public static double maxAbs(double[] a) {
        double d = 0;
        for (double x : a) {
            d = Math.max(d, Math.abs(x));
        }
        return d;
    }

    /** G x. */
    public static double[] mult(DMatrixRMaj g, double[] x) {
        double[] out = new double[g.numRows];
        for (int i = 0; i < g.numRows; i++) {
            for (int j = 0; j < g.numCols; j++) {
                out[i] += g.get(i, j) * x[j];
            }
        }
        return out;
    }

    /** Gᵀ y. */
    public static double[] multTrans(DMatrixRMaj g, double[] y) {
        double[] out = new double[g.numCols];
        for (int i = 0; i < g.numRows; i++) {
            for (int j = 0; j < g.numCols; j++) {
                out[j] += g.get(i, j) * y[i];
            }
        }
        return out;
    }
}
