package org.symdyn.io;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A read-only XML element with the position of its start tag: just what the model readers need (namespace, local
 * name, un-namespaced attributes, attributes in a namespace by URI and local name, child elements) and, for
 * documents read with their text ({@link XmlDocument#readWithText}: SDFormat's values, Collada's number arrays), the
 * element's own character data ({@link #text()}). URDF and MJCF carry everything in attributes.
 */
public final class XmlElement {
    private final String namespace;
    private final String name;
    private final Map<String, String> attributes;
    private final Map<String, String> namespacedAttributes;
    private final List<XmlElement> children = new ArrayList<>();
    /** The attribute names asked for, once {@link #trackReads()} was called; null before. */
    private java.util.Set<String> asked;
    /** Created at the first character data, in documents read with their text. */
    private StringBuilder text;
    private final int line;
    private final int column;

    /**
     * @param namespace  the namespace URI, "" for none
     * @param name       the local name
     * @param attributes attributes without a namespace, by local name (copied)
     * @param line       1-based line of the start tag
     * @param column     1-based column of the start tag
     */
    XmlElement(String namespace, String name, Map<String, String> attributes, int line, int column) {
        this(namespace, name, attributes, Map.of(), line, column);
    }

    /**
     * @param namespacedAttributes attributes in a namespace, by {@link #namespacedKey} (copied)
     */
    XmlElement(String namespace, String name, Map<String, String> attributes, Map<String, String> namespacedAttributes,
            int line, int column) {
        this.namespace = namespace;
        this.name = name;
        this.attributes = new LinkedHashMap<>(attributes);
        this.namespacedAttributes = new LinkedHashMap<>(namespacedAttributes);
        this.line = line;
        this.column = column;
    }

    /**
     * A copy of this tree in which every element in namespace {@code from} is in namespace {@code to} instead
     * (attributes keep theirs): for a format without namespaces read from a file that declares a default one.
     */
    public XmlElement withNamespace(String from, String to) {
        XmlElement copy = new XmlElement(namespace.equals(from) ? to : namespace, name, attributes,
                namespacedAttributes, line, column);
        if (text != null) {
            copy.text = new StringBuilder(text);
        }
        for (XmlElement c : children) {
            copy.children.add(c.withNamespace(from, to));
        }
        return copy;
    }

    void addChild(XmlElement child) {
        children.add(child);
    }

    void appendText(char[] chars, int start, int length) {
        if (text == null) {
            text = new StringBuilder(length);
        }
        text.append(chars, start, length);
    }

    /**
     * The character data directly inside this element (not that of its children), entity and character references
     * expanded, CDATA sections included; "" when there is none or the document was read without text
     * ({@link XmlDocument#read}).
     */
    public String text() {
        return text == null ? "" : text.toString();
    }

    /** The namespace URI, "" for none. */
    public String namespace() {
        return namespace;
    }

    /** The local name. */
    public String name() {
        return name;
    }

    /** The 1-based line of the start tag's {@code <}. */
    public int line() {
        return line;
    }

    /** The 1-based column of the start tag's {@code <}. */
    public int column() {
        return column;
    }

    /** True for an element in no namespace with that local name (plain URDF elements). */
    public boolean is(String localName) {
        return namespace.isEmpty() && name.equals(localName);
    }

    /** The attribute's value, or null when absent. */
    public String attribute(String attributeName) {
        if (asked != null) {
            asked.add(attributeName);
        }
        return attributes.get(attributeName);
    }

    /** The value of the attribute {@code localName} in namespace {@code namespaceUri}, or null when absent. */
    public String attribute(String namespaceUri, String localName) {
        String key = namespacedKey(namespaceUri, localName);
        if (asked != null) {
            asked.add(key);
        }
        return namespacedAttributes.get(key);
    }

    /**
     * From now on, records the name of every attribute asked for ({@link #attribute}, {@link #has}), present or not,
     * so that a reader can tell which attributes of its own elements it never read ({@link #unreadAttributes}): a
     * misspelt {@code maxtorque=} for {@code max_torque=}. Off by default (a mesh document's elements do not pay).
     */
    public void trackReads() {
        if (asked == null) {
            asked = new java.util.HashSet<>();
        }
    }

    /**
     * The attributes present but never asked for since {@link #trackReads()}, in document order: names in no
     * namespace, and those in {@code namespaceUri} as {@code {uri}localName}; empty when reads are not tracked.
     */
    public List<String> unreadAttributes(String namespaceUri) {
        List<String> out = new ArrayList<>();
        if (asked == null) {
            return out;
        }
        for (String a : attributes.keySet()) {
            if (!asked.contains(a)) {
                out.add(a);
            }
        }
        String prefix = "{" + namespaceUri + "}";
        for (String key : namespacedAttributes.keySet()) {
            if (key.startsWith(prefix) && !asked.contains(key)) {
                out.add(key);
            }
        }
        return out;
    }

    /** The names asked for since {@link #trackReads()} (namespaced ones as {@code {uri}localName}); empty if none. */
    public java.util.Set<String> askedAttributes() {
        return asked == null ? java.util.Set.of() : java.util.Collections.unmodifiableSet(asked);
    }

    /** The local names of the element's attributes in namespace {@code namespaceUri}, in document order. */
    public List<String> attributesInNamespace(String namespaceUri) {
        List<String> out = new ArrayList<>();
        String prefix = "{" + namespaceUri + "}";
        for (String key : namespacedAttributes.keySet()) {
            if (key.startsWith(prefix)) {
                out.add(key.substring(prefix.length()));
            }
        }
        return out;
    }

    /** The key of a namespaced attribute: {@code {uri}localName} (James Clark's notation). */
    static String namespacedKey(String namespaceUri, String localName) {
        return "{" + namespaceUri + "}" + localName;
    }

    /** The names of the element's attributes in no namespace, in document order. */
    public List<String> attributeNames() {
        return List.copyOf(attributes.keySet());
    }

    /** True when the element has that un-namespaced attribute, whatever its value. */
    public boolean has(String attributeName) {
        if (asked != null) {
            asked.add(attributeName);
        }
        return attributes.containsKey(attributeName);
    }

    /** All child elements in document order. */
    public List<XmlElement> children() {
        return Collections.unmodifiableList(children);
    }

    /** The children in no namespace with that local name, in document order. */
    public List<XmlElement> children(String localName) {
        List<XmlElement> out = new ArrayList<>();
        for (XmlElement c : children) {
            if (c.is(localName)) {
                out.add(c);
            }
        }
        return out;
    }

    /** The children in the given namespace (any local name), in document order. */
    public List<XmlElement> childrenInNamespace(String namespaceUri) {
        List<XmlElement> out = new ArrayList<>();
        for (XmlElement c : children) {
            if (c.namespace.equals(namespaceUri)) {
                out.add(c);
            }
        }
        return out;
    }

    @Override
    public String toString() {
        return "<" + name + "> at " + line + ":" + column;
    }
}
