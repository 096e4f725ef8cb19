package org.symdyn.contract;

import org.symdyn.contract.ModelInfo;

/**
 * World poses of a model's named frames (every link of the model file): the part of {@link Kinematics} that
 * generated classes also provide.
 */
public interface FrameKinematics extends ModelInfo {
    /**
     * The pose of a named frame (index into {@link #frameNames()}): rotation world <- frame (9, row-major) and
     * origin position (3), in world coordinates.
     */
    void framePose(double[] q, int frame, double[] rotation, double[] position);
}
