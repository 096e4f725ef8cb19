package org.symdyn.testing;

import org.symdyn.geometry.Shape;
import org.symdyn.model.BodySpec;
import org.symdyn.model.ContactMaterial;
import org.symdyn.model.GroundModel;
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

    /**
     * A paddle hinged to the world about y at the origin (1 kg, its centre of mass at x = 0.2 m): a box shape 0.6 x
     * 0.2 x 0.04 m centred at x = 0.2, its top face at z = 0.02 when the hinge is at 0, friction μ.
     */
    public ShapeScenes hingedPaddle(double mu) {
        builder.addBody(BodySpec.builder("paddle", "world", "hinge", JointType.REVOLUTE).axis(0, 1, 0)
                .inertia(RigidBodyInertia.of(1, new double[] {0.2, 0, 0}, 0.01, 0, 0, 0.02, 0, 0.02)).build());
        return shape("blade", "paddle", Pose.translation(0.2, 0, 0), new org.symdyn.geometry.Box(0.3, 0.1, 0.02), mu);
    }

    /**
     * The {@link #hingedPaddle} (friction 0.9) and a free body that {@code object} adds, that body listed first (the
     * detection's side A of their contact) or last (side B).
     */
    public static Model withPaddle(String name, boolean objectFirst,
            java.util.function.UnaryOperator<ShapeScenes> object) {
        ShapeScenes scenes = new ShapeScenes(name);
        if (objectFirst) {
            object.apply(scenes);
        }
        scenes.hingedPaddle(0.9);
        if (!objectFirst) {
            object.apply(scenes);
        }
        return scenes.build();
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

    /** The six boxes' starting places of {@link #sixBoxPile}: two stacks of two and three and one box alone. */
    private static final double[][] PILE_AT = {{0, 0, 0.1}, {0.02, 0, 0.3}, {0.5, 0, 0.1}, {0.5, 0.03, 0.3},
        {0.5, 0, 0.5}, {0, 0.6, 0.1}};

    /**
     * Six 0.2 m boxes of 1 to 2.5 kg (μ 0.8) over a floor (μ 0.8): two stacks, offset by 2 and 3 cm, and one box
     * alone, each turned 0.01 rad more than the last about x; they land on their faces (four-point manifolds,
     * redundant rows). {@link #sixBoxPileStart} gives their q.
     */
    public static Model sixBoxPile(String name) {
        ShapeScenes scenes = new ShapeScenes(name);
        scenes.builder().addGround(new GroundModel("floor", new double[3], new double[] {0, 0, 1},
                0.8, 0, SourceLocation.UNKNOWN));
        for (int i = 0; i < PILE_AT.length; i++) {
            scenes.freeBox("box" + i, 1 + 0.3 * i, 0.1, 0.1, 0.1, 0.8);
        }
        return scenes.build();
    }

    /** q of {@link #sixBoxPile} at its start. */
    public static double[] sixBoxPileStart() {
        double[] q = new double[7 * PILE_AT.length];
        for (int i = 0; i < PILE_AT.length; i++) {
            System.arraycopy(pose(PILE_AT[i][0], PILE_AT[i][1], PILE_AT[i][2], 0.01 * i), 0, q, 7 * i, 7);
        }
        return q;
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
