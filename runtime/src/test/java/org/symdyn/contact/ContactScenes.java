package org.symdyn.contact;

import java.util.Locale;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.model.BodySpec;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;
import org.symdyn.model.ModelException;
import org.symdyn.io.urdf.UrdfReader;
import org.symdyn.spatial.Pose;
import org.symdyn.spatial.RigidBodyInertia;

/**
 * Models of the analytic contact cases: blocks, a solid sphere and a rod on floating bases with grounds as given, and
 * a pendulum with position limits; and solo12 (shared) on a floor with a contact point at each foot.
 */
final class ContactScenes {
    static final double G = 9.81;

    private ContactScenes() {
    }

    /** A cube of mass m and half size a on a floating base, its four bottom corners as contact points. */
    static Model box(double m, double a, String grounds) {
        return block(m, a, true, grounds);
    }

    /** A body of mass m whose contact point is its centre of mass (a 0.1 m cube's: it cannot tip). */
    static Model particle(double m, String grounds) {
        return block(m, 0.1, false, grounds);
    }

    /**
     * A cube of mass m, half size a, on a floating base: its four bottom corners (±a, ±a, −a) as contact points
     * ({@code corners} true) or one point at its centre of mass, the body origin (a particle: friction makes no
     * torque about its centre, it cannot tip; place its origin on the ground).
     */
    static Model block(double m, double a, boolean corners, String grounds) {
        double i = m * (2 * a) * (2 * a) / 6;
        StringBuilder points = new StringBuilder();
        if (corners) {
            int k = 0;
            for (int sx = -1; sx <= 1; sx += 2) {
                for (int sy = -1; sy <= 1; sy += 2) {
                    points.append(String.format(Locale.ROOT,
                            "  <sd:contact_point name=\"c%d\" link=\"box\" point=\"%.17g %.17g %.17g\"/>%n", k++,
                            sx * a, sy * a, -a));
                }
            }
        } else {
            points.append(String.format(Locale.ROOT,
                    "  <sd:contact_point name=\"c\" link=\"box\" point=\"0 0 0\"/>%n"));
        }
        return read(String.format(Locale.ROOT, """
                <robot name="block" xmlns:sd="urn:symdyn:1">
                  <link name="world"/>
                  <link name="box"><inertial><mass value="%.17g"/>
                    <inertia ixx="%.17g" ixy="0" ixz="0" iyy="%.17g" iyz="0" izz="%.17g"/></inertial></link>
                  <joint name="base" type="floating"><parent link="world"/><child link="box"/></joint>
                %s%s</robot>
                """, m, i, i, i, points, grounds));
    }

    /** A solid sphere of mass m and radius r on a floating base. */
    static Model sphere(double m, double r, String grounds) {
        double i = 0.4 * m * r * r;
        return read(String.format(Locale.ROOT, """
                <robot name="ball" xmlns:sd="urn:symdyn:1">
                  <link name="world"/>
                  <link name="ball"><inertial><mass value="%.17g"/>
                    <inertia ixx="%.17g" ixy="0" ixz="0" iyy="%.17g" iyz="0" izz="%.17g"/></inertial></link>
                  <joint name="base" type="floating"><parent link="world"/><child link="ball"/></joint>
                  <sd:contact_sphere name="s" link="ball" radius="%.17g"/>
                %s</robot>
                """, m, i, i, i, r, grounds));
    }

    /**
     * A thin rod of mass m and half length l along its body x axis on a floating base, its lower end (−l, 0, 0) a
     * contact point: I = m l²/3 about y and z, 1e-4 m l² about x.
     */
    static Model rod(double m, double l, String grounds) {
        double i = m * l * l / 3;
        return read(String.format(Locale.ROOT, """
                <robot name="rod" xmlns:sd="urn:symdyn:1">
                  <link name="world"/>
                  <link name="rod"><inertial><mass value="%.17g"/>
                    <inertia ixx="%.17g" ixy="0" ixz="0" iyy="%.17g" iyz="0" izz="%.17g"/></inertial></link>
                  <joint name="base" type="floating"><parent link="world"/><child link="rod"/></joint>
                  <sd:contact_point name="end" link="rod" point="%.17g 0 0"/>
                %s</robot>
                """, m, 1e-4 * m * l * l, i, i, -l, grounds));
    }

    /**
     * A pendulum swinging about z in the x-y plane, gravity (0, −9.81, 0): 1 kg at 1 m (1e-3 kg·m² about the com),
     * q = 0 horizontal, gravity pulls q negative; position limits as given (NaN for none).
     */
    static Model pendulum(double lower, double upper) {
        try {
            return Model.builder("pendulum").gravity(0, -G, 0)
                    .addBody(BodySpec.builder("bob", "world", "pivot", JointType.REVOLUTE).axis(0, 0, 1)
                            .limits(lower, upper)
                            .inertia(RigidBodyInertia.of(1, new double[] {1, 0, 0}, 1e-3, 0, 0, 1e-3, 0, 1e-3)).build())
                    .build();
        } catch (ModelException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    /** {@link #incline(double, double, double)} with restitution 0. */
    static String incline(double theta, double mu) {
        return incline(theta, mu, 0);
    }

    /** A ground through the origin with normal (sin θ, 0, cos θ): downhill is (cos θ, 0, −sin θ), its t1. */
    static String incline(double theta, double mu, double restitution) {
        return String.format(Locale.ROOT,
                "  <sd:ground name=\"floor\" normal=\"%.17g 0 %.17g\" friction=\"%.17g\" restitution=\"%.17g\"/>%n",
                Math.sin(theta), Math.cos(theta), mu, restitution);
    }

    /**
     * q for a floating body turned by θ about y (its z axis along the incline's normal), its origin at height h
     * above the incline through the origin, displaced s along the downhill direction.
     */
    static double[] onIncline(double theta, double h, double s) {
        double nx = Math.sin(theta), nz = Math.cos(theta);
        double dx = Math.cos(theta), dz = -Math.sin(theta);
        return new double[] {h * nx + s * dx, 0, h * nz + s * dz, 0, Math.sin(theta / 2), 0, Math.cos(theta / 2)};
    }

    /** {@link #onIncline(double, double, double)} at s = 0. */
    static double[] onIncline(double theta, double h) {
        return onIncline(theta, h, 0);
    }

    private static Model read(String xml) {
        try {
            return UrdfReader.parse(xml, "scene.urdf", null);
        } catch (ModelException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    /** Dynamics and contacts of a model. */
    record Scene(Model model, GenericDynamics dynamics, ContactKinematics contacts) {
        static Scene of(Model model) {
            GenericDynamics dyn = new GenericDynamics(model);
            return new Scene(model, dyn, new ContactKinematics(ContactSet.of(model), dyn, model.nv()));
        }
    }

    /** solo12's four legs. */
    static final String[] SOLO_LEGS = {"FL", "FR", "HL", "HR"};

    /** The shared solo12 with a floating base, a floor (μ 0.9) and a contact point at each foot. */
    static Model solo12OnAFloor() throws Exception {
        java.nio.file.Path file = org.symdyn.testing.SharedFiles.model("solo12.urdf");
        StringBuilder extra = new StringBuilder("  <symdyn:ground name=\"floor\" normal=\"0 0 1\" friction=\"0.9\"/>\n");
        for (String foot : SOLO_LEGS) {
            extra.append(String.format(Locale.ROOT, "  <symdyn:contact_point name=\"%s\" link=\"%s_FOOT\"/>%n", foot,
                    foot));
        }
        String xml = java.nio.file.Files.readString(file).replaceFirst("<robot ", "<robot xmlns:symdyn=\"urn:symdyn:1\" ")
                .replace("</robot>", extra + "</robot>");
        return UrdfReader.parse(xml, file.toString(), new UrdfReader.Options(true, false));
    }

    /** solo12 standing: legs bent (HFE ±0.8, KFE ∓1.6), the trunk lowered until the feet are 1e-6 m in the floor. */
    static double[] solo12Standing(Model m) {
        GenericDynamics dyn = new GenericDynamics(m);
        double[] q = m.neutralConfiguration();
        for (String leg : SOLO_LEGS) {
            q[m.qNames().indexOf(leg + "_HFE")] = leg.startsWith("F") ? 0.8 : -0.8;
            q[m.qNames().indexOf(leg + "_KFE")] = leg.startsWith("F") ? -1.6 : 1.6;
        }
        double[] p = new double[3];
        dyn.pointPosition(q, m.frame("FL_FOOT").bodyIndex(), m.frame("FL_FOOT").pose().translationArray(), p);
        q[2] -= p[2] + 1e-6;
        return q;
    }
}
