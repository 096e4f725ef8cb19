package org.symdyn.systems;

import java.util.Locale;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;
import org.symdyn.model.ModelException;
import org.symdyn.io.urdf.UrdfReader;
import org.symdyn.spatial.Pose;
import org.symdyn.spatial.RigidBodyInertia;

/** Small models for the systems tests, built in code or from short URDF strings. */
final class SystemModels {
    static final double G = 9.81;

    private SystemModels() {
    }

    /** A rotor about z through its centre of mass, moment of inertia {@code izz} (kg·m²), no gravity. */
    static Model rotor(double izz) {
        return build(Model.builder("rotor").gravity(0, 0, 0)
                .addBody("rotor", "world", "axle", JointType.REVOLUTE, new double[] {0, 0, 1}, Pose.IDENTITY,
                        RigidBodyInertia.of(1, new double[] {0, 0, 0}, 0.01, 0, 0, 0.01, 0, izz)));
    }

    /** A link turning about world x (q = 0: body frame = world frame), 1 kg at (0, 0.3, 0), gravity −z. */
    static Model tiltLink() {
        return build(Model.builder("tilt").gravity(0, 0, -G)
                .addBody("link", "world", "hinge", JointType.REVOLUTE, new double[] {1, 0, 0}, Pose.IDENTITY,
                        RigidBodyInertia.of(1, new double[] {0, 0.3, 0}, 0.01, 0, 0, 0.01, 0, 0.01)));
    }

    /** A link turning about world z, 1 kg at its axis, gravity −z (along the axis: no gravity torque). */
    static Model spinner() {
        return build(Model.builder("spinner").gravity(0, 0, -G)
                .addBody("disc", "world", "spin", JointType.REVOLUTE, new double[] {0, 0, 1}, Pose.IDENTITY,
                        RigidBodyInertia.of(1, new double[] {0, 0, 0}, 0.02, 0, 0, 0.02, 0, 0.04)));
    }

    /** A body sliding along world x (prismatic), 2 kg, no gravity. */
    static Model slider() {
        return build(Model.builder("slider").gravity(0, 0, 0)
                .addBody("cart", "world", "rail", JointType.PRISMATIC, new double[] {1, 0, 0}, Pose.IDENTITY,
                        RigidBodyInertia.of(2, new double[] {0, 0, 0}, 0.01, 0, 0, 0.01, 0, 0.01)));
    }

    /**
     * A planar double pendulum about y (the sample's): rods of 1 m, 1 kg and 0.5 kg at their middles, gravity −z;
     * q = 0 hangs down.
     */
    static Model doublePendulum() {
        return build(Model.builder("double_pendulum").gravity(0, 0, -G)
                .addBody("upper", "world", "shoulder", JointType.REVOLUTE, new double[] {0, 1, 0}, Pose.IDENTITY,
                        RigidBodyInertia.of(1, new double[] {0, 0, -0.5}, 0.08333, 0, 0, 0.08333, 0, 0.001))
                .addBody("fore", "upper", "elbow", JointType.REVOLUTE, new double[] {0, 1, 0},
                        Pose.translation(0, 0, -1),
                        RigidBodyInertia.of(0.5, new double[] {0, 0, -0.5}, 0.041667, 0, 0, 0.041667, 0, 0.0005)));
    }

    /** A cube of mass m, half size a, on a floating base, its four bottom corners as contact points. */
    static Model box(double m, double a, double friction, double restitution) {
        double i = m * (2 * a) * (2 * a) / 6;
        StringBuilder points = new StringBuilder();
        int k = 0;
        for (int sx = -1; sx <= 1; sx += 2) {
            for (int sy = -1; sy <= 1; sy += 2) {
                points.append(String.format(Locale.ROOT,
                        "  <sd:contact_point name=\"c%d\" link=\"box\" point=\"%.17g %.17g %.17g\"/>%n", k++, sx * a,
                        sy * a, -a));
            }
        }
        return read(String.format(Locale.ROOT, """
                <robot name="block" xmlns:sd="urn:symdyn:1">
                  <link name="world"/>
                  <link name="box"><inertial><mass value="%.17g"/>
                    <inertia ixx="%.17g" ixy="0" ixz="0" iyy="%.17g" iyz="0" izz="%.17g"/></inertial></link>
                  <joint name="base" type="floating"><parent link="world"/><child link="box"/></joint>
                %s  <sd:ground name="floor" normal="0 0 1" friction="%.17g" restitution="%.17g"/>
                </robot>
                """, m, i, i, i, points, friction, restitution));
    }

    /** Row-major rotation about x by a. */
    static double[] rotX(double a) {
        double c = Math.cos(a), s = Math.sin(a);
        return new double[] {1, 0, 0, 0, c, -s, 0, s, c};
    }

    /** Row-major rotation about z by a. */
    static double[] rotZ(double a) {
        double c = Math.cos(a), s = Math.sin(a);
        return new double[] {c, -s, 0, s, c, 0, 0, 0, 1};
    }

    static double[] multiply(double[] a, double[] b) {
        double[] c = new double[9];
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                for (int k = 0; k < 3; k++) {
                    c[3 * i + j] += a[3 * i + k] * b[3 * k + j];
                }
            }
        }
        return c;
    }

    /** Rᵀ x. */
    static double[] transposeTimes(double[] r, double[] x) {
        double[] y = new double[3];
        for (int i = 0; i < 3; i++) {
            y[i] = r[i] * x[0] + r[3 + i] * x[1] + r[6 + i] * x[2];
        }
        return y;
    }

    private static Model build(org.symdyn.model.ModelBuilder b) {
        try {
            return b.build();
        } catch (ModelException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    private static Model read(String xml) {
        try {
            return UrdfReader.parse(xml, "scene.urdf", null);
        } catch (ModelException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }
}
