package org.symdyn.model;

import java.util.List;

/**
 * What a model file says about shapes: the links' collision and visual shapes, the link pairs that never touch and
 * the Lidars, and where the file declares a collision mesh that was not loaded because the reading skipped meshes
 * ({@code MeshPolicy.SKIP}: for generating code and evaluating dynamics, which never need shapes), so that a user of
 * the model that does need them can refuse it rather than run without them. Part of a {@link Model}; immutable.
 *
 * @param leftOutCollisionMeshes the {@code <collision>} (or colliding geom) of each collision mesh skipped, in file
 *                               order; empty when meshes were loaded
 */
public record SceneModel(List<CollisionShapeModel> collisionShapes, List<VisualShapeModel> visualShapes,
        List<NoContactPair> noContactPairs, List<LidarModel> lidars, List<SourceLocation> leftOutCollisionMeshes) {
    /** A model without shapes. */
    public static final SceneModel EMPTY = new SceneModel(List.of(), List.of(), List.of(), List.of());

    public SceneModel {
        collisionShapes = List.copyOf(collisionShapes);
        visualShapes = List.copyOf(visualShapes);
        noContactPairs = List.copyOf(noContactPairs);
        lidars = List.copyOf(lidars);
        leftOutCollisionMeshes = List.copyOf(leftOutCollisionMeshes);
    }

    /** A scene with every collision mesh loaded (none left out). */
    public SceneModel(List<CollisionShapeModel> collisionShapes, List<VisualShapeModel> visualShapes,
            List<NoContactPair> noContactPairs, List<LidarModel> lidars) {
        this(collisionShapes, visualShapes, noContactPairs, lidars, List.of());
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
