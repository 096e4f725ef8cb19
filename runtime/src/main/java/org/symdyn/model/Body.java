package org.symdyn.model;

import org.symdyn.spatial.RigidBodyInertia;

/**
 * A moving rigid body: one URDF link with a movable joint to its parent, carrying the inertia of the links
 * attached to it by fixed joints.
 *
 * @param index       position in {@link Model#bodies()}: parents come before children
 * @param name        the link name; the body frame is the link frame
 * @param parentIndex index of the parent body, -1 for the root (world) link
 * @param joint       the joint to the parent
 * @param inertia     the inertia in the body frame, fixed children merged in
 * @param location    where the link was declared
 */
public record Body(int index, String name, int parentIndex, Joint joint, RigidBodyInertia inertia,
        SourceLocation location) {

    /** True if the parent is the root (world) link. */
    public boolean isAttachedToRoot() {
        return parentIndex < 0;
    }
}
