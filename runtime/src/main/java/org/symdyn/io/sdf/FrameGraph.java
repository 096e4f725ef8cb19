package org.symdyn.io.sdf;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.symdyn.io.Messages;
import org.symdyn.io.ValueReader;
import org.symdyn.io.XmlElement;
import org.symdyn.spatial.Pose;

/**
 * The frames of a model and where they are at the initial configuration, by SDFormat's pose frame semantics:
 * every frame has a pose in a reference frame, and its pose in the world is the reference's pose composed with it,
 * W ← F = (W ← ref)(ref ← F).
 *
 * <p>The reference is the frame {@code <pose relative_to>} names (in the element's model, {@code __model__} being
 * that model's frame, nested models' frames as {@code inner::name}), or when absent:
 * <ul>
 * <li>a link's: its model's frame;</li>
 * <li>a joint's: its child link's frame (in every version: SDFormat 1.6 and 1.7 state it, and 1.8 to 1.11 keep the
 * child frame as the default of {@code relative_to});</li>
 * <li>a frame's: the frame it is {@code attached_to} (its model's frame by default);</li>
 * <li>a nested model's: its parent model's frame; the top model's: the world;</li>
 * <li>a collision's, visual's, sensor's or inertial's ({@link #pose(PoseElement, String, ModelScope, XmlElement)}):
 * its link's frame.</li>
 * </ul>
 * A frame moves with a link ({@link #link}): a link with itself, a joint with its child link, a frame with what it is
 * attached to, a model frame with the model's canonical link ({@code canonical_link}, by default the model's first
 * link, or its first nested model's canonical link when it has none).
 *
 * <p>A name that no frame has and a cycle of references are located errors, each reported once; the frames involved
 * are then placed at the identity so that reading goes on.
 */
final class FrameGraph {
    private enum Kind { WORLD, MODEL, LINK, JOINT, FRAME }

    /** One frame: its pose in its reference, the reference, and what it moves with. */
    private record Node(String name, Kind kind, Pose raw, String ref, boolean refExplicit, String attachedTo,
            XmlElement element, XmlElement poseElement, ValueReader values) {
    }

    private final Map<String, Node> nodes = new LinkedHashMap<>();
    private final Map<String, Pose> resolved = new HashMap<>();
    private final Map<String, String> links = new HashMap<>();
    private final Set<String> linkNames = new LinkedHashSet<>();
    private final ModelTree tree;
    private final SdfSource source;
    /** Scoped model frame to its first link and to its first nested model's frame. */
    private final Map<String, String> firstLinkOfFrame = new HashMap<>();
    private final Map<String, String> firstNestedOfFrame = new HashMap<>();
    /** Scoped model frame to its canonical link (null: none), for the models whose frame has been looked up. */
    private final Map<String, String> canonicalOfFrame = new HashMap<>();

    FrameGraph(ModelTree tree, SdfSource source) {
        this.tree = tree;
        this.source = source;
        resolved.put(ModelScope.WORLD, Pose.IDENTITY);
        links.put(ModelScope.WORLD, ModelScope.WORLD);
        for (ModelTree.LinkDecl l : tree.links) {
            linkNames.add(l.name());
            firstLinkOfFrame.putIfAbsent(l.scope().frame(), l.name());
        }
        for (ModelTree.ModelDecl d : tree.models.values()) {
            if (d.parent() != null) {
                firstNestedOfFrame.putIfAbsent(d.parent().frame(), d.scope().frame());
            }
        }
        for (ModelTree.ModelDecl m : tree.models.values()) {
            String defaultRef = m.parent() == null ? ModelScope.WORLD : m.parent().frame();
            ModelScope refScope = m.parent() == null ? m.scope() : m.parent();
            add(m.scope().frame(), Kind.MODEL, m.pose(), refScope, defaultRef, canonicalLink(m), m.element());
        }
        for (ModelTree.LinkDecl l : tree.links) {
            add(l.name(), Kind.LINK, l.pose(), l.scope(), l.scope().frame(), l.name(), l.element());
        }
        for (ModelTree.JointDecl j : tree.joints) {
            String child = SdfText.string(j.element(), "child");
            String ref = child == null || child.isEmpty() ? null : j.scope().resolve(child);
            add(j.name(), Kind.JOINT, j.pose(), j.scope(), ref, ref, j.element());
        }
        for (ModelTree.FrameDecl f : tree.frames) {
            add(f.name(), Kind.FRAME, f.pose(), f.scope(), f.attachedTo(), f.attachedTo(), f.element());
        }
    }

    private void add(String name, Kind kind, PoseElement pose, ModelScope scope, String defaultRef, String attachedTo,
            XmlElement element) {
        boolean explicit = pose.relativeTo() != null;
        String ref = explicit ? scope.resolve(pose.relativeTo()) : defaultRef;
        nodes.putIfAbsent(name, new Node(name, kind, pose.pose(), ref, explicit, attachedTo, element,
                pose.element(), source.values(element)));
    }

    /** True when a frame of that scoped name exists (a link, joint, frame, model frame, or the world). */
    boolean has(String name) {
        return nodes.containsKey(name) || name.equals(ModelScope.WORLD);
    }

    /** True when that scoped name is a link. */
    boolean isLink(String name) {
        return linkNames.contains(name);
    }

    /** The frame's pose in the world at the initial configuration (W ← F); identity for an unknown name. */
    Pose pose(String name) {
        Pose known = resolved.get(name);
        if (known != null) {
            return known;
        }
        List<String> chain = new ArrayList<>();
        Set<String> onChain = new LinkedHashSet<>();
        String cur = name;
        while (!resolved.containsKey(cur)) {
            Node n = nodes.get(cur);
            if (n == null || onChain.contains(cur)) {
                Node last = chain.isEmpty() ? null : nodes.get(chain.get(chain.size() - 1));
                if (last != null && n == null) {
                    unknownReference(last, cur);
                } else if (last != null) {
                    cycle(nodes.get(cur), onChain, cur);
                }
                for (String c : chain) {
                    resolved.put(c, Pose.IDENTITY);
                }
                return Pose.IDENTITY;
            }
            if (n.ref() == null) { // a joint without a child: the joint reader reports it
                resolved.put(cur, Pose.IDENTITY);
                break;
            }
            onChain.add(cur);
            chain.add(cur);
            cur = n.ref();
        }
        Pose base = resolved.get(cur);
        for (int i = chain.size() - 1; i >= 0; i--) {
            base = base.compose(nodes.get(chain.get(i)).raw());
            resolved.put(chain.get(i), base);
        }
        return resolved.get(name);
    }

    /**
     * The world pose of an element of a link (collision, visual, sensor, inertial): its {@code <pose>} in the frame
     * its {@code relative_to} names in {@code scope}, by default in {@code defaultFrame}; an unknown name is an
     * error at {@code owner}'s pose.
     */
    Pose pose(PoseElement p, String defaultFrame, ModelScope scope, XmlElement owner) {
        String ref = defaultFrame;
        if (p.relativeTo() != null) {
            ref = scope.resolve(p.relativeTo());
            if (!has(ref) || ref.equals(ModelScope.WORLD)) {
                source.values(owner).error(p.element(), "pose relative_to '" + Messages.cut(p.relativeTo())
                        + "' names no frame of the model");
                ref = defaultFrame;
            }
        }
        return pose(ref).compose(p.pose());
    }

    /**
     * The link a frame moves with ({@link ModelScope#WORLD} for the world), or null when its attachment is unknown
     * or cyclic (reported once).
     */
    String link(String name) {
        if (links.containsKey(name)) {
            return links.get(name);
        }
        List<String> chain = new ArrayList<>();
        Set<String> onChain = new LinkedHashSet<>();
        String cur = name;
        String found = null;
        while (true) {
            if (links.containsKey(cur)) {
                found = links.get(cur);
                break;
            }
            Node n = nodes.get(cur);
            if (n == null || onChain.contains(cur) || n.attachedTo() == null) {
                Node last = chain.isEmpty() ? null : nodes.get(chain.get(chain.size() - 1));
                if (last != null && n == null && last.kind() == Kind.FRAME) {
                    last.values().error(last.element(), "frame '" + last.name() + "': attached_to '"
                            + Messages.cut(cur) + "' names no frame of the model");
                } else if (n != null && onChain.contains(cur)) {
                    n.values().error(n.element(), n.kind().name().toLowerCase() + " '" + n.name() + "' is attached,"
                            + " through " + String.join(" -> ", onChain) + " -> " + cur + ", to itself (a cycle of"
                            + " attached_to)");
                }
                break;
            }
            if (n.kind() == Kind.LINK) {
                found = n.name();
                break;
            }
            onChain.add(cur);
            chain.add(cur);
            cur = n.attachedTo();
        }
        for (String c : chain) {
            links.put(c, found);
        }
        links.put(name, found);
        return found;
    }

    /**
     * A model's canonical link: the one it names, else its first link, else (from 1.8) the canonical link of its first
     * nested model, recursively. Both "first"s are looked up in maps made once, and each answer is kept, so that a
     * model nested thousands deep is read in time linear in its depth rather than in a power of it.
     */
    private String canonicalLink(ModelTree.ModelDecl m) {
        if (m.canonicalLink() != null) {
            return m.canonicalLink();
        }
        List<String> walked = new ArrayList<>();
        String frame = m.scope().frame();
        String found = null;
        for (int guard = 0; guard <= tree.models.size() && frame != null; guard++) {
            found = canonicalOfFrame.containsKey(frame) ? canonicalOfFrame.get(frame) : firstLinkOfFrame.get(frame);
            if (found != null || canonicalOfFrame.containsKey(frame)) {
                break;
            }
            walked.add(frame);
            frame = firstNestedOfFrame.get(frame);
        }
        for (String w : walked) {
            canonicalOfFrame.put(w, found);
        }
        return found;
    }

    private void unknownReference(Node node, String missing) {
        XmlElement at = node.refExplicit() && node.poseElement() != null ? node.poseElement() : node.element();
        String what = node.refExplicit() ? "pose relative_to" : node.kind() == Kind.FRAME ? "attached_to"
                : node.kind() == Kind.JOINT ? "child" : "reference";
        if (node.kind() == Kind.JOINT && !node.refExplicit()) {
            return; // an unknown child: the joint reader reports it
        }
        node.values().error(at, node.kind().name().toLowerCase() + " '" + node.name() + "': " + what + " '"
                + Messages.cut(missing) + "' names no frame of the model");
    }

    private static void cycle(Node node, Set<String> onChain, String back) {
        List<String> loop = new ArrayList<>();
        boolean in = false;
        for (String c : onChain) {
            in |= c.equals(back);
            if (in) {
                loop.add(c);
            }
        }
        loop.add(back);
        XmlElement at = node.poseElement() != null ? node.poseElement() : node.element();
        node.values().error(at, node.kind().name().toLowerCase() + " '" + node.name() + "': its pose is relative to"
                + " a frame whose pose is relative to it (a cycle of frames: " + String.join(" -> ", loop) + ")");
    }
}
