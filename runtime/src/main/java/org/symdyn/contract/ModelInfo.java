package org.symdyn.contract;

import java.util.List;

/**
 * What a dynamics implementation knows about its model, so that a solver can map names to indices without the
 * {@link org.symdyn.model.Model} itself (a generated class answers from constants). Index conventions are those of
 * {@link org.symdyn.model.Model}: bodies parents first, q and v stacked in body order.
 */
public interface ModelInfo {
    /** The model's name. */
    String modelName();

    /** SHA-256 (hex) of the model file this was built from, or null for a model made in code. */
    String sourceSha256();

    /**
     * The content hash of the model this implementation evaluates ({@link org.symdyn.model.Model#contentHash()}):
     * solvers refuse to bind an implementation whose hash differs from their model's, so that another model's
     * class with the same sizes cannot give wrong numbers.
     */
    String modelHash();

    /** Number of position coordinates. */
    int nq();

    /** Number of velocity coordinates (degrees of freedom). */
    int nv();

    /** Name of each position coordinate. */
    List<String> qNames();

    /** Name of each velocity coordinate. */
    List<String> vNames();

    /** Name of each moving body (its link). */
    List<String> bodyNames();

    /** Name of each body's joint. */
    List<String> jointNames();

    /** Parent body of {@code body}, -1 for the root. */
    int parent(int body);

    /** True if {@code body} moves on a floating (6-dof) joint. */
    boolean isFloating(int body);

    /** Index in q of the first position coordinate of {@code body}'s joint. */
    int qIndex(int body);

    /** Index in v of the first velocity coordinate of {@code body}'s joint. */
    int vIndex(int body);

    /**
     * Index in q of the x component of the unit quaternion of {@code body}'s joint (y, z and the scalar w follow), -1
     * for a joint without one: {@link org.symdyn.model.Joint#quaternionIndex()}, the model's one statement of this
     * layout (floating: after the position, ball: first).
     */
    int quaternionIndex(int body);

    /**
     * Number of position coordinates of {@code body}'s joint (7 floating: position and quaternion x, y, z, w; 4 ball:
     * the quaternion; 3 planar; 1 revolute, continuous, prismatic).
     */
    default int jointNq(int body) {
        return (body + 1 < bodyCount() ? qIndex(body + 1) : nq()) - qIndex(body);
    }

    /** Number of velocity coordinates of {@code body}'s joint (6 floating, 3 ball and planar, 1 otherwise). */
    default int jointNv(int body) {
        return (body + 1 < bodyCount() ? vIndex(body + 1) : nv()) - vIndex(body);
    }

    /** The dof tree λ of the velocity coordinates ({@link DofTree}). A fresh array. */
    default int[] dofParents() {
        int n = bodyCount();
        int[] parent = new int[n];
        int[] vIndex = new int[n];
        int[] jointNv = new int[n];
        for (int b = 0; b < n; b++) {
            parent[b] = parent(b);
            vIndex[b] = vIndex(b);
            jointNv[b] = jointNv(b);
        }
        return DofTree.parents(nv(), parent, vIndex, jointNv);
    }

    /**
     * The body that frame {@code frame} is fixed to, -1 for the world (the root link of a fixed-base model and
     * frames fixed to it): with {@link #frameOffset} this turns a point given in a frame's coordinates into the
     * body point that {@link Kinematics} takes.
     *
     * @throws IndexOutOfBoundsException if {@code frame} is not in [0, frame count) ("frame -1 of 11": the
     *                                   {@code frameIndex} of an unknown name)
     */
    int frameBody(int frame);

    /**
     * Where frame {@code frame} sits on its body ({@link #frameBody}): {@code rotation} (9, row-major) receives the
     * rotation body &lt;- frame, {@code position} (3) the frame's origin in body coordinates (m).
     *
     * @throws IndexOutOfBoundsException if {@code frame} is not in [0, frame count)
     */
    void frameOffset(int frame, double[] rotation, double[] position);

    /** Name of each frame (every link of the model file, and frames added in code). */
    List<String> frameNames();

    /** Number of moving bodies. */
    default int bodyCount() {
        return bodyNames().size();
    }

    /** Index of the body of that name, or -1 if none. */
    default int bodyIndex(String name) {
        return bodyNames().indexOf(name);
    }

    /** Index of the frame of that name, or -1 if none. */
    default int frameIndex(String name) {
        return frameNames().indexOf(name);
    }
}
