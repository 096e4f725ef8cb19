package org.symdyn.io.mjcf;

import java.util.Map;
import org.symdyn.io.Messages;
import org.symdyn.spatial.Pose;

/**
 * Reads a {@code <geom>} with MuJoCo's rules: {@code type} default sphere; {@code size} as many numbers as the type
 * uses (sphere 1, capsule and cylinder 2, box and ellipsoid 3, plane 3), each positive but a plane's extents;
 * {@code fromto="x1 y1 z1 x2 y2 z2"} on a capsule, cylinder, box or ellipsoid puts the geom's centre at the
 * midpoint and its z axis along the segment, and sets its half-length (the second size of a capsule or cylinder,
 * the third of a box or ellipsoid) to half the segment's length, replacing the orientation; a box's or ellipsoid's
 * second size is then its first (as MuJoCo compiles it), so one size number is enough; {@code fromto} on another
 * type, or with a nonzero {@code pos} (its own or its class's), is an error (as in MuJoCo);
 * {@code density} default 1000 kg/m³, {@code mass} replacing density · volume; {@code contype} and
 * {@code conaffinity} default 1; {@code friction} default "1 0.005 0.0001" (only the first, sliding, number is
 * used). A mesh geom names a {@code <mesh>} asset whose {@code file} is found in {@code meshdir}.
 */
final class GeomReader {
    private static final String[] TYPES = {"sphere", "capsule", "cylinder", "box", "ellipsoid", "plane", "mesh",
        "hfield", "sdf"};

    /** A {@code <mesh>} asset: its file (meshdir applied) and scale. */
    record MeshAsset(String file, double[] scale) {
    }

    /** MuJoCo's default geom colour: a geom of this colour with a material takes the material's. */
    private static final double[] DEFAULT_RGBA = {0.5, 0.5, 0.5, 1};

    private final CompilerSettings compiler;
    private final Map<String, MeshAsset> meshes;
    private final Map<String, double[]> materials;

    /** @param materials each {@code <material>} asset's {@code rgba}, by name */
    GeomReader(CompilerSettings compiler, Map<String, MeshAsset> meshes, Map<String, double[]> materials) {
        this.compiler = compiler;
        this.meshes = meshes;
        this.materials = materials;
    }

    /** The geom, or null after reporting why it cannot be read. */
    GeomDeclaration read(ResolvedElement g, String bodyName) {
        String name = g.element().attribute("name");
        String label = "geom" + (name == null ? "" : " '" + Messages.cut(name) + "'") + " of body '" + bodyName + "'";
        int before = g.values().errorCount();
        String meshName = g.get("mesh");
        String type = g.keyword("type", meshName != null ? "mesh" : "sphere", label + ": type", TYPES);
        double[] size = g.numbersOverDefault("size", label + ": size");
        Pose inBody;
        boolean elongated = type.equals("capsule") || type.equals("cylinder") || type.equals("box")
                || type.equals("ellipsoid");
        if (g.has("fromto") && !elongated) {
            g.error(label + ": fromto needs a capsule, cylinder, box or ellipsoid, not a " + type
                    + " (MuJoCo refuses it too)");
            return null;
        }
        if (g.has("fromto")) {
            double[] pos = g.vector("pos", 3, new double[3], label + ": pos");
            if (pos[0] != 0 || pos[1] != 0 || pos[2] != 0) {
                g.error(label + ": both pos and fromto are given (MuJoCo refuses it too); fromto places the geom");
                return null;
            }
            double[] ft = g.vector("fromto", 6, null, label + ": fromto");
            double[] d = {ft[3] - ft[0], ft[4] - ft[1], ft[5] - ft[2]};
            double length = Math.sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
            double[] z = Orientations.unit(d);
            if (z == null) {
                if (g.values().errorCount() == before) {
                    g.error(label + ": fromto has two equal points");
                }
                return null;
            }
            // The radius is the first size; a box or ellipsoid is square across the segment (its second size is
            // the first, as MuJoCo compiles it, whatever was written).
            double radius = size.length == 0 ? 0 : size[0];
            size = type.equals("capsule") || type.equals("cylinder") ? new double[] {radius, length / 2}
                    : new double[] {radius, radius, length / 2};
            inBody = Pose.of(Orientations.matrix(Orientations.zAxis(z)),
                    new double[] {(ft[0] + ft[3]) / 2, (ft[1] + ft[4]) / 2, (ft[2] + ft[5]) / 2});
        } else {
            inBody = Orientations.pose(g, compiler, label);
        }
        int needed = switch (type) {
            case "sphere" -> 1;
            case "capsule", "cylinder" -> 2;
            case "box", "ellipsoid", "plane" -> 3;
            default -> 0;
        };
        if (size.length < needed) {
            g.error(label + ": a " + type + " needs " + needed + " size number" + (needed == 1 ? "" : "s") + ", "
                    + size.length + " given");
            return null;
        }
        if (!type.equals("plane")) {
            for (int i = 0; i < needed; i++) {
                if (!(size[i] > 0)) {
                    g.error(label + ": size " + size[i] + " must be positive");
                    return null;
                }
            }
        }
        double density = g.number("density", 1000, label + ": density");
        double mass = g.number("mass", Double.NaN, label + ": mass");
        if (density < 0 || mass < 0) {
            g.error(label + ": density and mass must not be negative");
        }
        double contype = g.number("contype", 1, label + ": contype");
        double conaffinity = g.number("conaffinity", 1, label + ": conaffinity");
        if (contype != Math.rint(contype) || conaffinity != Math.rint(conaffinity) || contype < 0 || conaffinity < 0) {
            g.error(label + ": contype and conaffinity must be whole numbers >= 0 (bit masks)");
        }
        int unread = g.values().errorCount();
        double condim = g.number("condim", 3, label + ": condim");
        if (condim != 1 && condim != 3 && condim != 4 && condim != 6) {
            if (g.values().errorCount() == unread) { // a number that does not parse is reported once, there
                g.error(label + ": condim must be 1, 3, 4 or 6");
            }
            condim = 3;
        }
        unread = g.values().errorCount();
        double priority = g.number("priority", 0, label + ": priority");
        if (priority != Math.rint(priority) || Math.abs(priority) > Integer.MAX_VALUE) {
            if (g.values().errorCount() == unread) {
                g.error(label + ": priority must be a whole number of at most " + Integer.MAX_VALUE
                        + " in magnitude");
            }
            priority = 0;
        }
        double[] friction = g.numbers("friction", label + ": friction");
        double mu = friction.length == 0 ? 1 : friction[0];
        if (friction.length > 3 || !(mu >= 0)) {
            g.error(label + ": friction needs 1 to 3 numbers, the first >= 0");
            mu = 1;
        }
        double[] rgba = g.has("rgba") ? g.vector("rgba", 4, null, label + ": rgba") : null;
        String material = g.get("material");
        if (material != null && (rgba == null || java.util.Arrays.equals(rgba, DEFAULT_RGBA))) {
            double[] colour = materials.get(material);
            if (colour == null) {
                g.warning(label + ": material '" + Messages.cut(material) + "' is not declared in <asset>; its"
                        + " colour is not read");
            } else {
                rgba = colour;
            }
        }
        double group = g.number("group", 0, label + ": group");
        String meshFile = null;
        double[] scale = {1, 1, 1};
        if (type.equals("mesh")) {
            MeshAsset asset = meshName == null ? null : meshes.get(meshName);
            if (meshName == null) {
                g.error(label + ": a mesh geom needs a 'mesh' attribute");
            } else if (asset == null) {
                g.error(label + ": mesh '" + Messages.cut(meshName) + "' is not declared in <asset>");
            } else {
                meshFile = asset.file();
                scale = asset.scale();
            }
        }
        if (g.values().errorCount() > before) {
            return null;
        }
        return new GeomDeclaration(name, type, size, inBody, density, mass, contype != 0 || conaffinity != 0,
                (long) contype, (long) conaffinity, (int) priority, (int) condim, mu, meshFile, scale, rgba,
                (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, group)), g);
    }
}
