package org.symdyn.io.urdf;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.symdyn.io.ValueReader;
import org.symdyn.io.XmlElement;

/**
 * The tree that the joints make of the links: the root link, each link's parent joint, and the joints in the
 * order bodies are numbered (document order, depth first from the root: a link's child joints in document order,
 * each child's subtree before the next sibling).
 *
 * <p>Structural problems are reported here: joints naming undefined links, a link with two parents, several
 * roots, cycles, and links not reachable from the root. To report each problem once, a link whose parent joint
 * was already refused is neither a root candidate nor reported as unreachable.
 */
final class KinematicTree {
    private final LinkDeclaration root;
    private final List<JointDeclaration> depthFirst;

    private KinematicTree(LinkDeclaration root, List<JointDeclaration> depthFirst) {
        this.root = root;
        this.depthFirst = depthFirst;
    }

    /** The root link, or null when there is no unique one (already reported). */
    LinkDeclaration root() {
        return root;
    }

    /** The joints reachable from the root, in body order. */
    List<JointDeclaration> depthFirst() {
        return depthFirst;
    }

    /**
     * @param robot  the {@code <robot>} element (where problems of the whole tree are reported)
     * @param links  the links by name, in document order, names unique
     * @param joints every joint in document order
     */
    static KinematicTree build(XmlElement robot, Map<String, LinkDeclaration> links, List<JointDeclaration> joints,
            ValueReader values) {
        Map<String, JointDeclaration> parentJoint = new HashMap<>();
        Map<String, List<JointDeclaration>> childJoints = new HashMap<>();
        Set<String> refusedParentJoint = new HashSet<>();
        for (JointDeclaration j : joints) {
            boolean ok = j.parent() != null && j.child() != null;
            if (j.parent() != null && !links.containsKey(j.parent())) {
                values.error(j.parentElement(), j.label() + ": parent link '" + j.parent() + "' is not defined");
                ok = false;
            }
            if (j.child() != null && !links.containsKey(j.child())) {
                values.error(j.childElement(), j.label() + ": child link '" + j.child() + "' is not defined");
                ok = false;
            }
            if (ok && j.parent().equals(j.child())) {
                values.error(j.element(), j.label() + " connects link '" + j.child() + "' to itself (a cycle)");
                ok = false;
            }
            if (ok && parentJoint.containsKey(j.child())) {
                JointDeclaration first = parentJoint.get(j.child());
                values.error(j.childElement(), "link '" + j.child() + "' has two parents: joint '" + first.name()
                        + "' (line " + first.element().line() + ") and joint '" + j.name() + "'");
                continue; // the child keeps its first parent
            }
            if (!ok) {
                if (j.child() != null && links.containsKey(j.child())) {
                    refusedParentJoint.add(j.child());
                }
                continue;
            }
            parentJoint.put(j.child(), j);
            childJoints.computeIfAbsent(j.parent(), k -> new ArrayList<>()).add(j);
        }

        List<LinkDeclaration> roots = new ArrayList<>();
        for (LinkDeclaration l : links.values()) {
            if (!parentJoint.containsKey(l.name()) && !refusedParentJoint.contains(l.name())) {
                roots.add(l);
            }
        }
        if (roots.size() > 1) {
            values.error(roots.get(1).element(), "several root links (links that are no joint's child): "
                    + roots.stream().map(l -> "'" + l.name() + "' (line " + l.element().line() + ")")
                            .collect(Collectors.joining(", "))
                    + "; a URDF model is one tree");
        }
        LinkDeclaration root = roots.isEmpty() ? null : roots.get(0);

        List<JointDeclaration> order = new ArrayList<>();
        Set<String> reached = new HashSet<>();
        if (root != null) {
            // Iterative depth-first walk (deep chains must not overflow the stack); children are pushed in
            // reverse so that they are visited in document order.
            Deque<String> stack = new ArrayDeque<>();
            stack.push(root.name());
            while (!stack.isEmpty()) {
                String link = stack.pop();
                reached.add(link);
                JointDeclaration in = parentJoint.get(link);
                if (in != null) {
                    order.add(in);
                }
                List<JointDeclaration> out = childJoints.getOrDefault(link, List.of());
                for (int i = out.size() - 1; i >= 0; i--) {
                    stack.push(out.get(i).child());
                }
            }
        }
        reportUnreached(robot, links, parentJoint, refusedParentJoint, roots, reached, root, values);
        return new KinematicTree(root, List.copyOf(order));
    }

    private enum Reach { OK, ON_CYCLE, HANGING }

    /**
     * Every link has at most one parent here, so following parents from a link not reached from the root ends at
     * another root or at a link whose parent joint was refused (both already reported), or runs into a cycle:
     * each cycle is reported once, at its first joint in document order, and each link hanging from a cycle as
     * unreachable.
     */
    private static void reportUnreached(XmlElement robot, Map<String, LinkDeclaration> links,
            Map<String, JointDeclaration> parentJoint, Set<String> refusedParentJoint, List<LinkDeclaration> roots,
            Set<String> reached, LinkDeclaration root, ValueReader values) {
        Set<String> rootNames = roots.stream().map(LinkDeclaration::name).collect(Collectors.toSet());
        Map<String, Reach> reach = new HashMap<>();
        for (String r : reached) {
            reach.put(r, Reach.OK);
        }
        List<List<String>> cycles = new ArrayList<>();
        for (String start : links.keySet()) {
            List<String> path = new ArrayList<>();
            Map<String, Integer> onPath = new HashMap<>();
            String at = start;
            Reach tail;
            int cycleStart = -1;
            while (true) {
                if (reach.containsKey(at)) {
                    tail = reach.get(at) == Reach.OK ? Reach.OK : Reach.HANGING;
                    break;
                }
                if (onPath.containsKey(at)) {
                    cycleStart = onPath.get(at);
                    tail = Reach.HANGING;
                    break;
                }
                onPath.put(at, path.size());
                path.add(at);
                if (rootNames.contains(at) || refusedParentJoint.contains(at) || !parentJoint.containsKey(at)) {
                    tail = Reach.OK;
                    break;
                }
                at = parentJoint.get(at).parent();
            }
            for (int i = 0; i < path.size(); i++) {
                reach.put(path.get(i), cycleStart >= 0 && i >= cycleStart ? Reach.ON_CYCLE : tail);
            }
            if (cycleStart >= 0) {
                cycles.add(path.subList(cycleStart, path.size()));
            }
        }
        for (List<String> cycle : cycles) {
            List<JointDeclaration> cycleJoints = cycle.stream().map(parentJoint::get)
                    .sorted(Comparator.comparingInt((JointDeclaration j) -> j.element().line())
                            .thenComparingInt(j -> j.element().column()))
                    .toList();
            values.error(cycleJoints.get(0).element(), "joints "
                    + cycleJoints.stream().map(j -> "'" + j.name() + "'").collect(Collectors.joining(", "))
                    + " form a cycle through links "
                    + cycle.stream().map(l -> "'" + l + "'").collect(Collectors.joining(", "))
                    + ": a link cannot be its own ancestor (close a kinematic loop with a symdyn:loop constraint)");
        }
        for (LinkDeclaration l : links.values()) {
            if (reach.get(l.name()) == Reach.HANGING) {
                values.error(l.element(), "link '" + l.name() + "' is not reachable from the root link"
                        + (root == null ? "" : " '" + root.name() + "'") + ": its ancestors form a cycle");
            }
        }
        if (root == null && !cycles.isEmpty()) {
            values.error(robot, "no root link: every link is the child of a joint");
        }
    }
}
