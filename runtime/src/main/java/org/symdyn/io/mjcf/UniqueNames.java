package org.symdyn.io.mjcf;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.symdyn.io.XmlElement;

/**
 * Names for elements the file leaves unnamed, in one namespace (bodies and joints, equalities, actuators): the
 * wanted name, with {@code _} appended while it is taken by a name written in the file or given before.
 */
final class UniqueNames {
    private final Set<String> taken = new HashSet<>();

    /** Names generated among none taken yet. */
    UniqueNames() {
    }

    /** Names generated among the {@code name} attributes of {@code named}. */
    UniqueNames(List<XmlElement> named) {
        for (XmlElement e : named) {
            take(e.attribute("name"));
        }
    }

    /** Marks a name written in the file as taken (null is ignored). */
    void take(String name) {
        if (name != null) {
            taken.add(name);
        }
    }

    /** {@code wanted}, or {@code wanted} with {@code _} appended until it is free; the result is taken. */
    String next(String wanted) {
        String name = wanted;
        while (taken.contains(name)) {
            name = name + "_";
        }
        taken.add(name);
        return name;
    }
}
