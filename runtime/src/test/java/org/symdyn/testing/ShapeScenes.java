package org.symdyn.testing;

import org.symdyn.geometry.Shape;
import org.symdyn.model.BodySpec;
import org.symdyn.model.ContactMaterial;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;
import org.symdyn.model.ModelBuilder;
import org.symdyn.model.ModelException;
import org.symdyn.model.SourceLocation;
import org.symdyn.spatial.Pose;
import org.symdyn.spatial.RigidBodyInertia;

/** Scenes of collision shapes built in code: free bodies on floating joints, scenery on the world link. */
public final class ShapeScenes {
    public static final double G = 9.81;

    private final ModelBuilder builder;

    public ShapeScenes(String name) {
        builder = Model.builder(name);
    }

    /** A free cuboid of mass m and half extents (hx, hy, hz) with one box shape of friction μ. */
    public ShapeScenes freeBox(String name, double m, double hx, double hy, double hz, double mu) {
        return freeCuboid(name, m, hx, hy, hz, new org.symdyn.geometry.Box(hx, hy, hz), mu);
    }

    /**
     * A free body with the mass m and inertia of a solid cuboid of half extents (hx, hy, hz) and the collision shape
     * {@code shape} of friction μ (the cuboid itself as a box, or as the convex hull of its corners).
     */
    public ShapeScenes freeCuboid(String name, double m, double hx, double hy, double hz, Shape shape, double mu) {
        return freeBody(name, m, m * (hy * hy + hz * hz) / 3, m * (hx * hx + hz * hz) / 3, m * (hx * hx + hy * hy) / 3,
                shape, mu);
    }

    /** A free body of mass m, principal moments (ixx, iyy, izz) about its origin's axes, and one shape of friction μ. */
    public ShapeScenes freeBody(String name, double m, double ixx, double iyy, double izz, Shape shape, double mu) {
        builder.addBody(BodySpec.builder(name, "world", name + "_base", JointType.FLOATING)
                .inertia(RigidBodyInertia.of(m, new double[3], ixx, 0, 0, iyy, 0, izz)).build());
        return shape(name, name, Pose.IDENTITY, shape, mu);
    }

    /** A free solid sphere of mass m and radius r, friction μ. */
    public ShapeScenes freeSphere(String name, double m, double r, double mu) {
        double i = 0.4 * m * r * r;
        builder.addBody(BodySpec.builder(name, "world", name + "_base", JointType.FLOATING)
                .inertia(RigidBodyInertia.of(m, new double[3], i, 0, 0, i, 0, i)).build());
        return shape(name, name, Pose.IDENTITY, new org.symdyn.geometry.Sphere(r), mu);
    }

    /** A collision shape on a link (the world link "world" for scenery). */
    public ShapeScenes shape(String name, String link, Pose pose, Shape shape, double mu) {
        builder.addCollisionShape(name, link, pose, shape, new ContactMaterial(mu, 0), SourceLocation.UNKNOWN);
        return this;
    }

    public ModelBuilder builder() {
        return builder;
    }

    public Model build() {
        try {
            return builder.build();
        } catch (ModelException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    /** q of a free body at (x, y, z) rotated by angle about the world x axis. */
    public static double[] pose(double x, double y, double z, double angleX) {
        return new double[] {x, y, z, Math.sin(angleX / 2), 0, 0, Math.cos(angleX / 2)};
    }

    /** The rotation about x by angle (row-major). */
    public static Pose rotationX(double angle, double x, double y, double z) {
        double c = Math.cos(angle), s = Math.sin(angle);
        return Pose.of(new double[] {1, 0, 0, 0, c, -s, 0, s, c}, new double[] {x, y, z});
    }
}
