package org.symdyn.contact;

import java.util.List;
import org.symdyn.contract.Kinematics;
import org.symdyn.geometry.ConvexShape;
import org.symdyn.geometry.Placement;
import org.symdyn.geometry.Shape;
import org.symdyn.model.CollisionShapeModel;

/**
 * The world placements of a {@link ContactSet}'s collision shapes at one configuration: shape i on body b with its
 * fixed pose X_bs in the body is placed at X_wb(q) X_bs, X_wb from {@link Kinematics#bodyPose}; shapes of the scenery
 * (body −1) are placed once. Shared by contact detection and ray casting (the Lidar). Allocation-free after
 * construction; not thread-safe.
 */
public final class ScenePlacements {
    private final Kinematics kinematics;
    private final int count;
    private final Shape[] shape;
    private final int[] body;
    private final String[] link;
    private final double[][] poseR;
    private final double[][] poseP;
    private final double[] reach;
    private final Placement[] place;
    private final double[] rotation = new double[9];
    private final double[] origin = new double[3];
    private final double[] worldRotation = new double[9];
    private final double[] worldPosition = new double[3];

    /**
     * @throws IllegalArgumentException when a shape is on a body the kinematics do not have
     */
    public ScenePlacements(ContactSet set, Kinematics kinematics) {
        this.kinematics = kinematics;
        List<CollisionShapeModel> shapes = set.shapes();
        count = shapes.size();
        int bodies = kinematics.bodyNames().size();
        shape = new Shape[count];
        body = new int[count];
        link = new String[count];
        poseR = new double[count][];
        poseP = new double[count][];
        reach = new double[count];
        place = new Placement[count];
        for (int i = 0; i < count; i++) {
            CollisionShapeModel c = shapes.get(i);
            if (c.body() >= bodies) {
                throw new IllegalArgumentException("collision shape '" + c.name() + "' is on body " + c.body()
                        + ", beyond the " + bodies + " bodies of " + kinematics.modelName());
            }
            shape[i] = c.shape();
            body[i] = c.body();
            link[i] = c.link();
            poseR[i] = c.pose().rotationArray();
            poseP[i] = c.pose().translationArray();
            place[i] = new Placement().set(poseR[i], 0, poseP[i], 0);
            double[] p = poseP[i];
            reach[i] = Math.sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2])
                    + (shape[i] instanceof ConvexShape cs ? cs.boundingRadius() : 0);
        }
    }

    /** Places every moving shape at q (one {@link Kinematics#bodyPose} per body: shapes come grouped by link). */
    public void place(double[] q) {
        int posed = -1;
        for (int i = 0; i < count; i++) {
            if (body[i] >= 0) {
                if (body[i] != posed) {
                    kinematics.bodyPose(q, body[i], rotation, origin);
                    posed = body[i];
                }
                place(i);
            }
        }
    }

    private void place(int i) {
        double[] r = poseR[i];
        double[] p = poseP[i];
        for (int row = 0; row < 3; row++) {
            double a0 = rotation[3 * row], a1 = rotation[3 * row + 1], a2 = rotation[3 * row + 2];
            worldRotation[3 * row] = a0 * r[0] + a1 * r[3] + a2 * r[6];
            worldRotation[3 * row + 1] = a0 * r[1] + a1 * r[4] + a2 * r[7];
            worldRotation[3 * row + 2] = a0 * r[2] + a1 * r[5] + a2 * r[8];
            worldPosition[row] = a0 * p[0] + a1 * p[1] + a2 * p[2] + origin[row];
        }
        place[i].set(worldRotation, 0, worldPosition, 0);
    }

    /** The number of shapes. */
    public int count() {
        return count;
    }

    /** Shape i in its own frame. */
    public Shape shape(int i) {
        return shape[i];
    }

    /** Shape i's placement at the last {@link #place} (live: read only). */
    public Placement placement(int i) {
        return place[i];
    }

    /** The body shape i moves with, −1 for the scenery. */
    public int body(int i) {
        return body[i];
    }

    /** The link the model file attaches shape i to. */
    public String link(int i) {
        return link[i];
    }

    /**
     * |c| + r: shape i's origin distance from its body's origin plus its bounding radius (0 for an unbounded shape
     * or a mesh): a point of the shape moves at most |v_O| + |ω| reach.
     */
    public double reach(int i) {
        return reach[i];
    }
}
