package org.symdyn.io.urdf;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.symdyn.io.Messages;
import org.symdyn.io.ValueReader;
import org.symdyn.io.XmlElement;

/**
 * SymDyn's elements are read only in namespace {@value UrdfReader#NAMESPACE}, exactly; an element in any other
 * namespace is ignored, as other URDF tools ignore ours. A near miss ({@code urn:SymDyn:1}, a trailing space,
 * {@code urn:symdyn:2}) or a {@code <loop>} without a namespace would silently drop the model's constraints and
 * gravity, so those are warned about: elements in a namespace that mentions SymDyn, and elements with the name of
 * one of ours in another namespace or none, as children of {@code <robot>} or of one of our elements.
 */
final class NamespaceWarnings {
    /** The direct children of {@code <robot>} in our namespace. */
    static final Set<String> TOP_LEVEL = Set.of("gravity", "loop", "contact", "coupler", "line_on_line", "parameter",
            "no_contact", "lidar");
    /** The children of our elements. */
    static final Set<String> NESTED = Set.of("predecessor", "successor", "axis", "edge_f", "edge_b");

    private NamespaceWarnings() {
    }

    static void report(XmlElement robot, ValueReader values) {
        for (XmlElement c : robot.children()) {
            if (c.namespace().equals(UrdfReader.NAMESPACE)) {
                for (XmlElement n : c.children()) {
                    check(n, NESTED, values);
                }
            } else {
                check(c, TOP_LEVEL, values);
            }
        }
    }

    private static void check(XmlElement e, Set<String> ours, ValueReader values) {
        String ns = e.namespace();
        if (ns.equals(UrdfReader.NAMESPACE)) {
            return;
        }
        boolean nearMiss = ns.toLowerCase(Locale.ROOT).contains("symdyn");
        if (!nearMiss && !ours.contains(e.name())) {
            return;
        }
        String where = ns.isEmpty() ? "without a namespace" : "in namespace '" + Messages.cut(ns) + "'";
        values.warning(e, "element <" + Messages.cut(e.name()) + "> " + where + " is ignored: SymDyn reads its"
                + " elements (" + String.join(", ", List.copyOf(new java.util.TreeSet<>(TOP_LEVEL))) + ") only in"
                + " namespace '" + UrdfReader.NAMESPACE + "' exactly (xmlns:sd=\"" + UrdfReader.NAMESPACE + "\")");
    }
}
