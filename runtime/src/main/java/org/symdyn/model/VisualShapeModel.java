package org.symdyn.model;

import org.symdyn.geometry.Shape;
import org.symdyn.spatial.Pose;

/**
 * A visual shape of one link (a URDF {@code <visual>}), for viewers only: it takes part in no contact and does not
 * enter any hash. Resolved like {@link CollisionShapeModel}; a mesh is kept as its triangles.
 *
 * @param link     the link the file attaches the shape to
 * @param body     the body index the shape moves with, −1 for the root
 * @param pose     the shape's frame in the body's frame (body ← shape)
 * @param shape    the shape in its own frame (a {@link org.symdyn.geometry.TriangleMesh} for a mesh)
 * @param rgba     its colour (red, green, blue, alpha in [0, 1]), or null when the file gives none
 * @param location where the shape was declared
 */
public record VisualShapeModel(String link, int body, Pose pose, Shape shape, double[] rgba,
        SourceLocation location) {

    public VisualShapeModel {
        rgba = rgba == null ? null : rgba.clone();
    }

    @Override
    public double[] rgba() {
        return rgba == null ? null : rgba.clone();
    }
}
