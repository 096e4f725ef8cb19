package org.symdyn.io.mjcf;

import java.util.List;
import org.symdyn.io.Messages;
import org.symdyn.io.ValueReader;
import org.symdyn.io.XmlElement;

/**
 * An element of the body tree or of a top-level section with its default class resolved ({@link DefaultClasses}):
 * each attribute is read from the element itself or from the default element that supplies it, and a problem with a
 * value is reported where that value is written.
 */
final class ResolvedElement {
    private final XmlElement element;
    private final String kind;
    private final String className;
    private final DefaultClasses defaults;
    private final MjcfSource source;

    /**
     * @param className the class (explicit or inherited); null for an element that takes no defaults
     *                  ({@code freejoint})
     */
    ResolvedElement(XmlElement element, String kind, String className, DefaultClasses defaults, MjcfSource source) {
        this.element = element;
        this.kind = kind;
        this.className = className;
        this.defaults = defaults;
        this.source = source;
    }

    /**
     * The element with the class it names, else {@code inherited} (a body's childclass), else main; an unknown class
     * is reported at the element and main is used.
     */
    static ResolvedElement of(XmlElement e, String kind, String inherited, DefaultClasses defaults,
            MjcfSource source) {
        String cls = e.attribute("class");
        if (cls == null) {
            cls = inherited == null ? DefaultClasses.MAIN : inherited;
        } else if (!defaults.exists(cls)) {
            source.values(e).error(e, "<" + e.name() + "> names default class '" + Messages.cut(cls)
                    + "', which is not declared");
            cls = DefaultClasses.MAIN;
        }
        return new ResolvedElement(e, kind, cls, defaults, source);
    }

    XmlElement element() {
        return element;
    }

    ValueReader values() {
        return source.values(element);
    }

    /** The element that carries the attribute's value (itself or a default), or null when none sets it. */
    XmlElement carrier(String attribute) {
        if (element.has(attribute)) {
            return element;
        }
        return className == null ? null : defaults.carrier(kind, className, attribute);
    }

    boolean has(String attribute) {
        return carrier(attribute) != null;
    }

    /** The attribute's text, or null. */
    String get(String attribute) {
        XmlElement c = carrier(attribute);
        return c == null ? null : c.attribute(attribute);
    }

    /** {@code n} numbers; {@code dflt} when nowhere set (see {@link ValueReader#vector}). */
    double[] vector(String attribute, int n, double[] dflt, String what) {
        XmlElement c = carrier(attribute);
        if (c == null) {
            return dflt == null ? source.values(element).vector(element, attribute, n, null, what) : dflt.clone();
        }
        return source.values(c).vector(c, attribute, n, dflt, what);
    }

    /** One number; {@code dflt} when nowhere set, NaN after reporting a malformed one. */
    double number(String attribute, double dflt, String what) {
        XmlElement c = carrier(attribute);
        return c == null ? dflt : source.values(c).number(c, attribute, dflt, false, what);
    }

    /** A boolean; {@code dflt} when nowhere set. */
    boolean bool(String attribute, boolean dflt, String what) {
        XmlElement c = carrier(attribute);
        return c == null ? dflt : source.values(c).bool(c, attribute, dflt, what);
    }

    /** One of MuJoCo's keywords; {@code dflt} when nowhere set; an unknown one is an error, {@code dflt} used. */
    String keyword(String attribute, String dflt, String what, String... allowed) {
        XmlElement c = carrier(attribute);
        if (c == null) {
            return dflt;
        }
        String raw = c.attribute(attribute).trim();
        for (String a : allowed) {
            if (a.equals(raw)) {
                return raw;
            }
        }
        source.values(c).error(c, what + " '" + Messages.cut(raw) + "' is not one of " + String.join(", ",
                allowed));
        return dflt;
    }

    /** A variable count of numbers (e.g. a geom's size); an empty array when nowhere set. */
    double[] numbers(String attribute, String what) {
        XmlElement c = carrier(attribute);
        if (c == null) {
            return new double[0];
        }
        String raw = c.attribute(attribute).trim();
        int n = raw.isEmpty() ? 0 : raw.split("\\s+").length;
        return source.values(c).vector(c, attribute, n, null, what);
    }

    /**
     * {@link #numbers}, read as MuJoCo reads a geom's {@code size}: each level (the root default class, the classes
     * below it, the element) replaces the first entries of the level above and keeps its others (a capsule of class
     * size "0.05 0.2" given size="0.03" is 0.03 by 0.2).
     */
    double[] numbersOverDefault(String attribute, String what) {
        List<XmlElement> layers = className == null ? new java.util.ArrayList<>()
                : new java.util.ArrayList<>(defaults.carriers(kind, className, attribute));
        if (element.has(attribute)) {
            layers.add(element);
        }
        double[] out = new double[0];
        for (XmlElement layer : layers) {
            String raw = layer.attribute(attribute).trim();
            int n = raw.isEmpty() ? 0 : raw.split("\\s+").length;
            double[] own = source.values(layer).vector(layer, attribute, n, null, what);
            if (own.length >= out.length) {
                out = own;
            } else {
                System.arraycopy(own, 0, out, 0, own.length);
            }
        }
        return out;
    }

    void error(String message) {
        source.values(element).error(element, message);
    }

    void warning(String message) {
        source.values(element).warning(element, message);
    }
}
