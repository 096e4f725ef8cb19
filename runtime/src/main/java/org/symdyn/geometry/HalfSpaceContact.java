package org.symdyn.geometry;

/**
 * The contact manifold of a half-space A (n · x ≤ c) and a convex shape B (world coordinates, metres; the
 * conventions of {@link ContactManifold}, the normal the half-space's outward normal n). B's candidate points are
 * the points of B that can be deepest: its support point along −n for a sphere, the two ends' for a capsule, the
 * eight vertices of a box, eight rim points of a cylinder (four on each cap at quarter turns, starting from the
 * deepest), a hull's vertices (for a large hull, those within the margin, found by a walk over its edges from its
 * deepest vertex); each with its exact distance n · x − c. Of those within the margin it keeps up to
 * four: the deepest, the farthest from it, and the two spanning the largest areas on either side of the line
 * through them, so that a face resting on the plane is supported at its corners. One instance holds the scratch:
 * no allocation per query; not thread-safe.
 */
public final class HalfSpaceContact {
    private final double[] normal = new double[3];
    private final double[] x = new double[3];
    private final double[] e1 = new double[3];
    private final double[] e2 = new double[3];
    private double offset;
    /** Relative slack of the walk's screening distance (see {@link #nearHull}). */
    private static final double SCREEN_SLACK = 1e-12;
    private int hullCandidates = -1; // a large hull's candidates in queue[0 .. hullCandidates), or -1
    private int[] visited = new int[0];
    private int[] queue = new int[0];
    /**
     * The candidates, each placed in the world once: world point (3 each) and distance, a large hull's in the walk's
     * order. The manifold's three passes read them here instead of transforming each point three times more (on
     * solo12's round feet, hulls of 291 to 670 vertices with tens within the margin, the transforms were the most
     * of the floor contacts' cost); the passes are plain loops over these arrays (they were calls per candidate
     * branching on the shape's kind: half of solo12's detection in a JFR profile, 174 of 367 samples).
     */
    private double[] walkWorld = new double[0];
    private double[] walkDistance = new double[0];
    private int stamp;
    private ConvexShape shape;
    private Placement place;

    /** Fills {@code out} with the points of B within {@code margin} (metres) of the half-space A, at most four. */
    public void manifold(HalfSpace a, Placement pa, ConvexShape b, Placement pb, double margin, ContactManifold out) {
        double c = PrimitiveDistance.worldPlane(a, pa, normal);
        manifold(normal[0], normal[1], normal[2], c, b, pb, margin, out);
    }

    /**
     * As {@link #manifold(HalfSpace, Placement, ConvexShape, Placement, double, ContactManifold)} for the world
     * half-space n · x ≤ c given by its unit outward normal n and offset c.
     */
    public void manifold(double nx, double ny, double nz, double c, ConvexShape b, Placement pb, double margin,
            ContactManifold out) {
        out.clear();
        normal[0] = nx;
        normal[1] = ny;
        normal[2] = nz;
        offset = c;
        out.setNormal(normal[0], normal[1], normal[2]);
        // B's bounding ball farther than the margin: no point of B can be within it. This spares a large hull's
        // support climb on every link far from a floor.
        if (nx * pb.p[0] + ny * pb.p[1] + nz * pb.p[2] - c - b.boundingRadius() > margin) {
            return;
        }
        shape = b;
        place = pb;
        prepare();
        hullCandidates = -1;
        if (b instanceof ConvexHull hull && hull.vertexCount() >= ConvexHull.CLIMB_FROM && !nearHull(hull, margin)) {
            return;
        }
        int n = hullCandidates >= 0 ? hullCandidates : gather();
        double[] w = walkWorld, dist = walkDistance;
        int p0 = -1;
        double deepest = Double.POSITIVE_INFINITY;
        for (int k = 0; k < n; k++) {
            double d = dist[k];
            if (d < deepest) {
                deepest = d;
                p0 = k;
            }
        }
        if (deepest > margin) {
            return;
        }
        double f0 = w[3 * p0], f1 = w[3 * p0 + 1], f2 = w[3 * p0 + 2];
        out.addFromB(deepest, f0, f1, f2);
        out.setFace(1);
        int p1 = -1;
        double far = 0;
        for (int k = 0; k < n; k++) {
            if (dist[k] <= margin) {
                double d2 = square(w[3 * k] - f0) + square(w[3 * k + 1] - f1) + square(w[3 * k + 2] - f2);
                if (d2 > far) {
                    far = d2;
                    p1 = k;
                }
            }
        }
        if (p1 < 0) {
            return;
        }
        out.addFromB(dist[p1], w[3 * p1], w[3 * p1 + 1], w[3 * p1 + 2]);
        // The largest areas on either side: n · ((x1 − x0) × (x − x0)).
        double ax = w[3 * p1] - f0, ay = w[3 * p1 + 1] - f1, az = w[3 * p1 + 2] - f2;
        int p2 = -1, p3 = -1;
        double most = 1e-12 * far, least = -1e-12 * far;
        for (int k = 0; k < n; k++) {
            if (dist[k] <= margin) {
                double bx = w[3 * k] - f0, by = w[3 * k + 1] - f1, bz = w[3 * k + 2] - f2;
                double area = nx * (ay * bz - az * by) + ny * (az * bx - ax * bz) + nz * (ax * by - ay * bx);
                if (area > most) {
                    most = area;
                    p2 = k;
                }
                if (area < least) {
                    least = area;
                    p3 = k;
                }
            }
        }
        if (p2 >= 0) {
            out.addFromB(dist[p2], w[3 * p2], w[3 * p2 + 1], w[3 * p2 + 2]);
        }
        if (p3 >= 0) {
            out.addFromB(dist[p3], w[3 * p3], w[3 * p3 + 1], w[3 * p3 + 2]);
        }
    }

    /**
     * B's candidates other than a large hull's walk (at most eight, or a small hull's vertices), each placed in the
     * world once, into the arrays the selection reads.
     *
     * @return their number
     */
    private int gather() {
        int n = candidates();
        ensureCandidates(n);
        for (int k = 0; k < n; k++) {
            keep(k, candidate(k));
        }
        return n;
    }

    private void ensureCandidates(int n) {
        if (walkDistance.length < n) {
            walkWorld = new double[3 * n]; // grows once to the most candidates met, then reused
            walkDistance = new double[n];
        }
    }

    /** Per-query set-up: for a cylinder, the rim directions e1 (towards the plane) and e2 (world). */
    private void prepare() {
        if (shape instanceof Cylinder) {
            double ux = place.r[2], uy = place.r[5], uz = place.r[8];
            double along = normal[0] * ux + normal[1] * uy + normal[2] * uz;
            double rx = -(normal[0] - along * ux), ry = -(normal[1] - along * uy), rz = -(normal[2] - along * uz);
            double len = Math.sqrt(rx * rx + ry * ry + rz * rz);
            if (len < 1e-12) {
                rx = place.r[0];
                ry = place.r[3];
                rz = place.r[6];
                len = 1;
            }
            e1[0] = rx / len;
            e1[1] = ry / len;
            e1[2] = rz / len;
            e2[0] = uy * e1[2] - uz * e1[1];
            e2[1] = uz * e1[0] - ux * e1[2];
            e2[2] = ux * e1[1] - uy * e1[0];
        }
    }

    /**
     * For a large hull: finds its deepest vertex by a support query along −n; false when even that one is farther
     * than the margin (no contact, found without visiting every vertex); else collects the vertices within the
     * margin by a walk over the hull's edges from the deepest (the vertices of a convex polytope on one side of a
     * plane are connected along its edges), as the candidates.
     */
    private boolean nearHull(ConvexHull hull, double margin) {
        // d_S = Rᵀ (−n): the direction in the hull's frame
        double dx = -(place.r[0] * normal[0] + place.r[3] * normal[1] + place.r[6] * normal[2]);
        double dy = -(place.r[1] * normal[0] + place.r[4] * normal[1] + place.r[7] * normal[2]);
        double dz = -(place.r[2] * normal[0] + place.r[5] * normal[1] + place.r[8] * normal[2]);
        int deepest = hull.supportIndex(dx, dy, dz);
        if (candidateOfHull(hull, deepest) > margin) {
            return false;
        }
        int n = hull.vertexCount();
        if (visited.length < n) {
            visited = new int[n]; // grows once to the largest hull met, then reused
            queue = new int[n];
            walkWorld = new double[3 * n];
            walkDistance = new double[n];
            stamp = 0;
        }
        stamp++;
        int head = 0, tail = 0;
        keep(tail, candidateOfHull(hull, deepest));
        queue[tail++] = deepest;
        visited[deepest] = stamp;
        // A neighbour is first screened by its distance in the hull's frame, d ≈ −d_S · v + (n · p − c): three
        // products instead of the nine of a transform. Only those within the margin plus a slack far above the two
        // forms' rounding difference are transformed, and the exact test decides, so the candidates are the same.
        double base = normal[0] * place.p[0] + normal[1] * place.p[1] + normal[2] * place.p[2] - offset;
        double screen = margin + SCREEN_SLACK * (1 + Math.abs(place.p[0]) + Math.abs(place.p[1])
                + Math.abs(place.p[2]) + Math.abs(offset) + hull.boundingRadius());
        while (head < tail) {
            int i = queue[head++];
            for (int k = hull.adjacencyStart[i]; k < hull.adjacencyStart[i + 1]; k++) {
                int j = hull.adjacency[k];
                if (visited[j] != stamp) {
                    visited[j] = stamp;
                    if (base - dx * hull.vertex(j, 0) - dy * hull.vertex(j, 1) - dz * hull.vertex(j, 2) > screen) {
                        continue;
                    }
                    double d = candidateOfHull(hull, j);
                    if (d <= margin) {
                        keep(tail, d);
                        queue[tail++] = j;
                    }
                }
            }
        }
        hullCandidates = tail;
        return true;
    }

    /** Keeps the point in x, at distance d, as the walk's k-th candidate. */
    private void keep(int k, double d) {
        walkWorld[3 * k] = x[0];
        walkWorld[3 * k + 1] = x[1];
        walkWorld[3 * k + 2] = x[2];
        walkDistance[k] = d;
    }

    private double candidateOfHull(ConvexHull hull, int i) {
        x[0] = hull.vertex(i, 0);
        x[1] = hull.vertex(i, 1);
        x[2] = hull.vertex(i, 2);
        place.toWorld(x, x);
        return normal[0] * x[0] + normal[1] * x[1] + normal[2] * x[2] - offset;
    }

    private int candidates() {
        if (shape instanceof Sphere) {
            return 1;
        }
        if (shape instanceof Capsule) {
            return 2;
        }
        if (shape instanceof Box || shape instanceof Cylinder) {
            return 8;
        }
        return ((ConvexHull) shape).vertexCount();
    }

    /** Writes candidate k (world) to x and returns its signed distance n · x − c. */
    private double candidate(int k) {
        if (shape instanceof Sphere s) {
            double r = s.radius();
            x[0] = place.p[0] - r * normal[0];
            x[1] = place.p[1] - r * normal[1];
            x[2] = place.p[2] - r * normal[2];
        } else if (shape instanceof Capsule c) {
            double h = k == 0 ? -c.halfLength() : c.halfLength(), r = c.radius();
            x[0] = place.p[0] + h * place.r[2] - r * normal[0];
            x[1] = place.p[1] + h * place.r[5] - r * normal[1];
            x[2] = place.p[2] + h * place.r[8] - r * normal[2];
        } else if (shape instanceof Box b) {
            x[0] = (k & 1) == 0 ? -b.halfExtent(0) : b.halfExtent(0);
            x[1] = (k & 2) == 0 ? -b.halfExtent(1) : b.halfExtent(1);
            x[2] = (k & 4) == 0 ? -b.halfExtent(2) : b.halfExtent(2);
            place.toWorld(x, x);
        } else if (shape instanceof Cylinder c) {
            double h = k < 4 ? -c.halfLength() : c.halfLength(), r = c.radius();
            int q = k % 4;
            double cos = q == 0 ? 1 : q == 2 ? -1 : 0, sin = q == 1 ? 1 : q == 3 ? -1 : 0;
            for (int i = 0; i < 3; i++) {
                x[i] = place.p[i] + h * place.r[3 * i + 2] + r * (cos * e1[i] + sin * e2[i]);
            }
        } else {
            return candidateOfHull((ConvexHull) shape, k);
        }
        return normal[0] * x[0] + normal[1] * x[1] + normal[2] * x[2] - offset;
    }

    private static double square(double v) {
        return v * v;
    }
}
