package org.symdyn.io.mjcf;

import org.symdyn.io.XmlElement;
import org.symdyn.spatial.Pose;

/**
 * A {@code <site>}: a named frame of a body.
 *
 * @param name    the site's name
 * @param body    the body it belongs to
 * @param inBody  the site frame in the body's frame
 * @param element its element
 */
record MjcfSite(String name, MjcfBody body, Pose inBody, XmlElement element) {
    /** The site frame in the frame of the link that carries it. */
    Pose inLink() {
        return body.bodyInLink().compose(inBody);
    }
}
