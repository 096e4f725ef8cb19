package org.symdyn.contract;

import org.symdyn.contract.ModelInfo;

/**
 * World poses of a model's named frames (every link of the model file): the part of {@link Kinematics} that
 * generated classes also provide. Arguments as the package states: q of nq, rotation 9 and position 3 entries, no
 * output the same array as another argument, a frame index out of range throws {@link IndexOutOfBoundsException}.
 */
public interface FrameKinematics extends ModelInfo {
    /**
     * The pose of a named frame (index into {@link #frameNames()}): rotation world <- frame (9, row-major) and
     * origin position (3), in world coordinates.
     */
    void framePose(double[] q, int frame, double[] rotation, double[] position);
}
