package org.symdyn.io.mjcf;

import java.util.List;
import org.symdyn.io.Messages;
import org.symdyn.spatial.RigidBodyInertia;

/**
 * A body's inertia from its geoms, by MuJoCo's rule: each geom is a solid of uniform density (its {@code density},
 * or {@code mass} / volume when a mass is given) and the body's inertia is the sum of the geoms' inertias placed at
 * their frames. Volumes and principal moments about the geom's centre, in its frame (z the axis of a capsule or
 * cylinder), with r the radius, h the half-length and a, b, c the half-sizes or semi-axes:
 * <ul>
 * <li>sphere: V = 4/3 π r³; I = 2/5 m r² about every axis;</li>
 * <li>box: V = 8 a b c; Ixx = m (b² + c²) / 3, and cyclically;</li>
 * <li>cylinder: V = 2 π r² h; Ixx = Iyy = m (3 r² + 4 h²) / 12, Izz = m r² / 2;</li>
 * <li>ellipsoid: V = 4/3 π a b c; Ixx = m (b² + c²) / 5, and cyclically;</li>
 * <li>capsule: V = 2 π r² h + 4/3 π r³, split into a cylinder of mass m_c and two hemispheres of mass
 * m_s = m · 4 r / (4 r + 6 h) (MuJoCo's split by volume): Ixx = Iyy = m_c (3 r² + 4 h²) / 12 + 2/5 m_s r²
 * + m_s h (3 r + 4 h) / 4, Izz = m_c r² / 2 + 2/5 m_s r² (the hemispheres' moments moved to the centre as
 * MuJoCo moves them).</li>
 * </ul>
 * Planes have no volume. Mesh, height-field and SDF geoms would need the mesh's own volume: a body that must take
 * its inertia from such a geom is refused, at the geom.
 */
final class GeomInertia {
    private GeomInertia() {
    }

    /** The inertia of the geoms in their body's frame, or null after reporting a geom whose volume is unknown. */
    static RigidBodyInertia of(List<GeomDeclaration> geoms, String bodyName) {
        RigidBodyInertia sum = RigidBodyInertia.ZERO;
        boolean ok = true;
        for (GeomDeclaration g : geoms) {
            if (g.resolved().bool("shellinertia", false, "geom: shellinertia")) {
                // MuJoCo then takes the geom as a thin shell: as a solid its inertia would be silently wrong
                String geom = g.name() == null ? "geom" : "geom '" + Messages.cut(g.name()) + "'";
                g.resolved().error(geom + " of body '" + bodyName + "': shellinertia is not supported, and the body"
                        + " takes its inertia from its geoms: give the body an <inertial>");
                ok = false;
                continue;
            }
            double[] s = g.size();
            double volume;
            double[] unitMoments; // moments per unit mass about the centre, principal in the geom frame
            switch (g.type()) {
                case "sphere" -> {
                    volume = 4.0 / 3 * Math.PI * s[0] * s[0] * s[0];
                    double i = 2.0 / 5 * s[0] * s[0];
                    unitMoments = new double[] {i, i, i};
                }
                case "box" -> {
                    volume = 8 * s[0] * s[1] * s[2];
                    unitMoments = new double[] {(s[1] * s[1] + s[2] * s[2]) / 3, (s[0] * s[0] + s[2] * s[2]) / 3,
                        (s[0] * s[0] + s[1] * s[1]) / 3};
                }
                case "cylinder" -> {
                    volume = Math.PI * s[0] * s[0] * 2 * s[1];
                    double side = (3 * s[0] * s[0] + 4 * s[1] * s[1]) / 12;
                    unitMoments = new double[] {side, side, s[0] * s[0] / 2};
                }
                case "ellipsoid" -> {
                    volume = 4.0 / 3 * Math.PI * s[0] * s[1] * s[2];
                    unitMoments = new double[] {(s[1] * s[1] + s[2] * s[2]) / 5, (s[0] * s[0] + s[2] * s[2]) / 5,
                        (s[0] * s[0] + s[1] * s[1]) / 5};
                }
                case "capsule" -> {
                    double r = s[0];
                    double height = 2 * s[1];
                    volume = Math.PI * r * r * height + 4.0 / 3 * Math.PI * r * r * r;
                    double sphereShare = 4 * r / (4 * r + 3 * height);
                    double cylinderShare = 1 - sphereShare;
                    double side = cylinderShare * (3 * r * r + height * height) / 12
                            + sphereShare * (2 * r * r / 5 + height * (3 * r + 2 * height) / 8);
                    double axial = cylinderShare * r * r / 2 + sphereShare * 2 * r * r / 5;
                    unitMoments = new double[] {side, side, axial};
                }
                case "plane" -> {
                    continue;
                }
                default -> {
                    g.resolved().error("body '" + bodyName + "' takes its inertia from its geoms (it has no"
                            + " <inertial>), and this " + g.type() + " geom's volume is not computed by this reader:"
                            + " give the body an <inertial>");
                    ok = false;
                    continue;
                }
            }
            double mass = Double.isNaN(g.mass()) ? g.density() * volume : g.mass();
            RigidBodyInertia own = RigidBodyInertia.of(mass, new double[3], mass * unitMoments[0], 0, 0,
                    mass * unitMoments[1], 0, mass * unitMoments[2]);
            sum = sum.plus(own.expressedIn(g.inBody()));
        }
        return ok ? sum : null;
    }
}
