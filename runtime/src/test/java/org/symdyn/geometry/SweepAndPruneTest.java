package org.symdyn.geometry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The broadphase against the brute-force test of every pair of boxes, over moving scenes; groups, overflow (kept
 * pairs capped, the count reported) and shape bounds against support values from {@link Exact}.
 */
class SweepAndPruneTest {
    private final Random random = new Random(1234L);

    @Test
    void pairsAreExactlyTheOverlappingBoxesStepAfterStep() {
        int n = 300;
        SweepAndPrune sap = new SweepAndPrune(n, 10_000);
        sap.setShapeCount(n);
        double[][] lo = new double[n][3], hi = new double[n][3];
        for (int i = 0; i < n; i++) {
            if (i % 7 == 0) {
                sap.setGroup(i, i % 3);
            }
            for (int k = 0; k < 3; k++) {
                lo[i][k] = 10 * random.nextDouble();
                hi[i][k] = lo[i][k] + (i % 50 == 0 ? 0 : random.nextDouble());
            }
        }
        for (int step = 0; step < 30; step++) {
            for (int i = 0; i < n; i++) {
                for (int k = 0; k < 3; k++) {
                    double move = 0.2 * random.nextGaussian();
                    lo[i][k] += move;
                    hi[i][k] += move;
                }
                sap.setBounds(i, lo[i][0], lo[i][1], lo[i][2], hi[i][0], hi[i][1], hi[i][2]);
            }
            sap.findPairs();
            Set<Long> found = new HashSet<>();
            for (int p = 0; p < sap.pairCount(); p++) {
                assertTrue(sap.first(p) < sap.second(p));
                assertTrue(found.add((long) sap.first(p) * n + sap.second(p)), "pair reported twice");
            }
            Set<Long> expected = new HashSet<>();
            for (int i = 0; i < n; i++) {
                for (int j = i + 1; j < n; j++) {
                    boolean sameGroup = i % 7 == 0 && j % 7 == 0 && i % 3 == j % 3;
                    boolean overlap = true;
                    for (int k = 0; k < 3; k++) {
                        overlap &= lo[i][k] <= hi[j][k] && lo[j][k] <= hi[i][k];
                    }
                    if (overlap && !sameGroup) {
                        expected.add((long) i * n + j);
                    }
                }
            }
            assertEquals(expected, found, "step " + step);
            assertFalse(sap.overflowed());
        }
    }

    @Test
    void tooManyPairsAreReportedNotDropped() {
        SweepAndPrune sap = new SweepAndPrune(10, 5);
        sap.setShapeCount(10);
        for (int i = 0; i < 10; i++) {
            sap.setBounds(i, 0, 0, 0, 1, 1, 1);
        }
        assertEquals(5, sap.findPairs());
        assertTrue(sap.overflowed());
        assertEquals(45, sap.overlappingPairs());
        assertThrows(IllegalArgumentException.class, () -> sap.setBounds(0, Double.NaN, 0, 0, 1, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> sap.setShapeCount(11));
    }

    @Test
    void aShapeOutsideTheBoundIsRefusedNamingIt() {
        SweepAndPrune sap = new SweepAndPrune(3, 3);
        String m = assertThrows(IndexOutOfBoundsException.class, () -> sap.setBounds(3, 0, 0, 0, 1, 1, 1))
                .getMessage();
        assertEquals("shape 3 is outside [0, 3), the bound given at construction", m);
        assertThrows(IndexOutOfBoundsException.class, () -> sap.setGroup(-1, 0));
    }

    @Test
    void shapeBoundsAreTheSupportValuesAlongTheAxes() {
        Bounds bounds = new Bounds();
        double[] out = new double[6];
        Shape[] shapes = {new Sphere(0.4), new Capsule(0.2, 0.7), new Box(0.3, 0.2, 0.5), new Cylinder(0.3, 0.6),
            GjkEpaTest.boxHull(new Box(0.1, 0.2, 0.3))};
        for (Shape s : shapes) {
            for (int k = 0; k < 100; k++) {
                Placement p = Exact.randomPlacement(random, 2);
                bounds.of(s, p, 0.01, out);
                for (int axis = 0; axis < 3; axis++) {
                    double[] e = new double[3];
                    e[axis] = 1;
                    assertEquals(Exact.support(s, p, e) + 0.01, out[3 + axis], 1e-12, s + " max " + axis);
                    e[axis] = -1;
                    assertEquals(-Exact.support(s, p, e) - 0.01, out[axis], 1e-12, s + " min " + axis);
                }
            }
        }
        bounds.of(HalfSpace.zUp(), new Placement().setTranslation(0, 0, 0.5), 0, out);
        assertEquals(Double.NEGATIVE_INFINITY, out[2]);
        assertEquals(0.5, out[5]);
        assertEquals(Double.POSITIVE_INFINITY, out[3]);
        // The ground pairs with every box above it.
        SweepAndPrune sap = new SweepAndPrune(4, 10);
        sap.setShapeCount(4);
        sap.update(0, HalfSpace.zUp(), new Placement(), 0.01);
        for (int i = 1; i < 4; i++) {
            sap.update(i, new Box(0.1, 0.1, 0.1), new Placement().setTranslation(i, 0, 0.1 + 0.008 * i), 0);
        }
        sap.findPairs();
        assertEquals(1, sap.pairCount(), "only the box within the margin of the ground");
        assertEquals(0, sap.first(0));
        assertEquals(1, sap.second(0));
    }
}
