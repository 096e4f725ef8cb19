package org.symdyn.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.symdyn.contact.ContactSet;
import org.symdyn.contact.MeshScans;
import org.symdyn.contact.ShapeContactDetection;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.geometry.Capsule;
import org.symdyn.geometry.ConvexHull;
import org.symdyn.geometry.MeshFiles;
import org.symdyn.geometry.MeshScanRays;
import org.symdyn.geometry.Placement;
import org.symdyn.geometry.RayCast;
import org.symdyn.geometry.RayHit;
import org.symdyn.geometry.TriangleMesh;
import org.symdyn.model.Model;
import org.symdyn.spatial.Pose;
import org.symdyn.testing.ShapeScenes;

/**
 * The static-mesh index ({@link org.symdyn.geometry.TriangleBvh}) on {@link BowlDemo}'s bowl (its OBJ file read
 * back, 2,352 triangles): contact detection of a sphere, a box, a capsule and a hull at random poses in the bowl
 * (resting on it, sunk up to 2 cm, lifted up to 2 cm, turned at random) gives the same contacts in the same order,
 * bit for bit, as the scan of every triangle ({@link MeshScans#scanning}); rays from inside and around the bowl and
 * Lidar fans from above its bottom hit what the scan hits ({@link MeshScanRays#scanning}), bit for bit.
 */
class BowlMeshIndexTest {
    private static TriangleMesh bowl(Path dir) throws Exception {
        BowlDemo.writeScene(dir);
        TriangleMesh mesh = MeshFiles.readObj(dir.resolve("bowl.obj"), 1, 1, 1).mesh();
        assertEquals(2352, mesh.triangleCount());
        return mesh;
    }

    @Test
    void detectionInTheBowlEqualsTheScan(@TempDir Path dir) throws Exception {
        TriangleMesh bowl = bowl(dir);
        Random rnd = new Random(31);
        double[] points = new double[3 * 20];
        for (int i = 0; i < points.length; i++) {
            points[i] = 0.06 * (2 * rnd.nextDouble() - 1);
        }
        Model model = new ShapeScenes("bowl_shapes").shape("bowl", "world", Pose.IDENTITY, bowl, 0.8)
                .freeSphere("ball", 0.2, BowlDemo.BALL_RADIUS, 0.8)
                .freeBox("box", 0.3, 0.05, 0.04, 0.03, 0.6)
                .freeBody("rod", 0.1, 1e-3, 1e-3, 1e-4, new Capsule(0.02, 0.06), 0.7)
                .freeBody("rock", 0.1, 1e-3, 1e-3, 1e-3, ConvexHull.of(points), 0.9)
                .build();
        GenericDynamics d = new GenericDynamics(model);
        ContactSet set = ContactSet.of(model, 512);
        ShapeContactDetection indexed = new ShapeContactDetection(set, d);
        ShapeContactDetection scanning = MeshScans.scanning(set, d);
        RayCast rays = new RayCast();
        RayHit hit = new RayHit();
        double[] q = new double[28];
        double[] v = new double[24];
        int contacts = 0, touching = 0;
        for (int i = 0; i < 600; i++) {
            for (int b = 0; b < 4; b++) {
                double r = 0.33 * Math.sqrt(rnd.nextDouble()), a = 2 * Math.PI * rnd.nextDouble();
                double x = r * Math.cos(a), y = r * Math.sin(a);
                assertTrue(rays.cast(bowl, new Placement(), new double[] {x, y, 1}, new double[] {0, 0, -1}, 2, hit));
                double reach = b == 0 ? BowlDemo.BALL_RADIUS : 0.05;
                double[] u = new double[4];
                double n = 0;
                for (int k = 0; k < 4; k++) {
                    u[k] = rnd.nextGaussian();
                    n += u[k] * u[k];
                }
                q[7 * b] = x;
                q[7 * b + 1] = y;
                q[7 * b + 2] = hit.point(2) + reach + 0.04 * rnd.nextDouble() - 0.02;
                for (int k = 0; k < 4; k++) {
                    q[7 * b + 3 + k] = u[k] / Math.sqrt(n);
                }
            }
            for (int k = 0; k < v.length; k++) {
                v[k] = 0.5 * rnd.nextGaussian();
            }
            boolean moving = i % 2 == 1;
            scanning.detect(q, moving ? v : null, moving ? BowlDemo.H : 0, 1e-3);
            indexed.detect(q, moving ? v : null, moving ? BowlDemo.H : 0, 1e-3);
            int c = MeshScans.assertSameContacts(scanning, indexed, "pose " + i);
            contacts += c;
            touching += c > 0 ? 1 : 0;
        }
        System.out.printf("# BowlMeshIndexTest: %d contacts on %d of 600 random poses of four shapes in the bowl,"
                + " equal to the scan%n", contacts, touching);
        assertTrue(contacts > 1000 && touching > 500, contacts + " contacts on " + touching + " poses");
    }

    @Test
    void raysInTheBowlEqualTheScan(@TempDir Path dir) throws Exception {
        TriangleMesh bowl = bowl(dir);
        RayCast indexed = new RayCast(), scanning = MeshScanRays.scanning();
        RayHit a = new RayHit(), b = new RayHit();
        Random rnd = new Random(32);
        Placement[] placements = {new Placement(), Placement.of(Pose.fromXyzRpy(new double[] {1, 2, 0.5},
            new double[] {0.2, -0.1, 1.1}))};
        int rays = 0, hits = 0;
        for (Placement at : placements) {
            for (int i = 0; i < 4000; i++) {
                double[] local = {0.9 * rnd.nextDouble() - 0.45, 0.9 * rnd.nextDouble() - 0.45, 0.6 * rnd.nextDouble()
                    - 0.1};
                double[] o = new double[3];
                at.toWorld(local, o);
                double[] d = {rnd.nextGaussian(), rnd.nextGaussian(), rnd.nextGaussian()};
                boolean e = scanning.cast(bowl, at, o, d, 2, a);
                MeshScanRays.assertSameHit(e, a, indexed.cast(bowl, at, o, d, 2, b), b, "ray " + i);
                hits += e ? 1 : 0;
                rays++;
            }
            // a Lidar 5 cm above the bottom: 32 rows from −60° to +30°, 360 samples round
            double[] o = new double[3];
            at.toWorld(new double[] {0.01, -0.02, 0.05}, o);
            for (int row = 0; row < 32; row++) {
                double phi = Math.toRadians(-60 + 90.0 * row / 31);
                for (int k = 0; k < 360; k++) {
                    double theta = Math.toRadians(k);
                    double[] local = {Math.cos(phi) * Math.cos(theta), Math.cos(phi) * Math.sin(theta), Math.sin(phi)};
                    double[] d = new double[3];
                    at.rotateToWorld(local, d);
                    boolean e = scanning.cast(bowl, at, o, d, 1, a);
                    MeshScanRays.assertSameHit(e, a, indexed.cast(bowl, at, o, d, 1, b), b, "fan " + row + ", " + k);
                    hits += e ? 1 : 0;
                    rays++;
                }
            }
        }
        System.out.printf("# BowlMeshIndexTest: %d rays on the bowl at 2 placements, %d hits, equal to the scan%n",
                rays, hits);
        assertTrue(hits > rays / 2 && hits < rays, hits + " of " + rays);
    }
}
