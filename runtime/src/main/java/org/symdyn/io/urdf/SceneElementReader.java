package org.symdyn.io.urdf;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.symdyn.geometry.Box;
import org.symdyn.geometry.Capsule;
import org.symdyn.geometry.Cylinder;
import org.symdyn.geometry.HalfSpace;
import org.symdyn.geometry.Shape;
import org.symdyn.geometry.Sphere;
import org.symdyn.io.MeshFormats;
import org.symdyn.io.MeshLoader;
import org.symdyn.io.MeshPolicy;
import org.symdyn.io.Messages;
import org.symdyn.io.Names;
import org.symdyn.io.PackagePath;
import org.symdyn.io.ValueReader;
import org.symdyn.io.XmlElement;
import org.symdyn.model.ContactMaterial;
import org.symdyn.model.LidarModel;
import org.symdyn.model.ModelBuilder;
import org.symdyn.spatial.Pose;

/**
 * Reads what a URDF file says about shapes into the {@link ModelBuilder}: each link's {@code <collision>} and
 * {@code <visual>} elements (origin, geometry, a collision's {@code <symdyn:contact>} material, a visual's
 * {@code <material>} colour, inline or named at the robot level), and the robot-level {@code <symdyn:no_contact>}
 * and {@code <symdyn:lidar>} elements. Meshes are found through the {@link PackagePath} and read by
 * {@link MeshFormats}, each file once per read ({@link MeshLoader}); what happens to a mesh that cannot be had is
 * the {@link MeshPolicy}'s. The builder resolves links to bodies and checks what spans elements (names, links).
 */
final class SceneElementReader {
    private static final double[] ZERO3 = new double[3];
    private static final double[] ONES = {1, 1, 1};
    private static final Pattern INTEGER = Pattern.compile("[+-]?\\d{1,9}");
    /** URDF's shapes, PyBullet's {@code <plane>} among them, and SymDyn's capsule written without its namespace. */
    static final Set<String> SHAPES = Set.of("box", "cylinder", "sphere", "mesh", "capsule", "plane");

    private final ValueReader values;
    private final ModelBuilder builder;
    private final MeshLoader meshes;
    private final Path directory;
    private final Map<String, double[]> materials = new HashMap<>();

    /**
     * @param directory the URDF file's directory, against which relative mesh paths resolve (null: the working
     *                  directory)
     */
    SceneElementReader(ValueReader values, ModelBuilder builder, MeshPolicy policy, PackagePath packagePath,
            Path directory) {
        this.values = values;
        this.builder = builder;
        this.meshes = new MeshLoader(policy, packagePath, null);
        this.directory = directory;
    }

    /** The robot-level {@code <material name><color rgba/></material>} declarations (the first of a name binds). */
    void materials(XmlElement robot) {
        for (XmlElement m : robot.children("material")) {
            String name = m.attribute("name");
            if (name == null || name.isBlank()) {
                values.error(m, "a robot-level <material> has no 'name' attribute");
                continue;
            }
            double[] rgba = color(m, "material '" + name + "'");
            if (rgba != null) {
                materials.putIfAbsent(name, rgba);
            }
        }
    }

    /** The collision and visual shapes of a link the builder has. */
    void link(XmlElement link, String linkName) {
        String label = "link '" + linkName + "'";
        for (XmlElement c : link.children("collision")) {
            String name = c.attribute("name");
            String what = label + ": <collision" + (name == null ? "" : " name=\"" + Messages.cut(name) + "\"") + ">";
            int before = values.errorCount();
            Pose origin = UrdfModelReader.origin(values, c, what);
            ContactMaterial material = contactMaterial(c, what);
            Shape shape = geometry(c, what, true);
            if (shape != null && values.errorCount() == before) {
                builder.addCollisionShape(name == null || name.isBlank() ? null : name, linkName, origin, shape,
                        material, values.location(c));
            }
        }
        for (XmlElement v : link.children("visual")) {
            String what = label + ": <visual>";
            int before = values.errorCount();
            Pose origin = UrdfModelReader.origin(values, v, what);
            double[] rgba = visualColor(v, what);
            Shape shape = geometry(v, what, false);
            if (shape != null && values.errorCount() == before) {
                builder.addVisualShape(linkName, origin, shape, rgba, values.location(v));
            }
        }
    }

    /** {@code <symdyn:no_contact link1 link2/>}. */
    void noContact(XmlElement e) {
        rejectChildren(e, "no_contact");
        String a = values.require(e, "link1", "no_contact has no 'link1' attribute");
        String b = values.require(e, "link2", "no_contact has no 'link2' attribute");
        if (a == null || b == null) {
            return;
        }
        if (a.equals(b)) {
            values.error(e, "no_contact names link '" + Messages.cut(a) + "' twice (the shapes of one link never"
                    + " touch each other)");
            return;
        }
        builder.addNoContact(a, b, values.location(e));
    }

    /** {@code <symdyn:lidar .../>}; its numbers are checked by {@link ModelBuilder#addLidar}. */
    void lidar(XmlElement e) {
        rejectChildren(e, "lidar");
        String name = Names.check(values, e, "lidar name", values.require(e, "name", "lidar has no 'name' attribute"));
        String label = "lidar '" + (name == null ? "?" : name) + "'";
        int before = values.errorCount();
        String link = values.require(e, "link", label + " has no 'link' attribute");
        double[] xyz = values.vector(e, "xyz", 3, ZERO3, label + ": xyz");
        double[] rpy = values.vector(e, "rpy", 3, ZERO3, label + ": rpy");
        int samples = integer(e, "samples", -1, label);
        double minAngle = values.number(e, "min_angle", Double.NaN, true, label + ": min_angle");
        double maxAngle = values.number(e, "max_angle", Double.NaN, true, label + ": max_angle");
        double rangeMin = values.number(e, "range_min", 0, false, label + ": range_min");
        double rangeMax = values.number(e, "range_max", Double.NaN, true, label + ": range_max");
        double noise = values.number(e, "noise", 0, false, label + ": noise");
        int rows = integer(e, "rows", 1, label);
        double minElevation = values.number(e, "min_elevation", 0, false, label + ": min_elevation");
        double maxElevation = values.number(e, "max_elevation", 0, false, label + ": max_elevation");
        if (values.errorCount() > before || name == null) {
            return;
        }
        builder.addLidar(new LidarModel(name, link, -1, Pose.fromXyzRpy(xyz, rpy), samples, minAngle, maxAngle,
                rows, minElevation, maxElevation, rangeMin, rangeMax, noise, values.location(e)));
    }

    private int integer(XmlElement e, String attribute, int dflt, String label) {
        String raw = e.attribute(attribute);
        if (raw == null) {
            if (dflt < 0) {
                values.error(e, label + ": " + attribute + " is missing");
            }
            return dflt;
        }
        if (!INTEGER.matcher(raw.trim()).matches()) {
            values.error(e, label + ": " + attribute + " '" + Messages.cut(raw) + "' is not an integer (at most 9"
                    + " digits)");
            return dflt;
        }
        return Integer.parseInt(raw.trim());
    }

    /** The {@code <symdyn:contact friction restitution/>} of a collision (ContactMaterial.DEFAULT when none). */
    private ContactMaterial contactMaterial(XmlElement collision, String what) {
        XmlElement contact = null;
        for (XmlElement c : collision.childrenInNamespace(UrdfReader.NAMESPACE)) {
            if (!c.name().equals("contact")) {
                values.error(c, what + ": unknown SymDyn element '" + Messages.cut(c.name()) + "' (expected contact)");
            } else if (contact != null) {
                values.error(c, what + ": a second <symdyn:contact> (the first is at line " + contact.line() + ")");
            } else {
                contact = c;
            }
        }
        if (contact == null) {
            return ContactMaterial.DEFAULT;
        }
        rejectChildren(contact, "contact");
        int before = values.errorCount();
        double friction = values.number(contact, "friction", 1, false, what + ": contact friction");
        double restitution = values.number(contact, "restitution", 0, false, what + ": contact restitution");
        if (values.errorCount() > before) {
            return ContactMaterial.DEFAULT;
        }
        if (!(friction >= 0)) {
            values.error(contact, what + ": contact friction " + friction + " must be >= 0");
        }
        if (!(restitution >= 0 && restitution <= 1)) {
            values.error(contact, what + ": contact restitution " + restitution + " must be in [0, 1]");
        }
        return values.errorCount() > before ? ContactMaterial.DEFAULT : new ContactMaterial(friction, restitution);
    }

    /** A visual's colour: its material's inline {@code <color>}, else the robot-level material of its name. */
    private double[] visualColor(XmlElement visual, String what) {
        XmlElement m = values.single(visual, "material", what);
        if (m == null) {
            return null;
        }
        String name = m.attribute("name");
        boolean named = name != null && !name.isBlank();
        double[] known = named ? materials.get(name) : null;
        boolean inline = !m.children("color").isEmpty();
        if (known != null) {
            // as urdfdom: the name binds its first colour, an inline <color> here notwithstanding (common files
            // repeat a material with another colour; RViz shows the first)
            if (inline) {
                color(m, what + ": material"); // still checked
            }
            return known;
        }
        if (!inline) {
            if (named) {
                values.warning(m, what + ": material '" + Messages.cut(name) + "' is declared nowhere before it (at"
                        + " the robot level or with a <color> in an earlier visual) and gives no <color>: the shape"
                        + " has no colour");
            }
            return null;
        }
        double[] rgba = color(m, what + ": material");
        if (named && rgba != null) {
            materials.put(name, rgba); // as urdfdom: an inline material names a colour for the visuals after it
        }
        return rgba;
    }

    /** The {@code <color rgba>} of a material element, or null. */
    private double[] color(XmlElement material, String what) {
        XmlElement color = values.single(material, "color", what);
        if (color == null) {
            return null;
        }
        int before = values.errorCount();
        double[] rgba = values.vector(color, "rgba", 4, null, what + ": color rgba");
        if (values.errorCount() > before) {
            return null;
        }
        for (double x : rgba) {
            if (!(x >= 0 && x <= 1)) {
                values.error(color, what + ": color rgba '" + Messages.cut(color.attribute("rgba"))
                        + "' has a component outside [0, 1]");
                return null;
            }
        }
        return rgba;
    }

    /**
     * The one shape of the {@code <geometry>} of a collision or visual; null after reporting, or left out. Children
     * in no namespace that are no shape ({@code <material>}, which racecar.urdf puts there) are skipped, as urdfdom
     * skips them after the shape, and warned about by {@link UnknownChildren}; a geometry with none of the shapes is
     * an error.
     */
    private Shape geometry(XmlElement owner, String what, boolean collision) {
        XmlElement geometry = values.single(owner, "geometry", what);
        if (geometry == null) {
            values.error(owner, what + " has no <geometry>");
            return null;
        }
        XmlElement shape = null;
        XmlElement unknown = null;
        int shapes = 0;
        for (XmlElement c : geometry.children()) {
            boolean ours = c.namespace().equals(UrdfReader.NAMESPACE);
            if (!ours && !c.namespace().isEmpty()) {
                continue; // another tool's extension
            }
            boolean known = ours ? c.name().equals("capsule") : SHAPES.contains(c.name());
            if (!known) {
                unknown = unknown == null ? c : unknown;
                continue;
            }
            shapes++;
            shape = shape == null ? c : shape;
        }
        if (shapes == 0 && unknown != null) {
            boolean ours = unknown.namespace().equals(UrdfReader.NAMESPACE);
            values.error(unknown, what + ": unknown geometry kind '" + (ours ? "symdyn:" : "")
                    + Messages.cut(unknown.name()) + "' (expected box, cylinder, sphere, mesh, plane or"
                    + " symdyn:capsule)");
            return null;
        }
        if (shapes != 1) {
            values.error(geometry, what + ": <geometry> has " + shapes + " shapes; exactly one of box, cylinder,"
                    + " sphere, mesh, plane or symdyn:capsule is needed");
            return null;
        }
        return shape(shape, what, collision);
    }

    /**
     * The shape of a geometry element, or null after reporting. A size of exactly zero (a cylinder of length 0, a
     * disc, in some public files) gives a shape without volume, which urdfdom reads and nothing can touch or see
     * edge-on: it is left out with a warning (a negative or non-finite size is an error).
     */
    private Shape shape(XmlElement e, String what, boolean collision) {
        int before = values.errorCount();
        switch (e.name()) {
            case "box" -> {
                double[] size = values.vector(e, "size", 3, null, what + ": box size");
                if (values.errorCount() == before && !(size[0] >= 0 && size[1] >= 0 && size[2] >= 0)) {
                    values.error(e, what + ": box size '" + Messages.cut(e.attribute("size"))
                            + "' needs three lengths > 0");
                }
                if (values.errorCount() > before) {
                    return null;
                }
                return size[0] == 0 || size[1] == 0 || size[2] == 0 ? withoutVolume(e, what, "box size '"
                        + Messages.cut(e.attribute("size")) + "' has a zero length")
                        : Box.ofSize(size[0], size[1], size[2]);
            }
            case "sphere" -> {
                double r = size(e, "radius", what + ": sphere radius");
                return values.errorCount() > before ? null
                        : r == 0 ? withoutVolume(e, what, "sphere radius 0") : new Sphere(r);
            }
            case "cylinder" -> {
                // URDF's cylinder and Cylinder share their axis (z) and full length
                double r = size(e, "radius", what + ": cylinder radius");
                double length = size(e, "length", what + ": cylinder length");
                return values.errorCount() > before ? null : r == 0 || length == 0 ? withoutVolume(e, what, "cylinder"
                        + (r == 0 ? " radius" : " length") + " 0") : new Cylinder(r, length);
            }
            case "capsule" -> {
                // Capsule's length is that of the cylindrical part, along z, as symdyn:capsule's
                double r = positive(e, "radius", what + ": capsule radius");
                double length = positive(e, "length", what + ": capsule length (of the cylindrical part; a"
                        + " capsule of length 0 is a sphere)");
                return values.errorCount() > before ? null : new Capsule(r, length);
            }
            case "plane" -> {
                return plane(e, what);
            }
            default -> {
                return mesh(e, what, collision);
            }
        }
    }

    /**
     * PyBullet's {@code <plane normal="nx ny nz"/>} (its {@code plane.urdf}): the half-space below the plane through
     * the link's origin, normal in the link's frame (default 0 0 1). It must not move: on a moving link the model
     * leaves it out with a warning ({@code ModelBuilder}).
     */
    private Shape plane(XmlElement e, String what) {
        int before = values.errorCount();
        double[] n = values.vector(e, "normal", 3, new double[] {0, 0, 1}, what + ": plane normal");
        if (values.errorCount() > before) {
            return null;
        }
        if (!(Math.abs(n[0]) + Math.abs(n[1]) + Math.abs(n[2]) > 0)) {
            values.error(e, what + ": plane normal '" + Messages.cut(e.attribute("normal")) + "' is zero");
            return null;
        }
        return new HalfSpace(n[0], n[1], n[2], 0);
    }

    private Shape withoutVolume(XmlElement e, String what, String detail) {
        values.warning(e, what + ": " + detail + ": a shape without volume; left out");
        return null;
    }

    /** A size ≥ 0 (an error if negative or not a finite number). */
    private double size(XmlElement e, String attribute, String what) {
        int before = values.errorCount();
        double x = values.number(e, attribute, Double.NaN, true, what);
        if (values.errorCount() == before && !(x >= 0 && x < Double.POSITIVE_INFINITY)) {
            values.error(e, what + " " + x + " must be > 0");
        }
        return x;
    }

    private double positive(XmlElement e, String attribute, String what) {
        int before = values.errorCount();
        double x = values.number(e, attribute, Double.NaN, true, what);
        if (values.errorCount() == before && !(x > 0)) {
            values.error(e, what + " " + x + " must be > 0");
        }
        return x;
    }

    /**
     * A mesh shape, or null (reported, or left out). The reading's own warnings (zero-area triangles left out) are
     * given for collision meshes only: a visual mesh draws the same without them.
     */
    private Shape mesh(XmlElement e, String what, boolean collision) {
        int before = values.errorCount();
        String uri = values.require(e, "filename", what + ": <mesh> has no 'filename' attribute");
        double[] scale = values.vector(e, "scale", 3, ONES, what + ": mesh scale");
        if (values.errorCount() == before && (scale[0] == 0 || scale[1] == 0 || scale[2] == 0)) {
            values.error(e, what + ": mesh scale '" + Messages.cut(e.attribute("scale")) + "' has a zero entry");
        }
        if (values.errorCount() == before && meshes.skips() && collision) {
            builder.leftOutCollisionMesh(values.location(e));
        }
        if (values.errorCount() > before || meshes.skips()) {
            return null;
        }
        return meshes.load(values, e, uri, scale, directory, what, collision);
    }

    private void rejectChildren(XmlElement e, String element) {
        for (XmlElement c : e.children()) {
            if (c.namespace().equals(UrdfReader.NAMESPACE)) {
                values.error(c, element + " takes no child elements, found '" + Messages.cut(c.name()) + "'");
            }
        }
    }
}
