package org.symdyn.io.mjcf;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.symdyn.io.Messages;
import org.symdyn.io.XmlElement;

/**
 * Tendons are not read. A tendon alone only adds passive forces (its stiffness, damping, limits): each is a
 * located warning. A tendon that couples joints, because an {@code <equality tendon>} or an actuator acts on it, would
 * change the dynamics: that element is an error, unless the reader's option to ignore tendons is set, when it is a
 * warning and left out.
 */
final class TendonCouplings {
    private final MjcfSource source;
    private final boolean ignore;
    private final Set<String> names = new HashSet<>();

    TendonCouplings(MjcfSource source, boolean ignore, List<XmlElement> sections) {
        this.source = source;
        this.ignore = ignore;
        for (XmlElement section : sections) {
            for (XmlElement t : source.children(section)) {
                String name = t.attribute("name");
                if (name != null) {
                    names.add(name);
                }
                source.values(t).warning(t, "tendon" + (name == null ? "" : " '" + Messages.cut(name) + "'")
                        + " (<" + Messages.cut(t.name()) + ">) is not read: its passive forces are not modelled");
            }
        }
    }

    /** Reports an element acting on tendon {@code tendon}: an error, or a warning when tendons are ignored. */
    void refuse(XmlElement at, String what, String tendon) {
        String message = what + " acts on tendon '" + Messages.cut(tendon) + "'"
                + (names.contains(tendon) ? "" : " (not declared)") + ", and tendons are not read";
        if (ignore) {
            source.values(at).warning(at, message + ": left out, as the option to ignore tendons says");
        } else {
            source.values(at).error(at, message + ": it couples joints, so the model would be wrong without it"
                    + " (read with the option to ignore tendons to leave it out)");
        }
    }
}
