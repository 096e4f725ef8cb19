package org.symdyn.geometry;

/**
 * What a contact's witnesses lie on, where the query that found them knows it: whether the normal is a face normal
 * of A (+1) or of B (−1) with the other side's points over that face, and for a single closest point the feature of
 * each side it lies on ({@link ContactManifold#VERTEX}, {@link ContactManifold#EDGE} with the edge's world direction).
 * 0 where not known. {@link DistanceResult} and {@link ContactManifold} each hold one; their public accessors read it.
 */
final class WitnessFeatures {
    int face;
    int featureA;
    int featureB;
    final double[] edgeA = new double[3];
    final double[] edgeB = new double[3];

    void clear() {
        face = 0;
        featureA = 0;
        featureB = 0;
    }

    void copy(WitnessFeatures from) {
        face = from.face;
        featureA = from.featureA;
        featureB = from.featureB;
        System.arraycopy(from.edgeA, 0, edgeA, 0, 3);
        System.arraycopy(from.edgeB, 0, edgeB, 0, 3);
    }

    /** A and B exchanged: the face's side changes sign, the features and edges change places. */
    void swap() {
        face = -face;
        int f = featureA;
        featureA = featureB;
        featureB = f;
        for (int i = 0; i < 3; i++) {
            double e = edgeA[i];
            edgeA[i] = edgeB[i];
            edgeB[i] = e;
        }
    }
}
