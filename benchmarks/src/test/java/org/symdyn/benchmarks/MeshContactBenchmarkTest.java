package org.symdyn.benchmarks;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * {@link MeshContactBenchmark} runs once on its smallest terrain (set-up, which checks every pose's contacts and the
 * index's triangles against the scan's, then each benchmark over its ring; no timing): the sphere and the box touch
 * the terrain at every place, the scan finds triangles under the sphere, and the Lidar's rays hit (all but a few, beyond the rim of a hill).
 */
class MeshContactBenchmarkTest {
    @Test
    void everyBenchmarkRunsOnTheSmallestTerrain() throws Exception {
        MeshContactBenchmark b = new MeshContactBenchmark();
        b.triangles = 2000;
        b.setUp();
        int hits = 0;
        for (int k = 0; k < MeshContactBenchmark.RING; k++) {
            assertTrue(b.sphereOnTerrain() > 0, "sphere contacts at place " + k);
            assertTrue(b.boxOnTerrain() > 0, "box contacts at place " + k);
            assertTrue(b.sphereTrianglesByScan() > 0, "triangles under the sphere at place " + k);
        }
        int rays = MeshContactBenchmark.ROWS * MeshContactBenchmark.SAMPLES;
        for (int r = 0; r < rays; r++) {
            hits += b.lidarRay() ? 1 : 0;
        }
        assertTrue(hits > 0.95 * rays, hits + " of " + rays + " rays hit");
    }
}
