package org.symdyn.io.sdf;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.symdyn.geometry.Shape;
import org.symdyn.io.MeshLoader;
import org.symdyn.io.Messages;
import org.symdyn.io.ValueReader;
import org.symdyn.io.XmlElement;
import org.symdyn.model.ContactMaterial;
import org.symdyn.model.ModelBuilder;
import org.symdyn.spatial.Pose;

/**
 * What a {@code <link>} carries besides its inertia: {@code <collision>}s as collision shapes named
 * {@code link::collision}, with the contact material of {@code <surface>} (friction μ: the first of
 * {@code <friction><ode><mu>}, {@code <friction><bullet><friction>} (not {@code <torsional><coefficient>}, a
 * coefficient of friction against spinning about the normal); restitution: {@code <bounce><restitution_coefficient>}; SDFormat's defaults μ = 1 and e = 0 otherwise; two
 * collisions combine their μ as Gazebo does, the smaller one: {@link ContactMaterial.FrictionRule#MINIMUM}), and
 * {@code <visual>}s as visual shapes (colour: {@code <material><diffuse>} r g b a, else its {@code <ambient>}). Each is placed by its
 * {@code <pose>} in the link frame ({@link FrameGraph}). {@code <sensor>}s are read by {@link SensorReader}.
 * {@code <gravity>false</gravity>}, {@code <kinematic>true</kinematic>} and nonzero {@code <velocity_decay>} change
 * the motion and are warnings; other elements a link may have are warnings too (not read).
 */
final class LinkContentReader {
    private static final Set<String> CHILDREN = Set.of("pose", "inertial", "collision", "visual", "sensor",
            "gravity", "enable_wind", "self_collide", "kinematic", "must_be_base_link", "velocity_decay",
            "projector", "audio_sink", "audio_source", "battery", "light", "particle_emitter", "plugin");

    private final SdfSource source;
    private final FrameGraph frames;
    private final BodyAssembler bodies;
    private final ModelBuilder builder;
    private final SensorReader sensors;
    private final MeshLoader meshes;
    private final Set<String> shapeNames = new HashSet<>();

    LinkContentReader(SdfSource source, FrameGraph frames, BodyAssembler bodies, ModelBuilder builder,
            SensorReader sensors, MeshLoader meshes) {
        this.source = source;
        this.frames = frames;
        this.bodies = bodies;
        this.builder = builder;
        this.sensors = sensors;
        this.meshes = meshes;
    }

    void read(ModelTree.LinkDecl link) {
        XmlElement e = link.element();
        ValueReader values = source.values(e);
        String label = "link '" + link.name() + "'";
        Pose linkFrame = bodies.builderPose(link.name());
        for (XmlElement c : e.children()) {
            if (!c.namespace().isEmpty()) {
                continue; // a custom element of another tool (drake:, gz:): SDFormat's extension point
            }
            if (!CHILDREN.contains(c.name())) {
                values.warning(c, label + ": unknown element <" + Messages.cut(c.name()) + ">; ignored");
                continue;
            }
            switch (c.name()) {
                case "collision", "visual" -> {
                    if (linkFrame != null) {
                        shape(link, c, values, linkFrame);
                    }
                }
                case "sensor" -> {
                    if (linkFrame != null) {
                        sensors.read(link, c, linkFrame);
                    }
                }
                case "gravity" -> {
                    if (!SdfText.bool(values, e, "gravity", true, label + ": gravity")) {
                        values.warning(c, label + ": <gravity>false</gravity> is not modelled: gravity acts on"
                                + " every link");
                    }
                }
                case "kinematic" -> {
                    if (SdfText.bool(values, e, "kinematic", false, label + ": kinematic")) {
                        values.warning(c, label + ": <kinematic>true</kinematic> is not modelled: the link moves"
                                + " by the dynamics");
                    }
                }
                case "plugin" -> values.warning(c, label + ": <plugin> is not read: the link has no plugin forces");
                case "velocity_decay" -> values.warning(c, label + ": <velocity_decay> is not modelled; ignored");
                case "pose", "inertial" -> {
                    // read with the link
                }
                default -> values.warning(c, label + ": <" + c.name() + "> is not read");
            }
        }
    }

    private void shape(ModelTree.LinkDecl link, XmlElement c, ValueReader values, Pose linkFrame) {
        boolean collision = c.is("collision");
        String name = c.attribute("name");
        String label = "link '" + link.name() + "': " + c.name() + (name == null ? "" : " '" + name + "'");
        Pose world = frames.pose(PoseElement.of(c, values, link.scope().version(), label), link.name(),
                link.scope(), c);
        Pose inLink = linkFrame.inverse().compose(world);
        Path file = source.file(c).file();
        Shape shape = GeometryReader.read(values.single(c, "geometry", label), values, link.scope().version(),
                bodies.onWorld(link.name()), label, meshes, file == null ? null : file.toAbsolutePath().getParent(),
                collision);
        if (SdfText.first(c, "geometry") == null) {
            values.error(c, label + " has no <geometry>");
        }
        if (shape == null) {
            XmlElement geometry = SdfText.first(c, "geometry");
            if (collision && meshes.skips() && geometry != null && SdfText.first(geometry, "mesh") != null) {
                builder.leftOutCollisionMesh(values.location(c));
            }
            return;
        }
        if (collision) {
            String shapeName = link.name() + "::" + (name == null ? "collision" : name);
            if (!shapeNames.add(shapeName)) {
                values.error(c, label + ": duplicate collision name in the link");
                return;
            }
            builder.addCollisionShape(shapeName, link.name(), inLink, shape, material(c, values, label),
                    values.location(c));
        } else {
            builder.addVisualShape(link.name(), inLink, shape, colour(c, values, label), values.location(c));
        }
    }

    private static ContactMaterial material(XmlElement collision, ValueReader values, String label) {
        XmlElement surface = SdfText.first(collision, "surface");
        double mu = ContactMaterial.DEFAULT.friction();
        double e = ContactMaterial.DEFAULT.restitution();
        if (surface != null) {
            XmlElement friction = SdfText.first(surface, "friction");
            if (friction != null) {
                XmlElement ode = SdfText.first(friction, "ode");
                XmlElement bullet = SdfText.first(friction, "bullet");
                if (ode != null && SdfText.first(ode, "mu") != null) {
                    mu = SdfText.number(values, ode, "mu", mu, label + ": friction mu");
                } else if (bullet != null && SdfText.first(bullet, "friction") != null) {
                    mu = SdfText.number(values, bullet, "friction", mu, label + ": bullet friction");
                }
                // <torsional><coefficient> is friction against spinning about the normal, not sliding: not a μ
            }
            XmlElement bounce = SdfText.first(surface, "bounce");
            if (bounce != null) {
                e = SdfText.number(values, bounce, "restitution_coefficient", e, label + ": restitution_coefficient");
            }
        }
        if (!(mu >= 0)) {
            values.error(surface, label + ": friction " + mu + " must be >= 0");
            mu = ContactMaterial.DEFAULT.friction();
        }
        if (!(e >= 0 && e <= 1)) {
            values.error(surface, label + ": restitution " + e + " must be in [0, 1]");
            e = 0;
        }
        return new ContactMaterial(mu, e, ContactMaterial.FrictionRule.MINIMUM);
    }

    private static double[] colour(XmlElement visual, ValueReader values, String label) {
        XmlElement material = SdfText.first(visual, "material");
        XmlElement diffuse = SdfText.first(material, "diffuse");
        if (diffuse == null) {
            diffuse = SdfText.first(material, "ambient"); // a material of ambient light alone is drawn in it
        }
        if (diffuse == null) {
            return null;
        }
        int n = SdfText.tokenCount(diffuse);
        double[] c = SdfText.numbers(values, diffuse, n == 3 ? 3 : 4, label + ": " + diffuse.name() + " colour");
        return n == 3 ? new double[] {c[0], c[1], c[2], 1} : c;
    }
}
