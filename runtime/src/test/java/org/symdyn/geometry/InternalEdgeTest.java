package org.symdyn.geometry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The internal-edge problem of static meshes ({@link TriangleMesh#neighbourSides}, {@link Narrowphase#triangleManifold}):
 * a sphere over a flat mesh of many triangles gets only the face normal from every triangle, wherever it is
 * (across diagonals and at vertices where six triangles meet); at a convex ridge, the edge's normals between the two
 * faces' normals stay; at a concave valley, only the faces' contacts.
 */
class InternalEdgeTest {
    private static final double R = 0.1;

    /** A flat 2 x 2 grid of cells on z = 0, each cell split in two along alternating diagonals (vertices repeated). */
    private static TriangleMesh flatGrid() {
        int n = 2;
        double[] v = new double[3 * 6 * n * n];
        int[] f = new int[6 * n * n];
        int vi = 0, fi = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                double x0 = i - 1, y0 = j - 1, x1 = i, y1 = j;
                double[][] tri = (i + j) % 2 == 0
                        ? new double[][] {{x0, y0, x1, y0, x1, y1}, {x0, y0, x1, y1, x0, y1}}
                        : new double[][] {{x0, y0, x1, y0, x0, y1}, {x1, y0, x1, y1, x0, y1}};
                for (double[] t : tri) {
                    for (int c = 0; c < 3; c++) {
                        v[3 * vi] = t[2 * c];
                        v[3 * vi + 1] = t[2 * c + 1];
                        f[fi++] = vi++;
                    }
                }
            }
        }
        return TriangleMesh.of(v, f);
    }

    @Test
    void aFlatMeshGivesOnlyItsFaceNormal() {
        TriangleMesh mesh = flatGrid();
        Narrowphase np = new Narrowphase();
        ContactManifold m = new ContactManifold();
        Placement pm = new Placement();
        Random rnd = new Random(11);
        Shape[] shapes = {new Sphere(R), new Sphere(0.5 * R)};
        int contacts = 0;
        for (int trial = 0; trial < 4000; trial++) {
            Shape s = shapes[trial % 2];
            double x = 1.6 * rnd.nextDouble() - 0.8, y = 1.6 * rnd.nextDouble() - 0.8;
            if (trial % 5 == 0) {
                x = 0.3 * (rnd.nextDouble() - 0.5) * 1e-3; // around the vertex where six triangles meet
            } else if (trial % 5 == 1) {
                y = x + 1e-3 * (rnd.nextDouble() - 0.5); // across a diagonal
            }
            double r = ((Sphere) s).radius();
            double z = r + 0.004 * rnd.nextDouble() - 0.002; // up to 2 mm sunk or lifted
            Placement ps = new Placement().setTranslation(x, y, z);
            boolean any = false;
            for (int t = 0; t < mesh.triangleCount(); t++) {
                np.triangleManifold(mesh, t, pm, s, ps, 0.01, m);
                for (int p = 0; p < m.count(); p++) {
                    any = true;
                    contacts++;
                    assertEquals(0, m.normal(0), 1e-12, "normal x, triangle " + t + " at " + x + ", " + y);
                    assertEquals(0, m.normal(1), 1e-12, "normal y, triangle " + t + " at " + x + ", " + y);
                    assertEquals(z - r, m.distance(p), 1e-12, "gap");
                }
            }
            assertTrue(any, "a shape over the mesh touches it at " + x + ", " + y);
        }
        assertTrue(contacts >= 4000, "contacts " + contacts);
    }

    /**
     * A box lying on the same grid (random position and yaw, sunk or lifted by up to 2 mm): every contact from every
     * triangle has the face normal. Its contacts come from GJK and the face's clipped manifold, not from a closed
     * form as the sphere's, so the bound is GJK's rounding (1e-11; 3.7e-12 seen), not the sphere's 1e-12.
     */
    @Test
    void aBoxOnAFlatMeshGetsOnlyItsFaceNormal() {
        TriangleMesh mesh = flatGrid();
        Narrowphase np = new Narrowphase();
        ContactManifold m = new ContactManifold();
        Placement pm = new Placement();
        Random rnd = new Random(12);
        Box box = new Box(0.15, 0.1, 0.05);
        int contacts = 0;
        double worst = 0;
        for (int trial = 0; trial < 1000; trial++) {
            double x = 1.2 * rnd.nextDouble() - 0.6, y = 1.2 * rnd.nextDouble() - 0.6;
            double yaw = 2 * Math.PI * rnd.nextDouble();
            double c = Math.cos(yaw), sn = Math.sin(yaw);
            double z = 0.05 + 0.004 * rnd.nextDouble() - 0.002;
            Placement pb = new Placement().set(new double[] {c, -sn, 0, sn, c, 0, 0, 0, 1}, 0,
                    new double[] {x, y, z}, 0);
            for (int t = 0; t < mesh.triangleCount(); t++) {
                np.triangleManifold(mesh, t, pm, box, pb, 0.01, m);
                for (int p = 0; p < m.count(); p++) {
                    contacts++;
                    double tilt = Math.hypot(m.normal(0), m.normal(1));
                    worst = Math.max(worst, tilt);
                    assertTrue(tilt <= 1e-11, "normal tilted by " + tilt + ", triangle " + t + " at " + x + ", " + y
                            + ", yaw " + yaw);
                }
            }
        }
        assertTrue(contacts >= 1000, "contacts " + contacts);
        System.out.printf("box on a flat grid: %d contacts, largest tilt %.2e%n", contacts, worst);
    }

    /** Two triangles meeting at the edge x = 0 (along y), tilted by ±angle about it: a ridge (angle > 0) or a valley. */
    private static TriangleMesh fold(double angle) {
        double c = Math.cos(angle), s = Math.sin(angle);
        double[] v = {0, -1, 0, 0, 1, 0, -c, 0, -s, 0, 1, 0, 0, -1, 0, c, 0, -s};
        return TriangleMesh.of(v, new int[] {0, 2, 1, 3, 5, 4});
    }

    @Test
    void aRidgeKeepsItsEdgeNormalsAndAValleyOnlyItsFaces() {
        Narrowphase np = new Narrowphase();
        ContactManifold m = new ContactManifold();
        Placement pm = new Placement();
        for (double angle : new double[] {0.3, -0.3}) {
            TriangleMesh mesh = fold(angle);
            // front normals of the two faces point up (z > 0)
            for (double phi = -1.4; phi <= 1.4; phi += 0.01) {
                double cx = (R - 1e-4) * Math.sin(phi), cz = (R - 1e-4) * Math.cos(phi);
                Placement ps = new Placement().setTranslation(cx, 0.1, cz);
                for (int t = 0; t < 2; t++) {
                    np.triangleManifold(mesh, t, pm, new Sphere(R), ps, 0.01, m);
                    for (int p = 0; p < m.count() && m.normal(2) > 0; p++) { // front faces (detection's rule)
                        double lean = Math.atan2(m.normal(0), m.normal(2));
                        // every normal given is one the surface has there: within the arc at a ridge, a face's
                        // own normal at a valley
                        if (angle > 0) {
                            assertTrue(Math.abs(lean) <= angle + 1e-9, "ridge normal leans " + lean);
                        } else {
                            assertEquals(Math.abs(angle), Math.abs(lean), 1e-9, "valley normal leans " + lean);
                        }
                    }
                }
            }
        }
    }
}
