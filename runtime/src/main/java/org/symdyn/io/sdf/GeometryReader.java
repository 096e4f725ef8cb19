package org.symdyn.io.sdf;

import java.nio.file.Path;
import java.util.List;
import org.symdyn.geometry.Box;
import org.symdyn.geometry.Capsule;
import org.symdyn.geometry.Cylinder;
import org.symdyn.geometry.HalfSpace;
import org.symdyn.geometry.Shape;
import org.symdyn.geometry.Sphere;
import org.symdyn.io.MeshLoader;
import org.symdyn.io.Messages;
import org.symdyn.io.ValueReader;
import org.symdyn.io.XmlElement;

/**
 * The shape of a {@code <geometry>}, in the frame of its {@code <collision>} or {@code <visual>}: {@code <box><size>}
 * (full edge lengths, m), {@code <sphere><radius>}, {@code <cylinder><radius><length>} and (1.9 and later)
 * {@code <capsule><radius><length>}, both about the z axis and centred; {@code <plane><normal>} (default 0 0 1)
 * as the half-space below the plane through the origin, only on a link that does not move (static, or fixed to the
 * world), since a plane is unbounded; its {@code <size>} bounds nothing in contact and is not read;
 * {@code <mesh><uri>} with {@code <scale>}, read as a URDF mesh is ({@link MeshLoader}: STL, OBJ or Collada;
 * {@code model://NAME/PATH} as {@code package://NAME/PATH} through the package path, then the model path; a
 * relative path against the file's folder; on a moving link a collision mesh is its convex hull). Heightmaps,
 * ellipsoids, polylines and {@code <empty>} are located warnings, left out.
 */
final class GeometryReader {
    private static final List<String> LEFT_OUT = List.of("heightmap", "ellipsoid", "polyline", "image", "empty");

    private GeometryReader() {
    }

    /**
     * The shape, or null after a warning or an error saying why it is not read (or a mesh left out as the
     * {@link MeshLoader}'s policy says).
     *
     * @param onWorld   the link does not move (a plane is read only then)
     * @param meshes    loads {@code <mesh>} shapes
     * @param directory the folder of the file the geometry is written in (relative mesh paths resolve against it)
     * @param collision a collision shape (a mesh's reading warnings are given for those only)
     */
    static Shape read(XmlElement geometry, ValueReader values, SdfVersion version, boolean onWorld, String label,
            MeshLoader meshes, Path directory, boolean collision) {
        if (geometry == null) {
            return null;
        }
        List<XmlElement> kinds = geometry.children();
        if (kinds.isEmpty()) {
            values.error(geometry, label + ": <geometry> has no shape");
            return null;
        }
        XmlElement k = kinds.get(0);
        for (int i = 1; i < kinds.size(); i++) {
            values.warning(kinds.get(i), label + ": a <geometry> has one shape; <" + Messages.cut(kinds.get(i).name())
                    + "> is ignored");
        }
        int before = values.errorCount();
        Shape shape = null;
        switch (k.namespace().isEmpty() ? k.name() : "") {
            case "box" -> {
                XmlElement size = SdfText.first(k, "size");
                double[] s = size == null ? new double[] {1, 1, 1} : SdfText.numbers(values, size, 3, label
                        + ": box size");
                if (values.errorCount() == before && positive(values, k, label + ": box size", s)) {
                    shape = Box.ofSize(s[0], s[1], s[2]);
                }
            }
            case "sphere" -> {
                double r = SdfText.number(values, k, "radius", 1, label + ": sphere radius");
                if (values.errorCount() == before && positive(values, k, label + ": sphere radius", r)) {
                    shape = new Sphere(r);
                }
            }
            case "cylinder", "capsule" -> {
                if (k.is("capsule") && !version.hasPoseFormats()) {
                    values.error(k, label + ": <capsule> needs SDFormat 1.9 or later (the file is " + version + ")");
                    return null;
                }
                double r = SdfText.number(values, k, "radius", k.is("capsule") ? 0.5 : 1, label + ": radius");
                double l = SdfText.number(values, k, "length", 1, label + ": length");
                if (values.errorCount() == before && positive(values, k, label + ": " + k.name() + " radius and"
                        + " length", r, l)) {
                    shape = k.is("capsule") ? new Capsule(r, l) : new Cylinder(r, l);
                }
            }
            case "plane" -> {
                XmlElement normal = SdfText.first(k, "normal");
                double[] n = normal == null ? new double[] {0, 0, 1} : SdfText.numbers(values, normal, 3, label
                        + ": plane normal");
                if (values.errorCount() > before) {
                    return null;
                }
                if (n[0] == 0 && n[1] == 0 && n[2] == 0) {
                    values.error(normal, label + ": plane normal is zero");
                    return null;
                }
                if (!onWorld) {
                    values.warning(k, label + ": a <plane> on a link that moves is left out (an unbounded"
                            + " half-space must be fixed to the world: make the link static or fix it to the world)");
                    return null;
                }
                shape = new HalfSpace(n[0], n[1], n[2], 0);
            }
            case "mesh" -> shape = mesh(k, values, label, meshes, directory, collision);
            default -> {
                if (LEFT_OUT.contains(k.name()) && k.namespace().isEmpty()) {
                    values.warning(k, label + ": <" + k.name() + "> geometry is not read; left out");
                } else {
                    values.warning(k, label + ": unknown geometry <" + Messages.cut(k.name()) + ">; left out");
                }
            }
        }
        return shape;
    }

    /**
     * {@code <mesh><uri>} (required) at {@code <scale>} (default 1 1 1, no entry zero); a {@code <submesh>} is a
     * warning (the whole mesh is read).
     */
    private static Shape mesh(XmlElement k, ValueReader values, String label, MeshLoader meshes, Path directory,
            boolean collision) {
        int before = values.errorCount();
        XmlElement uriElement = SdfText.first(k, "uri");
        String uri = SdfText.string(uriElement);
        if (uri == null || uri.isBlank()) {
            values.error(k, label + ": <mesh> has no <uri>");
        }
        XmlElement scaleElement = SdfText.first(k, "scale");
        double[] scale = scaleElement == null ? new double[] {1, 1, 1} : SdfText.numbers(values, scaleElement, 3,
                label + ": mesh scale");
        if (values.errorCount() == before && (scale[0] == 0 || scale[1] == 0 || scale[2] == 0)) {
            values.error(scaleElement, label + ": mesh scale has a zero entry");
        }
        if (values.errorCount() > before || meshes.skips()) {
            return null;
        }
        XmlElement submesh = SdfText.first(k, "submesh");
        if (submesh != null) {
            values.warning(submesh, label + ": <submesh> is not read: the whole mesh '" + Messages.cut(uri)
                    + "' is used");
        }
        return meshes.load(values, uriElement, uri.trim(), scale, directory, label, collision);
    }

    private static boolean positive(ValueReader values, XmlElement e, String what, double... v) {
        for (double x : v) {
            if (!(x > 0)) {
                values.error(e, what + " must be positive (got " + x + ")");
                return false;
            }
        }
        return true;
    }
}
