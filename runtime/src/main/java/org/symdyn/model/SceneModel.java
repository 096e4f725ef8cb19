package org.symdyn.model;

import java.util.List;

/**
 * What a model file says about shapes: the links' collision and visual shapes, the link pairs that never touch and
 * the Lidars. Part of a {@link Model}; immutable.
 */
public record SceneModel(List<CollisionShapeModel> collisionShapes, List<VisualShapeModel> visualShapes,
        List<NoContactPair> noContactPairs, List<LidarModel> lidars) {
    /** A model without shapes. */
    public static final SceneModel EMPTY = new SceneModel(List.of(), List.of(), List.of(), List.of());

    public SceneModel {
        collisionShapes = List.copyOf(collisionShapes);
        visualShapes = List.copyOf(visualShapes);
        noContactPairs = List.copyOf(noContactPairs);
        lidars = List.copyOf(lidars);
    }

    /** True when the links {@code a} and {@code b} are declared never to touch. */
    public boolean excluded(String a, String b) {
        for (NoContactPair p : noContactPairs) {
            if (p.matches(a, b)) {
                return true;
            }
        }
        return false;
    }
}
