package org.symdyn.io.urdf;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.symdyn.io.Names;
import org.symdyn.io.ValueReader;
import org.symdyn.io.XmlElement;
import org.symdyn.model.ContactCandidateModel;
import org.symdyn.model.ContactConstraintModel;
import org.symdyn.model.CouplerConstraintModel;
import org.symdyn.model.Frame;
import org.symdyn.model.GroundModel;
import org.symdyn.model.JointType;
import org.symdyn.model.LineOnLineConstraintModel;
import org.symdyn.model.LoopConstraintModel;
import org.symdyn.model.ModelBuilder;
import org.symdyn.spatial.Directions;
import org.symdyn.spatial.Pose;

/**
 * Reads the SymDyn extension elements ({@code gravity}, {@code loop}, {@code contact}, {@code coupler},
 * {@code line_on_line}, {@code parameter}, and the unilateral contact elements {@code ground},
 * {@code contact_point}, {@code contact_sphere} in namespace {@value UrdfReader#NAMESPACE}) and URDF {@code <mimic>}, after every link
 * has been given to the builder, so that links and joints can be resolved to body indices. The actuator and sensor
 * elements go to {@link DeviceElementReader}.
 *
 * <p>A link may be a moving link, a link attached by fixed joints (its fixed placement is folded into the
 * constraint's frame or point) or the root link (body -1). A link or joint that exists in the file but was refused
 * earlier is skipped without a second message; one that does not exist is an error.
 */
final class ConstraintElementReader {
    private static final double[] ZERO3 = new double[3];

    private final ValueReader values;
    private final ModelBuilder builder;
    private final Map<String, LinkDeclaration> links;
    private final Map<String, JointDeclaration> joints;
    private final DeviceElementReader devices;
    private XmlElement gravity;

    ConstraintElementReader(ValueReader values, ModelBuilder builder, Map<String, LinkDeclaration> links,
            Map<String, JointDeclaration> joints) {
        this.values = values;
        this.builder = builder;
        this.links = links;
        this.joints = joints;
        this.devices = new DeviceElementReader(values, builder, links, joints);
    }

    /** A URDF {@code <mimic joint="j1" multiplier="m" offset="o"/>} in joint j2: q_j2 = m q_j1 + o. */
    void mimic(JointDeclaration joint) {
        XmlElement e = joint.mimic();
        String owner = joint.label() + ": <mimic>";
        int before = values.errorCount();
        String reference = values.require(e, "joint", owner + " has no 'joint' attribute");
        double multiplier = values.number(e, "multiplier", 1, false, joint.label() + ": mimic multiplier");
        double offset = values.number(e, "offset", 0, false, joint.label() + ": mimic offset");
        if (values.errorCount() > before || joint.broken()) {
            return;
        }
        int driven = singleDofJoint(e, owner, joint.name());
        int ref = singleDofJoint(e, owner, reference);
        if (driven >= 0 && ref >= 0) {
            builder.addConstraint(new CouplerConstraintModel(joint.name() + "_mimic", driven, ref, multiplier,
                    offset, Double.NaN, values.location(e)));
        }
    }

    /** One extension element, a direct child of {@code <robot>}. */
    void read(XmlElement e) {
        switch (e.name()) {
            case "gravity" -> readGravity(e);
            case "loop" -> readLoop(e);
            case "contact" -> readContact(e);
            case "coupler" -> readCoupler(e);
            case "line_on_line" -> readLineOnLine(e);
            case "parameter" -> readParameter(e);
            case "ground" -> readGround(e);
            case "contact_point" -> readContactCandidate(e, false);
            case "contact_sphere" -> readContactCandidate(e, true);
            case "servo", "motor", "torque_source", "spring", "imu", "encoder" -> devices.read(e);
            default -> values.error(e, "unknown SymDyn element '" + e.name() + "' (namespace " + UrdfReader.NAMESPACE
                    + "; expected gravity, loop, contact, coupler, line_on_line, parameter, ground, contact_point,"
                    + " contact_sphere, servo, motor, torque_source, spring, imu, encoder, no_contact or lidar)");
        }
    }

    private void readGravity(XmlElement e) {
        rejectChildren(e, "gravity", List.of());
        if (gravity != null) {
            values.error(e, "gravity is given twice (first at line " + gravity.line() + ")");
            return;
        }
        gravity = e;
        int before = values.errorCount();
        double[] g = values.vector(e, "xyz", 3, null, "gravity xyz");
        if (values.errorCount() == before) {
            builder.gravity(g[0], g[1], g[2]);
        }
    }

    private void readLoop(XmlElement e) {
        int before = values.errorCount();
        String label = "loop '" + name(e, "loop") + "'";
        double baumgarte = baumgarte(e, label);
        rejectChildren(e, label, List.of("predecessor", "successor", "axis"));
        XmlElement pe = exactlyOne(e, "predecessor", label);
        XmlElement se = exactlyOne(e, "successor", label);
        Frame p = pe == null ? null : frame(pe, label, pe.attribute("link"));
        Pose pPose = pe == null ? null : placement(pe, label, "predecessor");
        Frame s = se == null ? null : frame(se, label, se.attribute("link"));
        Pose sPose = se == null ? null : placement(se, label, "successor");
        List<double[]> axes = new ArrayList<>();
        for (XmlElement a : symdynChildren(e, "axis")) {
            int b = values.errorCount();
            double[] v = values.vector(a, "value", 6, null, label + ": axis value");
            if (values.errorCount() > b) {
                continue;
            }
            double[] unit = Directions.unit(v);
            if (unit == null) {
                values.error(a, label + ": axis is zero");
                continue;
            }
            axes.add(unit);
        }
        if (symdynChildren(e, "axis").isEmpty()) {
            values.error(e, label + " needs at least one <axis> (6 numbers, [angular; linear])");
        }
        if (p != null && s != null && p.bodyIndex() == s.bodyIndex()) {
            values.error(e, label + ": predecessor link '" + pe.attribute("link") + "' and successor link '"
                    + se.attribute("link") + "' move with the same body, so the loop constrains nothing");
        }
        if (values.errorCount() > before || p == null || s == null) {
            return;
        }
        builder.addConstraint(new LoopConstraintModel(e.attribute("name"), p.bodyIndex(),
                p.pose().compose(pPose), s.bodyIndex(), s.pose().compose(sPose), axes, baumgarte,
                values.location(e)));
    }

    private void readContact(XmlElement e) {
        int before = values.errorCount();
        String label = "contact '" + name(e, "contact") + "'";
        double baumgarte = baumgarte(e, label);
        rejectChildren(e, label, List.of());
        String link = values.require(e, "link", label + " has no 'link' attribute");
        Frame f = frame(e, label, link);
        double[] point = values.vector(e, "point", 3, ZERO3, label + ": point");
        int b = values.errorCount();
        double[] normal = values.vector(e, "normal", 3, null, label + ": normal");
        if (values.errorCount() == b) {
            normal = unit(e, normal, label + ": normal");
        }
        if (f != null && f.bodyIndex() < 0) {
            values.error(e, label + ": link '" + link + "' does not move (it is the root link or fixed to it); "
                    + "a contact needs a moving body");
        }
        if (values.errorCount() > before || f == null) {
            return;
        }
        double[] onBody = new double[3];
        f.pose().transformPoint(point, onBody);
        builder.addConstraint(new ContactConstraintModel(e.attribute("name"), f.bodyIndex(), onBody, normal,
                baumgarte, values.location(e)));
    }

    /** {@code <ground name point normal friction restitution>}: a half-space fixed in the world. */
    private void readGround(XmlElement e) {
        int before = values.errorCount();
        String label = "ground '" + name(e, "ground") + "'";
        rejectChildren(e, label, List.of());
        double[] point = values.vector(e, "point", 3, ZERO3, label + ": point");
        int b = values.errorCount();
        double[] normal = values.vector(e, "normal", 3, null, label + ": normal");
        if (values.errorCount() == b) {
            normal = unit(e, normal, label + ": normal");
        }
        String frictionWhat = label + ": friction";
        b = values.errorCount();
        double friction = values.number(e, "friction", Double.NaN, true, frictionWhat);
        if (values.errorCount() == b && !(friction >= 0)) {
            values.error(e, frictionWhat + " " + friction + " must be >= 0 (Coulomb's coefficient)");
        }
        String restitutionWhat = label + ": restitution";
        b = values.errorCount();
        double restitution = values.number(e, "restitution", 0, false, restitutionWhat);
        if (values.errorCount() == b && !(restitution >= 0 && restitution <= 1)) {
            values.error(e, restitutionWhat + " " + restitution + " must be in [0, 1]");
        }
        if (values.errorCount() > before) {
            return;
        }
        builder.addGround(new GroundModel(e.attribute("name"), point, normal, friction, restitution,
                values.location(e)));
    }

    /** {@code <contact_point name link point>} or {@code <contact_sphere name link center radius>}. */
    private void readContactCandidate(XmlElement e, boolean sphere) {
        int before = values.errorCount();
        String element = sphere ? "contact_sphere" : "contact_point";
        String label = element + " '" + name(e, element) + "'";
        rejectChildren(e, label, List.of());
        String link = values.require(e, "link", label + " has no 'link' attribute");
        Frame f = link == null ? null : frame(e, label, link);
        double[] point = values.vector(e, sphere ? "center" : "point", 3, ZERO3, label + (sphere ? ": center"
                : ": point"));
        double radius = 0;
        if (sphere) {
            int b = values.errorCount();
            radius = values.number(e, "radius", Double.NaN, true, label + ": radius");
            if (values.errorCount() == b && !(radius > 0)) {
                values.error(e, label + ": radius " + radius + " must be positive (m)");
            }
        }
        if (f != null && f.bodyIndex() < 0) {
            values.error(e, label + ": link '" + link + "' does not move (it is the root link or fixed to it); "
                    + "a contact candidate needs a moving body");
        }
        if (values.errorCount() > before || f == null) {
            return;
        }
        double[] onBody = new double[3];
        f.pose().transformPoint(point, onBody);
        builder.addContactCandidate(new ContactCandidateModel(e.attribute("name"), f.bodyIndex(), onBody, radius,
                values.location(e)));
    }

    private void readCoupler(XmlElement e) {
        int before = values.errorCount();
        String label = "coupler '" + name(e, "coupler") + "'";
        double baumgarte = baumgarte(e, label);
        rejectChildren(e, label, List.of());
        String joint = values.require(e, "joint", label + " has no 'joint' attribute");
        String reference = values.require(e, "reference", label + " has no 'reference' attribute");
        double ratio = values.number(e, "ratio", 1, false, label + ": ratio");
        double offset = values.number(e, "offset", 0, false, label + ": offset");
        if (joint != null && joint.equals(reference)) {
            values.error(e, label + ": joint and reference are the same joint '" + joint + "'");
        }
        int driven = joint == null ? -1 : singleDofJoint(e, label, joint);
        int ref = reference == null ? -1 : singleDofJoint(e, label, reference);
        if (values.errorCount() > before || driven < 0 || ref < 0) {
            return;
        }
        builder.addConstraint(new CouplerConstraintModel(e.attribute("name"), driven, ref, ratio, offset, baumgarte,
                values.location(e)));
    }

    /** {@code <parameter name link|joint field>}: checked by the builder, which knows links and joints. */
    private void readParameter(XmlElement e) {
        String label = "parameter '" + name(e, "parameter") + "'";
        rejectChildren(e, label, List.of());
        String field = values.require(e, "field", label + " has no 'field' attribute");
        if (field != null && e.attribute("name") != null) {
            builder.addParameter(e.attribute("name"), e.attribute("link"), e.attribute("joint"), field,
                    values.location(e));
        }
    }

    private void readLineOnLine(XmlElement e) {
        int before = values.errorCount();
        String label = "line_on_line '" + name(e, "line_on_line") + "'";
        double baumgarte = baumgarte(e, label);
        boolean rolling = values.bool(e, "rolling", false, label + ": rolling");
        rejectChildren(e, label, List.of("edge_f", "edge_b"));
        XmlElement fe = exactlyOne(e, "edge_f", label);
        XmlElement be = exactlyOne(e, "edge_b", label);
        Frame f = fe == null ? null : frame(fe, label, fe.attribute("link"));
        Pose fPose = fe == null ? null : placement(fe, label, "edge_f");
        double fHalf = fe == null ? 0 : halfLength(fe, label, "edge_f");
        Frame b = be == null ? null : frame(be, label, be.attribute("link"));
        Pose bPose = be == null ? null : placement(be, label, "edge_b");
        double bHalf = be == null ? 0 : halfLength(be, label, "edge_b");
        if (f != null && b != null && f.bodyIndex() == b.bodyIndex()) {
            values.error(e, label + ": both edges move with the same body");
        }
        if (values.errorCount() > before || f == null || b == null) {
            return;
        }
        builder.addConstraint(new LineOnLineConstraintModel(e.attribute("name"), f.bodyIndex(),
                f.pose().compose(fPose), fHalf, b.bodyIndex(), b.pose().compose(bPose), bHalf, rolling, baumgarte,
                values.location(e)));
    }

    /** The constraint's name (reporting it when missing). */
    private String name(XmlElement e, String type) {
        String n = Names.check(values, e, type + " name", values.require(e, "name", type + " has no 'name' attribute"));
        return n == null ? "?" : n;
    }

    /** The optional Baumgarte time constant: NaN (off) when absent, else a positive number of seconds. */
    private double baumgarte(XmlElement e, String label) {
        String what = label + ": baumgarte_time_constant";
        int before = values.errorCount();
        double t = values.number(e, "baumgarte_time_constant", Double.NaN, false, what);
        if (values.errorCount() == before && e.has("baumgarte_time_constant") && !(t > 0)) {
            values.error(e, what + " " + t + " must be positive (seconds)");
        }
        return t;
    }

    /** The {@code link}'s frame, or null: after an error if the link does not exist, silently if it was refused. */
    private Frame frame(XmlElement at, String label, String link) {
        if (link == null) {
            values.error(at, label + ": <" + at.name() + "> has no 'link' attribute");
            return null;
        }
        Frame f = builder.frame(link);
        if (f != null) {
            return f;
        }
        if (!links.containsKey(link)) {
            values.error(at, label + ": unknown link '" + link + "'");
        }
        return null;
    }

    private Pose placement(XmlElement e, String label, String side) {
        double[] xyz = values.vector(e, "xyz", 3, ZERO3, label + ": " + side + " xyz");
        double[] rpy = values.vector(e, "rpy", 3, ZERO3, label + ": " + side + " rpy");
        return Pose.fromXyzRpy(xyz, rpy);
    }

    private double halfLength(XmlElement e, String label, String side) {
        String what = label + ": " + side + " half_length";
        int before = values.errorCount();
        double h = values.number(e, "half_length", Double.NaN, true, what);
        if (values.errorCount() == before && !(h > 0)) {
            values.error(e, what + " " + h + " must be positive");
        }
        return h;
    }

    private double[] unit(XmlElement e, double[] v, String what) {
        double[] unit = Directions.unit(v);
        if (unit == null) {
            values.error(e, what + " is zero");
            return v;
        }
        return unit;
    }

    /**
     * The body index of a movable single-dof joint, or -1: after an error if the joint does not exist, is fixed or
     * has several coordinates; silently if it exists but was refused earlier.
     */
    private int singleDofJoint(XmlElement at, String owner, String jointName) {
        int index = builder.bodyIndexOfJoint(jointName);
        if (index >= 0) {
            JointType type = builder.jointType(index);
            if (!type.isSingleDof()) {
                values.error(at, owner + ": coupler on a multi-dof joint: '" + jointName + "' is " + type.urdfName()
                        + "; a coupler relates two single-dof joints (revolute, continuous, prismatic)");
                return -1;
            }
            return index;
        }
        JointDeclaration d = joints.get(jointName);
        if (d == null) {
            values.error(at, owner + ": unknown joint '" + jointName + "'");
        } else if (d.fixed()) {
            values.error(at, owner + ": joint '" + jointName + "' is fixed; a coupler relates two movable "
                    + "single-dof joints");
        }
        return -1;
    }

    private List<XmlElement> symdynChildren(XmlElement e, String name) {
        List<XmlElement> out = new ArrayList<>();
        for (XmlElement c : e.childrenInNamespace(UrdfReader.NAMESPACE)) {
            if (c.name().equals(name)) {
                out.add(c);
            }
        }
        return out;
    }

    private XmlElement exactlyOne(XmlElement e, String name, String label) {
        List<XmlElement> list = symdynChildren(e, name);
        if (list.isEmpty()) {
            values.error(e, label + " has no <" + name + ">");
            return null;
        }
        for (int i = 1; i < list.size(); i++) {
            values.error(list.get(i), label + ": a second <" + name + "> (the first is at line " + list.get(0).line()
                    + ")");
        }
        return list.get(0);
    }

    /** Children in the SymDyn namespace other than the allowed ones are errors; other namespaces are ignored. */
    private void rejectChildren(XmlElement e, String label, List<String> allowed) {
        for (XmlElement c : e.childrenInNamespace(UrdfReader.NAMESPACE)) {
            if (!allowed.contains(c.name())) {
                values.error(c, label + ": unknown SymDyn element '" + c.name() + "'"
                        + (allowed.isEmpty() ? " (this element has no children)" : " (expected " + allowed + ")"));
            }
        }
    }
}
