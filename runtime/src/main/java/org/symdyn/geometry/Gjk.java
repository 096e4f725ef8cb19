package org.symdyn.geometry;

/**
 * GJK (Gilbert, Johnson and Keerthi 1988): the distance of two convex shapes apart, on their Minkowski difference D
 * ({@link MinkowskiDifference}, whose point closest to the origin is the vector from A's closest point to B's). It
 * keeps a simplex of at most four points of D and its point v closest to the origin, with barycentric coordinates
 * λ; each step adds the support point w of D in direction −v. The distance lies between the lower bound
 * −v · w/|v| and the upper bound |v|; GJK stops when they are within the tolerance ({@link
 * MinkowskiDifference#tolerance}) or when w adds nothing (a point already in the simplex); when |v| stops
 * decreasing (rounding) or after {@link #MAX_ITERATIONS} it returns the simplex whose bounds were tightest,
 * converged if they are within {@link #STALL_TOLERANCE} per metre of scale. When the simplex encloses the origin or
 * |v| falls below the tolerance the shapes overlap or touch: GJK leaves its simplex to {@link Epa}; unless a
 * support point has already bounded the distance from below by more than the tolerance (v · w / |v| &gt; tolerance:
 * the plane v · x = v · w separates D from the origin), which a tetrahedron flattened by rounding cannot overrule:
 * then the simplex of the tightest bounds is returned, as when |v| stalls.
 *
 * <p>The result follows {@link DistanceResult}: d = |v|, n = v/|v| from A towards B, witnesses a = Σ λ a_i and
 * b = Σ λ b_i (world, metres). For polytopes GJK ends in finitely many steps at D's exact nearest feature; on
 * curved shapes it converges quickly. No allocation; not thread-safe.
 */
final class Gjk {
    /**
     * GJK stopped by rounding (no decrease of |v|, which curved shapes reach before
     * {@link MinkowskiDifference#TOLERANCE}) counts as converged when its bounds are within this many metres per
     * metre of scale.
     */
    static final double STALL_TOLERANCE = 1e-9;
    /** The most GJK steps. */
    static final int MAX_ITERATIONS = 128;

    /** The four faces of a tetrahedron (corners 0-3) as (a, b, c, opposite). */
    private static final int[] TETRAHEDRON_FACES = {0, 1, 2, 3, 0, 3, 1, 2, 0, 2, 3, 1, 1, 3, 2, 0};

    private final MinkowskiDifference difference;
    // D's stored points w = b − a, with a and b.
    private final double[] w;
    private final double[] pa;
    private final double[] pb;
    // λ of v over the simplex.
    private final double[] lambda = new double[4];
    private final double[] su = new double[2];
    private final int[] simplex = new int[4];
    private final int[] corner = new int[4];
    private final double[] kept = new double[9 * 4];
    private final double[] saved = new double[9 * 4 + 4 + 3];
    private int savedSize;
    private int simplexSize;
    private int iterations;
    private final double[] v = new double[3];

    /** GJK on the points of {@code difference}. */
    Gjk(MinkowskiDifference difference) {
        this.difference = difference;
        this.w = difference.w;
        this.pa = difference.pa;
        this.pb = difference.pb;
    }

    /**
     * Runs GJK on D as {@link MinkowskiDifference#set} left it. True when the shapes are apart: {@code out} holds
     * their distance (see the class comment). False when they overlap or touch: {@code out} is untouched, and the
     * simplex ({@link #simplexSize}, {@link #simplexVertex}, {@link #closest}) encloses the origin or lies within
     * the tolerance of it.
     */
    boolean distance(DistanceResult out) {
        double scale = difference.scale;
        double tolerance = difference.tolerance;
        double dx = difference.origins[0], dy = difference.origins[1], dz = difference.origins[2];
        // First point: the support of D along the line of the origins (or x).
        if (dx == 0 && dy == 0 && dz == 0) {
            dx = 1;
        }
        simplex[0] = difference.support(dx, dy, dz);
        simplexSize = 1;
        lambda[0] = 1;
        copy(simplex[0], v);
        double previous = Double.POSITIVE_INFINITY;
        double bestGap = Double.POSITIVE_INFINITY;
        double lower = Double.NEGATIVE_INFINITY; // the largest lower bound v · w / |v| met
        iterations = 0;
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
            int k = difference.support(-v[0], -v[1], -v[2]);
            double vw = v[0] * w[3 * k] + v[1] * w[3 * k + 1] + v[2] * w[3 * k + 2];
            // |v| − (v · w)/|v|: the gap between the upper and lower bounds of the distance.
            double gap = (vv - vw) / Math.sqrt(vv);
            lower = Math.max(lower, vw / Math.sqrt(vv));
            if (gap <= tolerance || inSimplex(k)) {
                difference.removeLast();
                converged = true;
                break;
            }
            if (gap < bestGap) {
                bestGap = gap;
                save();
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
        if (overlap && lower > tolerance) {
            // A support point w with v · w > 0 proves the plane v · x = v · w separates D from the origin: no
            // simplex of D can enclose it. A tetrahedron "enclosing" it anyway is one flattened by rounding (three
            // support points within 1e-6 m on a cylinder's rim, 6 cm from a mesh triangle, gave 10 mm of
            // overlap): the simplex of the tightest bounds is the answer, as when |v| stalls.
            restore();
            converged = bestGap <= STALL_TOLERANCE * scale;
            overlap = false;
        }
        if (overlap) {
            return false;
        }
        difference.witnesses(simplex, lambda, simplexSize, out);
        double len = Math.sqrt(dot(v, v));
        out.distance = len;
        out.features.clear();
        for (int i = 0; i < 3; i++) {
            out.normal[i] = v[i] / len;
        }
        out.iterations = iterations;
        out.converged = converged;
        return true;
    }

    /** The steps of the last {@link #distance}. */
    int iterations() {
        return iterations;
    }

    /** The number of points (1 to 4) of the simplex {@link #distance} ended with. */
    int simplexSize() {
        return simplexSize;
    }

    /** The index in D's store of point s of the simplex. */
    int simplexVertex(int s) {
        return simplex[s];
    }

    /** v, the simplex's point closest to the origin (world, metres; read-only by convention). */
    double[] closest() {
        return v;
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
     * Closest point of the tetrahedron: the closest of the triangles whose outside the origin is on; if it is on
     * the outside of none, the tetrahedron whole with equal weights λ = 1/4 (GJK stops there and {@link Epa}
     * starts from its points, weighing them afresh).
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
        difference.keepFirst(simplexSize);
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
        difference.keepFirst(savedSize);
    }

    private void copy(int k, double[] out) {
        out[0] = w[3 * k];
        out[1] = w[3 * k + 1];
        out[2] = w[3 * k + 2];
    }

    private static double dot(double[] a, double[] b) {
        return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    }
}
