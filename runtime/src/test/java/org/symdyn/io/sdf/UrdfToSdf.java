package org.symdyn.io.sdf;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.symdyn.io.XmlDocument;
import org.symdyn.io.XmlElement;
import org.symdyn.spatial.Pose;
import org.symdyn.spatial.Rotations;

/**
 * Test-side converter from a plain URDF (links, joints revolute/continuous/prismatic/fixed, inertials, axes,
 * limits) to SDFormat text, in two styles that exercise different rules of the reader:
 * <ul>
 * <li>{@link Style#RELATIVE_1_7}: SDFormat 1.7, each link's pose {@code relative_to} its parent link with the
 * URDF origin's numbers, joint poses absent (the child frame), axes in the joint frame.</li>
 * <li>{@link Style#ABSOLUTE_1_10}: SDFormat 1.10, each link's pose in the model frame as {@code quat_xyzw}
 * (computed here by forward kinematics), axes {@code expressed_in="__model__"}, inertial poses in degrees.</li>
 * </ul>
 * A URDF link without an inertial becomes a massless SDFormat link (mass 0, zero inertia), since SDFormat's default
 * would be 1 kg. Mimic tags are dropped (SDFormat before 1.11 has none). The root is fixed to the world by a joint
 * named {@code world_fixed} unless {@code floating}; a URDF root link named {@code world} is SDFormat's world
 * (as sdformat's own URDF conversion reads it): its joints become joints to the world.
 */
final class UrdfToSdf {
    enum Style { RELATIVE_1_7, ABSOLUTE_1_10 }

    private UrdfToSdf() {
    }

    /** True when the URDF has only joints SDFormat writes the same way (no floating or planar joint). */
    static boolean convertible(Path urdf) throws Exception {
        for (XmlElement j : XmlDocument.read(urdf, urdf.toString()).root().children("joint")) {
            String t = j.attribute("type");
            if (t.equals("floating") || t.equals("planar")) {
                return false;
            }
        }
        return true;
    }

    static String convert(Path urdf, Style style, boolean floating) throws Exception {
        return convert(urdf, style, floating, false);
    }

    /**
     * As {@link #convert(Path, Style, boolean)}; with {@code collisions}, each URDF {@code <collision>} becomes an
     * SDFormat {@code <collision name="cK">} (K its index in the link) placed by the URDF origin in the link frame:
     * a mesh's {@code package://NAME/...} filename as {@code model://NAME/...} with its scale, boxes, spheres and
     * cylinders as they are.
     */
    static String convert(Path urdf, Style style, boolean floating, boolean collisions) throws Exception {
        XmlElement robot = XmlDocument.read(urdf, urdf.toString()).root();
        Map<String, XmlElement> jointOfChild = new HashMap<>();
        for (XmlElement j : robot.children("joint")) {
            jointOfChild.put(j.children("child").get(0).attribute("link"), j);
        }
        Map<String, XmlElement> links = new LinkedHashMap<>();
        for (XmlElement l : robot.children("link")) {
            links.put(l.attribute("name"), l);
        }
        String root = null;
        for (String name : links.keySet()) {
            if (!jointOfChild.containsKey(name)) {
                root = name;
            }
        }
        Map<String, Pose> world = new HashMap<>();
        StringBuilder sb = new StringBuilder();
        String version = style == Style.RELATIVE_1_7 ? "1.7" : "1.10";
        sb.append("<?xml version=\"1.0\"?>\n<sdf version=\"").append(version).append("\">\n<model name=\"")
                .append(robot.attribute("name")).append("\">\n");
        boolean worldRoot = root.equals("world");
        world.put("world", Pose.IDENTITY);
        for (String name : order(links.keySet(), jointOfChild, root)) {
            if (worldRoot && name.equals(root)) {
                continue;
            }
            XmlElement joint = jointOfChild.get(name);
            Pose origin = joint == null ? Pose.IDENTITY : origin(joint);
            String parent = joint == null ? null : joint.children("parent").get(0).attribute("link");
            Pose w = parent == null ? Pose.IDENTITY : world.get(parent).compose(origin);
            world.put(name, w);
            sb.append("  <link name=\"").append(name).append("\">\n");
            if (parent != null && !parent.equals("world")) {
                if (style == Style.RELATIVE_1_7) {
                    sb.append("    <pose relative_to=\"").append(parent).append("\">").append(xyzRpy(joint))
                            .append("</pose>\n");
                } else {
                    sb.append("    <pose rotation_format=\"quat_xyzw\">").append(quat(w)).append("</pose>\n");
                }
            }
            inertial(sb, links.get(name), style);
            if (collisions) {
                collisions(sb, links.get(name));
            }
            sb.append("  </link>\n");
        }
        if (!floating && !worldRoot) {
            sb.append("  <joint name=\"world_fixed\" type=\"fixed\"><parent>world</parent><child>").append(root)
                    .append("</child></joint>\n");
        }
        for (XmlElement j : robot.children("joint")) {
            String type = j.attribute("type");
            String child = j.children("child").get(0).attribute("link");
            sb.append("  <joint name=\"").append(j.attribute("name")).append("\" type=\"").append(type)
                    .append("\">\n    <parent>").append(j.children("parent").get(0).attribute("link"))
                    .append("</parent>\n    <child>").append(child).append("</child>\n");
            if (!type.equals("fixed")) {
                double[] axis = {1, 0, 0};
                if (!j.children("axis").isEmpty()) {
                    axis = numbers(j.children("axis").get(0).attribute("xyz"));
                }
                sb.append("    <axis>\n");
                if (style == Style.RELATIVE_1_7) {
                    sb.append("      <xyz>").append(join(axis)).append("</xyz>\n");
                } else {
                    double[] a = new double[3];
                    world.get(child).rotateVector(axis, a);
                    sb.append("      <xyz expressed_in=\"__model__\">").append(join(a)).append("</xyz>\n");
                }
                List<XmlElement> limit = j.children("limit");
                if (!limit.isEmpty() && !type.equals("continuous")) {
                    XmlElement l = limit.get(0);
                    sb.append("      <limit>");
                    if (l.has("lower")) {
                        sb.append("<lower>").append(l.attribute("lower")).append("</lower>");
                    }
                    if (l.has("upper")) {
                        sb.append("<upper>").append(l.attribute("upper")).append("</upper>");
                    }
                    sb.append("</limit>\n");
                }
                sb.append("    </axis>\n");
            }
            sb.append("  </joint>\n");
        }
        sb.append("</model>\n</sdf>\n");
        return sb.toString();
    }

    private static List<String> order(Iterable<String> names, Map<String, XmlElement> jointOfChild, String root) {
        List<String> out = new ArrayList<>();
        List<String> pending = new ArrayList<>();
        names.forEach(pending::add);
        out.add(root);
        pending.remove(root);
        while (!pending.isEmpty()) {
            for (int i = 0; i < pending.size(); i++) {
                String p = jointOfChild.get(pending.get(i)).children("parent").get(0).attribute("link");
                if (out.contains(p)) {
                    out.add(pending.remove(i));
                    break;
                }
            }
        }
        return out;
    }

    private static void inertial(StringBuilder sb, XmlElement link, Style style) {
        List<XmlElement> in = link.children("inertial");
        if (in.isEmpty()) {
            sb.append("    <inertial><mass>0</mass><inertia><ixx>0</ixx><ixy>0</ixy><ixz>0</ixz><iyy>0</iyy>"
                    + "<iyz>0</iyz><izz>0</izz></inertia></inertial>\n");
            return;
        }
        XmlElement i = in.get(0);
        sb.append("    <inertial>\n");
        List<XmlElement> o = i.children("origin");
        if (!o.isEmpty()) {
            String xyz = o.get(0).has("xyz") ? o.get(0).attribute("xyz") : "0 0 0";
            double[] rpy = o.get(0).has("rpy") ? numbers(o.get(0).attribute("rpy")) : new double[3];
            if (style == Style.RELATIVE_1_7) {
                sb.append("      <pose>").append(xyz).append(' ').append(join(rpy)).append("</pose>\n");
            } else {
                double k = 180 / Math.PI;
                sb.append("      <pose degrees=\"true\">").append(xyz).append(' ')
                        .append(join(new double[] {rpy[0] * k, rpy[1] * k, rpy[2] * k})).append("</pose>\n");
            }
        }
        sb.append("      <mass>").append(i.children("mass").get(0).attribute("value")).append("</mass>\n");
        XmlElement t = i.children("inertia").get(0);
        sb.append("      <inertia>");
        for (String n : new String[] {"ixx", "ixy", "ixz", "iyy", "iyz", "izz"}) {
            sb.append('<').append(n).append('>').append(t.attribute(n)).append("</").append(n).append('>');
        }
        sb.append("</inertia>\n    </inertial>\n");
    }

    private static void collisions(StringBuilder sb, XmlElement link) {
        int k = 0;
        for (XmlElement c : link.children("collision")) {
            sb.append("    <collision name=\"c").append(k++).append("\">");
            List<XmlElement> o = c.children("origin");
            if (!o.isEmpty()) {
                String xyz = o.get(0).has("xyz") ? o.get(0).attribute("xyz") : "0 0 0";
                String rpy = o.get(0).has("rpy") ? o.get(0).attribute("rpy") : "0 0 0";
                sb.append("<pose>").append(xyz).append(' ').append(rpy).append("</pose>");
            }
            XmlElement g = c.children("geometry").get(0).children().get(0);
            sb.append("<geometry>");
            switch (g.name()) {
                case "mesh" -> {
                    sb.append("<mesh><uri>").append(g.attribute("filename").replace("package://", "model://"))
                            .append("</uri>");
                    if (g.has("scale")) {
                        sb.append("<scale>").append(g.attribute("scale")).append("</scale>");
                    }
                    sb.append("</mesh>");
                }
                case "box" -> sb.append("<box><size>").append(g.attribute("size")).append("</size></box>");
                case "sphere" -> sb.append("<sphere><radius>").append(g.attribute("radius"))
                        .append("</radius></sphere>");
                case "cylinder" -> sb.append("<cylinder><radius>").append(g.attribute("radius"))
                        .append("</radius><length>").append(g.attribute("length")).append("</length></cylinder>");
                default -> throw new IllegalArgumentException("geometry " + g.name());
            }
            sb.append("</geometry></collision>\n");
        }
    }

    private static Pose origin(XmlElement joint) {
        List<XmlElement> o = joint.children("origin");
        if (o.isEmpty()) {
            return Pose.IDENTITY;
        }
        double[] xyz = o.get(0).has("xyz") ? numbers(o.get(0).attribute("xyz")) : new double[3];
        double[] rpy = o.get(0).has("rpy") ? numbers(o.get(0).attribute("rpy")) : new double[3];
        return Pose.fromXyzRpy(xyz, rpy);
    }

    private static String xyzRpy(XmlElement joint) {
        List<XmlElement> o = joint.children("origin");
        if (o.isEmpty()) {
            return "0 0 0 0 0 0";
        }
        String xyz = o.get(0).has("xyz") ? o.get(0).attribute("xyz") : "0 0 0";
        String rpy = o.get(0).has("rpy") ? o.get(0).attribute("rpy") : "0 0 0";
        return xyz + " " + rpy;
    }

    /** The pose as "x y z qx qy qz qw". */
    static String quat(Pose p) {
        double[] q = new double[4];
        Rotations.toQuaternion(p.rotationArray(), q);
        return join(p.translationArray()) + " " + join(q);
    }

    private static double[] numbers(String s) {
        String[] t = s.trim().split("\\s+");
        double[] out = new double[t.length];
        for (int i = 0; i < t.length; i++) {
            out[i] = Double.parseDouble(t[i]);
        }
        return out;
    }

    private static String join(double[] v) {
        StringBuilder sb = new StringBuilder();
        for (double x : v) {
            sb.append(sb.length() == 0 ? "" : " ").append(x);
        }
        return sb.toString();
    }
}
