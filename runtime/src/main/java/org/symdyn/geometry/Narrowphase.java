package org.symdyn.geometry;

/**
 * Distance and contact queries between any two shapes at their placements, each answered by the exact method for
 * the pair (world coordinates, metres; the conventions of {@link DistanceResult} and {@link ContactManifold}: n from
 * the first shape A towards the second B). One instance holds the scratch of every method: no allocation per
 * query; not thread-safe (one per thread).
 *
 * <table>
 * <caption>Methods by pair (either order; the reversed pair is computed as the listed one and swapped)</caption>
 * <tr><th>pair</th><th>distance</th><th>manifold</th></tr>
 * <tr><td>sphere, capsule, box with each other; cylinder-sphere</td><td>closed form ({@link PrimitiveDistance},
 * {@link BoxBoxCollision})</td><td>box-box: clipped faces, up to 4 points; capsule-capsule and capsule-box: the closest pair and the
 * segment's ends where their normal agrees (a capsule lying along a face); others: the closest pair</td></tr>
 * <tr><td>half-space and any convex shape</td><td>closed form (support point)</td><td>up to 4 points
 * ({@link HalfSpaceContact})</td></tr>
 * <tr><td>other convex pairs (hull, cylinder-capsule, cylinder-box, cylinder-cylinder)</td><td>GJK/EPA
 * ({@link GjkEpa})</td><td>when n is a face's normal (within {@link #ALIGNED_NORMALS}; a box's or hull's face,
 * a cylinder's cap): the other shape's face, cap polygon or side segment facing it clipped to that face, up to 4
 * points; two cylinders' or capsules' sides lying along each other: the 2 ends of their common line
 * ({@code FeatureContact}); a sphere-hull pair, vertex and edge contacts: the closest pair</td></tr>
 * </table>
 * Two half-spaces and triangle meshes are refused with {@link IllegalArgumentException}: a half-space pair has no
 * finite distance, and a static mesh is met triangle by triangle ({@link #triangleDistance}) by its caller, which
 * chooses the triangles from their bounds (the mesh's {@link TriangleBvh}).
 *
 * <p>Use by contact: each step, for each pair the broadphase reports, {@link #manifold} with the settings' margin
 * gives the points where the bodies may touch; each point's normal, distance and witnesses a_k (on A) and b_k (on
 * B) give the contact Jacobian as the difference of the two bodies' point Jacobians at b_k and a_k, projected on n.
 */
public final class Narrowphase {
    private final PrimitiveDistance primitives = new PrimitiveDistance();
    private final BoxBoxCollision boxes = new BoxBoxCollision();
    private final HalfSpaceContact planes = new HalfSpaceContact();
    private final GjkEpa gjk = new GjkEpa();
    private final FeatureContact features = new FeatureContact();
    private final DistanceResult scratch = new DistanceResult();
    private final DistanceResult endResult = new DistanceResult();
    private final MeshTriangle triangle = new MeshTriangle();

    /**
     * A resting contact's manifold takes a face over an edge-edge axis that separates the shapes by at most this much
     * more, per metre of the smaller shape's size (a box's smallest half extent, else the bounding radius), when it is
     * no deeper than that either ({@link BoxBoxCollision}, {@link FeatureContact}). Two boxes stacked, turned by
     * 0.05-0.1 rad about the vertical and tilted by rounding (1e-4 rad), have an edge-edge axis within a few
     * milliradians of the face normal that separates them by about 1e-5 m more: taken, it gave one contact point
     * where the faces overlap over a polygon, and a box of a settled pile rocked on it forever (100 boxes in a bin:
     * 5-25 mm/s at 3 s, the solves at their sweep bound; four points and rest after). A genuine edge-edge contact
     * has every face axis farther behind (two crossed edges: by the size times the angle between them). Distances
     * keep the exact axis.
     */
    static final double MANIFOLD_FACE_TOLERANCE = 1e-3;

    /** End contacts of a capsule join its manifold when 1 − n · n_end is at most this (about 1e-4 rad). */
    static final double ALIGNED_NORMALS = 5e-9;
    /**
     * A closest point on a triangle lies on one of its edges when its distance from the edge's line is at most this
     * times the edge's length: closest points from the closed forms and GJK are combinations of the edge's two
     * corners, on it to rounding (about 1e-16 relative).
     */
    static final double ON_EDGE = 1e-9;
    /** How far (n · u') a normal may lean over a neighbouring triangle before the neighbour owns the contact. */
    static final double NEIGHBOUR_SIDE = 1e-9;
    /**
     * At a triangle touching a ridge ({@link TriangleMesh#touchesRidge}), a closest pair owned by coplanar or convex
     * neighbours gives B's points along the triangle's normal f only when its normal n faces the triangle this much,
     * n · f ≥ cos 60°. A normal nearer the triangle's plane meets it from the side, where the ridge's other face
     * faces B and gives its contacts: a box lying on one face of a right-angled ridge with its end on a grid line
     * had n ⊥ f at a triangle touching the ridge at a vertex, and its corners on the other face, carried along f,
     * came out 0.195 m deep. Away from ridges the fallback stands at any lean: on a flat grid a box's lowest corner
     * over a grid line can have a closest pair along its side face's normal, n ⊥ f, and only the fallback gives
     * that corner (TerrainGridContactTest). A concave neighbour (a bin's wall over its floor) gives no normal of the
     * edge at all, so there the triangle's points stand whatever the lean.
     */
    static final double FACING = 0.5;
    private final double[] x = new double[3];
    private final double[] su = new double[2];
    private final double[] corners = new double[9];
    /**
     * {@link #clipToTriangle}'s scratch: angles; polygons of up to 4 + 3 points (x, y, z), the two swapping after each
     * side plane; the clipped points' distances and which are kept.
     */
    private final double[] angle = new double[ContactManifold.CAPACITY];
    private double[] polygon = new double[3 * 8];
    private double[] clipped = new double[3 * 8];
    private final double[] depth = new double[8];
    private final boolean[] kept = new boolean[8];
    /** A triangle's unit face normal, by {@link #unitNormal}. */
    private final double[] face = new double[3];
    /** Set by {@link #neighbourOwns}: a neighbour across a concave edge owns the closest pair. */
    private boolean ownerConcave;

    private static final int SPHERE = 0, CAPSULE = 1, BOX = 2, CYLINDER = 3, HULL = 4, HALF_SPACE = 5, MESH = 6;

    private static int kind(Shape s) {
        if (s instanceof Sphere) {
            return SPHERE;
        }
        if (s instanceof Capsule) {
            return CAPSULE;
        }
        if (s instanceof Box) {
            return BOX;
        }
        if (s instanceof Cylinder) {
            return CYLINDER;
        }
        if (s instanceof ConvexHull) {
            return HULL;
        }
        return s instanceof HalfSpace ? HALF_SPACE : MESH;
    }

    /** The signed distance of A and B (see the class comment for the method used). */
    public void distance(Shape a, Placement pa, Shape b, Placement pb, DistanceResult out) {
        int ka = kind(a), kb = kind(b);
        if (ka > kb) {
            ordered(b, pb, kb, a, pa, ka, out);
            out.swap();
        } else {
            ordered(a, pa, ka, b, pb, kb, out);
        }
    }

    /** Kinds ka ≤ kb. */
    private void ordered(Shape a, Placement pa, int ka, Shape b, Placement pb, int kb, DistanceResult out) {
        if (kb == MESH || ka == HALF_SPACE) {
            throw new IllegalArgumentException("no distance between " + a + " and " + b + ": "
                    + (kb == MESH ? "a triangle mesh is met triangle by triangle" : "two half-spaces"));
        }
        if (kb == HALF_SPACE) {
            primitives.halfSpaceConvex((HalfSpace) b, pb, (ConvexShape) a, pa, out);
            out.swap();
            return;
        }
        switch (ka * 8 + kb) {
            case SPHERE * 8 + SPHERE -> primitives.sphereSphere((Sphere) a, pa, (Sphere) b, pb, out);
            case SPHERE * 8 + CAPSULE -> primitives.sphereCapsule((Sphere) a, pa, (Capsule) b, pb, out);
            case SPHERE * 8 + BOX -> primitives.sphereBox((Sphere) a, pa, (Box) b, pb, out);
            case SPHERE * 8 + CYLINDER -> {
                primitives.cylinderSphere((Cylinder) b, pb, (Sphere) a, pa, out);
                out.swap();
            }
            case CAPSULE * 8 + CAPSULE -> primitives.capsuleCapsule((Capsule) a, pa, (Capsule) b, pb, out);
            case CAPSULE * 8 + BOX -> primitives.capsuleBox((Capsule) a, pa, (Box) b, pb, out);
            case BOX * 8 + BOX -> boxes.distance((Box) a, pa, (Box) b, pb, out);
            default -> gjk.distance((ConvexShape) a, pa, (ConvexShape) b, pb, out);
        }
    }

    /**
     * The signed distance of triangle t of the static mesh A (a flat plate of zero thickness) and the convex shape B,
     * with the conventions of {@link DistanceResult} (n from the triangle towards B). Overlapping, the depth is the
     * shortest escape of B to either side of the triangle; a caller meeting a closed or one-sided surface (terrain)
     * keeps the contacts whose normal points to the triangle's front, (v1 − v0) × (v2 − v0). A sphere has the closed
     * form d = |c − q| − r with q the point of the triangle closest to its centre c (n the triangle's front normal
     * when c lies on it); other shapes go through {@link GjkEpa}.
     */
    public void triangleDistance(TriangleMesh a, int t, Placement pa, Shape b, Placement pb, DistanceResult out) {
        triangle.set(a, t);
        if (b instanceof Sphere s) {
            pa.toLocal(pb.p, x);
            sphereTriangle(s.radius(), pa, out);
        } else if (b instanceof ConvexShape c) {
            gjk.distance(triangle, pa, c, pb, out);
        } else {
            throw new IllegalArgumentException("no distance between a mesh triangle and " + b);
        }
    }

    /** The triangle against the sphere of radius r centred at x (mesh frame), by its closest point q. */
    private void sphereTriangle(double r, Placement pa, DistanceResult out) {
        double[] v = triangle.v;
        int region = Triangles.closest(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], x[0], x[1], x[2], su);
        double s = su[0], u = su[1]; // q = v0 + s (v1 − v0) + u (v2 − v0)
        double abx = v[3] - v[0], aby = v[4] - v[1], abz = v[5] - v[2];
        double acx = v[6] - v[0], acy = v[7] - v[1], acz = v[8] - v[2];
        double qx = v[0] + s * abx + u * acx, qy = v[1] + s * aby + u * acy, qz = v[2] + s * abz + u * acz;
        double dx = x[0] - qx, dy = x[1] - qy, dz = x[2] - qz;
        double len = Math.sqrt(dx * dx + dy * dy + dz * dz);
        double nx, ny, nz;
        boolean interior = region == Triangles.FACE;
        if (len == 0 || interior) {
            // On the triangle, or over its interior: n is its normal (the side of the centre; the front on it).
            nx = aby * acz - abz * acy;
            ny = abz * acx - abx * acz;
            nz = abx * acy - aby * acx;
            double nl = Math.sqrt(nx * nx + ny * ny + nz * nz);
            double side = nx * dx + ny * dy + nz * dz < 0 ? -nl : nl;
            nx /= side;
            ny /= side;
            nz /= side;
        } else {
            nx = dx / len;
            ny = dy / len;
            nz = dz / len;
        }
        // a = q on the triangle, b = c − r n; to the world.
        x[0] = qx;
        x[1] = qy;
        x[2] = qz;
        pa.toWorld(x, x);
        double ax = x[0], ay = x[1], az = x[2];
        x[0] = nx;
        x[1] = ny;
        x[2] = nz;
        pa.rotateToWorld(x, x);
        double d = len - r;
        out.set(d, x[0], x[1], x[2], ax, ay, az, ax + d * x[0], ay + d * x[1], az + d * x[2]);
    }

    /**
     * The contact manifold of triangle t of the static mesh A and the convex shape B, within {@code margin}: the
     * closest pair of {@link #triangleDistance}, and when it lies on an edge of the triangle that meets a face of B (a
     * box lying across a ridge) or a round side lying along it, the points of that edge over B's face or the two ends
     * of their common part ({@code FeatureContact}); and when that pair's normal is the triangle's front normal (B lies
     * over the triangle's face, as a box resting on terrain), B's points within the margin of the triangle's plane
     * ({@link HalfSpaceContact}: up to four, a face resting on the face supported at its corners) whose projections
     * fall inside the triangle: each such point's distance to the plane is its distance to the triangle. The points
     * outside are its neighbours' to report. A closest pair on an edge the triangle shares with a neighbour whose
     * normal leans over the neighbour's side (the internal-edge problem: across a flat mesh's diagonal only the face
     * normal is true; at a convex edge, the arc between the two faces' normals; at a concave edge, none) is not
     * reported: B's points over the triangle along its face normal are, as for the front normal, and none if none lies
     * over it; and none at a triangle touching a ridge when that normal leans more than 60° from the face's ({@link
     * #FACING}: B meets the triangle from the side, and its points carried along the face normal would be points of the
     * ridge's other face).
     */
    public void triangleManifold(TriangleMesh a, int t, Placement pa, Shape b, Placement pb, double margin,
            ContactManifold out) {
        triangleDistance(a, t, pa, b, pb, scratch);
        out.clear();
        if (!(scratch.distance <= margin)) {
            return;
        }
        if (!(b instanceof ConvexShape cb) || b instanceof Sphere) {
            if (!neighbourOwns(a, t, pa)) {
                out.setFrom(scratch);
            }
            return;
        }
        double[] v = triangle.v; // set by triangleDistance, mesh frame
        for (int c = 0; c < 3; c++) {
            x[0] = v[3 * c];
            x[1] = v[3 * c + 1];
            x[2] = v[3 * c + 2];
            pa.toWorld(x, x);
            corners[3 * c] = x[0];
            corners[3 * c + 1] = x[1];
            corners[3 * c + 2] = x[2];
        }
        unitNormal(corners, face);
        double nx = face[0], ny = face[1], nz = face[2];
        double along = scratch.normal[0] * nx + scratch.normal[1] * ny + scratch.normal[2] * nz;
        boolean aligned = along >= 1 - ALIGNED_NORMALS;
        if (!aligned && !neighbourOwns(a, t, pa)) {
            // An edge or corner of the triangle against B: B's face resting on the edge meets all of it, the edge
            // clipped to the face (FeatureContact). The closest pair alone put a box lying across a long ridge on
            // one point at one end of the line, the other end the next step: it rocked at 500 Hz (0.12 rad/s).
            features.manifold(triangle, pa, cb, pb, scratch, margin, out);
            return;
        }
        if (!aligned && !(along > 0)) {
            return; // B on the back side of a one-sided mesh: not pulled through to the front
        }
        if (!aligned && !ownerConcave && along < FACING && a.touchesRidge()[t]) {
            return; // B meets the triangle from the side, at a ridge (see FACING)
        }
        // Aligned, or a pair on a shared edge leaning over the neighbour's side, which that edge cannot give: B's
        // points over this triangle along its face normal instead. Dropping such a pair for the neighbour to report
        // lost every contact of a box tilted 1.7e-4 rad on a flat 5 cm grid: with its lowest edge along a grid line,
        // every triangle's closest pair lies on a shared edge and leans the same way, so each triangle deferred to
        // the next (the box fell through the terrain).
        double offset = nx * corners[0] + ny * corners[1] + nz * corners[2];
        planes.manifold(nx, ny, nz, offset, cb, pb, margin, out);
        clipToTriangle(nx, ny, nz, offset, out);
        if (out.count == 0 && aligned) {
            out.setFrom(scratch);
        }
    }

    /**
     * The plane manifold's points in {@code out} (B's points near the triangle's plane n · x = c, up to four: a face's
     * corners, an edge's ends, a point) replaced by the polygon they span clipped to the triangle
     * ({@link FaceClipping}): its corners over the triangle, the triangle's corners under it, and where their edges
     * cross, each at its distance n · x − c (B's points interpolated along B's face: exact for a flat face); four of
     * them kept when more. Keeping only B's points over the triangle supported a box overhanging a mesh's outer edge
     * on one or two points (a mesh corner, a box corner), and it rocked and crept without end; with the crossings it
     * stands on the part of its face over the mesh. Points all over the triangle (a face inside the mesh) are kept as
     * they are, and none over it gives none.
     */
    private void clipToTriangle(double nx, double ny, double nz, double c, ContactManifold out) {
        int n = out.count;
        int over = 0;
        for (int k = 0; k < n; k++) {
            over += overTriangle(out.pointB, 3 * k, nx, ny, nz) ? 1 : 0;
        }
        if (over == n) {
            return;
        }
        if (over == 0) {
            // none over it: a triangle wholly under B's face (its neighbours carry B's corners) or beside it. Its
            // own corners as points gave every triangle under a box three, a hundred per box on terrain with noise
            // (a review's probe: the bound filled and later boxes fell through); the caller's closest pair stands.
            out.count = 0;
            return;
        }
        // B's points as a convex polygon: ordered by angle about their centroid in the triangle's plane
        double ux = corners[3] - corners[0], uy = corners[4] - corners[1], uz = corners[5] - corners[2];
        double ul = Math.sqrt(ux * ux + uy * uy + uz * uz);
        ux /= ul;
        uy /= ul;
        uz /= ul;
        double wx = ny * uz - nz * uy, wy = nz * ux - nx * uz, wz = nx * uy - ny * ux;
        double cx = 0, cy = 0, cz = 0;
        for (int k = 0; k < n; k++) {
            cx += out.pointB[3 * k] / n;
            cy += out.pointB[3 * k + 1] / n;
            cz += out.pointB[3 * k + 2] / n;
        }
        for (int k = 0; k < n; k++) {
            double dx = out.pointB[3 * k] - cx, dy = out.pointB[3 * k + 1] - cy, dz = out.pointB[3 * k + 2] - cz;
            angle[k] = Math.atan2(wx * dx + wy * dy + wz * dz, ux * dx + uy * dy + uz * dz);
        }
        for (int placed = 0; placed < n; placed++) {
            int next = -1;
            for (int k = 0; k < n; k++) {
                if (!Double.isNaN(angle[k]) && (next < 0 || angle[k] < angle[next])) {
                    next = k;
                }
            }
            angle[next] = Double.NaN;
            System.arraycopy(out.pointB, 3 * next, polygon, 3 * placed, 3);
        }
        // the triangle's side planes, outward: (v_i+1 − v_i) × n · x ≤ (v_i+1 − v_i) × n · v_i
        int m = n;
        for (int e = 0; e < 3 && m > 0; e++) {
            int i = 3 * e, j = 3 * ((e + 1) % 3);
            double ex = corners[j] - corners[i], ey = corners[j + 1] - corners[i + 1], ez = corners[j + 2] - corners[i + 2];
            double px = ey * nz - ez * ny, py = ez * nx - ex * nz, pz = ex * ny - ey * nx;
            m = FaceClipping.clipPlane(polygon, m, clipped, px, py, pz, px * corners[i] + py * corners[i + 1]
                    + pz * corners[i + 2]);
            double[] swap = polygon;
            polygon = clipped;
            clipped = swap;
        }
        m = withoutRepeats(polygon, m);
        for (int k = 0; k < m; k++) {
            depth[k] = nx * polygon[3 * k] + ny * polygon[3 * k + 1] + nz * polygon[3 * k + 2] - c;
            kept[k] = true;
        }
        if (m > ContactManifold.CAPACITY) {
            FaceClipping.keepFour(polygon, m, depth, kept, nx, ny, nz);
        }
        out.count = 0;
        for (int k = 0; k < m; k++) {
            if (kept[k]) {
                out.addFromB(depth[k], polygon[3 * k], polygon[3 * k + 1], polygon[3 * k + 2]);
            }
        }
    }

    /** The polygon's points (3 numbers each) with those repeating an earlier one (within 1e-12 m) left out. */
    private static int withoutRepeats(double[] p, int m) {
        int kept = 0;
        for (int k = 0; k < m; k++) {
            boolean repeat = false;
            for (int r = 0; r < kept && !repeat; r++) {
                repeat = Math.abs(p[3 * r] - p[3 * k]) <= 1e-12 && Math.abs(p[3 * r + 1] - p[3 * k + 1]) <= 1e-12
                        && Math.abs(p[3 * r + 2] - p[3 * k + 2]) <= 1e-12;
            }
            if (!repeat) {
                System.arraycopy(p, 3 * k, p, 3 * kept, 3);
                kept++;
            }
        }
        return kept;
    }

    /** The unit normal (v1 - v0) × (v2 - v0) / |...| of a triangle's corners (9 coordinates) into out. */
    private static void unitNormal(double[] v, double[] out) {
        double e1x = v[3] - v[0], e1y = v[4] - v[1], e1z = v[5] - v[2];
        double e2x = v[6] - v[0], e2y = v[7] - v[1], e2z = v[8] - v[2];
        double nx = e1y * e2z - e1z * e2y, ny = e1z * e2x - e1x * e2z, nz = e1x * e2y - e1y * e2x;
        double len = Math.sqrt(nx * nx + ny * ny + nz * nz);
        out[0] = nx / len;
        out[1] = ny / len;
        out[2] = nz / len;
    }

    /**
     * True when the closest pair in {@code scratch} (from triangle t of the mesh, set in {@link #triangle}) lies on
     * an edge that t shares with a neighbour and its normal n is not one that edge may give: n · u' < −
     * {@link #NEIGHBOUR_SIDE} for the neighbour's in-plane direction u' ({@link TriangleMesh#neighbourSides}). The
     * neighbour's face then gives the contact, and t's, with its tilted normal, is left out: across a flat mesh's
     * internal edge, only the face normal; at a convex edge, the arc between the two faces' normals; at a concave
     * edge, none. A point at a corner is on two edges and is tested against both neighbours. A pair whose normal is
     * t's own face normal (either side, leaning less than {@link #NEIGHBOUR_SIDE} rad) is t's: never left out.
     * Sets {@link #ownerConcave} when a neighbour that owns it lies across a concave edge (u' · f &lt; −
     * {@link #NEIGHBOUR_SIDE}, f t's normal: u' points below t's plane).
     */
    private boolean neighbourOwns(TriangleMesh mesh, int t, Placement pa) {
        ownerConcave = false;
        boolean owns = false;
        double[] sides = mesh.neighbourSides();
        double[] v = triangle.v;
        pa.rotateToLocal(scratch.normal, x);
        double nx = x[0], ny = x[1], nz = x[2];
        unitNormal(v, face);
        double fx = face[0], fy = face[1], fz = face[2];
        double along = nx * fx + ny * fy + nz * fz;
        double px = nx - along * fx, py = ny - along * fy, pz = nz - along * fz;
        if (px * px + py * py + pz * pz <= NEIGHBOUR_SIDE * NEIGHBOUR_SIDE) {
            return false; // the face's own normal (lean below 1e-9 rad: ALIGNED_NORMALS allows 1e-4)
        }
        pa.toLocal(scratch.pointA, x);
        for (int k = 0; k < 3; k++) {
            int s = 9 * t + 3 * k;
            if (Double.isNaN(sides[s])) {
                continue;
            }
            int i = 3 * k, j = 3 * ((k + 1) % 3);
            double ex = v[j] - v[i], ey = v[j + 1] - v[i + 1], ez = v[j + 2] - v[i + 2];
            double wx = x[0] - v[i], wy = x[1] - v[i + 1], wz = x[2] - v[i + 2];
            double cx = ey * wz - ez * wy, cy = ez * wx - ex * wz, cz = ex * wy - ey * wx;
            double e2 = ex * ex + ey * ey + ez * ez;
            // on the edge's line within ON_EDGE of its length: |e × w| / |e| ≤ ON_EDGE |e|
            if (cx * cx + cy * cy + cz * cz > ON_EDGE * ON_EDGE * e2 * e2) {
                continue;
            }
            if (nx * sides[s] + ny * sides[s + 1] + nz * sides[s + 2] < -NEIGHBOUR_SIDE) {
                owns = true;
                ownerConcave |= sides[s] * fx + sides[s + 1] * fy + sides[s + 2] * fz < -NEIGHBOUR_SIDE;
            }
        }
        return owns;
    }

    /** True when point p[o..o+3) projects (along n) into the triangle of {@code corners}, edges included. */
    private boolean overTriangle(double[] p, int o, double nx, double ny, double nz) {
        for (int e = 0; e < 3; e++) {
            int i = 3 * e, j = 3 * ((e + 1) % 3);
            double ex = corners[j] - corners[i], ey = corners[j + 1] - corners[i + 1], ez = corners[j + 2] - corners[i + 2];
            double px = p[o] - corners[i], py = p[o + 1] - corners[i + 1], pz = p[o + 2] - corners[i + 2];
            // n · (e × (p − v_i)) ≥ 0 on the inner side of every edge of a counter-clockwise triangle
            double side = nx * (ey * pz - ez * py) + ny * (ez * px - ex * pz) + nz * (ex * py - ey * px);
            double scale = ex * ex + ey * ey + ez * ez;
            if (side < -1e-12 * scale) {
                return false;
            }
        }
        return true;
    }

    /**
     * The contact manifold of A and B: the points with distance ≤ {@code margin} (metres), at most
     * {@link ContactManifold#CAPACITY}; none when they are farther apart (see the class comment for the method).
     */
    public void manifold(Shape a, Placement pa, Shape b, Placement pb, double margin, ContactManifold out) {
        int ka = kind(a), kb = kind(b);
        if (ka > kb) {
            orderedManifold(b, pb, kb, a, pa, ka, margin, out);
            out.swap();
        } else {
            orderedManifold(a, pa, ka, b, pb, kb, margin, out);
        }
    }

    /**
     * Capsule A against a capsule or box B: the closest pair, and the contacts of the balls at the ends of each
     * capsule's segment (each exact) whose normal agrees with the closest pair's within
     * {@link #ALIGNED_NORMALS} (a capsule lying along a face or along another capsule: its two ends).
     */
    private void capsuleManifold(Capsule a, Placement pa, Shape b, Placement pb, double margin, ContactManifold out) {
        ordered(a, pa, CAPSULE, b, pb, b instanceof Capsule ? CAPSULE : BOX, scratch);
        out.clear();
        if (scratch.distance > margin) {
            return;
        }
        out.setFrom(scratch);
        for (int side = 0; side < 2; side++) {
            if (side == 1 && !(b instanceof Capsule)) {
                break;
            }
            Capsule c = side == 0 ? a : (Capsule) b;
            Placement p = side == 0 ? pa : pb;
            for (int end = -1; end <= 1; end += 2) {
                double h = end * c.halfLength();
                double ex = p.p[0] + h * p.r[2], ey = p.p[1] + h * p.r[5], ez = p.p[2] + h * p.r[8];
                if (side == 0 && b instanceof Capsule other) {
                    primitives.ballCapsule(c.radius(), ex, ey, ez, other, pb, endResult);
                } else if (side == 0) {
                    primitives.ballBox(c.radius(), ex, ey, ez, (Box) b, pb, endResult);
                } else {
                    primitives.ballCapsule(c.radius(), ex, ey, ez, a, pa, endResult);
                    endResult.swap();
                }
                addAligned(out, margin);
            }
        }
        if (b instanceof Box && alongAnAxis(pb, out.normal)) {
            out.setFace(-1); // the capsule over one of the box's faces
        }
    }

    /** Whether the unit vector n is (anti)parallel to an axis of the placement's frame, a box's face normal. */
    private static boolean alongAnAxis(Placement p, double[] n) {
        for (int i = 0; i < 3; i++) {
            double c = p.r[i] * n[0] + p.r[3 + i] * n[1] + p.r[6 + i] * n[2];
            if (Math.abs(c) >= 1 - 1e-12) {
                return true;
            }
        }
        return false;
    }

    /** Adds endResult's point to the manifold if within the margin, aligned with its normal and not already in. */
    private void addAligned(ContactManifold out, double margin) {
        if (endResult.distance > margin || endResult.normal[0] * out.normal[0] + endResult.normal[1] * out.normal[1]
                + endResult.normal[2] * out.normal[2] < 1 - ALIGNED_NORMALS) {
            return;
        }
        for (int k = 0; k < out.count; k++) {
            double dx = out.pointB[3 * k] - endResult.pointB[0], dy = out.pointB[3 * k + 1] - endResult.pointB[1];
            double dz = out.pointB[3 * k + 2] - endResult.pointB[2];
            if (dx * dx + dy * dy + dz * dz <= 1e-18) {
                return;
            }
        }
        out.addFromB(endResult.distance, endResult.pointB[0], endResult.pointB[1], endResult.pointB[2]);
    }

    private void orderedManifold(Shape a, Placement pa, int ka, Shape b, Placement pb, int kb, double margin,
            ContactManifold out) {
        if (kb == HALF_SPACE && ka != HALF_SPACE) {
            planes.manifold((HalfSpace) b, pb, (ConvexShape) a, pa, margin, out);
            out.swap();
            return;
        }
        if (ka == BOX && kb == BOX) {
            boxes.manifold((Box) a, pa, (Box) b, pb, margin, out, scratch);
            return;
        }
        if (ka == CAPSULE && (kb == CAPSULE || kb == BOX)) {
            capsuleManifold((Capsule) a, pa, b, pb, margin, out);
            return;
        }
        ordered(a, pa, ka, b, pb, kb, scratch);
        if (ka >= CAPSULE && kb >= CYLINDER) {
            // the GJK/EPA pairs (a sphere's only feature is its closest point)
            features.manifold((ConvexShape) a, pa, (ConvexShape) b, pb, scratch, margin, out);
            return;
        }
        out.clear();
        if (scratch.distance <= margin) {
            out.setFrom(scratch);
        }
    }
}
