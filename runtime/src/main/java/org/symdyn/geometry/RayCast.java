package org.symdyn.geometry;

/**
 * One ray against one shape: the first point of the shape on the ray x(t) = o + t d, 0 ≤ t ≤ t_max, d a unit
 * vector (world coordinates, metres), with its distance t and the surface normal there ({@link RayHit}). The ray
 * is carried into the shape's frame (o_S = Rᵀ (o − p), d_S = Rᵀ d) and met in closed form: a quadratic for the
 * sphere, the capsule's and the cylinder's round parts, slabs for the box, planes for the half-space, the caps and
 * the hull's faces (the entering t is the largest over the faces the ray enters, Cyrus-Beck), and the
 * Möller-Trumbore test for the triangles of a mesh whose boxes the ray meets, walking the mesh's hierarchy
 * ({@link TriangleMesh#bvh()}: about log n node tests and a few triangles for a ray that hits near its start, rather
 * than all n): the hit, bit for bit, of trying every triangle in index order (the nearest t, the first triangle of
 * equals). A ray starting inside a solid hits at t = 0; a mesh is a surface, hit from either side. For a Lidar,
 * cast each ray against the shapes the broadphase leaves and keep the least t. One instance holds the scratch: no
 * allocation per query; not thread-safe.
 */
public final class RayCast {
    private final double[] o = new double[3];
    private final double[] d = new double[3];
    private final double[] n = new double[3];
    /** Scratch of the hierarchy walk. */
    private final int[] stack = new int[TriangleBvh.MAX_DEPTH + 1];
    /** True: meshes by the scan of every triangle, the reference of the tests. */
    private final boolean scanMeshes;
    /** The nearest hit of the mesh walk. */
    private double nearest;

    /**
     * A mesh's node boxes are padded by PAD times the larger of the ray origin's and the box's largest |coordinate|
     * (the mesh's frame): far above the rounding of the slab test (a few ulps) and of a triangle's hit point for rays
     * meeting its plane at more than about 1e-7 rad; a ray within rounding of a triangle's plane has a
     * Möller-Trumbore answer that is rounding noise, which the hierarchy may miss where the scan takes it.
     */
    static final double PAD = 1e-8;

    /** A ray caster; meshes through their hierarchy ({@link TriangleMesh#bvh()}). */
    public RayCast() {
        this(false);
    }

    /** With {@code scanMeshes}, a mesh's every triangle is tried in index order (the tests' reference). */
    RayCast(boolean scanMeshes) {
        this.scanMeshes = scanMeshes;
    }

    /**
     * Casts the ray from {@code origin} along {@code direction} (normalised here; not zero) at most
     * {@code maxDistance} metres against the shape at its placement; returns {@link RayHit#hit()}.
     *
     * @throws IllegalArgumentException if the direction is zero or not finite, or the origin or the placement is not
     *                                  finite
     */
    public boolean cast(Shape shape, Placement place, double[] origin, double[] direction, double maxDistance,
            RayHit out) {
        double len = Math.sqrt(direction[0] * direction[0] + direction[1] * direction[1] + direction[2] * direction[2]);
        if (!(len > 0) || !Double.isFinite(len)) {
            throw new IllegalArgumentException("ray direction must be finite and non-zero");
        }
        d[0] = direction[0] / len;
        d[1] = direction[1] / len;
        d[2] = direction[2] / len;
        place.toLocal(origin, o);
        place.rotateToLocal(d, d);
        // a box took a NaN origin, or a NaN placement, for a hit at t = 0 (its slab test compares, and NaN compares
        // false): checked in the shape's frame, which covers both
        if (!Double.isFinite(o[0] + o[1] + o[2] + d[0] + d[1] + d[2])) {
            throw new IllegalArgumentException("ray origin (" + origin[0] + ", " + origin[1] + ", " + origin[2]
                    + ") or the shape's placement is not finite");
        }
        double t;
        if (shape instanceof Sphere s) {
            t = sphere(s.radius(), 0);
        } else if (shape instanceof Capsule c) {
            t = capsule(c.radius(), c.halfLength());
        } else if (shape instanceof Box b) {
            t = box(b.halfExtent(0), b.halfExtent(1), b.halfExtent(2));
        } else if (shape instanceof Cylinder c) {
            t = cylinder(c.radius(), c.halfLength());
        } else if (shape instanceof HalfSpace h) {
            t = halfSpace(h);
        } else if (shape instanceof ConvexHull h) {
            t = hull(h);
        } else {
            t = mesh((TriangleMesh) shape, maxDistance);
        }
        out.hit = t <= maxDistance && t < Double.POSITIVE_INFINITY; // a miss is +∞, also when t_max is
        if (!out.hit) {
            return false;
        }
        out.distance = t;
        if (t == 0 && !(shape instanceof TriangleMesh)) {
            n[0] = -d[0];
            n[1] = -d[1];
            n[2] = -d[2];
        }
        place.rotateToWorld(n, out.normal);
        for (int i = 0; i < 3; i++) {
            out.point[i] = origin[i] + t * direction[i] / len;
        }
        return true;
    }

    /** First t ≥ 0 on the sphere of radius r centred at (0, 0, z); 0 inside; +∞ on a miss. Sets n. */
    private double sphere(double r, double z) {
        double ox = o[0], oy = o[1], oz = o[2] - z;
        double b = ox * d[0] + oy * d[1] + oz * d[2];
        double c = ox * ox + oy * oy + oz * oz - r * r;
        if (c <= 0) {
            return 0;
        }
        double disc = b * b - c;
        if (b >= 0 || disc < 0) {
            return Double.POSITIVE_INFINITY;
        }
        // t = −b − √disc, in the form c / (−b + √disc) that does not cancel
        double t = c / (-b + Math.sqrt(disc));
        unit(ox + t * d[0], oy + t * d[1], oz + t * d[2]);
        return t;
    }

    /** Entering t of the infinite cylinder x² + y² = r² with |z| ≤ h, or +∞; sets n. The origin is outside it. */
    private double side(double r, double h) {
        double a = d[0] * d[0] + d[1] * d[1];
        double b = o[0] * d[0] + o[1] * d[1];
        double c = o[0] * o[0] + o[1] * o[1] - r * r;
        if (a == 0 || c <= 0 || b >= 0) {
            return Double.POSITIVE_INFINITY;
        }
        double disc = b * b - a * c;
        if (disc < 0) {
            return Double.POSITIVE_INFINITY;
        }
        double t = c / (-b + Math.sqrt(disc));
        double z = o[2] + t * d[2];
        if (Math.abs(z) > h) {
            return Double.POSITIVE_INFINITY;
        }
        unit(o[0] + t * d[0], o[1] + t * d[1], 0);
        return t;
    }

    private double capsule(double r, double h) {
        double z = Math.max(-h, Math.min(h, o[2]));
        if (o[0] * o[0] + o[1] * o[1] + (o[2] - z) * (o[2] - z) <= r * r) {
            return 0;
        }
        double best = side(r, h);
        double nx = n[0], ny = n[1], nz = n[2];
        for (int end = -1; end <= 1; end += 2) {
            double t = sphere(r, end * h);
            if (t < best) {
                best = t;
                nx = n[0];
                ny = n[1];
                nz = n[2];
            }
        }
        n[0] = nx;
        n[1] = ny;
        n[2] = nz;
        return best;
    }

    private double cylinder(double r, double h) {
        boolean radialInside = o[0] * o[0] + o[1] * o[1] <= r * r;
        if (radialInside && Math.abs(o[2]) <= h) {
            return 0;
        }
        double best = radialInside ? Double.POSITIVE_INFINITY : side(r, h);
        double nz = 0, nx = n[0], ny = n[1];
        if (Math.abs(o[2]) > h && o[2] * d[2] < 0) {
            double cap = o[2] > 0 ? h : -h;
            double t = (cap - o[2]) / d[2];
            double x = o[0] + t * d[0], y = o[1] + t * d[1];
            if (x * x + y * y <= r * r && t < best) {
                best = t;
                nx = 0;
                ny = 0;
                nz = o[2] > 0 ? 1 : -1;
            }
        }
        n[0] = nx;
        n[1] = ny;
        n[2] = nz;
        return best;
    }

    /** Slabs |x_i| ≤ h_i: the entering t is the largest of the per-axis entering ts. */
    private double box(double h0, double h1, double h2) {
        double enter = Double.NEGATIVE_INFINITY, exit = Double.POSITIVE_INFINITY;
        int axis = -1;
        for (int i = 0; i < 3; i++) {
            double h = i == 0 ? h0 : i == 1 ? h1 : h2;
            if (d[i] == 0) {
                if (Math.abs(o[i]) > h) {
                    return Double.POSITIVE_INFINITY;
                }
                continue;
            }
            double ta = (-h - o[i]) / d[i], tb = (h - o[i]) / d[i];
            double lo = Math.min(ta, tb), hi = Math.max(ta, tb);
            if (lo > enter) {
                enter = lo;
                axis = i;
            }
            exit = Math.min(exit, hi);
        }
        if (enter > exit || exit < 0) {
            return Double.POSITIVE_INFINITY;
        }
        if (enter <= 0) {
            return 0;
        }
        n[0] = n[1] = n[2] = 0;
        n[axis] = d[axis] > 0 ? -1 : 1;
        return enter;
    }

    private double halfSpace(HalfSpace h) {
        double nx = h.normal(0), ny = h.normal(1), nz = h.normal(2);
        double height = nx * o[0] + ny * o[1] + nz * o[2] - h.offset();
        if (height <= 0) {
            return 0;
        }
        double rate = nx * d[0] + ny * d[1] + nz * d[2];
        if (rate >= 0) {
            return Double.POSITIVE_INFINITY;
        }
        n[0] = nx;
        n[1] = ny;
        n[2] = nz;
        return -height / rate;
    }

    /** Cyrus-Beck over the faces: the ray is in the hull for t in [max entering, min leaving]. */
    private double hull(ConvexHull h) {
        double enter = Double.NEGATIVE_INFINITY, exit = Double.POSITIVE_INFINITY;
        int entering = -1;
        for (int f = 0; f < h.faceCount(); f++) {
            double nx = h.faceNormal(f, 0), ny = h.faceNormal(f, 1), nz = h.faceNormal(f, 2);
            double height = nx * o[0] + ny * o[1] + nz * o[2] - h.faceOffset(f);
            double rate = nx * d[0] + ny * d[1] + nz * d[2];
            if (rate == 0) {
                if (height > 0) {
                    return Double.POSITIVE_INFINITY;
                }
            } else if (rate < 0) {
                double t = -height / rate;
                if (t > enter) {
                    enter = t;
                    entering = f;
                }
            } else {
                exit = Math.min(exit, -height / rate);
            }
        }
        if (enter > exit || exit < 0) {
            return Double.POSITIVE_INFINITY;
        }
        if (enter <= 0) {
            return 0;
        }
        n[0] = h.faceNormal(entering, 0);
        n[1] = h.faceNormal(entering, 1);
        n[2] = h.faceNormal(entering, 2);
        return enter;
    }

    /** n ← (x, y, z) / |(x, y, z)|. */
    private void unit(double x, double y, double z) {
        double len = Math.sqrt(x * x + y * y + z * z);
        n[0] = x / len;
        n[1] = y / len;
        n[2] = z / len;
    }

    /**
     * The nearest t ≥ 0 of the mesh's triangles (Möller-Trumbore each), the first in index order of equals; n that
     * triangle's normal turned towards the ray. Through the mesh's hierarchy ({@link TriangleMesh#bvh()}): depth
     * first, the child on the ray's side of the split first, a node skipped when the ray's interval [0, min(t_best,
     * t_max)] misses its box padded by {@link #PAD} (|o|_∞ + the box's largest |coordinate|) on every side (the
     * padding covers the rounding of the slab and triangle tests, so that a triangle the scan would take is never
     * skipped); or, scanning, every triangle in index order.
     */
    private double mesh(TriangleMesh m, double maxDistance) {
        int winner = scanMeshes ? meshByScan(m) : meshByHierarchy(m, maxDistance);
        if (winner < 0) {
            return Double.POSITIVE_INFINITY;
        }
        int i0 = m.triangleVertex(winner, 0), i1 = m.triangleVertex(winner, 1), i2 = m.triangleVertex(winner, 2);
        double ax = m.vertex(i0, 0), ay = m.vertex(i0, 1), az = m.vertex(i0, 2);
        double e1x = m.vertex(i1, 0) - ax, e1y = m.vertex(i1, 1) - ay, e1z = m.vertex(i1, 2) - az;
        double e2x = m.vertex(i2, 0) - ax, e2y = m.vertex(i2, 1) - ay, e2z = m.vertex(i2, 2) - az;
        double nx = e1y * e2z - e1z * e2y, ny = e1z * e2x - e1x * e2z, nz = e1x * e2y - e1y * e2x;
        double len = Math.sqrt(nx * nx + ny * ny + nz * nz);
        double sign = nx * d[0] + ny * d[1] + nz * d[2] > 0 ? -1 : 1;
        n[0] = sign * nx / len;
        n[1] = sign * ny / len;
        n[2] = sign * nz / len;
        return nearest;
    }

    /** Every triangle in index order (the reference); the winner, or −1; its t in {@link #nearest}. */
    private int meshByScan(TriangleMesh m) {
        nearest = Double.POSITIVE_INFINITY;
        int winner = -1;
        for (int t = 0; t < m.triangleCount(); t++) {
            double along = triangle(m, t);
            if (along < nearest) {
                nearest = along;
                winner = t;
            }
        }
        return winner;
    }

    /** The triangles of the hierarchy's nodes the ray meets; the same winner as {@link #meshByScan}. */
    private int meshByHierarchy(TriangleMesh m, double maxDistance) {
        TriangleBvh h = m.bvh();
        double[] nb = h.nodeBounds;
        int[] nodes = h.nodes;
        int[] items = h.items;
        double ox = o[0], oy = o[1], oz = o[2];
        // + 0.0 turns −0 into +0: a zero component gives +∞, whose products keep the slab's side (or NaN on it)
        double ix = 1 / (d[0] + 0.0), iy = 1 / (d[1] + 0.0), iz = 1 / (d[2] + 0.0);
        double size = Math.max(Math.max(Math.abs(ox), Math.abs(oy)), Math.abs(oz));
        for (int k = 0; k < 6; k++) {
            size = Math.max(size, Math.abs(nb[k]));
        }
        double pad = PAD * size;
        nearest = Double.POSITIVE_INFINITY;
        int winner = -1;
        int top = 0;
        stack[top++] = 0;
        while (top > 0) {
            int node = stack[--top];
            int b = 6 * node;
            // the slab test on the padded box; a NaN (0 · ∞: the ray in a slab's plane) narrows nothing
            double near = 0, far = Math.min(nearest, maxDistance);
            double t1 = (nb[b] - pad - ox) * ix, t2 = (nb[b + 3] + pad - ox) * ix;
            if (t1 > t2) {
                double s = t1;
                t1 = t2;
                t2 = s;
            }
            near = t1 > near ? t1 : near;
            far = t2 < far ? t2 : far;
            t1 = (nb[b + 1] - pad - oy) * iy;
            t2 = (nb[b + 4] + pad - oy) * iy;
            if (t1 > t2) {
                double s = t1;
                t1 = t2;
                t2 = s;
            }
            near = t1 > near ? t1 : near;
            far = t2 < far ? t2 : far;
            t1 = (nb[b + 2] - pad - oz) * iz;
            t2 = (nb[b + 5] + pad - oz) * iz;
            if (t1 > t2) {
                double s = t1;
                t1 = t2;
                t2 = s;
            }
            near = t1 > near ? t1 : near;
            far = t2 < far ? t2 : far;
            if (near > far) {
                continue;
            }
            int first = nodes[2 * node], count = nodes[2 * node + 1];
            if (count > 0) {
                for (int i = first; i < first + count; i++) {
                    int t = items[i];
                    double along = triangle(m, t);
                    if (along < nearest || (along == nearest && t < winner)) {
                        nearest = along;
                        winner = t;
                    }
                }
            } else {
                // the far child below the near one, so that the near one is walked first
                int axis = -1 - count;
                boolean backwards = d[axis] < 0;
                stack[top++] = backwards ? first : first + 1;
                stack[top++] = backwards ? first + 1 : first;
            }
        }
        return winner;
    }

    /**
     * How far outside [0, 1] a barycentric coordinate may fall and still be a hit: rounding. With exact bounds a ray
     * through an edge two triangles share could miss both (a helper's probe: 2.4 % of rays aimed at a grid's
     * interior edges, 6.4 % at its vertices); a hit a hair outside a triangle is also inside its neighbour, so the
     * nearest distance is the same.
     */
    private static final double EDGE = 1e-12;

    /** Triangle t's Möller-Trumbore hit: its t ≥ 0, or +∞ (a miss, a ray in its plane, or NaN). */
    private double triangle(TriangleMesh m, int t) {
        int i0 = m.triangleVertex(t, 0), i1 = m.triangleVertex(t, 1), i2 = m.triangleVertex(t, 2);
        double ax = m.vertex(i0, 0), ay = m.vertex(i0, 1), az = m.vertex(i0, 2);
        double e1x = m.vertex(i1, 0) - ax, e1y = m.vertex(i1, 1) - ay, e1z = m.vertex(i1, 2) - az;
        double e2x = m.vertex(i2, 0) - ax, e2y = m.vertex(i2, 1) - ay, e2z = m.vertex(i2, 2) - az;
        double px = d[1] * e2z - d[2] * e2y, py = d[2] * e2x - d[0] * e2z, pz = d[0] * e2y - d[1] * e2x;
        double det = e1x * px + e1y * py + e1z * pz;
        if (det == 0) {
            return Double.POSITIVE_INFINITY;
        }
        double sx = o[0] - ax, sy = o[1] - ay, sz = o[2] - az;
        double u = (sx * px + sy * py + sz * pz) / det;
        if (!(u >= -EDGE && u <= 1 + EDGE)) {
            return Double.POSITIVE_INFINITY;
        }
        double qx = sy * e1z - sz * e1y, qy = sz * e1x - sx * e1z, qz = sx * e1y - sy * e1x;
        double v = (d[0] * qx + d[1] * qy + d[2] * qz) / det;
        if (!(v >= -EDGE && u + v <= 1 + EDGE)) {
            return Double.POSITIVE_INFINITY;
        }
        double along = (e2x * qx + e2y * qy + e2z * qz) / det;
        return along >= 0 ? along : Double.POSITIVE_INFINITY;
    }
}
