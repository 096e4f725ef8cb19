package org.symdyn.io.sdf;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.symdyn.io.XmlElement;

/**
 * The declarations of the top model and of the models nested in it (written inline or included), by scoped name
 * ({@link ModelScope}), in document order. Nothing is resolved yet: poses keep the frame they are written in.
 */
final class ModelTree {
    /** A {@code <link>}. */
    record LinkDecl(String name, XmlElement element, PoseElement pose, ModelScope scope) {
    }

    /** A {@code <joint>}; its parent and child are read by {@link JointReader}. */
    record JointDecl(String name, XmlElement element, PoseElement pose, ModelScope scope) {
    }

    /**
     * An explicit {@code <frame>}.
     *
     * @param attachedTo the scoped name of the frame it is attached to (the model frame by default)
     */
    record FrameDecl(String name, XmlElement element, PoseElement pose, String attachedTo, ModelScope scope) {
    }

    /**
     * A model (the top one too): its scope, the pose of its frame in its parent's scope ({@code parent} null for the
     * top model), and its canonical link as written ({@code canonical_link}, scoped; null for the default).
     */
    record ModelDecl(ModelScope scope, XmlElement element, PoseElement pose, ModelScope parent,
            String canonicalLink) {
    }

    final List<LinkDecl> links = new ArrayList<>();
    final List<JointDecl> joints = new ArrayList<>();
    final List<FrameDecl> frames = new ArrayList<>();
    /** Models by frame name, the top model ({@link ModelScope#TOP_FRAME}) first. */
    final Map<String, ModelDecl> models = new LinkedHashMap<>();
}
