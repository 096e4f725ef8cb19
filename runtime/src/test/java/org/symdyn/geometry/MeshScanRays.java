package org.symdyn.geometry;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The reference of the static-mesh index in ray casting, for tests here and in other modules (the runtime's
 * test-jar): a {@link RayCast} that tries every triangle of a mesh in index order, as before the index, and the
 * comparison of two casts bit for bit.
 */
public final class MeshScanRays {
    private MeshScanRays() {
    }

    /** A ray caster that scans every triangle of a mesh. */
    public static RayCast scanning() {
        return new RayCast(true);
    }

    /** Asserts the two casts agree: hit or not, and on a hit the distance, point and normal, bit for bit. */
    public static void assertSameHit(boolean expectedHit, RayHit expected, boolean actualHit, RayHit actual,
            String where) {
        assertEquals(expectedHit, actualHit, where + ": hit");
        assertEquals(expected.hit(), actual.hit(), where + ": hit flag");
        if (!expectedHit) {
            return;
        }
        assertEquals(expected.distance(), actual.distance(), where + ": distance");
        for (int i = 0; i < 3; i++) {
            assertEquals(expected.point(i), actual.point(i), where + ": point");
            assertEquals(expected.normal(i), actual.normal(i), where + ": normal");
        }
    }
}
