package org.symdyn.model;

import org.symdyn.geometry.Shape;
import org.symdyn.spatial.Pose;

/**
 * A collision shape of one link (a URDF {@code <collision>}), resolved against the model: the link's name as the
 * file gives it (no-contact pairs are by link), the body it moves with (−1: the root, fixed in the world) and the
 * shape's frame in that body's frame, with the fixed placements of links merged into the body composed in.
 *
 * <p>A mesh on a moving body collides as its convex hull ({@link org.symdyn.geometry.ConvexHull}); a mesh on the
 * root collides triangle by triangle ({@link org.symdyn.geometry.TriangleMesh}), so that concave static scenery is
 * exact. {@link ModelBuilder} makes that choice.
 *
 * @param name     unique among the model's collision shapes (a URDF {@code <collision name>}, else
 *                 {@code link/collisionK} with K counting the link's collision elements from 0)
 * @param link     the link the file attaches the shape to
 * @param body     the body index the shape moves with, −1 for the root
 * @param pose     the shape's frame in the body's frame (body ← shape)
 * @param shape    the shape in its own frame
 * @param material its contact material
 * @param location where the shape was declared
 */
public record CollisionShapeModel(String name, String link, int body, Pose pose, Shape shape,
        ContactMaterial material, SourceLocation location) {

    /** True when the shape is fixed in the world (on the root or a link fixed to it). */
    public boolean isStatic() {
        return body < 0;
    }
}
