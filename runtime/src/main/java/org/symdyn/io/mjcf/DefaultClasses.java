package org.symdyn.io.mjcf;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.symdyn.io.Messages;
import org.symdyn.io.ValueReader;
import org.symdyn.io.XmlElement;

/**
 * MuJoCo's default classes ({@code <default>}), resolved as MuJoCo resolves them:
 * <ul>
 * <li>The top-level {@code <default>} is the class {@code main} (its {@code class} attribute may rename it); a
 * nested {@code <default class="c">} is class c, whose parent is the enclosing default. Class names are unique.</li>
 * <li>An attribute of an element (a joint, a geom, a site, an actuator, ...) is, in order: the element's own value;
 * else the value its class sets for that kind of element; else the value of the class's parent, and so on up to
 * {@code main}; else MuJoCo's built-in default (the reader's).</li>
 * <li>An element's class is its {@code class} attribute; without one, the {@code childclass} of the nearest enclosing
 * body (or {@code frame}) that has one, the body's own joints, geoms and sites included; else {@code main}. A
 * {@code freejoint} takes no defaults at all.</li>
 * <li>Within one class, the actuator shortcuts ({@code motor}, {@code position}, {@code velocity}, {@code general},
 * ...) all set the one actuator default, later elements overriding earlier ones, as in MuJoCo.</li>
 * </ul>
 */
final class DefaultClasses {
    /** The name of the top-level class. */
    static final String MAIN = "main";
    /** The element kinds whose defaults are one actuator default. */
    static final Set<String> ACTUATORS = Set.of("general", "motor", "position", "velocity", "intvelocity", "damper",
            "cylinder", "muscle", "adhesion", "dcmotor");
    private static final Set<String> KINDS = Set.of("joint", "geom", "site", "camera", "light", "mesh", "material",
            "equality", "tendon", "pair", "general", "motor", "position", "velocity", "intvelocity", "damper",
            "cylinder", "muscle", "adhesion", "dcmotor", "flex", "hfield", "texture");

    /** One class: its parent (null for main) and, per element kind, the default elements in document order. */
    private static final class DefaultClass {
        final DefaultClass parent;
        final Map<String, List<XmlElement>> byKind = new HashMap<>();

        DefaultClass(DefaultClass parent) {
            this.parent = parent;
        }
    }

    private final Map<String, DefaultClass> classes = new HashMap<>();
    private final Map<String, XmlElement> declaredAt = new HashMap<>();

    private DefaultClasses() {
        classes.put(MAIN, new DefaultClass(null));
    }

    /** Reads every top-level {@code <default>} of the model (an explicit stack: nesting may be deep). */
    static DefaultClasses read(MjcfSource source, List<XmlElement> topLevel) {
        DefaultClasses d = new DefaultClasses();
        Deque<Object[]> stack = new ArrayDeque<>();
        for (XmlElement top : topLevel) {
            String name = top.attribute("class");
            if (name != null && !name.equals(MAIN)) {
                // A renamed main class: both names resolve to it.
                if (!d.declare(source, top, name, d.classes.get(MAIN))) {
                    continue;
                }
            }
            stack.push(new Object[] {top, d.classes.get(MAIN)});
        }
        while (!stack.isEmpty()) {
            Object[] item = stack.pop();
            XmlElement def = (XmlElement) item[0];
            DefaultClass cls = (DefaultClass) item[1];
            List<XmlElement> children = source.children(def);
            for (int i = children.size() - 1; i >= 0; i--) {
                XmlElement c = children.get(i);
                if (c.is("default")) {
                    String name = c.attribute("class");
                    ValueReader v = source.values(c);
                    if (name == null || name.isBlank()) {
                        v.error(c, "a nested <default> needs a 'class' attribute");
                        continue;
                    }
                    DefaultClass child = new DefaultClass(cls);
                    if (d.declare(source, c, name, child)) {
                        stack.push(new Object[] {c, child});
                    }
                }
            }
            for (XmlElement c : children) {
                if (c.is("default")) {
                    continue;
                }
                if (!KINDS.contains(c.name()) || !c.namespace().isEmpty()) {
                    source.values(c).warning(c, "<" + Messages.cut(c.name()) + "> in a <default> is not an element"
                            + " MuJoCo takes defaults for; ignored");
                    continue;
                }
                String kind = ACTUATORS.contains(c.name()) ? "actuator" : c.name();
                cls.byKind.computeIfAbsent(kind, k -> new ArrayList<>()).add(c);
            }
        }
        return d;
    }

    private boolean declare(MjcfSource source, XmlElement at, String name, DefaultClass cls) {
        XmlElement first = declaredAt.get(name);
        if (first != null || name.equals(MAIN) && cls.parent != null) {
            source.values(at).error(at, "default class '" + Messages.cut(name) + "' is declared twice"
                    + (first == null ? "" : " (first at line " + first.line() + ")"));
            return false;
        }
        classes.put(name, cls);
        declaredAt.put(name, at);
        return true;
    }

    /** True when a class of that name exists. */
    boolean exists(String className) {
        return classes.containsKey(className);
    }

    /**
     * The element that carries {@code attribute} for an element of {@code kind} in class {@code className}: the
     * nearest default element in the class chain that sets it, or null.
     */
    /** Every default of the class and its ancestors that sets the attribute, the root class's first. */
    List<XmlElement> carriers(String kind, String className, String attribute) {
        List<XmlElement> out = new java.util.ArrayList<>();
        String k = ACTUATORS.contains(kind) ? "actuator" : kind;
        for (DefaultClass c = classes.get(className); c != null; c = c.parent) {
            List<XmlElement> list = c.byKind.get(k);
            if (list == null) {
                continue;
            }
            for (int i = list.size() - 1; i >= 0; i--) {
                if (list.get(i).has(attribute)) {
                    out.add(0, list.get(i));
                }
            }
        }
        return out;
    }

    XmlElement carrier(String kind, String className, String attribute) {
        DefaultClass cls = classes.get(className);
        String k = ACTUATORS.contains(kind) ? "actuator" : kind;
        for (DefaultClass c = cls; c != null; c = c.parent) {
            List<XmlElement> list = c.byKind.get(k);
            if (list == null) {
                continue;
            }
            for (int i = list.size() - 1; i >= 0; i--) {
                if (list.get(i).has(attribute)) {
                    return list.get(i);
                }
            }
        }
        return null;
    }
}
