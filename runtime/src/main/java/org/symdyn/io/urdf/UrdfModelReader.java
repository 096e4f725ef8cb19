package org.symdyn.io.urdf;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.symdyn.io.DiagnosticOrder;
import org.symdyn.io.MeshPolicy;
import org.symdyn.io.Messages;
import org.symdyn.io.ModelChecks;
import org.symdyn.io.Names;
import org.symdyn.io.ValueReader;
import org.symdyn.io.XmlElement;
import org.symdyn.model.BodySpec;
import org.symdyn.model.Diagnostic;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;
import org.symdyn.model.ModelBuilder;
import org.symdyn.model.ModelException;
import org.symdyn.model.SourceLocation;
import org.symdyn.spatial.Pose;
import org.symdyn.spatial.RigidBodyInertia;

/**
 * Turns the element tree of one URDF document into a {@link Model}: reads links and joints, orders them
 * depth first, hands them to a {@link ModelBuilder} (which checks inertias and merges fixed links), then reads
 * mimics and extension elements. Every problem goes into one list; nothing is thrown before all are found.
 */
final class UrdfModelReader {
    private static final double[] ZERO3 = new double[3];
    private static final double[] X_AXIS = {1, 0, 0};
    /** Stands in for an unreadable inertial, so the builder does not add "mass 0" to the error already given. */
    private static final RigidBodyInertia PLACEHOLDER = RigidBodyInertia.of(1, ZERO3, 1, 0, 0, 1, 0, 1);

    private final String path;
    private final UrdfReader.Options options;
    private final ValueReader values;
    private final java.nio.file.Path directory;

    /**
     * @param directory the model file's directory, against which relative mesh paths resolve (null: the working
     *                  directory)
     */
    UrdfModelReader(String path, UrdfReader.Options options, java.nio.file.Path directory) {
        this.path = path;
        this.options = options;
        this.values = new ValueReader(path);
        this.directory = directory;
    }

    /** Problems found before reading the tree (the XML layer's), reported with the rest. */
    void report(Diagnostic d) {
        values.report(d);
    }

    Model read(XmlElement document, String sha256) throws ModelException {
        XmlElement robot = document;
        if (robot.name().equals("robot") && !robot.namespace().isEmpty()
                && !robot.namespace().equals(UrdfReader.NAMESPACE)) {
            // urdfdom reads no namespaces: a default one declared on <robot> changes nothing there
            values.warning(robot, "<robot> declares the default namespace '" + Messages.cut(robot.namespace())
                    + "', which URDF does not have; its elements are read as URDF's");
            robot = robot.withNamespace(robot.namespace(), "");
        }
        if (!robot.is("robot")) {
            values.error(robot, "the document element is <" + Messages.cut(robot.name()) + ">"
                    + (robot.namespace().isEmpty() ? "" : " in namespace '" + Messages.cut(robot.namespace()) + "'")
                    + ", expected <robot> in no namespace");
            throw DiagnosticOrder.refusal(values.diagnostics());
        }
        UnreadAttributes.track(robot);
        String name = values.require(robot, "name", "<robot> has no 'name' attribute");
        name = Names.check(values, robot, "robot name", name);
        ModelBuilder builder = Model.builder(name == null ? "robot" : name).source(path, sha256)
                .strict(options.strict()).overlapWarnings(options.meshes() != MeshPolicy.SKIP);

        Map<String, LinkDeclaration> links = new LinkedHashMap<>();
        for (XmlElement e : robot.children("link")) {
            LinkDeclaration link = readLink(e);
            if (link == null) {
                continue;
            }
            LinkDeclaration first = links.get(link.name());
            if (first != null) {
                values.error(e, "duplicate link name '" + link.name() + "' (first declared at line "
                        + first.element().line() + ")");
            } else {
                links.put(link.name(), link);
            }
        }
        if (links.isEmpty()) {
            values.error(robot, "<robot> has no links");
        }
        List<JointDeclaration> joints = new ArrayList<>();
        Map<String, JointDeclaration> jointsByName = new LinkedHashMap<>();
        for (XmlElement e : robot.children("joint")) {
            String jointName = e.attribute("name");
            JointDeclaration first = jointName == null ? null : jointsByName.get(jointName);
            if (first != null) {
                values.error(e, "duplicate joint name '" + jointName + "' (first declared at line "
                        + first.element().line() + ")");
            }
            JointDeclaration joint = readJoint(e, first != null);
            joints.add(joint);
            jointsByName.putIfAbsent(joint.name(), joint);
        }

        KinematicTree tree = KinematicTree.build(robot, links, joints, values);
        if (tree.root() != null) {
            addLinks(builder, robot, tree, links, jointsByName);
        }

        SceneElementReader scene = new SceneElementReader(values, builder, options.meshes(), options.packagePath(),
                directory);
        scene.materials(robot);
        for (LinkDeclaration link : links.values()) {
            if (builder.frame(link.name()) != null) { // a link cut off the tree is reported once, as such
                scene.link(link.element(), link.name());
            }
        }
        ConstraintElementReader constraints = new ConstraintElementReader(values, builder, links, jointsByName);
        Map<XmlElement, JointDeclaration> jointOfElement = new LinkedHashMap<>();
        for (JointDeclaration j : joints) {
            jointOfElement.put(j.element(), j);
        }
        // One pass in document order, so constraints keep their declaration order.
        for (XmlElement e : robot.children()) {
            if (e.is("joint") && jointOfElement.get(e).mimic() != null) {
                constraints.mimic(jointOfElement.get(e));
            } else if (e.namespace().equals(UrdfReader.NAMESPACE) && e.name().equals("no_contact")) {
                scene.noContact(e);
            } else if (e.namespace().equals(UrdfReader.NAMESPACE) && e.name().equals("lidar")) {
                scene.lidar(e);
            } else if (e.namespace().equals(UrdfReader.NAMESPACE)) {
                constraints.read(e);
            }
        }
        reportMisplacedExtensions(robot);
        NamespaceWarnings.report(robot, values);
        UnknownChildren.report(robot, values);
        UnreadAttributes.report(robot, values);

        return ModelChecks.build(builder, values.diagnostics());
    }

    private LinkDeclaration readLink(XmlElement e) {
        String name = Names.check(values, e, "link name", values.require(e, "name", "<link> has no 'name' attribute"));
        if (name == null) {
            return null;
        }
        String label = "link '" + name + "'";
        XmlElement inertial = values.single(e, "inertial", label);
        if (inertial == null) {
            return new LinkDeclaration(name, e, null, false);
        }
        int before = values.errorCount();
        Pose origin = origin(inertial, label);
        double mass = 0;
        XmlElement massElement = values.single(inertial, "mass", label);
        if (massElement == null) {
            values.error(inertial, label + ": <inertial> has no <mass>");
        } else {
            mass = values.number(massElement, "value", 0, true, label + ": mass value");
        }
        double[] moments = new double[6];
        XmlElement inertia = values.single(inertial, "inertia", label);
        if (inertia == null) {
            values.error(inertial, label + ": <inertial> has no <inertia>");
        } else {
            String[] names = {"ixx", "ixy", "ixz", "iyy", "iyz", "izz"};
            for (int i = 0; i < 6; i++) {
                moments[i] = values.number(inertia, names[i], 0, true, label + ": inertia " + names[i]);
            }
        }
        if (values.errorCount() > before) {
            return new LinkDeclaration(name, e, null, true);
        }
        // URDF gives the inertia about the centre of mass in the inertial frame (origin xyz rpy in the link frame):
        // the centre of mass is at xyz and the inertia in link axes is R I Rᵀ.
        RigidBodyInertia inFrame = RigidBodyInertia.of(mass, ZERO3, moments[0], moments[1], moments[2], moments[3],
                moments[4], moments[5]);
        return new LinkDeclaration(name, e, inFrame.expressedIn(origin), false);
    }

    private JointDeclaration readJoint(XmlElement e, boolean duplicate) {
        int before = values.errorCount();
        String name = e.attribute("name");
        if (name == null || name.isBlank()) {
            values.error(e, "<joint> has no 'name' attribute");
            name = "<unnamed joint at line " + e.line() + ">";
        } else {
            Names.check(values, e, "joint name", name);
        }
        String label = "joint '" + name + "'";
        String typeName = values.require(e, "type", label + " has no 'type' attribute");
        boolean fixed = "fixed".equals(typeName);
        JointType type = null;
        if (typeName != null && !fixed) {
            for (JointType t : JointType.values()) {
                if (t.urdfName().equals(typeName)) {
                    type = t;
                }
            }
            if (type == null) {
                values.error(e, label + ": unknown joint type '" + Messages.cut(typeName)
                        + "' (expected revolute, continuous, "
                        + "prismatic, fixed, floating, planar or ball)");
            }
        }
        XmlElement parentElement = values.single(e, "parent", label);
        String parent = linkOf(e, parentElement, "parent", label);
        XmlElement childElement = values.single(e, "child", label);
        String child = linkOf(e, childElement, "child", label);
        Pose origin = origin(e, label);
        XmlElement axisElement = values.single(e, "axis", label);
        int beforeAxis = values.errorCount();
        double[] axis = axisElement == null ? X_AXIS.clone()
                : values.vector(axisElement, "xyz", 3, X_AXIS, label + ": axis xyz");
        boolean usesAxis = type == JointType.REVOLUTE || type == JointType.CONTINUOUS || type == JointType.PRISMATIC
                || type == JointType.PLANAR;
        if (usesAxis && values.errorCount() == beforeAxis && axis[0] == 0 && axis[1] == 0 && axis[2] == 0) {
            // Checked here rather than left to the builder, which would drop the body and with it the subtree.
            values.error(axisElement, label + ": axis xyz '" + Messages.cut(axisElement.attribute("xyz"))
                    + "' is zero");
        }
        double lower = Double.NaN;
        double upper = Double.NaN;
        XmlElement limit = values.single(e, "limit", label);
        // Only revolute and prismatic joints have position limits; URDF requires <limit> on them, but a missing
        // one (or a missing bound) just means "no limit" here.
        if (limit != null && (type == JointType.REVOLUTE || type == JointType.PRISMATIC)) {
            lower = values.number(limit, "lower", Double.NaN, false, label + ": limit lower");
            upper = values.number(limit, "upper", Double.NaN, false, label + ": limit upper");
            if (lower > upper) {
                values.warning(limit, label + ": limit lower " + lower + " is above upper " + upper);
            }
        }
        XmlElement dynamics = values.single(e, "dynamics", label);
        double damping = 0;
        double armature = 0;
        if (dynamics != null) {
            damping = jointCoefficient(dynamics, "", "damping", label);
            armature = jointCoefficient(dynamics, UrdfReader.NAMESPACE, "armature", label);
            double friction = values.number(dynamics, "friction", 0, false, label + ": dynamics friction");
            if (friction != 0 && !Double.isNaN(friction)) {
                values.warning(dynamics, label + ": dynamics friction " + friction + " (Coulomb joint friction) is"
                        + " not modelled and is ignored");
            }
            if (fixed && (damping != 0 || armature != 0)) {
                values.warning(dynamics, label + ": <dynamics> of a fixed joint is ignored");
            }
        }
        XmlElement mimic = values.single(e, "mimic", label);
        if (mimic != null && fixed) {
            // urdfdom and Pinocchio ignore it too; public files carry such mimics (Talos's grippers).
            values.warning(mimic, label + ": <mimic> on a fixed joint is ignored: a fixed joint has no coordinate"
                    + " to couple");
            mimic = null;
        }
        boolean broken = duplicate || values.errorCount() > before;
        return new JointDeclaration(name, e, fixed, type, parent, parentElement == null ? e : parentElement, child,
                childElement == null ? e : childElement, origin, axis, lower, upper, armature, damping, mimic,
                broken);
    }

    /**
     * A joint's {@code <dynamics>} coefficient ({@code damping}, or {@code symdyn:armature} in namespace
     * {@value UrdfReader#NAMESPACE}): 0 when absent; a located error unless a finite number ≥ 0.
     */
    private double jointCoefficient(XmlElement dynamics, String namespace, String attribute, String label) {
        String what = label + ": dynamics " + (namespace.isEmpty() ? "" : "symdyn:") + attribute;
        int before = values.errorCount();
        double x = namespace.isEmpty() ? values.number(dynamics, attribute, 0, false, what)
                : values.number(dynamics, namespace, attribute, 0, what);
        if (values.errorCount() > before) {
            return 0;
        }
        if (x < 0) {
            values.error(dynamics, what + " " + x + " is negative (it must be ≥ 0)");
            return 0;
        }
        return x;
    }

    private String linkOf(XmlElement joint, XmlElement element, String role, String label) {
        if (element == null) {
            values.error(joint, label + " has no <" + role + ">");
            return null;
        }
        return values.require(element, "link", label + ": <" + role + "> has no 'link' attribute");
    }

    private Pose origin(XmlElement parent, String label) {
        return origin(values, parent, label);
    }

    /** The {@code <origin xyz rpy>} child of {@code parent} (identity when absent). */
    static Pose origin(ValueReader values, XmlElement parent, String label) {
        XmlElement o = values.single(parent, "origin", label);
        if (o == null) {
            return Pose.IDENTITY;
        }
        double[] xyz = values.vector(o, "xyz", 3, ZERO3, label + ": origin xyz");
        double[] rpy = values.vector(o, "rpy", 3, ZERO3, label + ": origin rpy");
        return Pose.fromXyzRpy(xyz, rpy);
    }

    /**
     * Gives the links to the builder in body order. Under {@link UrdfReader.Options#floatingBase()} the root link
     * becomes a body on a floating joint from a synthetic world, unless the first movable joint already is
     * floating (the root is then a world link, and the file says how the base floats).
     */
    private void addLinks(ModelBuilder builder, XmlElement robot, KinematicTree tree,
            Map<String, LinkDeclaration> links, Map<String, JointDeclaration> jointsByName) {
        LinkDeclaration root = tree.root();
        JointDeclaration firstMovable = tree.depthFirst().stream().filter(JointDeclaration::movable).findFirst()
                .orElse(null);
        boolean floatRoot = options.floatingBase()
                && (firstMovable == null || firstMovable.type() != JointType.FLOATING);
        FloatingBaseWarnings.report(options.floatingBase(), floatRoot, root, firstMovable, tree, links, values);
        if (!floatRoot && !root.inertialBroken()) {
            builder.rootInertia(root.name(), root.inertia(), values.location(root.element()));
        }
        if (floatRoot) {
            String world = "world";
            while (links.containsKey(world)) {
                world = world + "_root";
            }
            String jointName = "floating_base";
            while (jointsByName.containsKey(jointName) && jointsByName.get(jointName).movable()) {
                jointName = jointName + "_root";
            }
            SourceLocation at = values.location(root.element());
            builder.root(world, values.location(robot));
            builder.addBody(BodySpec.builder(root.name(), world, jointName, JointType.FLOATING)
                    .inertia(movingInertia(root)).jointLocation(at).linkLocation(at).build());
        } else {
            builder.root(root.name(), values.location(root.element()));
        }
        for (JointDeclaration j : tree.depthFirst()) {
            LinkDeclaration child = links.get(j.child());
            SourceLocation jointAt = values.location(j.element());
            SourceLocation linkAt = values.location(child.element());
            if (j.movable()) {
                builder.addBody(BodySpec.builder(child.name(), j.parent(), j.name(), j.type()).axis(j.axis())
                        .placement(j.origin()).limits(j.lower(), j.upper()).armature(j.armature())
                        .damping(j.damping()).inertia(movingInertia(child))
                        .jointLocation(jointAt).linkLocation(linkAt).build());
            } else {
                // A refused joint is kept as a fixed one so that its subtree is still read and checked.
                builder.addFixedLink(child.name(), j.parent(), j.broken() ? Pose.IDENTITY : j.origin(),
                        child.inertia(), jointAt, linkAt);
            }
        }
    }

    private static RigidBodyInertia movingInertia(LinkDeclaration link) {
        if (link.inertialBroken()) {
            return PLACEHOLDER;
        }
        return link.inertia() == null ? RigidBodyInertia.ZERO : link.inertia();
    }

    /**
     * SymDyn elements are read only as direct children of {@code <robot>}, as the material of a link's
     * {@code <collision>} and as a shape of a link's {@code <geometry>} (where {@link SceneElementReader} reads and
     * checks them); one elsewhere is a mistake. (A walk with an explicit stack: a deeply nested document must not
     * overflow the call stack.)
     */
    private void reportMisplacedExtensions(XmlElement robot) {
        Deque<XmlElement> stack = new ArrayDeque<>();
        Deque<String> contexts = new ArrayDeque<>();
        for (XmlElement c : robot.children()) {
            if (!c.namespace().equals(UrdfReader.NAMESPACE)) {
                stack.push(c);
                contexts.push(c.is("link") ? "link" : "");
            }
        }
        while (!stack.isEmpty()) {
            XmlElement e = stack.pop();
            String context = contexts.pop();
            for (XmlElement c : e.children()) {
                if (c.namespace().equals(UrdfReader.NAMESPACE)) {
                    if (!context.equals("link/collision") && !context.equals("link/collision/geometry")
                            && !context.equals("link/visual/geometry")) {
                        values.error(c, "SymDyn element '" + c.name() + "' must be a direct child of <robot>");
                    }
                } else {
                    stack.push(c);
                    boolean shapePath = (context.equals("link") && (c.is("collision") || c.is("visual")))
                            || (context.startsWith("link/") && context.indexOf('/', 5) < 0 && c.is("geometry"));
                    contexts.push(shapePath ? context + "/" + c.name() : "");
                }
            }
        }
    }
}
