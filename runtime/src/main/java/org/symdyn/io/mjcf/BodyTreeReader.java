package org.symdyn.io.mjcf;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.symdyn.io.Messages;
import org.symdyn.io.Names;
import org.symdyn.io.ValueReader;
import org.symdyn.io.XmlElement;
import org.symdyn.model.BodySpec;
import org.symdyn.model.JointType;
import org.symdyn.model.ModelBuilder;
import org.symdyn.model.SourceLocation;
import org.symdyn.spatial.Pose;
import org.symdyn.spatial.RigidBodyInertia;
import org.symdyn.spatial.Rotations;

/**
 * Walks {@code <worldbody>} depth first in document order (a body before its children, each child's subtree before
 * the next sibling, which is MuJoCo's body and joint order) and gives each body to the {@link ModelBuilder}:
 * <ul>
 * <li>A body's frame in its parent's frame is its {@code pos} and orientation ({@link Orientations}), composed
 * with those of the {@code <frame>} elements around it. A {@code <frame>}'s {@code childclass} applies inside it
 * like a body's; geoms, sites and joints inside frames are placed through them (a joint's point and axis).</li>
 * <li>A body without joints is welded to its parent ({@link ModelBuilder#addFixedLink}): its inertia joins the
 * moving body it is fixed to.</li>
 * <li>A body's joints act in document order, each about its own {@code pos} and {@code axis} given in the body
 * frame, as MuJoCo composes them: parent ← body = X ∏ₖ T(pₖ) Mₖ(qₖ) T(−pₖ), with X the body's frame, Mₖ the joint's
 * motion (a rotation by qₖ − refₖ for a hinge, a translation by (qₖ − refₖ) a for a slide, the quaternion for a
 * ball). Each joint becomes one model body whose frame sits on the joint's point, so the joint placement is
 * T(−pₖ₋₁) T(pₖ) Mₖ(0) (with X in front for the first) and the joint moves by Mₖ(q) of SymDyn's joint at q (a hinge
 * turns by q: at q = ref the body is at its XML pose). All but the last of several joints move massless links
 * named {@code body/joint}; the last carries the body, whose inertia, geoms and sites are moved by T(−p) into that
 * link's frame.</li>
 * <li>A free joint ({@code <freejoint>} or type free) must be a body's only joint and the body a child of the
 * world body: its coordinates are the body frame's pose in the world (q = [p, quaternion x, y, z, w]).</li>
 * <li>Inertia: {@code <inertial>} ({@code mass}, {@code pos}, orientation, {@code diaginertia} or
 * {@code fullinertia="ixx iyy izz ixy ixz iyz"}) about the centre of mass; without one (or always, under
 * {@code inertiafromgeom="true"}) from the body's geoms ({@link GeomInertia}), unless
 * {@code inertiafromgeom="false"}.</li>
 * <li>Names: bodies become links of their name, joints keep theirs. An unnamed body is {@code body<k>} (k its
 * MuJoCo body number, the world being 0); an unnamed free joint takes its body's name, so that its coordinates
 * are {@code body:x ... body:qw}; another unnamed joint is {@code <body>_joint}, or {@code <body>_joint<k>} (k from 1)
 * in a body with several joints; a generated name already used gets {@code _} appended until it is free.</li>
 * </ul>
 * The walk uses an explicit stack: a deeply nested file cannot overflow the call stack.
 */
final class BodyTreeReader {
    /** The root link's name: MuJoCo's world body. */
    static final String WORLD = "world";

    private static final Set<String> BODY_CHILDREN = Set.of("inertial", "joint", "freejoint", "geom", "site",
            "camera", "light", "body", "frame");
    private static final Set<String> REFUSED = Set.of("composite", "flexcomp", "attach", "replicate");

    /** Stands in for an unreadable inertia, so that the builder does not add "mass 0" to the error given. */
    private static final RigidBodyInertia PLACEHOLDER = RigidBodyInertia.of(1, new double[3], 1, 0, 0, 1, 0, 1);

    private final MjcfSource source;
    private final DefaultClasses defaults;
    private final CompilerSettings compiler;
    private final ModelBuilder builder;
    private final GeomReader geomReader;
    private final JointReader jointReader;

    private final Map<String, MjcfBody> bodies = new LinkedHashMap<>();
    private final Map<String, MjcfSite> sites = new LinkedHashMap<>();
    private final Map<String, MjcfJoint> joints = new LinkedHashMap<>();
    /** The joints written in the file that could not be read (their error is reported at them). */
    private final java.util.Set<String> refusedJoints = new java.util.HashSet<>();
    private final Map<String, MjcfBody> jointBodies = new LinkedHashMap<>();
    private final List<Map.Entry<GeomDeclaration, MjcfBody>> geoms = new ArrayList<>();
    private final UniqueNames names = new UniqueNames();
    private int bodyNumber;

    /** One element of a body with the pose of the frames around it and the childclass in force. */
    private record Placed(XmlElement element, Pose offset, String childclass) {
    }

    /** A body to read: its element, its parent, the frames' pose around it, the childclass in force. */
    private record Pending(XmlElement element, MjcfBody parent, Pose offset, String childclass) {
    }

    /** @param dampersDisabled {@code <flag damper="disable">} or {@code passive="disable"}: no joint damping */
    BodyTreeReader(MjcfSource source, DefaultClasses defaults, CompilerSettings compiler, ModelBuilder builder,
            GeomReader geomReader, boolean dampersDisabled) {
        this.source = source;
        this.defaults = defaults;
        this.compiler = compiler;
        this.builder = builder;
        this.geomReader = geomReader;
        this.jointReader = new JointReader(compiler, dampersDisabled);
    }

    Map<String, MjcfBody> bodies() {
        return bodies;
    }

    Map<String, MjcfSite> sites() {
        return sites;
    }

    /** The joints added to the model, in the order their coordinates take in q (MuJoCo's qpos order too). */
    Map<String, MjcfJoint> joints() {
        return joints;
    }

    /**
     * Reports at {@code e} a reference to joint {@code name} that is not in {@link #joints()}, unless the joint is
     * written in the file but could not be read: its own error says why, and a second one at the reference would
     * only mislead.
     */
    void reportMissingJoint(org.symdyn.io.ValueReader v, org.symdyn.io.XmlElement e, String name, String label) {
        if (!refusedJoints.contains(name)) {
            v.error(e, label + ": joint '" + org.symdyn.io.Messages.cut(name) + "' is not a joint of the model");
        }
    }

    /** The body a joint of {@link #joints()} moves. */
    MjcfBody bodyOfJoint(String jointName) {
        return jointBodies.get(jointName);
    }

    /** Every geom read, with its body, in document order. */
    List<Map.Entry<GeomDeclaration, MjcfBody>> geoms() {
        return geoms;
    }

    /** Reads the world bodies (MuJoCo merges several {@code <worldbody>} sections in order). */
    void read(List<XmlElement> worldBodies, XmlElement root) {
        collectNames(worldBodies);
        XmlElement at = worldBodies.isEmpty() ? root : worldBodies.get(0);
        builder.root(WORLD, source.values(at).location(at));
        MjcfBody world = new MjcfBody(WORLD, WORLD, Pose.IDENTITY, Pose.IDENTITY, at);
        bodies.put(WORLD, world);
        Deque<Pending> stack = new ArrayDeque<>();
        for (int w = worldBodies.size() - 1; w >= 0; w--) {
            XmlElement wb = worldBodies.get(w);
            List<Placed> contents = contents(wb, null);
            readContents(wb, world, contents, stack, true);
        }
        while (!stack.isEmpty()) {
            readBody(stack.pop(), stack);
        }
    }

    /** Names written in the file, so that generated names avoid them. */
    private void collectNames(List<XmlElement> worldBodies) {
        Deque<XmlElement> stack = new ArrayDeque<>(worldBodies);
        names.take(WORLD);
        while (!stack.isEmpty()) {
            XmlElement e = stack.pop();
            if (e.is("body") || e.is("joint") || e.is("freejoint")) {
                names.take(e.attribute("name"));
            }
            for (XmlElement c : source.children(e)) {
                stack.push(c);
            }
        }
    }

    /**
     * The children of a body (or world body) with {@code <frame>}s opened: each element with the pose of the frames
     * around it and the childclass in force, in document order.
     */
    private List<Placed> contents(XmlElement container, String childclass) {
        List<Placed> out = new ArrayList<>();
        Deque<Object[]> stack = new ArrayDeque<>(); // {children, next index, offset, childclass}
        stack.push(new Object[] {source.children(container), 0, Pose.IDENTITY, childclass});
        while (!stack.isEmpty()) {
            Object[] top = stack.peek();
            @SuppressWarnings("unchecked")
            List<XmlElement> children = (List<XmlElement>) top[0];
            int i = (Integer) top[1];
            if (i >= children.size()) {
                stack.pop();
                continue;
            }
            top[1] = i + 1;
            XmlElement c = children.get(i);
            Pose offset = (Pose) top[2];
            String cls = (String) top[3];
            if (c.is("frame")) {
                ResolvedElement f = new ResolvedElement(c, "frame", null, defaults, source);
                Pose pose = offset.compose(Orientations.pose(f, compiler, "frame"));
                stack.push(new Object[] {source.children(c), 0, pose, childclass(c, cls)});
            } else {
                out.add(new Placed(c, offset, cls));
            }
        }
        return out;
    }

    /** The childclass in force inside {@code e}: its own (checked) or the inherited one. */
    private String childclass(XmlElement e, String inherited) {
        String cls = e.attribute("childclass");
        if (cls == null) {
            return inherited;
        }
        if (!defaults.exists(cls)) {
            source.values(e).error(e, "childclass '" + Messages.cut(cls) + "' is not a declared default class");
            return inherited;
        }
        return cls;
    }

    /** Geoms, sites and child bodies of a body already added; unknown elements are warnings. */
    private void readContents(XmlElement owner, MjcfBody body, List<Placed> contents, Deque<Pending> stack,
            boolean world) {
        List<Pending> children = new ArrayList<>();
        for (Placed p : contents) {
            XmlElement c = p.element();
            ValueReader v = source.values(c);
            if (!c.namespace().isEmpty()) {
                continue;
            }
            switch (c.name()) {
                case "body" -> children.add(new Pending(c, body, p.offset(), p.childclass()));
                case "geom" -> {
                    if (world) {
                        GeomDeclaration g = geom(c, p, body.name());
                        if (g != null) {
                            geoms.add(Map.entry(g, body));
                        }
                    }
                }
                case "site" -> site(c, p, body);
                case "joint", "freejoint" -> {
                    if (world) {
                        v.error(c, "the world body cannot have joints");
                    }
                }
                case "inertial" -> {
                    if (world) {
                        v.warning(c, "the world body's <inertial> is ignored (the world does not move)");
                    }
                }
                case "camera", "light" -> {
                }
                default -> {
                    if (REFUSED.contains(c.name())) {
                        v.error(c, "<" + c.name() + "> is not read: it would add bodies and joints to the model"
                                + " (expand it into bodies first)");
                    } else if (c.is("plugin")) {
                        v.warning(c, "<plugin> is not read: the model has no plugin forces");
                    } else if (!BODY_CHILDREN.contains(c.name())) {
                        v.warning(c, "unknown element <" + Messages.cut(c.name()) + "> in <" + owner.name()
                                + ">; ignored");
                    }
                }
            }
        }
        for (int i = children.size() - 1; i >= 0; i--) {
            stack.push(children.get(i));
        }
    }

    private GeomDeclaration geom(XmlElement c, Placed p, String bodyName) {
        ResolvedElement g = ResolvedElement.of(c, "geom", p.childclass(), defaults, source);
        GeomDeclaration d = geomReader.read(g, bodyName);
        if (d == null || p.offset().isIdentity()) {
            return d;
        }
        return d.placed(p.offset().compose(d.inBody()));
    }

    private void site(XmlElement c, Placed p, MjcfBody body) {
        ResolvedElement s = ResolvedElement.of(c, "site", p.childclass(), defaults, source);
        String name = c.attribute("name");
        Pose pose = p.offset().compose(Orientations.pose(s, compiler, "site" + (name == null ? "" : " '"
                + Messages.cut(name) + "'")));
        if (name == null) {
            return;
        }
        MjcfSite first = sites.get(name);
        if (first != null) {
            source.values(c).error(c, "duplicate site name '" + Messages.cut(name) + "' (first at line "
                    + first.element().line() + ")");
            return;
        }
        sites.put(name, new MjcfSite(name, body, pose, c));
    }

    private void readBody(Pending pending, Deque<Pending> stack) {
        XmlElement e = pending.element();
        ValueReader v = source.values(e);
        SourceLocation at = v.location(e);
        bodyNumber++;
        String given = e.attribute("name");
        String name = given != null ? Names.check(v, e, "body name", given) : names.next("body" + bodyNumber);
        String cls = childclass(e, pending.childclass());
        ResolvedElement self = new ResolvedElement(e, "body", null, defaults, source);
        Pose x = pending.offset().compose(Orientations.pose(self, compiler, "body '" + name + "'"));
        MjcfBody parent = pending.parent();
        Pose world0 = parent.world0().compose(x);
        if (e.has("gravcomp") && v.number(e, "gravcomp", 0, false, "body gravcomp") != 0) {
            v.warning(e, "body '" + name + "': gravcomp (gravity compensation) is not modelled");
        }
        List<Placed> contents = contents(e, cls);
        List<ResolvedElement> jointElements = new ArrayList<>();
        List<Pose> jointOffsets = new ArrayList<>();
        XmlElement inertial = null;
        List<GeomDeclaration> ownGeoms = new ArrayList<>();
        for (Placed p : contents) {
            XmlElement c = p.element();
            if (c.is("joint") || c.is("freejoint")) {
                jointElements.add(c.is("joint") ? ResolvedElement.of(c, "joint", p.childclass(), defaults, source)
                        : new ResolvedElement(c, "joint", null, defaults, source));
                jointOffsets.add(p.offset());
            } else if (c.is("inertial")) {
                if (inertial != null) {
                    source.values(c).error(c, "body '" + name + "' has a second <inertial>");
                } else {
                    inertial = c;
                }
            } else if (c.is("geom")) {
                GeomDeclaration g = geom(c, p, name);
                if (g != null) {
                    ownGeoms.add(g);
                }
            }
        }
        RigidBodyInertia inertia = inertia(name, inertial, ownGeoms);
        if (!jointElements.isEmpty() && v.bool(e, "mocap", false, "body '" + name + "': mocap")) {
            // MuJoCo refuses it too: a mocap body is moved by the user, not by joints
            v.error(e, "body '" + name + "' is a mocap body and has joints: a mocap body is welded to the world");
        }

        List<MjcfJoint> read = new ArrayList<>();
        for (int k = 0; k < jointElements.size(); k++) {
            ResolvedElement j = jointElements.get(k);
            boolean free = j.element().is("freejoint");
            String jointName = j.element().attribute("name");
            if (jointName != null) {
                Names.check(j.values(), j.element(), "joint name", jointName);
            } else if (free || "free".equals(j.get("type"))) {
                jointName = name;
            } else {
                jointName = names.next(name + "_joint" + (jointElements.size() == 1 ? "" : String.valueOf(k + 1)));
            }
            MjcfJoint joint = jointReader.read(j, jointName, free);
            if (joint != null) {
                read.add(inBodyFrame(joint, jointOffsets.get(k)));
            } else {
                refusedJoints.add(jointName);
            }
        }
        MjcfBody body;
        if (read.isEmpty()) {
            builder.addFixedLink(name, parent.link(), parent.bodyInLink().compose(x),
                    inertia == null || inertia.mass() == 0 ? null : inertia, at, at);
            body = new MjcfBody(name, name, Pose.IDENTITY, world0, e);
        } else {
            body = addJoints(e, name, parent, x, world0, inertia, read, at);
        }
        if (bodies.containsKey(name)) {
            v.error(e, "duplicate body name '" + Messages.cut(name) + "'");
        } else {
            bodies.put(name, body);
        }
        for (GeomDeclaration g : ownGeoms) {
            geoms.add(Map.entry(g, body));
        }
        readContents(e, body, contents, stack, false);
    }

    /** A joint written inside {@code <frame>}s: its point and axis in the body frame. */
    private static MjcfJoint inBodyFrame(MjcfJoint j, Pose offset) {
        if (offset.isIdentity()) {
            return j;
        }
        double[] anchor = new double[3];
        double[] axis = new double[3];
        offset.transformPoint(j.anchor(), anchor);
        offset.rotateVector(j.axis(), axis);
        if (j.mjcfType().equals("slide")) {
            anchor = new double[3];
        }
        return new MjcfJoint(j.name(), j.mjcfType(), j.type(), anchor, axis, j.ref(), j.lower(), j.upper(),
                j.armature(), j.damping(), j.actuatorForceBound(), j.resolved());
    }

    private MjcfBody addJoints(XmlElement e, String name, MjcfBody parent, Pose x, Pose world0,
            RigidBodyInertia inertia, List<MjcfJoint> read, SourceLocation at) {
        RigidBodyInertia ownInertia = inertia == null ? RigidBodyInertia.ZERO : inertia;
        List<MjcfJoint> valid = new ArrayList<>();
        Set<String> jointNames = new HashSet<>();
        for (MjcfJoint j : read) {
            if (j.type() == JointType.FLOATING && (read.size() > 1 || parent != bodies.get(WORLD))) {
                j.resolved().error("joint '" + j.name() + "': a free joint must be the only joint of a body that is"
                        + " a child of the world body");
            } else if (joints.containsKey(j.name()) || !jointNames.add(j.name())) {
                j.resolved().error("duplicate joint name '" + Messages.cut(j.name()) + "'");
            } else {
                valid.add(j);
            }
        }
        if (valid.isEmpty()) {
            // Kept as a welded body, so that its subtree is still read and checked.
            builder.addFixedLink(name, parent.link(), parent.bodyInLink().compose(x), null, at, at);
            return new MjcfBody(name, name, Pose.IDENTITY, world0, e);
        }
        String parentLink = parent.link();
        Pose prefix = parent.bodyInLink().compose(x);
        Pose bodyInLink = Pose.IDENTITY;
        for (int k = 0; k < valid.size(); k++) {
            MjcfJoint j = valid.get(k);
            boolean last = k == valid.size() - 1;
            SourceLocation jointAt = j.resolved().values().location(j.resolved().element());
            String link = last ? name : names.next(name + "/" + j.name());
            Pose placement;
            double[] p = j.anchor();
            Pose toAnchor = Pose.translation(p[0], p[1], p[2]);
            double[] a = j.axis();
            switch (j.type()) {
                case FLOATING -> placement = Pose.IDENTITY;
                case PRISMATIC -> placement = prefix.compose(Pose.translation(-a[0] * j.ref(), -a[1] * j.ref(),
                        -a[2] * j.ref()));
                case REVOLUTE, CONTINUOUS -> {
                    double[] r = new double[9];
                    Rotations.axisAngle(a[0], a[1], a[2], -j.ref(), r);
                    placement = prefix.compose(toAnchor).compose(Pose.of(r, new double[3]));
                }
                default -> placement = prefix.compose(toAnchor);
            }
            Pose fromAnchor = Pose.translation(-p[0], -p[1], -p[2]);
            RigidBodyInertia linkInertia = last ? ownInertia.expressedIn(fromAnchor) : RigidBodyInertia.ZERO;
            builder.addBody(BodySpec.builder(link, parentLink, j.name(), j.type()).axis(a).placement(placement)
                    .limits(j.lower(), j.upper()).armature(j.armature()).damping(j.damping()).inertia(linkInertia)
                    .jointLocation(jointAt).linkLocation(at).build());
            joints.put(j.name(), j);
            parentLink = link;
            prefix = fromAnchor;
            bodyInLink = fromAnchor;
        }
        MjcfBody body = new MjcfBody(name, parentLink, bodyInLink, world0, e);
        for (MjcfJoint j : valid) {
            jointBodies.put(j.name(), body);
        }
        return body;
    }

    /**
     * The body's inertia in its body frame, by the compiler's inertiafromgeom rule over the geoms of its
     * inertiagrouprange (MuJoCo's: with {@code true} the counted geoms' inertia replaces the {@code <inertial>}, and
     * a body with none counted keeps its {@code <inertial>}); null when massless.
     */
    private RigidBodyInertia inertia(String name, XmlElement inertial, List<GeomDeclaration> ownGeoms) {
        String rule = compiler.inertiaFromGeom();
        List<GeomDeclaration> counted = new ArrayList<>();
        for (GeomDeclaration g : ownGeoms) {
            double group = g.resolved().number("group", 0, "geom of body '" + name + "': group");
            if (compiler.inertiaGroup((int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, group)))) {
                counted.add(g);
            }
        }
        boolean fromGeoms = switch (rule) {
            case "true" -> inertial == null || !counted.isEmpty();
            case "false" -> false;
            default -> inertial == null;
        };
        RigidBodyInertia read;
        if (!fromGeoms) {
            if (inertial == null) {
                return null;
            }
            read = InertialReader.read(new ResolvedElement(inertial, "inertial", null, defaults, source), compiler,
                    "body '" + name + "'");
        } else {
            read = GeomInertia.of(counted, name);
        }
        return read != null ? read : PLACEHOLDER;
    }
}
