package org.symdyn.io.mjcf;

import org.symdyn.io.XmlElement;
import org.symdyn.spatial.Pose;

/**
 * Where an MJCF body ended up in the model.
 *
 * @param name       the body's name (given or generated)
 * @param link       the model link that carries it (the body's own link; the root link for the world body)
 * @param bodyInLink the MJCF body frame in that link's frame: T(−pos) of its last hinge or ball joint (the link
 *                   frame sits on the joint's point), identity otherwise
 * @param world0     the body frame in the world at the model's reference configuration (every joint at its
 *                   {@code ref}, a free body at its XML pose), where MuJoCo computes equality anchors
 * @param element    its {@code <body>} (or {@code <worldbody>})
 */
record MjcfBody(String name, String link, Pose bodyInLink, Pose world0, XmlElement element) {
}
