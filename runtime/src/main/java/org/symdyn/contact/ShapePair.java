package org.symdyn.contact;

import org.symdyn.model.CollisionShapeModel;

/** Two collision shapes of a {@link ContactSet}, in the set's order. */
public record ShapePair(CollisionShapeModel first, CollisionShapeModel second) {
}
