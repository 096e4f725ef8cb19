package org.symdyn.io.urdf;

import java.util.ArrayList;
import java.util.List;
import org.symdyn.io.Messages;
import org.symdyn.io.Spelling;
import org.symdyn.io.ValueReader;
import org.symdyn.io.XmlElement;

/**
 * Attributes of SymDyn's own URDF extension that no reader read: a misspelt {@code maxtorque="5"} on a servo built a
 * servo without a torque limit, {@code accel_nosie=} an IMU without noise, each without a word (a helper's probe).
 * URDF tools ignore what they do not know, so plain URDF elements are not checked; SymDyn's elements (in namespace
 * {@value UrdfReader#NAMESPACE}) and SymDyn's attributes on plain elements ({@code symdyn:armature} on
 * {@code <dynamics>}) are ours to account for. The readers ask for every attribute an element may have, present or
 * not ({@link XmlElement#trackReads()}), so one present and never asked for is not read: a located warning naming
 * the attribute asked for within two edits (an error under strict reading).
 *
 * <p>Said only of a file without errors (an element refused early leaves its other attributes unread) and of
 * elements the readers looked at (an element of an unknown kind or in the wrong place has its own warning).
 */
final class UnreadAttributes {
    private UnreadAttributes() {
    }

    /** Starts recording the reads of every element of ours, and of every element with an attribute of ours. */
    static void track(XmlElement robot) {
        for (XmlElement e : elements(robot)) {
            if (e.namespace().equals(UrdfReader.NAMESPACE) || !e.attributesInNamespace(UrdfReader.NAMESPACE)
                    .isEmpty()) {
                e.trackReads();
            }
        }
    }

    /** Warns about each attribute of ours present and never read, when the file has no error. */
    static void report(XmlElement robot, ValueReader values) {
        if (values.errorCount() > 0) {
            return;
        }
        String prefix = "{" + UrdfReader.NAMESPACE + "}";
        for (XmlElement e : elements(robot)) {
            if (e.askedAttributes().isEmpty()) {
                continue;
            }
            boolean ours = e.namespace().equals(UrdfReader.NAMESPACE);
            List<String> known = new ArrayList<>();
            for (String a : e.askedAttributes()) {
                if (ours ? !a.startsWith("{") : a.startsWith(prefix)) {
                    known.add(a.startsWith(prefix) ? a.substring(prefix.length()) : a);
                }
            }
            for (String a : e.unreadAttributes(UrdfReader.NAMESPACE)) {
                boolean namespaced = a.startsWith(prefix);
                if (!ours && !namespaced) {
                    continue; // a plain URDF attribute on a plain element: not ours to judge
                }
                String local = namespaced ? a.substring(prefix.length()) : a;
                values.warning(e, "<" + (ours ? "symdyn:" : "") + Messages.cut(e.name()) + ">: attribute '"
                        + (namespaced ? "symdyn:" : "") + Messages.cut(local) + "' is not read"
                        + (known.isEmpty() ? "" : Spelling.suggestion(local, known)) + "; ignored");
            }
        }
    }

    /** Every element under {@code root}, root included, in document order. */
    private static List<XmlElement> elements(XmlElement root) {
        List<XmlElement> out = new ArrayList<>();
        List<XmlElement> stack = new ArrayList<>(List.of(root));
        while (!stack.isEmpty()) {
            XmlElement e = stack.remove(stack.size() - 1);
            out.add(e);
            List<XmlElement> children = e.children();
            for (int i = children.size() - 1; i >= 0; i--) {
                stack.add(children.get(i));
            }
        }
        return out;
    }
}
