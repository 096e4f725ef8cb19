package org.symdyn.geometry;

/**
 * EPA, the expanding polytope algorithm (van den Bergen 2001): the penetration depth of two overlapping or touching
 * convex shapes, on their Minkowski difference D ({@link MinkowskiDifference}), which then contains the origin. It
 * starts from the simplex {@link Gjk} ended with, completed to a tetrahedron of D by support points (along the
 * coordinate axes, the perpendiculars of a segment, the normal of a triangle), and grows this polytope inside D:
 * each step takes the face nearest the origin, adds D's support point w along its outward normal m and replaces the
 * faces w sees by a fan to their horizon. It stops when the nearest face lies on D's boundary within the tolerance
 * ({@link MinkowskiDifference#tolerance}): m · w − δ ≤ tolerance, δ the face's distance from the origin.
 *
 * <p>The result follows {@link DistanceResult}: d = −δ, n = −m, witnesses a = Σ λ a_i and b = Σ λ b_i with λ
 * the barycentric coordinates of the face's point δ m nearest the origin (world, metres). For polytopes EPA ends in
 * finitely many steps on D's exact nearest face; curved shapes are approached slowly, and when
 * {@link #MAX_ITERATIONS}, the store's room or a step that would break the polytope stops it first, the result is
 * not converged: the direction of least support reach met, whose depth bounds the true one from above and is the
 * overlap of the shapes' projections on its normal (see {@link #leastReachResult}).
 * When D shows no volume to rounding (the shapes touch at most, as coplanar plates do) the result is d = 0, not
 * converged, n = GJK's v/|v| ((0, 0, 1) when v = 0), and the witnesses of the point of GJK's final simplex nearest
 * the origin, its barycentric coordinates computed afresh over that simplex: a and b lie on the shapes' touching
 * features, b − a is zero within the tolerance, and the result depends on the query alone.
 * No allocation; not thread-safe.
 */
final class Epa {
    /** The most EPA steps. */
    static final int MAX_ITERATIONS = 128;

    private static final int MAX_VERTICES = MinkowskiDifference.MAX_VERTICES;
    /** Faces of a triangulated polytope of V vertices: 2V − 4. */
    private static final int MAX_FACES = 2 * MAX_VERTICES;

    private final MinkowskiDifference difference;
    // D's stored points w = b − a.
    private final double[] w;
    // λ of the reported point: over the nearest face, or over GJK's simplex when D is flat.
    private final double[] lambda = new double[4];
    private final double[] su = new double[2];
    /** The simplex EPA starts from (GJK's, completed to a tetrahedron), then the face it ends on. */
    private final int[] simplex = new int[4];
    private int simplexSize;
    private double tolerance;
    private final double[] tmp = new double[3];

    private final int[] face = new int[3 * MAX_FACES];
    private final double[] faceNormal = new double[3 * MAX_FACES];
    private final double[] faceDistance = new double[MAX_FACES];
    private int faceCount;
    private final int[] edge = new int[2 * 3 * MAX_FACES];
    private int edgeCount;
    /** The faces the new vertex sees, ascending; then those connected to the nearest face. */
    private final int[] visible = new int[MAX_FACES];
    private final boolean[] inComponent = new boolean[MAX_FACES];
    private final int[] queue = new int[MAX_FACES];

    /** EPA on the points of {@code difference}. */
    Epa(MinkowskiDifference difference) {
        this.difference = difference;
        this.w = difference.w;
    }

    /**
     * The penetration of the shapes of D (see the class comment) into {@code out}, from the simplex {@code gjk}
     * ended with when its {@link Gjk#distance} returned false.
     */
    void penetration(Gjk gjk, DistanceResult out) {
        int gjkIterations = gjk.iterations();
        simplexSize = gjk.simplexSize();
        for (int s = 0; s < simplexSize; s++) {
            simplex[s] = gjk.simplexVertex(s);
        }
        tolerance = difference.tolerance;
        if (!completeTetrahedron()) {
            // D is flat to rounding: only possible when the shapes touch at most. GJK's simplex lies in D's
            // boundary; its point nearest the origin, weighed here afresh, gives witnesses on both shapes.
            simplexSize = gjk.simplexSize();
            for (int s = 0; s < simplexSize; s++) {
                simplex[s] = gjk.simplexVertex(s);
            }
            closestToOrigin();
            difference.witnesses(simplex, lambda, simplexSize, out);
            out.distance = 0;
            out.features.clear();
            copyUnit(gjk.closest(), out.normal);
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
        // The least support reach h_D(m) met and its direction: an upper bound of the depth (the nearest face's
        // distance is a lower one), and exactly the overlap of the shapes' projections on m.
        double leastReach = Double.POSITIVE_INFINITY;
        double lx = 0, ly = 0, lz = 0;
        while (iterations < MAX_ITERATIONS && difference.count() < MAX_VERTICES) {
            iterations++;
            best = nearestFace();
            double mx = faceNormal[3 * best], my = faceNormal[3 * best + 1], mz = faceNormal[3 * best + 2];
            int k = difference.support(mx, my, mz);
            double reach = mx * w[3 * k] + my * w[3 * k + 1] + mz * w[3 * k + 2];
            if (reach - faceDistance[best] <= tolerance) {
                difference.removeLast();
                converged = true;
                break;
            }
            if (reach < leastReach) {
                leastReach = reach;
                lx = mx;
                ly = my;
                lz = mz;
            }
            if (!expand(k, best)) {
                break;
            }
        }
        if (!converged && leastReach < Double.POSITIVE_INFINITY) {
            leastReachResult(leastReach, lx, ly, lz, out);
            out.iterations = gjkIterations + iterations;
            return;
        }
        if (!converged) {
            best = nearestFace();
        }
        faceWitnesses(best, out);
        double delta = faceDistance[best];
        double mx = faceNormal[3 * best], my = faceNormal[3 * best + 1], mz = faceNormal[3 * best + 2];
        out.distance = -delta;
        out.features.clear();
        out.normal[0] = -mx;
        out.normal[1] = -my;
        out.normal[2] = -mz;
        out.iterations = gjkIterations + iterations;
        out.converged = converged;
    }

    /**
     * The witnesses of face f's point nearest the origin, z = δ m, into {@code out}: its barycentric coordinates over
     * the face, then Σ λ a_i and Σ λ b_i (the face becomes the simplex).
     */
    private void faceWitnesses(int f, DistanceResult out) {
        double delta = faceDistance[f];
        double zx = delta * faceNormal[3 * f], zy = delta * faceNormal[3 * f + 1], zz = delta * faceNormal[3 * f + 2];
        int g = coveringFace(f, zx, zy, zz);
        if (g < 0) {
            // no face of the plane holds z: f's coordinates, as before (extrapolated; the depth and normal stand)
            g = f;
            barycentric(face[3 * f], face[3 * f + 1], face[3 * f + 2], zx, zy, zz);
        }
        simplex[0] = face[3 * g];
        simplex[1] = face[3 * g + 1];
        simplex[2] = face[3 * g + 2];
        simplexSize = 3;
        difference.witnesses(simplex, lambda, simplexSize, out);
    }

    /**
     * The face holding z = δ m (the nearest face f's point nearest the origin) within its triangle, lambda its
     * barycentric coordinates: f itself, else a face of the same plane (D's faces are triangulated, and where D has
     * coplanar faces, the nearest in distance need not be the one z falls in); -1 when none does. The barycentric
     * coordinates of z over a face it lies outside are negative somewhere, and the witnesses Σ λ a_i, Σ λ b_i then
     * lay outside the shapes (by up to 0.1 m for a cylinder on a box hull turned 45°, a helper's probe) though depth
     * and normal were right.
     */
    private int coveringFace(int f, double zx, double zy, double zz) {
        if (holds(f, zx, zy, zz)) {
            return f;
        }
        double delta = faceDistance[f];
        for (int g = 0; g < faceCount; g++) {
            if (g == f || Math.abs(faceDistance[g] - delta) > COPLANAR * difference.scale
                    || faceNormal[3 * g] * faceNormal[3 * f] + faceNormal[3 * g + 1] * faceNormal[3 * f + 1]
                            + faceNormal[3 * g + 2] * faceNormal[3 * f + 2] < 1 - COPLANAR) {
                continue;
            }
            if (holds(g, zx, zy, zz)) {
                return g;
            }
        }
        return -1;
    }

    /** True if z's barycentric coordinates over face f (into lambda) are all ≥ −{@link #INSIDE}. */
    private boolean holds(int f, double zx, double zy, double zz) {
        barycentric(face[3 * f], face[3 * f + 1], face[3 * f + 2], zx, zy, zz);
        return lambda[0] >= -INSIDE && lambda[1] >= -INSIDE && lambda[2] >= -INSIDE;
    }

    /** A barycentric coordinate this far below zero is rounding: z is on the face. */
    private static final double INSIDE = 1e-9;
    /** 1 − cos of the angle within which two faces' normals are one plane's. */
    private static final double COPLANAR = 1e-12;

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
            for (int axis = 0; axis < 6 && difference.count() < MAX_VERTICES; axis++) {
                double sign = axis % 2 == 0 ? 1 : -1;
                int k = difference.support(axis / 2 == 0 ? sign : 0, axis / 2 == 1 ? sign : 0,
                        axis / 2 == 2 ? sign : 0);
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
            for (int step = 0; step < 6 && difference.count() < MAX_VERTICES; step++) {
                double angle = step * Math.PI / 3;
                double c = StrictMath.cos(angle), s = StrictMath.sin(angle);
                int k = difference.support(c * px + s * qx, c * py + s * qy, c * pz + s * qz);
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
            if (nl == 0 || difference.count() + 2 > MAX_VERTICES) {
                return false;
            }
            int up = difference.support(nx, ny, nz);
            int down = difference.support(-nx, -ny, -nz);
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
     * The result of a search that did not converge: the direction m of the least support reach r = h_D(m) found,
     * d = −r, n = −m: never a separation for shapes that overlap (r ≥ the depth), and its depth is the overlap of
     * the shapes' projections on n exactly. The witnesses are those of the nearest face's point nearest the origin
     * (barycentric combinations of support points, so within the shapes), a_f and b_f, moved apart by half the
     * difference each so that b − a = d n: a = a_f + e/2, b = b_f − e/2, e = (b_f − a_f) − r m, which is along m up to
     * rounding and the angle between the face's normal and m. (Before, an EPA that stopped early answered with that
     * nearest face alone: a helper found its distance 2.4 cm positive for a box and a cylinder overlapping by 0.42 mm,
     * and 0.6 m off on deep ones.)
     */
    private void leastReachResult(double reach, double mx, double my, double mz, DistanceResult out) {
        faceWitnesses(nearestFace(), out);
        for (int i = 0; i < 3; i++) {
            double m = i == 0 ? mx : i == 1 ? my : mz;
            double e = (out.pointB[i] - out.pointA[i] - reach * m) / 2;
            out.pointA[i] += e;
            out.pointB[i] -= e;
        }
        out.distance = -reach;
        out.features.clear();
        out.normal[0] = -mx;
        out.normal[1] = -my;
        out.normal[2] = -mz;
        out.converged = false;
    }

    /**
     * Removes the faces that vertex k sees, connected across edges to face {@code from} (the nearest, which k was
     * found from), and fans k to their horizon. False, the polytope unchanged, when there is no room, when those
     * faces do not end in one simple loop of edges (a face seen by rounding alone, or a pinched region: the fan
     * would overlap faces kept, and the polytope would stop being a closed surface, as faces leaking past 2V − 4
     * showed), or when a face of the fan would have no area.
     */
    private boolean expand(int k, int from) {
        edgeCount = 0;
        int seen = 0;
        int start = -1;
        for (int f = 0; f < faceCount; f++) {
            int a = face[3 * f];
            double height = faceNormal[3 * f] * (w[3 * k] - w[3 * a])
                    + faceNormal[3 * f + 1] * (w[3 * k + 1] - w[3 * a + 1])
                    + faceNormal[3 * f + 2] * (w[3 * k + 2] - w[3 * a + 2]);
            if (height > 0) {
                start = f == from ? seen : start;
                visible[seen++] = f;
            }
        }
        if (start < 0) {
            return false;
        }
        // Only the faces seen that connect to `from` across edges: on a finely curved D rounding also shows k faces
        // elsewhere, whose removal would leave a hole. The set is small (a few faces), so pairs are compared.
        java.util.Arrays.fill(inComponent, 0, seen, false);
        inComponent[start] = true;
        queue[0] = start;
        for (int head = 0, tail = 1; head < tail; head++) {
            int u = visible[queue[head]];
            for (int j = 0; j < seen; j++) {
                if (!inComponent[j] && adjacent(u, visible[j])) {
                    inComponent[j] = true;
                    queue[tail++] = j;
                }
            }
        }
        int kept = 0;
        for (int j = 0; j < seen; j++) {
            if (inComponent[j]) {
                int f = visible[j];
                visible[kept++] = f;
                for (int e = 0; e < 3; e++) {
                    toggleEdge(face[3 * f + e], face[3 * f + (e + 1) % 3]);
                }
            }
        }
        seen = kept;
        if (faceCount - seen + edgeCount > MAX_FACES || !horizonIsOneLoop() || !fanHasArea(k)) {
            return false;
        }
        for (int i = seen - 1; i >= 0; i--) { // descending: the face moved into a removed slot is never one seen
            removeFace(visible[i]);
        }
        for (int e = 0; e < edgeCount; e++) {
            addFace(edge[2 * e], edge[2 * e + 1], k);
        }
        return true;
    }

    /** Faces f and g share an edge (in opposite directions, as neighbours of a closed surface do). */
    private boolean adjacent(int f, int g) {
        for (int e = 0; e < 3; e++) {
            int a = face[3 * f + e], b = face[3 * f + (e + 1) % 3];
            for (int x = 0; x < 3; x++) {
                if (face[3 * g + x] == b && face[3 * g + (x + 1) % 3] == a) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The horizon's directed edges form one simple cycle: each vertex starts one edge, and they chain back. */
    private boolean horizonIsOneLoop() {
        if (edgeCount < 3) {
            return false;
        }
        for (int i = 0; i < edgeCount; i++) {
            for (int j = i + 1; j < edgeCount; j++) {
                if (edge[2 * i] == edge[2 * j]) {
                    return false;
                }
            }
        }
        int at = 0;
        for (int step = 1; step <= edgeCount; step++) {
            int next = -1;
            for (int j = 0; j < edgeCount; j++) {
                if (edge[2 * j] == edge[2 * at + 1]) {
                    next = j;
                    break;
                }
            }
            if (next < 0) {
                return false;
            }
            at = next;
            if (at == 0) {
                return step == edgeCount;
            }
        }
        return false;
    }

    /** Every face (a, b, k) of the fan over the horizon has area. */
    private boolean fanHasArea(int k) {
        for (int e = 0; e < edgeCount; e++) {
            int a = edge[2 * e], b = edge[2 * e + 1];
            double abx = w[3 * b] - w[3 * a], aby = w[3 * b + 1] - w[3 * a + 1], abz = w[3 * b + 2] - w[3 * a + 2];
            double akx = w[3 * k] - w[3 * a], aky = w[3 * k + 1] - w[3 * a + 1], akz = w[3 * k + 2] - w[3 * a + 2];
            double nx = aby * akz - abz * aky, ny = abz * akx - abx * akz, nz = abx * aky - aby * akx;
            if (nx * nx + ny * ny + nz * nz == 0) {
                return false;
            }
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

    /**
     * lambda ← the barycentric coordinates over simplex[0..simplexSize) of the point of their convex hull nearest
     * the origin: the nearest of the points of its triangles and segments (which cover the hull of at most four
     * points when they are coplanar, as in a flat D), a triangle's winning ties; a triangle without area
     * (non-finite coordinates) is skipped, its edges standing for it.
     */
    private void closestToOrigin() {
        int n = simplexSize;
        lambda[0] = 1;
        lambda[1] = lambda[2] = lambda[3] = 0;
        if (n == 1) {
            return;
        }
        double best = Double.POSITIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                for (int k = j + 1; k < n; k++) {
                    int a = simplex[i], b = simplex[j], c = simplex[k];
                    Triangles.closest(w[3 * a], w[3 * a + 1], w[3 * a + 2], w[3 * b], w[3 * b + 1], w[3 * b + 2],
                            w[3 * c], w[3 * c + 1], w[3 * c + 2], 0, 0, 0, su);
                    double s = su[0], u = su[1];
                    double d = norm2(a, b, c, 1 - s - u, s, u);
                    if (d < best) {
                        best = d;
                        setWeights(i, j, k, 1 - s - u, s, u);
                    }
                }
            }
        }
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                int a = simplex[i], b = simplex[j];
                double ex = w[3 * b] - w[3 * a], ey = w[3 * b + 1] - w[3 * a + 1], ez = w[3 * b + 2] - w[3 * a + 2];
                double ee = ex * ex + ey * ey + ez * ez;
                double t = ee > 0 ? -(w[3 * a] * ex + w[3 * a + 1] * ey + w[3 * a + 2] * ez) / ee : 0;
                t = Math.max(0, Math.min(1, t));
                double d = norm2(a, b, a, 1 - t, t, 0);
                if (d < best) {
                    best = d;
                    setWeights(i, j, -1, 1 - t, t, 0);
                }
            }
        }
    }

    /** |λa w_a + λb w_b + λc w_c|², NaN when a weight is. */
    private double norm2(int a, int b, int c, double la, double lb, double lc) {
        double x = la * w[3 * a] + lb * w[3 * b] + lc * w[3 * c];
        double y = la * w[3 * a + 1] + lb * w[3 * b + 1] + lc * w[3 * c + 1];
        double z = la * w[3 * a + 2] + lb * w[3 * b + 2] + lc * w[3 * c + 2];
        return x * x + y * y + z * z;
    }

    /** lambda ← la, lb, lc at simplex slots i, j, k (k &lt; 0: none), zero elsewhere. */
    private void setWeights(int i, int j, int k, double la, double lb, double lc) {
        lambda[0] = lambda[1] = lambda[2] = lambda[3] = 0;
        lambda[i] = la;
        lambda[j] = lb;
        if (k >= 0) {
            lambda[k] = lc;
        }
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

    /** out ← x/|x|, or (0, 0, 1) when x = 0. */
    private static void copyUnit(double[] x, double[] out) {
        double len = Math.sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
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
}
