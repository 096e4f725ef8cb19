package org.symdyn.model;

import org.symdyn.spatial.Pose;

/**
 * A named frame rigidly attached to a body: every link of the model file is one (a moving link with the identity
 * pose, a link attached by fixed joints with the composed fixed placements, the root link with body -1).
 *
 * @param name      the link (or user frame) name
 * @param bodyIndex the body it moves with, -1 for the root (world)
 * @param pose      the frame in the body's frame (body <- frame)
 * @param location  where it was declared
 */
public record Frame(String name, int bodyIndex, Pose pose, SourceLocation location) {
}
