package org.symdyn.geometry;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.symdyn.spatial.Rotations;

/**
 * GJK/EPA on shapes that touch (d = 0) with a known exact contact, within 1e-9 m: two boxes as hulls face to face,
 * two hulls edge to edge, a tetrahedron on a box at a vertex, random hulls moved into touching along a random
 * direction, and coplanar zero-thickness plates (mesh triangles), whose Minkowski difference is flat: touching edge
 * to edge, vertex to edge, vertex to vertex, and overlapping within their common plane (depth 0, a common point as
 * both witnesses). Each result must have its witnesses on both surfaces and b − a = d n, and must be the same bit
 * for bit on a fresh instance and on one instance after any earlier query.
 */
class GjkEpaTouchingTest {
    private static final double TOL = 1e-9;

    private final Random random = new Random(20261202L);

    /** One query with its shapes and placements. */
    private record Query(String name, ConvexShape a, Placement pa, ConvexShape b, Placement pb) {
        void run(GjkEpa gjk, DistanceResult out) {
            gjk.distance(a, pa, b, pb, out);
        }
    }

    @Test
    void boxesAsHullsFaceToFace() {
        List<Query> queries = new ArrayList<>();
        for (int k = 0; k < 200; k++) {
            Box a = box(), b = box();
            // A turned by a half turn or not about z: its faces stay axis-aligned with the same extents.
            double[] r = Rotations.fromRpy(0, 0, random.nextInt(2) * Math.PI);
            Placement pa = new Placement().set(r, 0, new double[] {0.1, -0.2, 0.3}, 0);
            // B's bottom face on A's top face, shifted within the face so that the faces overlap.
            double x = 0.1 + (a.halfExtent(0) + b.halfExtent(0)) * (1.8 * random.nextDouble() - 0.9);
            double y = -0.2 + (a.halfExtent(1) + b.halfExtent(1)) * (1.8 * random.nextDouble() - 0.9);
            double z = 0.3 + a.halfExtent(2) + b.halfExtent(2);
            Placement pb = new Placement().setTranslation(x, y, z);
            queries.add(new Query("faces " + k, GjkEpaTest.boxHull(a), pa, GjkEpaTest.boxHull(b), pb));
        }
        checkAll(queries);
    }

    @Test
    void hullOnHullEdgeToEdge() {
        List<Query> queries = new ArrayList<>();
        for (int k = 0; k < 200; k++) {
            Box a = cube(), b = cube();
            double ha = a.halfExtent(0), hb = b.halfExtent(0);
            // A turned 45° about x: its top edge runs along x at height ha √2; B turned 45° about y: its bottom
            // edge runs along y at depth hb √2 below its centre.
            Placement pa = new Placement().set(Rotations.fromRpy(Math.PI / 4, 0, 0), 0, new double[3], 0);
            double s = ha * random.nextDouble() - ha / 2, t = hb * random.nextDouble() - hb / 2;
            Placement pb = new Placement().set(Rotations.fromRpy(0, Math.PI / 4, 0), 0,
                    new double[] {s, t, (ha + hb) * Math.sqrt(2)}, 0);
            queries.add(new Query("edges " + k, GjkEpaTest.boxHull(a), pa, GjkEpaTest.boxHull(b), pb));
        }
        checkAll(queries);
    }

    @Test
    void tetrahedronOnABoxAtAVertex() {
        List<Query> queries = new ArrayList<>();
        for (int k = 0; k < 200; k++) {
            Box box = box();
            // A tetrahedron standing on its vertex at its frame's origin, the other three above it.
            double h = 0.1 + 0.3 * random.nextDouble(), w = 0.05 + 0.3 * random.nextDouble();
            ConvexHull tetrahedron = ConvexHull.of(0, 0, 0, w, 0, h, -w / 2, w, h, -w / 2, -w, h);
            Placement pa = new Placement();
            Placement pb = new Placement().set(Rotations.fromRpy(0, 0, 2 * Math.PI * random.nextDouble()), 0,
                    new double[] {box.halfExtent(0) * (1.8 * random.nextDouble() - 0.9),
                        box.halfExtent(1) * (1.8 * random.nextDouble() - 0.9), box.halfExtent(2)}, 0);
            queries.add(new Query("vertex " + k, GjkEpaTest.boxHull(box), pa, tetrahedron, pb));
        }
        checkAll(queries);
    }

    @Test
    void randomHullsMovedIntoTouching() {
        List<Query> queries = new ArrayList<>();
        for (int k = 0; k < 300; k++) {
            ConvexHull a = randomHull(4 + random.nextInt(12)), b = randomHull(4 + random.nextInt(12));
            Placement pa = Exact.randomPlacement(random, 0.4), pb = Exact.randomPlacement(random, 0.4);
            double[] m = unit(random.nextGaussian(), random.nextGaussian(), random.nextGaussian());
            // Move B so that its lowest vertex along m lands on A's highest: the plane through that point normal
            // to m separates them, and they share the point.
            double[] top = extremeVertex(a, pa, m), bottom = extremeVertex(b, pb, new double[] {-m[0], -m[1], -m[2]});
            Placement touching = Exact.translated(pb, top[0] - bottom[0], top[1] - bottom[1], top[2] - bottom[2]);
            queries.add(new Query("random " + k, a, pa, b, touching));
        }
        checkAll(queries);
    }

    @Test
    void coplanarPlatesTouchOrOverlapWithinTheirPlane() {
        List<Query> queries = new ArrayList<>();
        for (int k = 0; k < 400; k++) {
            // Both plates in the plane z = 0 of a random placement of the mesh frame.
            Placement p = Exact.randomPlacement(random, 0.4);
            double ax = 0.1 + 0.3 * random.nextDouble(), ay = 0.1 + 0.3 * random.nextDouble();
            double[] first = {0, 0, 0, ax, 0, 0, 0.3 * ax * random.nextDouble(), ay, 0};
            double[] second;
            String kind;
            double bx = 0.1 + 0.3 * random.nextDouble(), by = 0.1 + 0.3 * random.nextDouble();
            double shift = ax * random.nextDouble();
            switch (k % 4) {
                case 0 -> { // edge on edge: the second below the first's edge y = 0, sharing part of it
                    kind = "edge to edge";
                    second = new double[] {shift - bx / 2, 0, 0, shift + bx / 2, 0, 0, shift, -by, 0};
                }
                case 1 -> { // vertex on edge: the second's corner on the first's edge y = 0
                    kind = "vertex to edge";
                    second = new double[] {shift, 0, 0, shift + bx / 2, -by, 0, shift - bx / 2, -by, 0};
                }
                case 2 -> { // vertex on vertex: corner (0, 0) of both
                    kind = "vertex to vertex";
                    second = new double[] {0, 0, 0, -bx, -by / 2, 0, -bx / 2, -by, 0};
                }
                default -> { // overlapping within the plane: the second's corner inside the first
                    kind = "overlapping";
                    double cx = 0.2 * ax, cy = 0.2 * ay * random.nextDouble();
                    second = new double[] {cx, cy, 0, cx + bx, cy - by / 2, 0, cx + bx / 2, cy - by, 0};
                }
            }
            queries.add(new Query("plates " + kind + " " + k, plate(first), p, plate(second), p));
        }
        checkAll(queries);
    }

    /**
     * Each query on a fresh instance, then again on one instance after each of a set of earlier queries (apart,
     * deep, touching, flat): the witnesses on both surfaces, b − a = d n with d = 0, the results identical.
     */
    private void checkAll(List<Query> queries) {
        List<Query> earlier = earlierQueries();
        GjkEpa shared = new GjkEpa();
        DistanceResult fresh = new DistanceResult(), again = new DistanceResult(), scratch = new DistanceResult();
        for (int q = 0; q < queries.size(); q++) {
            Query query = queries.get(q);
            query.run(new GjkEpa(), fresh);
            String label = query.name() + " " + fresh;
            assertEquals(0, fresh.distance(), TOL, label + ": touching, d = 0");
            onSurface(query.a(), query.pa(), fresh.pointA, label + ": a on A");
            onSurface(query.b(), query.pb(), fresh.pointB, label + ": b on B");
            assertEquals(1, Exact.norm(fresh.normal), 1e-14, label + ": |n|");
            for (int i = 0; i < 3; i++) {
                assertEquals(fresh.distance() * fresh.normal(i), fresh.pointB(i) - fresh.pointA(i), TOL,
                        label + ": b - a = d n, component " + i);
            }
            for (int e = 0; e < earlier.size(); e++) {
                earlier.get((e + q) % earlier.size()).run(shared, scratch);
                query.run(shared, again);
                String after = label + " after " + earlier.get((e + q) % earlier.size()).name();
                assertEquals(fresh.distance(), again.distance(), 0, after + ": d");
                assertArrayEquals(fresh.normal, again.normal, 0, after + ": n");
                assertArrayEquals(fresh.pointA, again.pointA, 0, after + ": a");
                assertArrayEquals(fresh.pointB, again.pointB, 0, after + ": b");
                assertEquals(fresh.iterations(), again.iterations(), after + ": iterations");
                assertEquals(fresh.converged(), again.converged(), after + ": converged");
            }
        }
    }

    /** Earlier queries that leave different state behind: apart, overlapping deep and shallow, touching, flat. */
    private List<Query> earlierQueries() {
        List<Query> out = new ArrayList<>();
        ConvexHull cube = GjkEpaTest.boxHull(new Box(0.5, 0.5, 0.5));
        out.add(new Query("apart", cube, new Placement(), cube, new Placement().setTranslation(1.3, 0.2, 0.1)));
        out.add(new Query("coincident", cube, new Placement(), cube, new Placement()));
        out.add(new Query("shallow", cube, new Placement(), GjkEpaTest.boxHull(new Box(0.1, 0.2, 0.3)),
                Exact.randomPlacement(new Random(7), 0.6)));
        out.add(new Query("sphere in cube", cube, new Placement(), new Sphere(0.2),
                new Placement().setTranslation(0.1, 0.2, 0.3)));
        out.add(new Query("crossed plates", plate(new double[] {0, 0, 0, 1, 0, 0, 0, 1, 0}), new Placement(),
                plate(new double[] {0.2, 0.2, -0.5, 0.3, 0.2, 0.5, 0.2, 0.4, 0.1}), new Placement()));
        out.add(new Query("coplanar plates", plate(new double[] {0, 0, 0, 1, 0, 0, 0, 1, 0}), new Placement(),
                plate(new double[] {0.1, 0.1, 0, 0.9, 0.3, 0, 0.4, 0.6, 0}), new Placement()));
        return out;
    }

    /** Asserts that the world point x lies on the shape's surface within {@link #TOL}. */
    private static void onSurface(ConvexShape shape, Placement p, double[] x, String what) {
        if (shape instanceof MeshTriangle t) {
            double[] local = new double[3];
            p.toLocal(x, local);
            assertEquals(0, triangleDistance(t.v, local), TOL, what);
        } else {
            assertEquals(0, Exact.signedDistance((Shape) shape, p, x), TOL, what);
        }
    }

    /** The distance from x to the triangle of corners v (9 entries): inside the prism over it, or to its edges. */
    private static double triangleDistance(double[] v, double[] x) {
        double[] a = {v[0], v[1], v[2]}, b = {v[3], v[4], v[5]}, c = {v[6], v[7], v[8]};
        double[] n = cross(sub(b, a), sub(c, a));
        double nl = Exact.norm(n);
        double[][] corners = {a, b, c};
        boolean inside = true;
        for (int e = 0; e < 3; e++) {
            double[] p = corners[e], q = corners[(e + 1) % 3];
            if (Exact.dot(cross(sub(q, p), sub(x, p)), n) < 0) {
                inside = false;
            }
        }
        if (inside) {
            return Math.abs(Exact.dot(n, sub(x, a))) / nl;
        }
        return Math.min(Exact.segmentDistance(x, a, b), Math.min(Exact.segmentDistance(x, b, c),
                Exact.segmentDistance(x, c, a)));
    }

    private static MeshTriangle plate(double[] corners) {
        MeshTriangle t = new MeshTriangle();
        t.set(TriangleMesh.of(corners, new int[] {0, 1, 2}), 0);
        return t;
    }

    private Box box() {
        return new Box(0.05 + 0.45 * random.nextDouble(), 0.05 + 0.45 * random.nextDouble(),
                0.05 + 0.45 * random.nextDouble());
    }

    private Box cube() {
        double h = 0.05 + 0.45 * random.nextDouble();
        return new Box(h, h, h);
    }

    private ConvexHull randomHull(int n) {
        return randomHull(random, n);
    }

    /** The hull of n points scattered about (0.05, 0.05, 0.05) with deviation 0.3 m. */
    static ConvexHull randomHull(Random random, int n) {
        double[] p = new double[3 * n];
        for (int i = 0; i < 3 * n; i++) {
            p[i] = 0.05 + 0.3 * random.nextGaussian();
        }
        return ConvexHull.of(p);
    }

    /** The hull's vertex (world) with the largest m · x. */
    static double[] extremeVertex(ConvexHull h, Placement p, double[] m) {
        double[] best = null, x = new double[3];
        for (int i = 0; i < h.vertexCount(); i++) {
            for (int k = 0; k < 3; k++) {
                x[k] = h.vertex(i, k);
            }
            p.toWorld(x, x);
            if (best == null || Exact.dot(m, x) > Exact.dot(m, best)) {
                best = x.clone();
            }
        }
        return best;
    }

    private static double[] unit(double x, double y, double z) {
        double l = Math.sqrt(x * x + y * y + z * z);
        return new double[] {x / l, y / l, z / l};
    }

    private static double[] sub(double[] x, double[] y) {
        return new double[] {x[0] - y[0], x[1] - y[1], x[2] - y[2]};
    }

    private static double[] cross(double[] x, double[] y) {
        return new double[] {x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]};
    }
}
