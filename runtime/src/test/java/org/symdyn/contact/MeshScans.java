package org.symdyn.contact;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.symdyn.contract.Kinematics;

/**
 * The reference of the static-mesh index in contact detection, for tests here and in other modules (the runtime's
 * test-jar): a detection that chooses a mesh's triangles by testing every triangle's box in index order, as before
 * the index, and the comparison of two detections' contacts bit for bit.
 */
public final class MeshScans {
    private MeshScans() {
    }

    /** A detection of the set that scans every triangle of each static mesh. */
    public static ShapeContactDetection scanning(ContactSet set, Kinematics kinematics) {
        return new ShapeContactDetection(set, kinematics, true);
    }

    /**
     * Asserts the two detections' last results are the same: count, dropped, and every contact's shapes, slot,
     * normal, witnesses, gap, friction and restitution, in order, bit for bit. Returns the count.
     */
    public static int assertSameContacts(ShapeContactDetection expected, ShapeContactDetection actual, String where) {
        assertEquals(expected.count(), actual.count(), where + ": contacts");
        assertEquals(expected.dropped(), actual.dropped(), where + ": dropped");
        for (int k = 0; k < expected.count(); k++) {
            String c = where + ", contact " + k;
            assertEquals(expected.shapeA(k), actual.shapeA(k), c + ": shape A");
            assertEquals(expected.shapeB(k), actual.shapeB(k), c + ": shape B");
            assertEquals(expected.slot(k), actual.slot(k), c + ": slot");
            for (int i = 0; i < 3; i++) {
                // assertEquals(double, double) compares the bits (doubleToLongBits): −0 and 0 differ
                assertEquals(expected.normal(k, i), actual.normal(k, i), c + ": normal");
                assertEquals(expected.pointA(k, i), actual.pointA(k, i), c + ": point A");
                assertEquals(expected.pointB(k, i), actual.pointB(k, i), c + ": point B");
            }
            assertEquals(expected.gap(k), actual.gap(k), c + ": gap");
            assertEquals(expected.friction(k), actual.friction(k), c + ": friction");
            assertEquals(expected.restitution(k), actual.restitution(k), c + ": restitution");
        }
        return expected.count();
    }
}
