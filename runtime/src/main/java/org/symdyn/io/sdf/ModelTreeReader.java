package org.symdyn.io.sdf;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.symdyn.io.Messages;
import org.symdyn.io.Names;
import org.symdyn.io.ValueReader;
import org.symdyn.io.XmlElement;

/**
 * Collects the declarations of a {@code <model>} and of the models nested in it into a {@link ModelTree}:
 * {@code <link>}, {@code <joint>}, {@code <frame>} (attached to {@code attached_to}, by default to the model frame),
 * nested {@code <model>} and {@code <include>} (the included file's model nested under the include's
 * {@code <name>}, or its own name, placed by the include's {@code <pose>} when it has one, else by its own;
 * the include's {@code <static>} overrides the model's). {@code static} holds for nested models too. Names must be
 * unique among the links, joints, frames and nested models of one model, and must not be {@code world} or start
 * with {@code __} (SDFormat reserves them).
 *
 * <p>Nesting is walked with an explicit work list: a deeply nested file cannot overflow the call stack, and
 * includes deeper than {@value #MAX_INCLUDE_DEPTH} are refused.
 */
final class ModelTreeReader {
    static final int MAX_INCLUDE_DEPTH = 32;

    private static final Set<String> MODEL_CHILDREN = Set.of("static", "self_collide", "allow_auto_disable",
            "include", "model", "enable_wind", "frame", "pose", "link", "joint", "plugin", "gripper");

    private final SdfSource source;
    private final ModelTree tree = new ModelTree();

    /** A model to walk: its element, its scope, the pose that places it, and the files included on the way. */
    private record Work(XmlElement model, ModelScope scope, PoseElement pose, ModelScope parent, List<Path> chain) {
    }

    ModelTreeReader(SdfSource source) {
        this.source = source;
    }

    /** Reads the top model (its version is its file's) and every model in it. */
    ModelTree read(XmlElement top, SdfVersion version) {
        ValueReader values = source.values(top);
        boolean isStatic = SdfText.bool(values, top, "static", false, "model static");
        ModelScope scope = new ModelScope("", ModelScope.TOP_FRAME, version, isStatic);
        Path file = source.file(top).file();
        List<Path> chain = new ArrayList<>();
        if (file != null) {
            chain.add(SdfSource.real(file));
        }
        Deque<Work> work = new ArrayDeque<>();
        work.add(new Work(top, scope, PoseElement.of(top, values, version, "model"), null, chain));
        while (!work.isEmpty()) {
            walk(work.poll(), work);
        }
        return tree;
    }

    private void walk(Work w, Deque<Work> work) {
        XmlElement model = w.model();
        ModelScope scope = w.scope();
        ValueReader values = source.values(model);
        String canonical = model.attribute("canonical_link");
        if (canonical != null && !canonical.isBlank()) {
            canonical = scope.resolve(canonical.trim());
        } else {
            canonical = null;
        }
        if (model.has("placement_frame")) {
            values.error(model, "model placement_frame is not read: give the model's pose in its own frame");
        }
        tree.models.put(scope.frame(), new ModelTree.ModelDecl(scope, model, w.pose(), w.parent(), canonical));
        Map<String, XmlElement> names = new HashMap<>();
        for (XmlElement c : model.children()) {
            if (!c.namespace().isEmpty()) {
                continue; // a custom element of another tool (drake:, gz:): SDFormat's extension point
            }
            if (!MODEL_CHILDREN.contains(c.name())) {
                values.warning(c, "unknown element <" + Messages.cut(c.name()) + "> in <model>; ignored");
                continue;
            }
            switch (c.name()) {
                case "link" -> {
                    String name = name(c, values, names, "link");
                    if (name != null) {
                        tree.links.add(new ModelTree.LinkDecl(scope.resolve(name), c,
                                PoseElement.of(c, values, scope.version(), "link '" + name + "'"), scope));
                    }
                }
                case "joint" -> {
                    String name = name(c, values, names, "joint");
                    if (name != null) {
                        tree.joints.add(new ModelTree.JointDecl(scope.resolve(name), c,
                                PoseElement.of(c, values, scope.version(), "joint '" + name + "'"), scope));
                    }
                }
                case "frame" -> frame(c, values, names, scope);
                case "model" -> {
                    String name = name(c, values, names, "model");
                    if (name != null) {
                        boolean st = SdfText.bool(values, c, "static", false, "model '" + name + "': static");
                        ModelScope nested = scope.nested(name, scope.version(), st);
                        work.add(new Work(c, nested, PoseElement.of(c, values, scope.version(), "model '" + name
                                + "'"), scope, w.chain()));
                    }
                }
                case "include" -> include(c, values, names, scope, w.chain(), work);
                case "plugin" -> values.warning(c, "<plugin> is not read: the model has no plugin forces or"
                        + " controllers");
                case "gripper" -> values.warning(c, "<gripper> is not read");
                case "self_collide", "allow_auto_disable", "enable_wind" -> values.warning(c, "<" + c.name()
                        + "> is not read (a simulator setting)");
                default -> {
                    // static and pose: read above
                }
            }
        }
    }

    private void frame(XmlElement c, ValueReader values, Map<String, XmlElement> names, ModelScope scope) {
        if (!scope.version().hasFrameSemantics()) {
            values.error(c, "<frame> needs SDFormat 1.7 or later (the file is " + scope.version() + ")");
            return;
        }
        String name = name(c, values, names, "frame");
        if (name == null) {
            return;
        }
        String attached = c.attribute("attached_to");
        String attachedTo = attached == null || attached.isBlank() ? scope.frame() : scope.resolve(attached.trim());
        tree.frames.add(new ModelTree.FrameDecl(scope.resolve(name), c, PoseElement.of(c, values, scope.version(),
                "frame '" + name + "'"), attachedTo, scope));
    }

    private void include(XmlElement c, ValueReader values, Map<String, XmlElement> names, ModelScope scope,
            List<Path> chain, Deque<Work> work) {
        if (chain.size() > MAX_INCLUDE_DEPTH) {
            values.error(c, "includes nest deeper than " + MAX_INCLUDE_DEPTH + " files");
            return;
        }
        String merge = c.attribute("merge");
        if (merge != null && (merge.strip().equals("true") || merge.strip().equals("1"))) {
            values.warning(c, "<include merge='" + Messages.cut(merge) + "'> is read as a nested model: its links,"
                    + " joints and frames are named with the include's name and '::' (merging into this model is"
                    + " not supported)");
        }
        SdfSource.Included included = source.include(c, chain);
        if (included == null) {
            return;
        }
        XmlElement root = included.root();
        ValueReader inner = included.file().values();
        SdfVersion version = included.file().version();
        if (!root.is("sdf")) {
            inner.error(root, "the included document element is <" + Messages.cut(root.name()) + ">, expected"
                    + " <sdf>");
            return;
        }
        if (version == null || !version.isRead()) {
            inner.error(root, "included <sdf version='" + Messages.cut(String.valueOf(root.attribute("version")))
                    + "'>: SDFormat 1.6 to 1.11 is read");
            return;
        }
        List<XmlElement> models = root.children("model");
        if (models.size() != 1) {
            inner.error(root, "an included file must hold exactly one <model> (it holds " + models.size() + ")");
            return;
        }
        XmlElement model = models.get(0);
        String name = SdfText.string(c, "name");
        if (name == null || name.isEmpty()) {
            name = model.attribute("name");
        }
        if (name == null || name.isBlank()) {
            inner.error(model, "<model> has no 'name' attribute");
            return;
        }
        if (!claim(c, values, names, name, "model")) {
            return;
        }
        XmlElement staticElement = SdfText.first(c, "static");
        boolean st = staticElement != null ? SdfText.bool(values, c, "static", false, "include static")
                : SdfText.bool(inner, model, "static", false, "model static");
        ModelScope nested = scope.nested(name, version, st);
        PoseElement pose = SdfText.first(c, "pose") != null
                ? PoseElement.of(c, values, scope.version(), "include '" + name + "'")
                : PoseElement.of(model, inner, version, "model '" + name + "'");
        for (XmlElement p : c.children("plugin")) {
            values.warning(p, "<plugin> is not read: the model has no plugin forces or controllers");
        }
        List<Path> deeper = new ArrayList<>(chain);
        deeper.add(SdfSource.real(included.file().file()));
        work.add(new Work(model, nested, pose, scope, deeper));
    }

    /** The element's name, checked and claimed in its model; null (after the error) when it cannot be used. */
    private String name(XmlElement c, ValueReader values, Map<String, XmlElement> names, String kind) {
        String name = values.require(c, "name", "<" + kind + "> has no 'name' attribute");
        if (name == null) {
            return null;
        }
        Names.check(values, c, kind + " name", name);
        return claim(c, values, names, name, kind) ? name : null;
    }

    private static boolean claim(XmlElement c, ValueReader values, Map<String, XmlElement> names, String name,
            String kind) {
        if (name.equals(ModelScope.WORLD) || name.startsWith("__") || name.contains("::")) {
            values.error(c, kind + " name '" + Messages.cut(name) + "' is reserved by SDFormat (world, names"
                    + " starting with __ and names containing ::)");
            return false;
        }
        XmlElement first = names.putIfAbsent(name, c);
        if (first != null) {
            values.error(c, "duplicate name '" + Messages.cut(name) + "' in the model (first declared at line "
                    + first.line() + "): links, joints, frames and nested models share one namespace");
            return false;
        }
        return true;
    }
}
