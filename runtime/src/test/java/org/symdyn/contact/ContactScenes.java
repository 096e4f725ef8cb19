package org.symdyn.contact;

import java.util.Locale;
import org.symdyn.model.Model;
import org.symdyn.model.ModelException;
import org.symdyn.model.urdf.UrdfReader;

/** Model files of the analytic contact cases: a box and a solid sphere on floating bases, grounds as given. */
final class ContactScenes {
    static final double G = 9.81;

    private ContactScenes() {
    }

    /**
     * A cube of mass m and half size a on a floating base, its four bottom corners as contact points.
     *
     * @param grounds the ground elements (prefix sd:)
     */
    static Model box(double m, double a, String grounds) {
        double i = m * (2 * a) * (2 * a) / 6;
        StringBuilder corners = new StringBuilder();
        int k = 0;
        for (int sx = -1; sx <= 1; sx += 2) {
            for (int sy = -1; sy <= 1; sy += 2) {
                corners.append(String.format(Locale.ROOT,
                        "  <sd:contact_point name=\"c%d\" link=\"box\" point=\"%.17g %.17g %.17g\"/>%n", k++, sx * a,
                        sy * a, -a));
            }
        }
        return read(String.format(Locale.ROOT, """
                <robot name="box" xmlns:sd="urn:symdyn:1">
                  <link name="world"/>
                  <link name="box"><inertial><mass value="%.17g"/>
                    <inertia ixx="%.17g" ixy="0" ixz="0" iyy="%.17g" iyz="0" izz="%.17g"/></inertial></link>
                  <joint name="base" type="floating"><parent link="world"/><child link="box"/></joint>
                %s%s</robot>
                """, m, i, i, i, corners, grounds));
    }

    /** A single body point of mass m (a small cube whose centre is the contact point: it cannot tip). */
    static Model particle(double m, String grounds) {
        return read(String.format(Locale.ROOT, """
                <robot name="particle" xmlns:sd="urn:symdyn:1">
                  <link name="world"/>
                  <link name="p"><inertial><mass value="%.17g"/>
                    <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>
                  <joint name="base" type="floating"><parent link="world"/><child link="p"/></joint>
                  <sd:contact_point name="c" link="p"/>
                %s</robot>
                """, m, grounds));
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

    /** A ground through the origin with normal (sin θ, 0, cos θ): downhill is (cos θ, 0, −sin θ). */
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

    private static Model read(String xml) {
        try {
            return UrdfReader.parse(xml, "scene.urdf", null);
        } catch (ModelException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }
}
