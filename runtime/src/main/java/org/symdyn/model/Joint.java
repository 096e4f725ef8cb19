package org.symdyn.model;

import org.symdyn.spatial.Pose;

/**
 * The joint that connects a body to its parent.
 *
 * @param name       the URDF joint name (or a generated one for a floating base added by a reader option)
 * @param type       the joint type
 * @param axis       unit axis in joint-frame coordinates (for revolute, prismatic and planar joints; ignored by the
 *                   others), never a shared array: use {@link #axis(int)}
 * @param placement  the joint frame J in the parent body's frame at q = 0 (URDF {@code origin})
 * @param lower      lower position limit, NaN when none
 * @param upper      upper position limit, NaN when none
 * @param qIndex     index of the joint's first position coordinate in q
 * @param vIndex     index of the joint's first velocity coordinate in v
 * @param armature   reflected rotor inertia added to each of the joint's diagonal entries of H (kg m² or kg), 0 when
 *                   none
 * @param damping    viscous damping d of a joint force −d v (N m s/rad or N s/m), 0 when none; applied by
 *                   simulations, not by the dynamics a generated class computes
 * @param parentLink the link or frame the joint hangs from, as the model file names it (a link merged into the
 *                   parent body by fixed joints, or the root)
 * @param location   where the joint was declared
 */
public record Joint(String name, JointType type, double[] axis, Pose placement, double lower, double upper,
        int qIndex, int vIndex, double armature, double damping, String parentLink, SourceLocation location) {

    public Joint {
        axis = axis.clone();
    }

    /** Component i of the unit axis. */
    public double axis(int i) {
        return axis[i];
    }

    @Override
    public double[] axis() {
        return axis.clone();
    }

    /** True if finite lower and upper position limits were given. */
    public boolean hasLimits() {
        return !Double.isNaN(lower) && !Double.isNaN(upper);
    }

    /**
     * True for a joint of one coordinate and one dof with at least one finite bound: the joints whose limits the
     * time stepper enforces as unilateral rows ({@code contact.JointLimits}) and that limit warnings look at.
     */
    public boolean isLimited() {
        return nq() == 1 && nv() == 1 && (Double.isFinite(lower) || Double.isFinite(upper));
    }

    public int nq() {
        return type.nq();
    }

    public int nv() {
        return type.nv();
    }

    /**
     * The q index of the x component of the joint's quaternion (y, z, w follow), see
     * {@link JointType#quaternionOffset()}.
     *
     * @throws IllegalStateException if the joint has no quaternion
     */
    public int quaternionIndex() {
        if (!type.hasQuaternion()) {
            throw new IllegalStateException("joint " + name + " (" + type.urdfName() + ") has no quaternion");
        }
        return qIndex + type.quaternionOffset();
    }
}
