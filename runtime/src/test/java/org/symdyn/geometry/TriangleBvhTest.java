package org.symdyn.geometry;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.symdyn.spatial.Pose;
import org.symdyn.testing.Allocations;
import org.symdyn.testing.Terrains;

/**
 * {@link TriangleBvh}: its queries against the scans they replace. Box queries give exactly the triangles, in index
 * order, that testing every triangle's world box gives (the boxes computed here as contact detection computed them
 * before the index: min and max of R v + p over the corners); ray casts through the hierarchy give the scan's hit
 * bit for bit (distance, point, normal; the first triangle of equals). On a terrain of 20,000 triangles at three
 * placements, on degenerate meshes (one triangle, a flat grid whose neighbours tie, one triangle repeated, a large
 * triangle among small ones) and with zero-area triangles (refused by {@link TriangleMesh#of}, left out by the file
 * readers). Also the hierarchy's shape (every triangle in one leaf, exact node boxes, bounded depth), the nodes a
 * small query visits growing like log n (a count, not a timing), and no allocation in queries.
 */
class TriangleBvhTest {
    private static final double CELL = 0.1;

    /** Terrains of 2 n² triangles on n × n cells. */
    private static TriangleMesh terrain(int n) {
        return Terrains.heightfield(n, n, CELL, 0.02, 7L);
    }

    private static Placement[] placements() {
        return new Placement[] {new Placement(), new Placement().setTranslation(-3.25, 1.5, 0.125),
            Placement.of(Pose.fromXyzRpy(new double[] {0.4, -0.7, 0.3}, new double[] {0.05, -0.08, 0.9}))};
    }

    /** The triangles' world boxes as contact detection computed them before the index. */
    private static double[] worldBoxes(TriangleMesh mesh, Placement place) {
        double[] out = new double[6 * mesh.triangleCount()];
        double[] x = new double[3];
        for (int t = 0; t < mesh.triangleCount(); t++) {
            Arrays.fill(out, 6 * t, 6 * t + 3, Double.POSITIVE_INFINITY);
            Arrays.fill(out, 6 * t + 3, 6 * t + 6, Double.NEGATIVE_INFINITY);
            for (int c = 0; c < 3; c++) {
                int v = mesh.triangleVertex(t, c);
                for (int k = 0; k < 3; k++) {
                    x[k] = mesh.vertex(v, k);
                }
                place.toWorld(x, x);
                for (int k = 0; k < 3; k++) {
                    out[6 * t + k] = Math.min(out[6 * t + k], x[k]);
                    out[6 * t + 3 + k] = Math.max(out[6 * t + 3 + k], x[k]);
                }
            }
        }
        return out;
    }

    /** Every triangle whose box overlaps the query, in index order: the scan contact detection did. */
    private static int[] scan(double[] boxes, double[] q) {
        List<Integer> out = new ArrayList<>();
        for (int t = 0; t < boxes.length / 6; t++) {
            int o = 6 * t;
            if (boxes[o] > q[3] || boxes[o + 3] < q[0] || boxes[o + 1] > q[4] || boxes[o + 4] < q[1]
                    || boxes[o + 2] > q[5] || boxes[o + 5] < q[2]) {
                continue;
            }
            out.add(t);
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Random query boxes about the mesh's world box, half sizes log-uniform in [1e-3, 3] m, and special ones. */
    private static List<double[]> queries(double[] world, int count, Random rnd) {
        List<double[]> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            double[] q = new double[6];
            for (int k = 0; k < 3; k++) {
                double c = world[k] - 0.5 + (world[3 + k] - world[k] + 1) * rnd.nextDouble();
                double h = Math.exp(Math.log(1e-3) + (Math.log(3) - Math.log(1e-3)) * rnd.nextDouble());
                q[k] = c - h;
                q[3 + k] = c + h;
            }
            out.add(q);
        }
        double inf = Double.POSITIVE_INFINITY;
        out.add(new double[] {-inf, -inf, -inf, inf, inf, inf}); // all
        out.add(new double[] {Double.NaN, 0, 0, 1, 1, 1}); // NaN excludes nothing along x
        out.add(new double[] {world[3] + 1, 0, 0, world[3] + 2, 1, 1}); // beside the mesh
        out.add(new double[] {world[0], world[1], world[2], world[0], world[1], world[2]}); // a corner point
        out.add(world.clone()); // the mesh's box
        return out;
    }

    @Test
    void boxQueriesGiveTheScansTrianglesInIndexOrder() {
        TriangleMesh mesh = terrain(100);
        assertEquals(20_000, mesh.triangleCount());
        Random rnd = new Random(11);
        int queries = 0;
        long found = 0;
        for (Placement place : placements()) {
            TriangleBvh bvh = mesh.bvh(place);
            double[] reference = worldBoxes(mesh, place);
            checkShape(bvh, reference);
            int[] out = new int[bvh.triangleCount()];
            int[] byScan = new int[bvh.triangleCount()];
            int[] stack = new int[bvh.stackSize()];
            for (double[] q : queries(rootBox(bvh), 2000, rnd)) {
                int[] expected = scan(reference, q);
                int k = bvh.overlapping(q, out, stack);
                assertArrayEquals(expected, Arrays.copyOf(out, k), "query " + Arrays.toString(q) + " at " + place);
                int s = bvh.scanOverlapping(q, byScan);
                assertArrayEquals(expected, Arrays.copyOf(byScan, s), "scan of " + Arrays.toString(q));
                queries++;
                found += k;
            }
        }
        assertEquals(3 * 2005, queries);
        assertTrue(found > 3 * 20_000 * 3, "the queries found " + found + " triangles in all");
    }

    @Test
    void aRepeatedPlacementSharesItsHierarchyAndTheIdentityTheMeshFramesOne() {
        TriangleMesh mesh = terrain(10);
        Placement rotated = placements()[2];
        assertTrue(mesh.bvh(rotated) == mesh.bvh(new Placement().set(Pose.fromXyzRpy(new double[] {0.4, -0.7, 0.3},
                new double[] {0.05, -0.08, 0.9}))), "the same placement, bit for bit: the same hierarchy");
        assertTrue(mesh.bvh(new Placement()) == mesh.bvh(), "identity: the mesh frame's");
        assertTrue(mesh.bvh(placements()[1]) != mesh.bvh(), "a translation: its own");
    }

    /** The root's box (the mesh's world box). */
    private static double[] rootBox(TriangleBvh bvh) {
        return Arrays.copyOf(bvh.nodeBounds, 6);
    }

    /** Every triangle in exactly one leaf of at most LEAF_SIZE; node boxes the exact unions; depth bounded. */
    private static void checkShape(TriangleBvh bvh, double[] boxes) {
        int n = bvh.triangleCount();
        for (int i = 0; i < boxes.length; i++) {
            assertTrue(boxes[i] == bvh.bounds[i], "the index keeps the detection's boxes");
        }
        int[] seen = new int[n];
        int deepest = shape(bvh, 0, 0, seen, new double[6]);
        for (int t = 0; t < n; t++) {
            assertEquals(1, seen[t], "triangle " + t + " in one leaf");
        }
        assertEquals(deepest, bvh.depth());
        assertTrue(bvh.depth() <= TriangleBvh.MAX_DEPTH);
        assertTrue(bvh.nodeCount() <= 2 * n - 1);
    }

    /** Checks node's subtree; writes its box to out; returns its deepest leaf's depth. */
    private static int shape(TriangleBvh bvh, int node, int level, int[] seen, double[] out) {
        int first = bvh.nodes[2 * node], count = bvh.nodes[2 * node + 1];
        double[] box = {Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY,
            Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY};
        int deepest = level;
        if (count > 0) {
            assertTrue(count <= TriangleBvh.LEAF_SIZE, "leaf of " + count);
            for (int i = first; i < first + count; i++) {
                int t = bvh.items[i];
                seen[t]++;
                for (int k = 0; k < 3; k++) {
                    box[k] = Math.min(box[k], bvh.bounds[6 * t + k]);
                    box[3 + k] = Math.max(box[3 + k], bvh.bounds[6 * t + 3 + k]);
                }
            }
        } else {
            assertTrue(count >= -3, "an inner node's split axis");
            double[] child = new double[6];
            for (int c = 0; c < 2; c++) {
                deepest = Math.max(deepest, shape(bvh, first + c, level + 1, seen, child));
                for (int k = 0; k < 3; k++) {
                    box[k] = Math.min(box[k], child[k]);
                    box[3 + k] = Math.max(box[3 + k], child[3 + k]);
                }
            }
        }
        for (int k = 0; k < 6; k++) {
            assertTrue(box[k] == bvh.nodeBounds[6 * node + k], "node " + node + " box: the union of its content");
        }
        System.arraycopy(box, 0, out, 0, 6);
        return deepest;
    }

    /** The nodes a walk for box q visits: the root and both children of every inner node whose box overlaps q. */
    private static int visits(TriangleBvh bvh, double[] q) {
        int visited = 1;
        for (int node = 0; node < bvh.nodeCount(); node++) {
            int o = 6 * node;
            double[] b = bvh.nodeBounds;
            boolean overlaps = !(b[o] > q[3] || b[o + 3] < q[0] || b[o + 1] > q[4] || b[o + 4] < q[1] || b[o + 2] > q[5]
                    || b[o + 5] < q[2]);
            if (overlaps && bvh.nodes[2 * node + 1] <= 0) {
                visited += 2;
            }
        }
        return visited;
    }

    @Test
    void aSmallQueryVisitsNodesGrowingLikeLogN() {
        // a sphere of radius 0.1 m resting on terrains of 2 n² triangles of the same cells: the same few triangles
        int[] sides = {32, 100, 316};
        double[] mean = new double[sides.length];
        int[] depth = new int[sides.length];
        for (int s = 0; s < sides.length; s++) {
            TriangleMesh mesh = terrain(sides[s]);
            TriangleBvh bvh = mesh.bvh();
            depth[s] = bvh.depth();
            Random rnd = new Random(5);
            RayCast rays = new RayCast();
            RayHit hit = new RayHit();
            int samples = 200;
            long total = 0;
            for (int i = 0; i < samples; i++) {
                double x = 0.5 + (sides[s] * CELL - 1) * rnd.nextDouble(), y = 0.5 + (sides[s] * CELL - 1) * rnd.nextDouble();
                assertTrue(rays.cast(mesh, new Placement(), new double[] {x, y, 10}, new double[] {0, 0, -1}, 20, hit));
                double z = hit.point(2) + 0.1;
                total += visits(bvh, new double[] {x - 0.101, y - 0.101, z - 0.101, x + 0.101, y + 0.101, z + 0.101});
            }
            mean[s] = (double) total / samples;
        }
        System.out.printf("# TriangleBvh: a 0.2 m query box on terrains of 2048, 20000, 199712 triangles visits %.1f,"
                + " %.1f, %.1f nodes on average; depths %d, %d, %d%n", mean[0], mean[1], mean[2], depth[0], depth[1],
                depth[2]);
        // ~100 times the triangles: a scan would test 100 times the boxes; the walk adds a few levels
        assertTrue(mean[2] < 2 * mean[0], "visits " + Arrays.toString(mean));
        assertTrue(depth[2] <= 30, "depth " + depth[2]);
    }

    // ---------------------------------------------------------------------------------------------- rays

    /** Casts the ray both ways and compares; returns whether it hit. */
    private static boolean compare(RayCast indexed, RayCast scanning, TriangleMesh mesh, Placement place, double[] o,
            double[] d, double max, RayHit a, RayHit b, String where) {
        boolean expected = scanning.cast(mesh, place, o, d, max, a);
        boolean actual = indexed.cast(mesh, place, o, d, max, b);
        MeshScanRays.assertSameHit(expected, a, actual, b, where);
        return expected;
    }

    @Test
    void raysThroughTheHierarchyHitWhatTheScanHitsBitForBit() {
        TriangleMesh mesh = terrain(100);
        RayCast indexed = new RayCast(), scanning = MeshScanRays.scanning();
        RayHit a = new RayHit(), b = new RayHit();
        Random rnd = new Random(13);
        int rays = 0, hits = 0;
        for (Placement place : placements()) {
            double[] world = rootBox(mesh.bvh(place));
            // random rays from a box about the terrain, directions uniform on the sphere, lengths 0.5 m to 30 m or ∞
            for (int i = 0; i < 1500; i++) {
                double[] o = new double[3];
                for (int k = 0; k < 3; k++) {
                    o[k] = world[k] - 1 + (world[3 + k] - world[k] + 2) * rnd.nextDouble();
                }
                double[] d = unit(rnd);
                double max = i % 5 == 0 ? Double.POSITIVE_INFINITY : 0.5 + 29.5 * rnd.nextDouble();
                hits += compare(indexed, scanning, mesh, place, o, d, max, a, b, "random ray " + i) ? 1 : 0;
                rays++;
            }
            // straight down onto vertices and edges of the grid (neighbouring triangles meet the ray at one t)
            for (int i = 0; i < 300; i++) {
                double[] local = {CELL * rnd.nextInt(101) + (i % 2 == 0 ? 0 : CELL * 0.5 * rnd.nextInt(2)),
                    CELL * rnd.nextInt(101), 5};
                double[] o = new double[3];
                place.toWorld(local, o);
                double[] d = {-place.rotation(0, 2), -place.rotation(1, 2), -place.rotation(2, 2)};
                hits += compare(indexed, scanning, mesh, place, o, d, 20, a, b, "down ray " + i) ? 1 : 0;
                rays++;
            }
            // Lidar fans: 16 rows from −30° to +15°, 180 samples round, from 1 m above two points
            for (int p = 0; p < 2; p++) {
                double[] local = {1 + 8 * rnd.nextDouble(), 1 + 8 * rnd.nextDouble(), 1};
                double[] o = new double[3];
                place.toWorld(local, o);
                for (int row = 0; row < 16; row++) {
                    double phi = Math.toRadians(-30 + 3 * row);
                    for (int k = 0; k < 180; k++) {
                        double theta = 2 * Math.PI * k / 180;
                        double[] d = {Math.cos(phi) * Math.cos(theta), Math.cos(phi) * Math.sin(theta), Math.sin(phi)};
                        hits += compare(indexed, scanning, mesh, place, o, d, 10, a, b, "fan ray " + k) ? 1 : 0;
                        rays++;
                    }
                }
            }
        }
        System.out.printf("# TriangleBvh: %d rays on a terrain of 20000 triangles at 3 placements, %d hits, all equal to"
                + " the scan bit for bit%n", rays, hits);
        assertEquals(3 * (1500 + 300 + 2 * 16 * 180), rays);
        assertTrue(hits > rays / 4 && hits < rays, hits + " hits of " + rays);
    }

    private static double[] unit(Random rnd) {
        double x, y, z, n;
        do {
            x = rnd.nextGaussian();
            y = rnd.nextGaussian();
            z = rnd.nextGaussian();
            n = Math.sqrt(x * x + y * y + z * z);
        } while (n < 1e-6);
        return new double[] {x / n, y / n, z / n};
    }

    // ---------------------------------------------------------------------------------------------- degenerate

    /** Box queries and rays on the mesh at two placements equal the scans. Returns the hits. */
    private static int compareEverything(TriangleMesh mesh, long seed) {
        Random rnd = new Random(seed);
        RayCast indexed = new RayCast(), scanning = MeshScanRays.scanning();
        RayHit a = new RayHit(), b = new RayHit();
        int hits = 0;
        for (Placement place : new Placement[] {new Placement(), placements()[2]}) {
            TriangleBvh bvh = mesh.bvh(place);
            double[] reference = worldBoxes(mesh, place);
            checkShape(bvh, reference);
            int[] out = new int[bvh.triangleCount()];
            int[] stack = new int[bvh.stackSize()];
            double[] world = rootBox(bvh);
            for (double[] q : queries(world, 300, rnd)) {
                int k = bvh.overlapping(q, out, stack);
                assertArrayEquals(scan(reference, q), Arrays.copyOf(out, k), mesh + ": query " + Arrays.toString(q));
            }
            for (int i = 0; i < 1000; i++) {
                double[] o = new double[3];
                for (int k = 0; k < 3; k++) {
                    o[k] = world[k] - 0.5 + (world[3 + k] - world[k] + 1) * rnd.nextDouble();
                }
                // aimed at a random vertex half of the time (rays through shared corners), else random
                double[] d;
                if (i % 2 == 0) {
                    double[] v = new double[3];
                    int c = rnd.nextInt(mesh.vertexCount());
                    for (int k = 0; k < 3; k++) {
                        v[k] = mesh.vertex(c, k);
                    }
                    place.toWorld(v, v);
                    d = new double[] {v[0] - o[0], v[1] - o[1], v[2] - o[2]};
                } else {
                    d = unit(rnd);
                }
                if (d[0] == 0 && d[1] == 0 && d[2] == 0) {
                    continue;
                }
                hits += compare(indexed, scanning, mesh, place, o, d, 100, a, b, mesh + " ray " + i) ? 1 : 0;
            }
        }
        return hits;
    }

    @Test
    void degenerateMeshesAgreeWithTheScan() {
        // one triangle
        TriangleMesh one = TriangleMesh.of(new double[] {0, 0, 0, 1, 0, 0, 0, 1, 0}, new int[] {0, 1, 2});
        assertEquals(0, one.bvh().depth());
        assertTrue(compareEverything(one, 1) > 100);
        // a flat grid: every triangle in one plane, neighbours tie on rays down their shared edges
        TriangleMesh flat = Terrains.heightfield(40, 30, 0.25, 0, 2L);
        double[] coplanar = flat(flat);
        TriangleMesh plane = TriangleMesh.of(coplanar, triangles(flat));
        assertTrue(compareEverything(plane, 2) > 300);
        RayCast indexed = new RayCast(), scanning = MeshScanRays.scanning();
        RayHit a = new RayHit(), b = new RayHit();
        for (int i = 0; i <= 40; i++) {
            for (int j = 0; j <= 30; j++) {
                double[] o = {0.25 * i, 0.25 * j, 1};
                assertTrue(compare(indexed, scanning, plane, new Placement(), o, new double[] {0, 0, -1}, 2, a, b,
                        "down on vertex " + i + ", " + j));
            }
        }
        // one triangle repeated: equal boxes and centres (the median split by position), every ray a tie
        double[] v = {0, 0, 0, 1, 0, 0, 0, 1, 0.5};
        int[] same = new int[3 * 40];
        for (int t = 0; t < 40; t++) {
            same[3 * t] = 0;
            same[3 * t + 1] = 1;
            same[3 * t + 2] = 2;
        }
        TriangleMesh repeated = TriangleMesh.of(v, same);
        assertTrue(compareEverything(repeated, 3) > 100);
        // a large triangle under many small ones
        double[] big = Arrays.copyOf(coplanar, coplanar.length + 9);
        int nv = coplanar.length / 3;
        System.arraycopy(new double[] {-50, -50, -0.01, 50, -50, -0.01, 0, 60, -0.01}, 0, big, coplanar.length, 9);
        int[] tri = Arrays.copyOf(triangles(flat), triangles(flat).length + 3);
        tri[tri.length - 3] = nv;
        tri[tri.length - 2] = nv + 1;
        tri[tri.length - 1] = nv + 2;
        assertTrue(compareEverything(TriangleMesh.of(big, tri), 4) > 300);
    }

    private static double[] flat(TriangleMesh m) {
        double[] v = new double[3 * m.vertexCount()];
        for (int i = 0; i < m.vertexCount(); i++) {
            v[3 * i] = m.vertex(i, 0);
            v[3 * i + 1] = m.vertex(i, 1);
        }
        return v;
    }

    private static int[] triangles(TriangleMesh m) {
        int[] t = new int[3 * m.triangleCount()];
        for (int i = 0; i < t.length; i++) {
            t[i] = m.triangleVertex(i / 3, i % 3);
        }
        return t;
    }

    @Test
    void zeroAreaTrianglesAreRefusedByTheMeshAndLeftOutByTheReaders() throws Exception {
        double[] v = {0, 0, 0, 1, 0, 0, 0, 1, 0, 2, 0, 0};
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TriangleMesh.of(v, new int[] {0, 1, 2, 0, 1, 3}));
        assertTrue(e.getMessage().contains("triangle mesh triangle 1") && e.getMessage().contains("zero area"),
                e.getMessage());
        TriangleSoup soup = new TriangleSoup("flat.stl", 1, 1, 1);
        soup.triangle(new double[] {0, 0, 0, 1, 0, 0, 0, 1, 0}, "triangle 0");
        soup.triangle(new double[] {0, 0, 0, 1, 0, 0, 2, 0, 0}, "triangle 1"); // collinear
        soup.triangle(new double[] {1, 1, 1, 1, 1, 1, 1, 1, 1}, "triangle 2"); // a point
        soup.triangle(new double[] {1, 0, 0, 1, 1, 0, 0, 1, 0}, "triangle 3");
        LoadedMesh loaded = soup.build();
        assertEquals(List.of("flat.stl: 2 zero-area triangles left out (the first at triangle 1)"), loaded.warnings());
        assertEquals(2, loaded.mesh().triangleCount());
        assertTrue(compareEverything(loaded.mesh(), 5) > 100);
        // the boxes themselves: a point box is fine, a bad one is named
        assertEquals(1, TriangleBvh.of(new double[] {1, 1, 1, 1, 1, 1}).triangleCount());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TriangleBvh.of(new double[] {0, 0, 0, 1, 1,
            1, 0, 2, 0, 1, 1, 1})).getMessage().contains("triangle box 1 has bounds [2.0, 1.0] along y"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TriangleBvh.of(new double[] {0, 0, 0,
            Double.NaN, 1, 1})).getMessage().contains("triangle box 0"));
        assertThrows(IllegalArgumentException.class, () -> TriangleBvh.of(new double[0]));
        assertThrows(IllegalArgumentException.class, () -> TriangleBvh.of(new double[7]));
        TriangleBvh bvh = TriangleBvh.of(new double[] {0, 0, 0, 1, 1, 1});
        assertThrows(IllegalArgumentException.class, () -> bvh.overlapping(new double[6], new int[0], new int[1]));
        assertThrows(IllegalArgumentException.class, () -> bvh.overlapping(new double[6], new int[1], new int[0]));
    }

    @Test
    void theSortOrdersAnyLength() {
        Random rnd = new Random(17);
        for (int n : new int[] {0, 1, 2, 31, 32, 33, 100, 5000}) {
            int[] a = new int[n + 3];
            for (int i = 0; i < a.length; i++) {
                a[i] = rnd.nextInt(Math.max(1, n / 2 + 1)) * (rnd.nextBoolean() ? 1 : 7);
            }
            int[] expected = a.clone();
            Arrays.sort(expected, 0, n);
            TriangleBvh.sort(a, n);
            assertArrayEquals(expected, a, "n = " + n);
        }
    }

    @Test
    void queriesAndMeshRaysDoNotAllocate() {
        TriangleMesh mesh = terrain(100);
        Placement place = placements()[2];
        TriangleBvh bvh = mesh.bvh(place);
        int[] out = new int[bvh.triangleCount()];
        int[] stack = new int[bvh.stackSize()];
        Random rnd = new Random(19);
        List<double[]> boxes = queries(rootBox(bvh), 64, rnd);
        double[][] origins = new double[64][], directions = new double[64][];
        for (int i = 0; i < 64; i++) {
            origins[i] = new double[] {10 * rnd.nextDouble(), 10 * rnd.nextDouble(), 1 + rnd.nextDouble()};
            directions[i] = unit(rnd);
        }
        RayCast rays = new RayCast();
        RayHit hit = new RayHit();
        int[] round = {0};
        long bytes = Allocations.allocatedBytes(500, () -> {
            int k = round[0]++ & 63;
            bvh.overlapping(boxes.get(k), out, stack);
            rays.cast(mesh, place, origins[k], directions[k], 20, hit);
        });
        assertTrue(bytes < 4096, "queries and ray casts allocated " + bytes + " bytes in 500 rounds");
    }
}
