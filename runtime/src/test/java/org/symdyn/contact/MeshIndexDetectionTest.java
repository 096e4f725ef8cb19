package org.symdyn.contact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.geometry.Capsule;
import org.symdyn.geometry.ConvexHull;
import org.symdyn.geometry.Placement;
import org.symdyn.geometry.RayCast;
import org.symdyn.geometry.RayHit;
import org.symdyn.geometry.TriangleMesh;
import org.symdyn.model.Model;
import org.symdyn.spatial.Pose;
import org.symdyn.testing.ShapeScenes;
import org.symdyn.testing.Terrains;

/**
 * Contact detection with a static mesh through its index ({@link org.symdyn.geometry.TriangleBvh}) equals the scan
 * of every triangle it replaces ({@link MeshScans#scanning}): on a terrain of 20,000 triangles (at the identity and
 * turned and moved), a sphere, a box, a capsule and a hull at random poses over it (resting, sunk up to 5 cm,
 * lifted up to 5 cm, turned at random), the same contacts in the same order bit for bit, with and without the speed
 * margin, and when the contact bound drops some. The indexed detection allocates nothing.
 */
class MeshIndexDetectionTest {
    /** Radii and half extents of the moving shapes (m). */
    private static final double R = 0.1;

    private static Model scene(Pose terrainPose) {
        TriangleMesh terrain = Terrains.heightfield(100, 100, 0.1, 0.02, 3L);
        Random rnd = new Random(4);
        double[] points = new double[3 * 24];
        for (int i = 0; i < points.length; i++) {
            points[i] = 0.12 * (2 * rnd.nextDouble() - 1);
        }
        return new ShapeScenes("terrain").shape("terrain", "world", terrainPose, terrain, 0.8)
                .freeSphere("ball", 1, R, 0.6)
                .freeBox("box", 1, 0.1, 0.15, 0.08, 0.5)
                .freeBody("rod", 1, 0.01, 0.01, 0.001, new Capsule(0.05, 0.2), 0.7)
                .freeBody("rock", 1, 0.01, 0.01, 0.01, ConvexHull.of(points), 0.9)
                .build();
    }

    /** Random poses over the terrain: each body at a random place, turned at random, its centre near the surface. */
    private static void randomPoses(Random rnd, TriangleMesh terrain, Placement at, double[] q) {
        RayCast rays = new RayCast();
        RayHit hit = new RayHit();
        for (int b = 0; b < 4; b++) {
            double[] local = {0.5 + 9 * rnd.nextDouble(), 0.5 + 9 * rnd.nextDouble(), 5};
            double[] o = new double[3];
            at.toWorld(local, o);
            double[] down = {-at.rotation(0, 2), -at.rotation(1, 2), -at.rotation(2, 2)};
            assertTrue(rays.cast(terrain, at, o, down, 20, hit), "the terrain under a body");
            double lift = (b == 0 ? R : 0.1) + 0.1 * rnd.nextDouble() - 0.05;
            double[] x = new double[4];
            double norm = 0;
            for (int k = 0; k < 4; k++) {
                x[k] = rnd.nextGaussian();
                norm += x[k] * x[k];
            }
            norm = Math.sqrt(norm);
            q[7 * b] = hit.point(0) - lift * down[0];
            q[7 * b + 1] = hit.point(1) - lift * down[1];
            q[7 * b + 2] = hit.point(2) - lift * down[2];
            for (int k = 0; k < 4; k++) {
                q[7 * b + 3 + k] = x[k] / norm;
            }
        }
    }

    /** Contacts and dropped contacts in all. */
    private static int[] compare(Pose terrainPose, int capacity, int poses, long seed) {
        Model model = scene(terrainPose);
        GenericDynamics d = new GenericDynamics(model);
        ContactSet set = ContactSet.of(model, capacity);
        ShapeContactDetection indexed = new ShapeContactDetection(set, d);
        ShapeContactDetection scanning = MeshScans.scanning(set, d);
        TriangleMesh terrain = (TriangleMesh) set.shapes().get(0).shape();
        Placement at = Placement.of(terrainPose);
        Random rnd = new Random(seed);
        double[] q = new double[28];
        double[] v = new double[24];
        int contacts = 0;
        int dropped = 0;
        for (int i = 0; i < poses; i++) {
            randomPoses(rnd, terrain, at, q);
            for (int k = 0; k < v.length; k++) {
                v[k] = rnd.nextGaussian();
            }
            boolean moving = i % 2 == 0;
            scanning.detect(q, moving ? v : null, moving ? 1e-3 : 0, 1e-3);
            indexed.detect(q, moving ? v : null, moving ? 1e-3 : 0, 1e-3);
            contacts += MeshScans.assertSameContacts(scanning, indexed, "pose " + i);
            dropped += indexed.dropped();
        }
        return new int[] {contacts, dropped};
    }

    @Test
    void theIndexFindsTheScansContactsOnATerrain() {
        int flat = compare(Pose.IDENTITY, ContactSet.DEFAULT_MAX_SHAPE_CONTACTS, 400, 21)[0];
        int turned = compare(Pose.fromXyzRpy(new double[] {-2, 3, 0.5}, new double[] {0.1, -0.05, 0.7}),
                ContactSet.DEFAULT_MAX_SHAPE_CONTACTS, 400, 22)[0];
        System.out.printf("# MeshIndexDetectionTest: %d and %d contacts on 400 + 400 random poses of four shapes"
                + " over 20000 triangles, equal to the scan%n", flat, turned);
        assertTrue(flat > 800 && turned > 800, flat + ", " + turned + " contacts");
    }

    @Test
    void theIndexDropsWhatTheScanDropsBeyondTheBound() {
        int[] counts = compare(Pose.IDENTITY, 6, 200, 23);
        assertTrue(counts[0] > 200 && counts[1] > 0, counts[0] + " contacts, " + counts[1] + " dropped");
    }

    @Test
    void theMeshsBoundsWithAMarginAreItsBoundsMovedOutByIt() {
        // the detection keeps a static mesh's world box and adds the margin each step instead of asking Bounds
        // (a pass over the vertices): the same numbers, since rounding x − m is monotone in x
        TriangleMesh terrain = Terrains.heightfield(60, 40, 0.1, 0.02, 5L);
        org.symdyn.geometry.Bounds bounds = new org.symdyn.geometry.Bounds();
        Random rnd = new Random(25);
        for (Pose pose : new Pose[] {Pose.IDENTITY, Pose.fromXyzRpy(new double[] {-2.3, 3.7, 0.51},
            new double[] {0.1, -0.05, 0.7})}) {
            Placement at = Placement.of(pose);
            double[] base = new double[6], widened = new double[6];
            bounds.of(terrain, at, 0, base);
            for (int i = 0; i < 200; i++) {
                double m = i == 0 ? 0 : Math.exp(-20 * rnd.nextDouble());
                bounds.of(terrain, at, m, widened);
                for (int k = 0; k < 3; k++) {
                    assertEquals(widened[k], base[k] - m, "min " + k + ", margin " + m);
                    assertEquals(widened[3 + k], base[3 + k] + m, "max " + k + ", margin " + m);
                }
            }
        }
    }

    @Test
    void detectionOnTheTerrainAllocatesNothing() {
        Model model = scene(Pose.IDENTITY);
        GenericDynamics d = new GenericDynamics(model);
        ContactSet set = ContactSet.of(model);
        ShapeContactDetection indexed = new ShapeContactDetection(set, d);
        TriangleMesh terrain = (TriangleMesh) set.shapes().get(0).shape();
        Random rnd = new Random(24);
        double[][] qs = new double[32][28];
        for (double[] q : qs) {
            randomPoses(rnd, terrain, new Placement(), q);
        }
        double[] v = new double[24];
        int[] round = {0};
        long bytes = AllocationProbe.allocatedBytesSettled(200, () -> indexed.detect(qs[round[0]++ & 31], v, 1e-3,
                1e-3));
        assertEquals(0, bytes, "bytes allocated by 200 detections (the quietest of six passes)");
    }
}
