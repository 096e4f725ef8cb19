package org.symdyn.geometry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.symdyn.testing.Allocations;

/**
 * After set-up the query paths allocate nothing: every narrowphase pair (closed forms, GJK/EPA, manifolds, mesh
 * triangles; faces resting on faces, whose manifolds are clipped), ray casts and the broadphase, run many times,
 * allocate less than one small object per round in total (the thread's allocation counter, {@link Allocations}; a
 * counter, not a timing).
 */
class AllocationTest {
    @Test
    void queriesDoNotAllocate() {
        Random random = new Random(3L);
        Shape[] shapes = {new Sphere(0.3), new Capsule(0.2, 0.6), new Box(0.2, 0.3, 0.4), new Cylinder(0.25, 0.5),
            GjkEpaTest.boxHull(new Box(0.3, 0.2, 0.1)), HalfSpace.zUp()};
        Placement[] places = new Placement[40];
        for (int i = 0; i < places.length; i++) {
            places[i] = Exact.randomPlacement(random, 0.5);
        }
        Narrowphase narrowphase = new Narrowphase();
        DistanceResult result = new DistanceResult();
        ContactManifold manifold = new ContactManifold();
        RayCast rays = new RayCast();
        RayHit hit = new RayHit();
        TriangleMesh mesh = TriangleMesh.of(new double[] {0, 0, 0, 1, 0, 0, 0, 1, 0}, new int[] {0, 1, 2});
        SweepAndPrune sap = new SweepAndPrune(shapes.length, 64);
        sap.setShapeCount(shapes.length);
        double[] origin = {2, 0.1, 0.2}, direction = {-1, 0.05, 0.02};
        Box table = new Box(1, 1, 0.5);
        ConvexHull tableHull = GjkEpaTest.boxHull(table);
        Placement tableAt = new Placement().setTranslation(0, 0, -0.5);
        Placement[] onTable = {new Placement().set(org.symdyn.spatial.Rotations.fromRpy(0, 0, 0.3), 0,
            new double[] {0.1, 0.2, 0.1 - 1e-4}, 0), new Placement().setTranslation(0.2, 0, 0.25 - 1e-4)};
        narrowphase.manifold(table, tableAt, shapes[4], onTable[0], 0.01, manifold);
        assertEquals(4, manifold.count(), "a hull box flat on a box");
        narrowphase.manifold(shapes[3], onTable[1], tableHull, tableAt, 0.01, manifold);
        assertEquals(4, manifold.count(), "a cylinder standing on a hull");
        int[] round = {0};
        int rounds = 2000;
        long allocated = Allocations.allocatedBytes(rounds, () -> {
            int k = round[0]++;
            Placement pa = places[k % places.length], pb = places[(k * 7 + 3) % places.length];
            for (int i = 0; i < shapes.length; i++) {
                for (int j = 0; j < shapes.length; j++) {
                    if (i == 5 && j == 5) {
                        continue;
                    }
                    narrowphase.distance(shapes[i], pa, shapes[j], pb, result);
                    narrowphase.manifold(shapes[i], pa, shapes[j], pb, 0.01, manifold);
                }
                rays.cast(shapes[i], pa, origin, direction, 10, hit);
                rays.cast(mesh, pb, origin, direction, 10, hit);
                if (i < 5) {
                    narrowphase.triangleDistance(mesh, 0, pa, shapes[i], pb, result);
                }
                sap.update(i, shapes[i], places[(k + i) % places.length], 0.01);
            }
            sap.findPairs();
            // faces resting on faces: the clipped multi-point manifolds of the GJK/EPA pairs
            narrowphase.manifold(table, tableAt, shapes[4], onTable[k % 2], 0.01, manifold);
            narrowphase.manifold(shapes[3], onTable[k % 2], tableHull, tableAt, 0.01, manifold);
            narrowphase.manifold(shapes[4], onTable[k % 2], shapes[4], onTable[1 - k % 2], 0.01, manifold);
        });
        assertTrue(allocated < 4096, "query paths allocated " + allocated + " bytes in " + rounds + " rounds");
    }
}
