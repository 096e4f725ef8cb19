package org.symdyn.io.sdf;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.symdyn.io.ValueReader;
import org.symdyn.manifold.StateSpace;
import org.symdyn.model.BodySpec;
import org.symdyn.model.JointType;
import org.symdyn.model.ModelBuilder;
import org.symdyn.model.SourceLocation;
import org.symdyn.spatial.Pose;
import org.symdyn.spatial.RigidBodyInertia;
import org.symdyn.spatial.Rotations;

/**
 * Gives the links to the {@link ModelBuilder} as a tree from the world, parents first:
 * <ul>
 * <li>A link on a moving joint is a body whose frame has the child link's orientation and the joint frame's origin
 * (the link frame itself when the joint's pose is the identity in the child frame, as exporters write it); its joint
 * placement is that frame in its parent link's frame at the initial configuration, its axis the joint axis in that
 * frame, and its inertia, shapes and sensors are moved into it.</li>
 * <li>A link on a fixed joint is fixed to its parent at its initial pose; its inertia joins the moving body.</li>
 * <li>A link that is no joint's child (a root): in a static model fixed to the world at its pose; otherwise, as
 * Gazebo simulates it, free: a floating joint named after the link, whose coordinates are the link frame's pose in
 * the world (so q = 0 puts it at the world origin; the file's pose is where a simulator starts it). A model jointed
 * to the world by its root has no floating joint.</li>
 * <li>In a static model every joint is fixed (Gazebo moves no link of a static model), with a warning for each
 * moving one.</li>
 * </ul>
 * A link that is the child of two joints, and links on a closed chain of joints, are errors: the model is a tree.
 */
final class BodyAssembler {
    /** The floating root links with their poses in the world, in the order they were added. */
    private final Map<String, Pose> floatingRoots = new LinkedHashMap<>();
    private final SdfSource source;
    private final FrameGraph frames;
    private final InertialReader inertials;
    private final ModelBuilder builder;
    /** W ← the builder frame of each link added (the body frame of a moving link, else the link frame). */
    private final Map<String, Pose> builderPoses = new HashMap<>();
    private final Set<String> onWorld = new HashSet<>();

    BodyAssembler(SdfSource source, FrameGraph frames, ModelBuilder builder) {
        this.source = source;
        this.frames = frames;
        this.inertials = new InertialReader(source, frames);
        this.builder = builder;
        builderPoses.put(ModelScope.WORLD, Pose.IDENTITY);
        onWorld.add(ModelScope.WORLD);
    }

    /** W ← the frame the builder knows the link by; null for a link not added. */
    Pose builderPose(String link) {
        return builderPoses.get(link);
    }

    /** True when the link does not move: the world, or fixed to it through fixed joints. */
    boolean onWorld(String link) {
        return onWorld.contains(link);
    }

    void add(List<ModelTree.LinkDecl> links, List<SdfJoint> joints) {
        Map<String, ModelTree.LinkDecl> byName = new LinkedHashMap<>();
        for (ModelTree.LinkDecl l : links) {
            byName.put(l.name(), l);
        }
        Map<String, SdfJoint> parentJoint = new HashMap<>();
        Map<String, List<SdfJoint>> childJoints = new HashMap<>();
        for (SdfJoint j : joints) {
            if (j.child() == null) {
                continue;
            }
            if (!byName.containsKey(j.child())) {
                continue; // attached to no link: reported by the joint reader
            }
            SdfJoint first = parentJoint.putIfAbsent(j.child(), j);
            if (first != null) {
                source.values(j.element()).error(j.element(), "joint '" + j.name() + "': link '" + j.child()
                        + "' is already the child of joint '" + first.name() + "' (line " + first.element().line()
                        + "); a link has one parent joint, and closed kinematic loops are not read");
                continue;
            }
            String parent = j.parent() == null ? ModelScope.WORLD : j.parent();
            childJoints.computeIfAbsent(parent, k -> new ArrayList<>()).add(j);
        }
        Set<String> visited = new HashSet<>();
        for (ModelTree.LinkDecl l : links) {
            SdfJoint j = parentJoint.get(l.name());
            if (j == null) {
                addRoot(l);
            } else if (j.parent() == null || j.parent().equals(ModelScope.WORLD)) {
                addOnJoint(l, j, ModelScope.WORLD);
            } else {
                continue;
            }
            visited.add(l.name());
            walk(l.name(), byName, childJoints, visited);
        }
        referenceConfiguration();
        for (ModelTree.LinkDecl l : links) {
            if (!visited.contains(l.name())) {
                SdfJoint j = parentJoint.get(l.name());
                ValueReader v = source.values(l.element());
                v.error(l.element(), "link '" + l.name() + "' is on a closed chain of joints (its joint '" + j.name()
                        + "' hangs it from link '" + j.parent() + "', which it carries): closed kinematic loops are"
                        + " not read, the model must be a tree");
            }
        }
    }

    /**
     * The subtree below {@code root}, depth first with the joints of a link in document order (URDF's and
     * Gazebo's body order; an explicit stack: long chains do not overflow).
     */
    private void walk(String root, Map<String, ModelTree.LinkDecl> byName, Map<String, List<SdfJoint>> childJoints,
            Set<String> visited) {
        Deque<SdfJoint> stack = new ArrayDeque<>();
        pushChildren(root, childJoints, stack);
        while (!stack.isEmpty()) {
            SdfJoint j = stack.pop();
            if (!visited.add(j.child())) {
                continue;
            }
            addOnJoint(byName.get(j.child()), j, j.parent());
            pushChildren(j.child(), childJoints, stack);
        }
    }

    private static void pushChildren(String link, Map<String, List<SdfJoint>> childJoints, Deque<SdfJoint> stack) {
        List<SdfJoint> below = childJoints.getOrDefault(link, List.of());
        for (int i = below.size() - 1; i >= 0; i--) {
            stack.push(below.get(i));
        }
    }

    /**
     * The model's reference configuration when it has floating root links: each at its pose in the world, as the
     * file places it (a floating link's q is its frame's pose, so the neutral configuration would put every one at
     * the origin, where several start inside one another and inside the ground), every other joint at zero.
     */
    private void referenceConfiguration() {
        if (floatingRoots.isEmpty()) {
            return;
        }
        List<JointType> types = new ArrayList<>();
        for (int b = 0; b < builder.bodyCount(); b++) {
            types.add(builder.jointType(b));
        }
        double[] q = new StateSpace(types).neutralConfiguration();
        for (Map.Entry<String, Pose> root : floatingRoots.entrySet()) {
            int b = builder.bodyIndexOfJoint(root.getKey());
            if (b < 0) {
                continue; // refused by the builder, which says why
            }
            int at = builder.qIndexOfBody(b);
            System.arraycopy(root.getValue().translationArray(), 0, q, at, 3);
            double[] quat = new double[4];
            Rotations.toQuaternion(root.getValue().rotationArray(), quat);
            System.arraycopy(quat, 0, q, at + 3, 4);
        }
        builder.referenceConfiguration(q, SourceLocation.UNKNOWN);
    }

    private void addRoot(ModelTree.LinkDecl l) {
        Pose wl = frames.pose(l.name());
        SourceLocation at = source.values(l.element()).location(l.element());
        RigidBodyInertia inertia = inertials.read(l, wl);
        builderPoses.put(l.name(), wl);
        if (l.scope().isStatic()) {
            builder.addFixedLink(l.name(), ModelScope.WORLD, wl, inertia, at, at);
            onWorld.add(l.name());
        } else {
            builder.addBody(BodySpec.builder(l.name(), ModelScope.WORLD, l.name(), JointType.FLOATING)
                    .inertia(inertia).jointLocation(at).linkLocation(at).build());
            floatingRoots.put(l.name(), wl);
        }
    }

    private void addOnJoint(ModelTree.LinkDecl l, SdfJoint j, String parent) {
        ValueReader values = source.values(j.element());
        SourceLocation jointAt = values.location(j.element());
        SourceLocation linkAt = source.values(l.element()).location(l.element());
        Pose wc = frames.pose(l.name());
        Pose parentPose = builderPoses.getOrDefault(parent, Pose.IDENTITY);
        boolean moving = j.type() != null && !j.broken();
        if (moving && l.scope().isStatic()) {
            values.warning(j.element(), "joint '" + j.name() + "' is in a static model: it is fixed");
            moving = false;
        }
        if (!moving) {
            builder.addFixedLink(l.name(), parent, parentPose.inverse().compose(wc), inertials.read(l, wc), jointAt,
                    linkAt);
            builderPoses.put(l.name(), wc);
            if (onWorld.contains(parent)) {
                onWorld.add(l.name());
            }
            return;
        }
        Pose wj = frames.pose(j.name());
        Pose wb = Pose.of(wc.rotationArray(), wj.translationArray());
        RigidBodyInertia inertia = inertials.read(l, wb);
        Pose placement = parentPose.inverse().compose(wb);
        if (j.axis2() != null) {
            String cross = j.name() + "::cross";
            builder.addBody(BodySpec.builder(cross, parent, j.name() + "::axis", JointType.REVOLUTE)
                    .axis(inBody(wb, j.axis())).placement(placement).limits(j.limits()[0], j.limits()[1])
                    .damping(j.damping()[0]).inertia(RigidBodyInertia.ZERO).jointLocation(jointAt)
                    .linkLocation(jointAt).build());
            builder.addBody(BodySpec.builder(l.name(), cross, j.name() + "::axis2", JointType.REVOLUTE)
                    .axis(inBody(wb, j.axis2())).placement(Pose.IDENTITY).limits(j.limits()[2], j.limits()[3])
                    .damping(j.damping()[1]).inertia(inertia).jointLocation(jointAt).linkLocation(linkAt).build());
        } else {
            BodySpec.Builder spec = BodySpec.builder(l.name(), parent, j.name(), j.type()).placement(placement)
                    .damping(j.damping()[0]).inertia(inertia).jointLocation(jointAt).linkLocation(linkAt);
            if (j.axis() != null) {
                spec.axis(inBody(wb, j.axis()));
            }
            if (j.type() == JointType.REVOLUTE || j.type() == JointType.PRISMATIC) {
                spec.limits(j.limits()[0], j.limits()[1]);
            }
            builder.addBody(spec.build());
        }
        builderPoses.put(l.name(), wb);
    }

    /** A world vector in the body frame's axes. */
    private static double[] inBody(Pose wb, double[] world) {
        double[] out = new double[3];
        wb.inverse().rotateVector(world, out);
        return out;
    }
}
