package org.symdyn.io.urdf;

import org.symdyn.io.XmlElement;
import org.symdyn.spatial.RigidBodyInertia;

/**
 * A {@code <link>} as read from the file.
 *
 * @param name           the link name
 * @param element        the {@code <link>} element
 * @param inertia        the inertia in the link frame (inertial origin folded in), null when the link has no
 *                       {@code <inertial>} or its inertial could not be read
 * @param inertialBroken true if the {@code <inertial>} had errors (already reported)
 */
record LinkDeclaration(String name, XmlElement element, RigidBodyInertia inertia, boolean inertialBroken) {

    /** The declared mass, 0 when there is no (readable) inertial. */
    double mass() {
        return inertia == null ? 0 : inertia.mass();
    }
}
