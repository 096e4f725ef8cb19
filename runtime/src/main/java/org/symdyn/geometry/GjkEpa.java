package org.symdyn.geometry;

/**
 * Signed distance of two convex shapes known only by their support functions: GJK (Gilbert, Johnson and Keerthi
 * 1988) for the distance of shapes apart, EPA (the expanding polytope algorithm, van den Bergen 2001) for the
 * penetration depth of overlapping ones. The conventions of {@link DistanceResult} (n from A towards B, witness
 * points a on A and b on B with b − a = d n, world coordinates, metres).
 *
 * <p>Both work on the Minkowski difference D = B − A = {b − a}, whose support point in direction u is
 * s_B(u) − s_A(−u), and whose point closest to the origin is the vector from A's closest point to B's. GJK keeps a
 * simplex of at most four points of D and its point v closest to the origin; each step adds the support point w in
 * direction −v. The distance lies between the lower bound −v · w/|v| and the upper bound |v|; GJK stops when they
 * are within {@link #TOLERANCE} times the scale (the sum of the shapes' bounding radii and the distance of their
 * origins) or when w adds nothing (a point already in the simplex); when |v| stops decreasing (rounding) or after
 * {@link #MAX_ITERATIONS} it returns the simplex whose bounds were tightest, converged if they are within
 * {@link #STALL_TOLERANCE}. When the simplex encloses the origin or |v| falls below the tolerance the shapes overlap
 * or touch, and EPA grows a polytope inside D from that simplex (completed to a tetrahedron by support points) until
 * its face nearest the origin lies on D's boundary within the same tolerance: the depth is that face's distance
 * δ, n is minus its outward normal, d = −δ. Witnesses are the barycentric combinations of the support points' a
 * and b at the closest point.
 *
 * <p>For polytopes ({@link Box}, {@link ConvexHull}) both algorithms end in finitely many steps at D's exact nearest
 * feature, so the result is exact to rounding. Curved shapes (spheres, capsules, cylinders) are approached by
 * polytopes: GJK converges quickly, EPA slowly; when an iteration bound stops either before the tolerance,
 * {@link DistanceResult#converged()} is false and the result is the best estimate. The bounds make every query
 * finish (at most {@link #MAX_ITERATIONS} + {@link #MAX_EPA_ITERATIONS} support calls of each shape). One instance
 * holds all the scratch: no allocation per query; not thread-safe.
 */
public final class GjkEpa {
    /** Relative tolerance of both algorithms: the gap between the bounds, per metre of scale. */
    public static final double TOLERANCE = 1e-12;
    /**
     * GJK stopped by rounding (no decrease of |v|, which curved shapes reach before {@link #TOLERANCE}) counts as
     * converged when its bounds are within this many metres per metre of scale.
     */
    public static final double STALL_TOLERANCE = 1e-9;
    /** The most GJK steps. */
    public static final int MAX_ITERATIONS = 128;
    /** The most EPA steps. */
    public static final int MAX_EPA_ITERATIONS = 128;

    /** The GJK simplex (4) and the points that complete it to a tetrahedron (at most 14), then EPA's. */
    private static final int MAX_VERTICES = MAX_EPA_ITERATIONS + 18;
    /** Faces of a triangulated polytope of V vertices: 2V − 4. */
    private static final int MAX_FACES = 2 * MAX_VERTICES;

    // Simplex / polytope vertices: w = b − a, with a and b.
    private final double[] w = new double[3 * MAX_VERTICES];
    private final double[] pa = new double[3 * MAX_VERTICES];
    private final double[] pb = new double[3 * MAX_VERTICES];
    private final double[] lambda = new double[4];
    private final double[] su = new double[2];
    private final int[] simplex = new int[4];
    private final int[] corner = new int[4];
    private final double[] kept = new double[9 * 4];
    private final double[] saved = new double[9 * 4 + 4 + 3];
    private int savedSize;
    /** The four faces of a tetrahedron (corners 0-3) as (a, b, c, opposite). */
    private static final int[] TETRAHEDRON_FACES = {0, 1, 2, 3, 0, 3, 1, 2, 0, 2, 3, 1, 1, 3, 2, 0};
    private int simplexSize;
    private int vertexCount;
    private final double[] v = new double[3];
    private final double[] dir = new double[3];
    private final double[] tmp = new double[3];

    private final int[] face = new int[3 * MAX_FACES];
    private final double[] faceNormal = new double[3 * MAX_FACES];
    private final double[] faceDistance = new double[MAX_FACES];
    private int faceCount;
    private final int[] edge = new int[2 * 3 * MAX_FACES];
    private int edgeCount;

    private ConvexShape shapeA;
    private ConvexShape shapeB;
    private Placement placeA;
    private Placement placeB;
    private double tolerance;

    /** The signed distance of convex A at {@code a} and convex B at {@code b} (see the class comment). */
    public void distance(ConvexShape shapeA, Placement a, ConvexShape shapeB, Placement b, DistanceResult out) {
        this.shapeA = shapeA;
        this.shapeB = shapeB;
        this.placeA = a;
        this.placeB = b;
        double dx = b.p[0] - a.p[0], dy = b.p[1] - a.p[1], dz = b.p[2] - a.p[2];
        double scale = shapeA.boundingRadius() + shapeB.boundingRadius() + Math.sqrt(dx * dx + dy * dy + dz * dz);
        tolerance = TOLERANCE * scale;
        vertexCount = 0;
        // First point: the support of D along the line of the origins (or x).
        if (dx == 0 && dy == 0 && dz == 0) {
            dx = 1;
        }
        simplex[0] = support(dx, dy, dz);
        simplexSize = 1;
        lambda[0] = 1;
        copy(simplex[0], v);
        double previous = Double.POSITIVE_INFINITY;
        double bestGap = Double.POSITIVE_INFINITY;
        int iterations = 0;
        boolean converged = false;
        boolean overlap = false;
        while (true) {
            if (iterations == MAX_ITERATIONS) {
                restore();
                converged = bestGap <= STALL_TOLERANCE * scale;
                break;
            }
            iterations++;
            double vv = dot(v, v);
            if (vv <= tolerance * tolerance) {
                overlap = true;
                break;
            }
            int k = support(-v[0], -v[1], -v[2]);
            double vw = v[0] * w[3 * k] + v[1] * w[3 * k + 1] + v[2] * w[3 * k + 2];
            // |v| − (v · w)/|v|: the gap between the upper and lower bounds of the distance.
            double gap = (vv - vw) / Math.sqrt(vv);
            if (gap <= tolerance || inSimplex(k)) {
                vertexCount--;
                converged = true;
                break;
            }
            if (gap < bestGap) {
                bestGap = gap;
                vertexCount--;
                save();
                vertexCount++;
            }
            simplex[simplexSize++] = k;
            closestOnSimplex();
            compact();
            double now = dot(v, v);
            if (simplexSize == 4) {
                overlap = true;
                break;
            }
            if (now >= previous) {
                // No progress: rounding in a simplex shrunk to a few ulps (curved shapes). The simplex with the
                // tightest bounds so far is the answer.
                restore();
                converged = bestGap <= STALL_TOLERANCE * scale;
                break;
            }
            previous = now;
        }
        if (!overlap) {
            witnesses(out);
            double len = Math.sqrt(dot(v, v));
            out.distance = len;
            for (int i = 0; i < 3; i++) {
                out.normal[i] = v[i] / len;
            }
            out.iterations = iterations;
            out.converged = converged;
            return;
        }
        penetration(out, iterations);
    }

    // ---------------------------------------------------------------------------------------------------- GJK

    /** Appends the support point of D in direction u; returns its index. */
    private int support(double ux, double uy, double uz) {
        int k = vertexCount++;
        // s_B(u) in world: rotate u into B's frame, support, back to world.
        tmp[0] = ux;
        tmp[1] = uy;
        tmp[2] = uz;
        placeB.rotateToLocal(tmp, dir);
        shapeB.support(dir[0], dir[1], dir[2], dir);
        placeB.toWorld(dir, dir);
        pb[3 * k] = dir[0];
        pb[3 * k + 1] = dir[1];
        pb[3 * k + 2] = dir[2];
        tmp[0] = -ux;
        tmp[1] = -uy;
        tmp[2] = -uz;
        placeA.rotateToLocal(tmp, dir);
        shapeA.support(dir[0], dir[1], dir[2], dir);
        placeA.toWorld(dir, dir);
        pa[3 * k] = dir[0];
        pa[3 * k + 1] = dir[1];
        pa[3 * k + 2] = dir[2];
        for (int i = 0; i < 3; i++) {
            w[3 * k + i] = pb[3 * k + i] - pa[3 * k + i];
        }
        return k;
    }

    private boolean inSimplex(int k) {
        for (int s = 0; s < simplexSize; s++) {
            int j = simplex[s];
            if (w[3 * j] == w[3 * k] && w[3 * j + 1] == w[3 * k + 1] && w[3 * j + 2] == w[3 * k + 2]) {
                return true;
            }
        }
        return false;
    }

    /**
     * v ← the point of the simplex's convex hull closest to the origin, with barycentric coordinates in lambda; the
     * simplex reduced to the points whose coordinates are positive. A tetrahedron enclosing the origin is kept
     * whole (v = 0).
     */
    private void closestOnSimplex() {
        if (simplexSize == 2) {
            segment(0, 1);
        } else if (simplexSize == 3) {
            triangle(0, 1, 2);
        } else if (simplexSize == 4) {
            tetrahedron();
        }
        v[0] = v[1] = v[2] = 0;
        for (int s = 0; s < simplexSize; s++) {
            int j = simplex[s];
            v[0] += lambda[s] * w[3 * j];
            v[1] += lambda[s] * w[3 * j + 1];
            v[2] += lambda[s] * w[3 * j + 2];
        }
    }

    /** Closest point of segment (simplex[i], simplex[j]) to the origin; the simplex becomes its support. */
    private void segment(int i, int j) {
        int p = simplex[i], q = simplex[j];
        double ex = w[3 * q] - w[3 * p], ey = w[3 * q + 1] - w[3 * p + 1], ez = w[3 * q + 2] - w[3 * p + 2];
        double ee = ex * ex + ey * ey + ez * ez;
        double t = ee > 0 ? -(w[3 * p] * ex + w[3 * p + 1] * ey + w[3 * p + 2] * ez) / ee : 0;
        if (t <= 0) {
            setSimplex(p, -1, -1, 1, 0, 0);
        } else if (t >= 1) {
            setSimplex(q, -1, -1, 1, 0, 0);
        } else {
            setSimplex(p, q, -1, 1 - t, t, 0);
        }
    }

    /** Closest point of the triangle to the origin ({@link Triangles#closest}); the simplex becomes its support. */
    private void triangle(int i, int j, int k) {
        int ia = simplex[i], ib = simplex[j], ic = simplex[k];
        int region = Triangles.closest(w[3 * ia], w[3 * ia + 1], w[3 * ia + 2], w[3 * ib], w[3 * ib + 1],
                w[3 * ib + 2], w[3 * ic], w[3 * ic + 1], w[3 * ic + 2], 0, 0, 0, su);
        double s = su[0], u = su[1];
        switch (region) {
            case Triangles.A -> setSimplex(ia, -1, -1, 1, 0, 0);
            case Triangles.B -> setSimplex(ib, -1, -1, 1, 0, 0);
            case Triangles.C -> setSimplex(ic, -1, -1, 1, 0, 0);
            case Triangles.AB -> setSimplex(ia, ib, -1, 1 - s, s, 0);
            case Triangles.AC -> setSimplex(ia, ic, -1, 1 - u, u, 0);
            case Triangles.BC -> setSimplex(ib, ic, -1, s, u, 0);
            default -> setSimplex(ia, ib, ic, 1 - s - u, s, u);
        }
    }

    /**
     * Closest point of the tetrahedron: the origin itself if it is inside every face (lambda from the volumes),
     * else the closest of the triangles whose outside it is on.
     */
    private void tetrahedron() {
        for (int i = 0; i < 4; i++) {
            corner[i] = simplex[i];
        }
        double best = Double.POSITIVE_INFINITY;
        int bestA = -1, bestB = -1, bestC = -1;
        double la = 0, lb = 0, lc = 0;
        int count = 0;
        boolean outside = false;
        for (int f = 0; f < 4; f++) {
            int a = corner[TETRAHEDRON_FACES[4 * f]], b = corner[TETRAHEDRON_FACES[4 * f + 1]];
            int c = corner[TETRAHEDRON_FACES[4 * f + 2]], opposite = corner[TETRAHEDRON_FACES[4 * f + 3]];
            if (originOutside(a, b, c, opposite)) {
                outside = true;
                simplex[0] = a;
                simplex[1] = b;
                simplex[2] = c;
                simplexSize = 3;
                triangle(0, 1, 2);
                double x = 0, y = 0, z = 0;
                for (int s = 0; s < simplexSize; s++) {
                    int j = simplex[s];
                    x += lambda[s] * w[3 * j];
                    y += lambda[s] * w[3 * j + 1];
                    z += lambda[s] * w[3 * j + 2];
                }
                double dd = x * x + y * y + z * z;
                if (dd < best) {
                    best = dd;
                    count = simplexSize;
                    bestA = simplex[0];
                    bestB = simplexSize > 1 ? simplex[1] : -1;
                    bestC = simplexSize > 2 ? simplex[2] : -1;
                    la = lambda[0];
                    lb = lambda[1];
                    lc = lambda[2];
                }
            }
        }
        if (!outside) {
            for (int i = 0; i < 4; i++) {
                simplex[i] = corner[i];
            }
            simplexSize = 4;
            lambda[0] = lambda[1] = lambda[2] = lambda[3] = 0.25;
            return;
        }
        setSimplex(bestA, bestB, bestC, la, count > 1 ? lb : 0, count > 2 ? lc : 0);
    }

    /** True if the origin and vertex {@code opposite} are strictly on opposite sides of plane (a, b, c). */
    private boolean originOutside(int a, int b, int c, int opposite) {
        double abx = w[3 * b] - w[3 * a], aby = w[3 * b + 1] - w[3 * a + 1], abz = w[3 * b + 2] - w[3 * a + 2];
        double acx = w[3 * c] - w[3 * a], acy = w[3 * c + 1] - w[3 * a + 1], acz = w[3 * c + 2] - w[3 * a + 2];
        double nx = aby * acz - abz * acy, ny = abz * acx - abx * acz, nz = abx * acy - aby * acx;
        double origin = -(nx * w[3 * a] + ny * w[3 * a + 1] + nz * w[3 * a + 2]);
        double other = nx * (w[3 * opposite] - w[3 * a]) + ny * (w[3 * opposite + 1] - w[3 * a + 1])
                + nz * (w[3 * opposite + 2] - w[3 * a + 2]);
        return origin * other < 0;
    }

    private void setSimplex(int a, int b, int c, double la, double lb, double lc) {
        simplex[0] = a;
        lambda[0] = la;
        simplexSize = 1;
        if (b >= 0) {
            simplex[1] = b;
            lambda[1] = lb;
            simplexSize = 2;
        }
        if (c >= 0) {
            simplex[2] = c;
            lambda[2] = lc;
            simplexSize = 3;
        }
    }

    /** Moves the simplex's points to the first slots, so that GJK's vertex store never grows past five. */
    private void compact() {
        for (int s = 0; s < simplexSize; s++) {
            int k = simplex[s];
            for (int i = 0; i < 3; i++) {
                kept[9 * s + i] = w[3 * k + i];
                kept[9 * s + 3 + i] = pa[3 * k + i];
                kept[9 * s + 6 + i] = pb[3 * k + i];
            }
        }
        for (int s = 0; s < simplexSize; s++) {
            for (int i = 0; i < 3; i++) {
                w[3 * s + i] = kept[9 * s + i];
                pa[3 * s + i] = kept[9 * s + 3 + i];
                pb[3 * s + i] = kept[9 * s + 6 + i];
            }
            simplex[s] = s;
        }
        vertexCount = simplexSize;
    }

    /** Saves the compacted simplex (points, λ, v) before a step. */
    private void save() {
        savedSize = simplexSize;
        for (int s = 0; s < simplexSize; s++) {
            for (int i = 0; i < 3; i++) {
                saved[9 * s + i] = w[3 * s + i];
                saved[9 * s + 3 + i] = pa[3 * s + i];
                saved[9 * s + 6 + i] = pb[3 * s + i];
            }
            saved[36 + s] = lambda[s];
        }
        saved[40] = v[0];
        saved[41] = v[1];
        saved[42] = v[2];
    }

    /** Restores the simplex saved by {@link #save}. */
    private void restore() {
        simplexSize = savedSize;
        for (int s = 0; s < savedSize; s++) {
            for (int i = 0; i < 3; i++) {
                w[3 * s + i] = saved[9 * s + i];
                pa[3 * s + i] = saved[9 * s + 3 + i];
                pb[3 * s + i] = saved[9 * s + 6 + i];
            }
            lambda[s] = saved[36 + s];
            simplex[s] = s;
        }
        v[0] = saved[40];
        v[1] = saved[41];
        v[2] = saved[42];
        vertexCount = savedSize;
    }

    /** a = Σ λ a_i and b = Σ λ b_i over the simplex. */
    private void witnesses(DistanceResult out) {
        for (int i = 0; i < 3; i++) {
            double x = 0, y = 0;
            for (int s = 0; s < simplexSize; s++) {
                x += lambda[s] * pa[3 * simplex[s] + i];
                y += lambda[s] * pb[3 * simplex[s] + i];
            }
            out.pointA[i] = x;
            out.pointB[i] = y;
        }
    }

    // ---------------------------------------------------------------------------------------------------- EPA

    private void penetration(DistanceResult out, int gjkIterations) {
        if (!completeTetrahedron()) {
            // D is flat to rounding: only possible when the shapes touch at most; report the GJK point.
            witnesses(out);
            out.distance = 0;
            copyUnit(v, out.normal);
            out.iterations = gjkIterations;
            out.converged = false;
            return;
        }
        faceCount = 0;
        int t0 = simplex[0], t1 = simplex[1], t2 = simplex[2], t3 = simplex[3];
        addOrientedFace(t0, t1, t2, t3);
        addOrientedFace(t0, t3, t1, t2);
        addOrientedFace(t0, t2, t3, t1);
        addOrientedFace(t1, t3, t2, t0);
        int iterations = 0;
        boolean converged = false;
        int best = nearestFace();
        while (iterations < MAX_EPA_ITERATIONS && vertexCount < MAX_VERTICES) {
            iterations++;
            best = nearestFace();
            int k = support(faceNormal[3 * best], faceNormal[3 * best + 1], faceNormal[3 * best + 2]);
            double reach = faceNormal[3 * best] * w[3 * k] + faceNormal[3 * best + 1] * w[3 * k + 1]
                    + faceNormal[3 * best + 2] * w[3 * k + 2];
            if (reach - faceDistance[best] <= tolerance) {
                vertexCount--;
                converged = true;
                break;
            }
            if (!expand(k)) {
                break;
            }
        }
        if (!converged) {
            best = nearestFace();
        }
        // The nearest point of face `best` to the origin, z = δ m, in barycentric coordinates of the face.
        double delta = faceDistance[best];
        double mx = faceNormal[3 * best], my = faceNormal[3 * best + 1], mz = faceNormal[3 * best + 2];
        barycentric(face[3 * best], face[3 * best + 1], face[3 * best + 2], delta * mx, delta * my, delta * mz);
        simplex[0] = face[3 * best];
        simplex[1] = face[3 * best + 1];
        simplex[2] = face[3 * best + 2];
        simplexSize = 3;
        witnesses(out);
        out.distance = -delta;
        out.normal[0] = -mx;
        out.normal[1] = -my;
        out.normal[2] = -mz;
        out.iterations = gjkIterations + iterations;
        out.converged = converged;
    }

    /**
     * Completes the GJK simplex to a tetrahedron of D of non-zero volume with support points (along the
     * coordinate axes, the perpendiculars of a segment, the normal of a triangle). False if D shows no volume.
     */
    private boolean completeTetrahedron() {
        if (simplexSize == 4 && Math.abs(volume6(simplex[0], simplex[1], simplex[2], simplex[3]))
                <= tolerance * tolerance * tolerance) {
            simplexSize = 3;
        }
        if (simplexSize == 1) {
            int s0 = simplex[0];
            double far = -1;
            int bestK = -1;
            for (int axis = 0; axis < 6 && vertexCount < MAX_VERTICES; axis++) {
                double sign = axis % 2 == 0 ? 1 : -1;
                int k = support(axis / 2 == 0 ? sign : 0, axis / 2 == 1 ? sign : 0, axis / 2 == 2 ? sign : 0);
                double d = distance2(k, s0);
                if (d > far) {
                    far = d;
                    bestK = k;
                }
            }
            if (far <= tolerance * tolerance) {
                return false;
            }
            simplex[1] = bestK;
            simplexSize = 2;
        }
        if (simplexSize == 2) {
            int s0 = simplex[0], s1 = simplex[1];
            double ex = w[3 * s1] - w[3 * s0], ey = w[3 * s1 + 1] - w[3 * s0 + 1], ez = w[3 * s1 + 2] - w[3 * s0 + 2];
            double el = Math.sqrt(ex * ex + ey * ey + ez * ez);
            PrimitiveDistance.perpendicular(ex / el, ey / el, ez / el, tmp);
            double px = tmp[0], py = tmp[1], pz = tmp[2];
            double qx = (ey * pz - ez * py) / el, qy = (ez * px - ex * pz) / el, qz = (ex * py - ey * px) / el;
            double far = -1;
            int bestK = -1;
            for (int step = 0; step < 6 && vertexCount < MAX_VERTICES; step++) {
                double angle = step * Math.PI / 3;
                double c = Math.cos(angle), s = Math.sin(angle);
                int k = support(c * px + s * qx, c * py + s * qy, c * pz + s * qz);
                // distance of w_k from the line through s0 and s1
                double rx = w[3 * k] - w[3 * s0], ry = w[3 * k + 1] - w[3 * s0 + 1], rz = w[3 * k + 2] - w[3 * s0 + 2];
                double cx = ry * ez - rz * ey, cy = rz * ex - rx * ez, cz = rx * ey - ry * ex;
                double d = (cx * cx + cy * cy + cz * cz) / (el * el);
                if (d > far) {
                    far = d;
                    bestK = k;
                }
            }
            if (far <= tolerance * tolerance) {
                return false;
            }
            simplex[2] = bestK;
            simplexSize = 3;
        }
        if (simplexSize == 3) {
            int s0 = simplex[0], s1 = simplex[1], s2 = simplex[2];
            double abx = w[3 * s1] - w[3 * s0], aby = w[3 * s1 + 1] - w[3 * s0 + 1], abz = w[3 * s1 + 2] - w[3 * s0 + 2];
            double acx = w[3 * s2] - w[3 * s0], acy = w[3 * s2 + 1] - w[3 * s0 + 1], acz = w[3 * s2 + 2] - w[3 * s0 + 2];
            double nx = aby * acz - abz * acy, ny = abz * acx - abx * acz, nz = abx * acy - aby * acx;
            double nl = Math.sqrt(nx * nx + ny * ny + nz * nz);
            if (nl == 0 || vertexCount + 2 > MAX_VERTICES) {
                return false;
            }
            int up = support(nx, ny, nz);
            int down = support(-nx, -ny, -nz);
            double hu = (nx * (w[3 * up] - w[3 * s0]) + ny * (w[3 * up + 1] - w[3 * s0 + 1])
                    + nz * (w[3 * up + 2] - w[3 * s0 + 2])) / nl;
            double hd = -(nx * (w[3 * down] - w[3 * s0]) + ny * (w[3 * down + 1] - w[3 * s0 + 1])
                    + nz * (w[3 * down + 2] - w[3 * s0 + 2])) / nl;
            // The origin lies on the triangle's plane within rounding (GJK ended there): either side encloses it
            // in the closed tetrahedron; take the origin's side if it is off the plane, else the taller.
            double origin = -(nx * w[3 * s0] + ny * w[3 * s0 + 1] + nz * w[3 * s0 + 2]) / nl;
            boolean useUp = origin > 0 ? true : origin < 0 ? false : hu >= hd;
            if (useUp ? hu <= tolerance : hd <= tolerance) {
                useUp = !useUp;
            }
            if ((useUp ? hu : hd) <= tolerance) {
                return false;
            }
            simplex[3] = useUp ? up : down;
            simplexSize = 4;
        }
        return true;
    }

    /** Adds face (a, b, c) wound so that its normal points away from vertex {@code inside}. */
    private void addOrientedFace(int a, int b, int c, int inside) {
        double abx = w[3 * b] - w[3 * a], aby = w[3 * b + 1] - w[3 * a + 1], abz = w[3 * b + 2] - w[3 * a + 2];
        double acx = w[3 * c] - w[3 * a], acy = w[3 * c + 1] - w[3 * a + 1], acz = w[3 * c + 2] - w[3 * a + 2];
        double nx = aby * acz - abz * acy, ny = abz * acx - abx * acz, nz = abx * acy - aby * acx;
        double side = nx * (w[3 * inside] - w[3 * a]) + ny * (w[3 * inside + 1] - w[3 * a + 1])
                + nz * (w[3 * inside + 2] - w[3 * a + 2]);
        if (side > 0) {
            addFace(a, c, b);
        } else {
            addFace(a, b, c);
        }
    }

    /** Adds face (a, b, c) with normal (b − a) × (c − a) normalised; false if it has no area or no room. */
    private boolean addFace(int a, int b, int c) {
        if (faceCount == MAX_FACES) {
            return false;
        }
        double abx = w[3 * b] - w[3 * a], aby = w[3 * b + 1] - w[3 * a + 1], abz = w[3 * b + 2] - w[3 * a + 2];
        double acx = w[3 * c] - w[3 * a], acy = w[3 * c + 1] - w[3 * a + 1], acz = w[3 * c + 2] - w[3 * a + 2];
        double nx = aby * acz - abz * acy, ny = abz * acx - abx * acz, nz = abx * acy - aby * acx;
        double nl = Math.sqrt(nx * nx + ny * ny + nz * nz);
        if (nl == 0) {
            return false;
        }
        int f = faceCount++;
        face[3 * f] = a;
        face[3 * f + 1] = b;
        face[3 * f + 2] = c;
        faceNormal[3 * f] = nx / nl;
        faceNormal[3 * f + 1] = ny / nl;
        faceNormal[3 * f + 2] = nz / nl;
        // the distance from the origin, averaged over the corners for symmetry of rounding
        faceDistance[f] = (faceNormal[3 * f] * (w[3 * a] + w[3 * b] + w[3 * c])
                + faceNormal[3 * f + 1] * (w[3 * a + 1] + w[3 * b + 1] + w[3 * c + 1])
                + faceNormal[3 * f + 2] * (w[3 * a + 2] + w[3 * b + 2] + w[3 * c + 2])) / 3;
        return true;
    }

    private int nearestFace() {
        int best = 0;
        for (int f = 1; f < faceCount; f++) {
            if (faceDistance[f] < faceDistance[best]) {
                best = f;
            }
        }
        return best;
    }

    /**
     * Removes the faces that vertex k sees and fans it to their horizon. False (polytope left as it was before
     * the fan) when there is no room or the horizon is degenerate.
     */
    private boolean expand(int k) {
        edgeCount = 0;
        int f = 0;
        int removed = 0;
        while (f < faceCount) {
            int a = face[3 * f];
            double seen = faceNormal[3 * f] * (w[3 * k] - w[3 * a]) + faceNormal[3 * f + 1] * (w[3 * k + 1] - w[3 * a + 1])
                    + faceNormal[3 * f + 2] * (w[3 * k + 2] - w[3 * a + 2]);
            if (seen > 0) {
                for (int e = 0; e < 3; e++) {
                    toggleEdge(face[3 * f + e], face[3 * f + (e + 1) % 3]);
                }
                removeFace(f);
                removed++;
            } else {
                f++;
            }
        }
        if (removed == 0 || faceCount + edgeCount > MAX_FACES) {
            return false;
        }
        for (int e = 0; e < edgeCount; e++) {
            addFace(edge[2 * e], edge[2 * e + 1], k);
        }
        return true;
    }

    /** Adds the directed edge (a, b) to the horizon, or cancels it against (b, a) already there. */
    private void toggleEdge(int a, int b) {
        for (int e = 0; e < edgeCount; e++) {
            if (edge[2 * e] == b && edge[2 * e + 1] == a) {
                edgeCount--;
                edge[2 * e] = edge[2 * edgeCount];
                edge[2 * e + 1] = edge[2 * edgeCount + 1];
                return;
            }
        }
        edge[2 * edgeCount] = a;
        edge[2 * edgeCount + 1] = b;
        edgeCount++;
    }

    private void removeFace(int f) {
        int last = --faceCount;
        for (int i = 0; i < 3; i++) {
            face[3 * f + i] = face[3 * last + i];
            faceNormal[3 * f + i] = faceNormal[3 * last + i];
        }
        faceDistance[f] = faceDistance[last];
    }

    /** lambda ← barycentric coordinates of point z (in the plane of the triangle i, j, k of D). */
    private void barycentric(int i, int j, int k, double zx, double zy, double zz) {
        double v0x = w[3 * j] - w[3 * i], v0y = w[3 * j + 1] - w[3 * i + 1], v0z = w[3 * j + 2] - w[3 * i + 2];
        double v1x = w[3 * k] - w[3 * i], v1y = w[3 * k + 1] - w[3 * i + 1], v1z = w[3 * k + 2] - w[3 * i + 2];
        double v2x = zx - w[3 * i], v2y = zy - w[3 * i + 1], v2z = zz - w[3 * i + 2];
        double d00 = v0x * v0x + v0y * v0y + v0z * v0z, d01 = v0x * v1x + v0y * v1y + v0z * v1z;
        double d11 = v1x * v1x + v1y * v1y + v1z * v1z;
        double d20 = v2x * v0x + v2y * v0y + v2z * v0z, d21 = v2x * v1x + v2y * v1y + v2z * v1z;
        double denominator = d00 * d11 - d01 * d01;
        double b = (d11 * d20 - d01 * d21) / denominator, c = (d00 * d21 - d01 * d20) / denominator;
        lambda[0] = 1 - b - c;
        lambda[1] = b;
        lambda[2] = c;
    }

    // ------------------------------------------------------------------------------------------------ helpers

    /** Six times the signed volume of tetrahedron (a, b, c, d) of D. */
    private double volume6(int a, int b, int c, int d) {
        double abx = w[3 * b] - w[3 * a], aby = w[3 * b + 1] - w[3 * a + 1], abz = w[3 * b + 2] - w[3 * a + 2];
        double acx = w[3 * c] - w[3 * a], acy = w[3 * c + 1] - w[3 * a + 1], acz = w[3 * c + 2] - w[3 * a + 2];
        double adx = w[3 * d] - w[3 * a], ady = w[3 * d + 1] - w[3 * a + 1], adz = w[3 * d + 2] - w[3 * a + 2];
        return adx * (aby * acz - abz * acy) + ady * (abz * acx - abx * acz) + adz * (abx * acy - aby * acx);
    }

    private double distance2(int i, int j) {
        double x = w[3 * i] - w[3 * j], y = w[3 * i + 1] - w[3 * j + 1], z = w[3 * i + 2] - w[3 * j + 2];
        return x * x + y * y + z * z;
    }

    private void copy(int k, double[] out) {
        out[0] = w[3 * k];
        out[1] = w[3 * k + 1];
        out[2] = w[3 * k + 2];
    }

    private static void copyUnit(double[] x, double[] out) {
        double len = Math.sqrt(dot(x, x));
        if (len == 0) {
            out[0] = 0;
            out[1] = 0;
            out[2] = 1;
            return;
        }
        out[0] = x[0] / len;
        out[1] = x[1] / len;
        out[2] = x[2] / len;
    }

    private static double dot(double[] a, double[] b) {
        return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    }
}
