package org.symdyn.geometry;

/**
 * The contact manifold of two convex shapes from their closest pair (GJK/EPA's, conventions of
 * {@link ContactManifold}: world coordinates, metres, n from A towards B), by clipping the features the shapes
 * present to each other, so that a face resting on a face is supported at up to four points instead of one.
 *
 * <p>Features: the feature of a shape facing a world unit direction u is, for a box, its face whose outward normal
 * is most aligned with u; for a {@link ConvexHull}, of the facets ({@link HullFacets}) containing its support vertex
 * along u, the one whose normal is most aligned with u; for a cylinder, when |u · z| ≥ √½ (z its axis), the cap
 * facing u as the regular polygon of {@link #CAP_SIDES} sides inscribed in its rim, counter-clockwise seen from
 * outside and starting at the rim's support point along u, else the segment of its side between the two rims'
 * support points; for a capsule, when |u · z| &lt; √½, the segment between its two end balls' support points c_± +
 * r u, else a point; for a sphere, a point; for a mesh triangle (a flat plate), its face when u is its normal within
 * {@link Narrowphase#ALIGNED_NORMALS}, else its edge perpendicular to u within {@link #PERPENDICULAR} (the edge's
 * corners' support values within that times its length), else its corner, a point.
 *
 * <p>Method: A's feature facing n and B's facing −n. A face whose outward normal m satisfies
 * 1 − m · (±n) ≤ {@link Narrowphase#ALIGNED_NORMALS} (n is that face's normal, about 1e-4 rad) can be the reference
 * face; when both can, a plane face is preferred over a cylinder's polygonal cap, then the better aligned one, A on
 * a tie. The reference face's outward normal r becomes the manifold's normal (n = r for A's face, −r for B's), and
 * the other shape's feature facing −r (the incident feature, however tilted) is clipped (Sutherland-Hodgman) to the
 * side planes of the reference face, (v_k+1 − v_k) × r · x ≤ (v_k+1 − v_k) × r · v_k. Each clipped point p, on
 * the incident shape, has the distance d = r · p − c, c the reference face's offset (max of r · v_k over its
 * corners): its height above the reference face, over which it lies. The witness on the reference shape is p − d r,
 * its projection on the face. Points with d ≤ margin are kept, at most {@link ContactManifold#CAPACITY}: the
 * deepest, the farthest from it, and the two spanning the largest areas on either side of the line through them.
 * A resting contact (no deeper than {@link Narrowphase#MANIFOLD_FACE_TOLERANCE} of the smaller bounding radius)
 * whose exact axis is an edge's takes a face all the same when that face separates the shapes by at most as much
 * less along its own normal: two hulls stacked, turned a little and tilted by rounding, have an edge-edge axis a
 * few milliradians off the face normal, and one point there let a settled pile rock forever.
 * With neither face aligned, two cylinders' or capsules' sides lying along each other touch along a line: its two ends
 * ({@link #sides}); so do a mesh triangle's edge and a round side lying along it ({@link #edgeAlongSide}). Otherwise
 * (vertex or edge contacts, crossed sides), with an incident point feature (a sphere, a capsule's end), or with no
 * clipped point within the margin, the manifold is the closest pair alone.
 *
 * <p>Every point is exact for polytopes (to rounding); points of a cylinder's cap lie on the inscribed polygon, its
 * vertices on the rim. One instance holds all the scratch; buffers grow once to the largest hull facet met, then no
 * allocation; not thread-safe.
 */
final class FeatureContact {
    /** Sides of the regular polygon that stands for a cylinder's cap. */
    static final int CAP_SIDES = 16;
    /** The cap is a cylinder's feature when |u · z| is at least this (the cap faces u more than the side does). */
    private static final double CAP_FACING = Math.sqrt(0.5);
    private static final double[] COS = new double[CAP_SIDES];
    private static final double[] SIN = new double[CAP_SIDES];

    static {
        // StrictMath: the same bits on every machine, as the rollouts promise (Math's may use the CPU's own)
        for (int k = 0; k < CAP_SIDES; k++) {
            COS[k] = StrictMath.cos(2 * Math.PI * k / CAP_SIDES);
            SIN[k] = StrictMath.sin(2 * Math.PI * k / CAP_SIDES);
        }
    }

    /** The signs of a box face's corners, counter-clockwise about the face's normal +e_i in axes (e_i+1, e_i+2). */
    private static final double[] CORNERS = {1, 1, -1, 1, -1, -1, 1, -1};

    /** n is perpendicular to a round side's axis z when |n · z| is at most this (about 1e-4 rad). */
    static final double PERPENDICULAR = 1e-4;

    private static final int POINT = 0, SEGMENT = 1, FACE = 2;

    /** A shape's feature facing a direction: its corners (world), and for a face its outward normal. */
    private static final class Feature {
        int kind;
        int count;
        double[] x = new double[3 * CAP_SIDES];
        final double[] normal = new double[3];
        /** A face's normal · u. */
        double alignment;
        /** A cylinder's cap: a polygon standing for a disc. */
        boolean curved;

        void room(int corners) {
            if (x.length < 3 * corners) {
                x = new double[3 * corners]; // grows once to the largest facet met
            }
        }
    }

    private final Feature first = new Feature();
    private final Feature second = new Feature();
    private final double[] local = new double[3];
    private double[] polygon = new double[3 * 2 * CAP_SIDES];
    private double[] clipped = new double[3 * 2 * CAP_SIDES];
    private double[] depth = new double[2 * CAP_SIDES];
    private boolean[] kept = new boolean[2 * CAP_SIDES];
    private int polygonCount;
    private double rx;
    private double ry;
    private double rz;

    /**
     * Fills {@code out} with the manifold of A and B (see the class comment) from their closest pair {@code closest};
     * empty when its distance exceeds {@code margin} (metres).
     */
    void manifold(ConvexShape a, Placement pa, ConvexShape b, Placement pb, DistanceResult closest, double margin,
            ContactManifold out) {
        out.clear();
        if (!(closest.distance <= margin)) {
            return;
        }
        double nx = closest.normal[0], ny = closest.normal[1], nz = closest.normal[2];
        feature(a, pa, nx, ny, nz, first);
        feature(b, pb, -nx, -ny, -nz, second);
        boolean faceA = first.kind == FACE && first.alignment >= 1 - Narrowphase.ALIGNED_NORMALS;
        boolean faceB = second.kind == FACE && second.alignment >= 1 - Narrowphase.ALIGNED_NORMALS;
        double tolerance = Narrowphase.MANIFOLD_FACE_TOLERANCE * Math.min(a.boundingRadius(), b.boundingRadius());
        if (!faceA && !faceB && closest.distance >= -tolerance) {
            // a resting contact whose exact axis is an edge's, a little off a face normal (see the class comment)
            double floor = closest.distance - tolerance;
            faceA = first.kind == FACE && !first.curved && separationAlong(first, b, pb) >= floor;
            faceB = second.kind == FACE && !second.curved && separationAlong(second, a, pa) >= floor;
        }
        boolean referenceIsA;
        if (faceA && faceB) {
            referenceIsA = first.curved != second.curved ? second.curved : first.alignment >= second.alignment;
        } else if (faceA || faceB) {
            referenceIsA = faceA;
        } else {
            if (!sides(a, pa, b, pb, closest, margin, out) && !(a instanceof MeshTriangle
                    && edgeAlongSide(b, pb, closest, margin, out))) {
                out.setFrom(closest);
            }
            return;
        }
        Feature reference = referenceIsA ? first : second, incident = referenceIsA ? second : first;
        rx = reference.normal[0];
        ry = reference.normal[1];
        rz = reference.normal[2];
        feature(referenceIsA ? b : a, referenceIsA ? pb : pa, -rx, -ry, -rz, incident);
        if (incident.kind == POINT || !clip(reference, incident, margin)) {
            out.setFrom(closest);
            if (incident.kind == POINT) {
                out.setFace(referenceIsA ? 1 : -1); // a ball's closest point over the reference face
            }
            return;
        }
        double s = referenceIsA ? 1 : -1;
        out.setNormal(s * rx, s * ry, s * rz);
        out.setFace(referenceIsA ? 1 : -1);
        for (int k = 0; k < polygonCount; k++) {
            if (kept[k]) {
                double d = depth[k], x = polygon[3 * k], y = polygon[3 * k + 1], z = polygon[3 * k + 2];
                if (referenceIsA) {
                    out.addFromB(d, x, y, z);
                } else {
                    out.addFromB(d, x - d * rx, y - d * ry, z - d * rz);
                }
            }
        }
    }

    /**
     * The separation of {@code other} from the face f along the face's outward normal m (world): min over other of
     * m · x minus the face's offset m · (a corner), from other's support point along −m.
     */
    private double separationAlong(Feature f, ConvexShape other, Placement p) {
        double mx = f.normal[0], my = f.normal[1], mz = f.normal[2];
        local[0] = -mx;
        local[1] = -my;
        local[2] = -mz;
        p.rotateToLocal(local, local);
        other.support(local[0], local[1], local[2], local);
        p.toWorld(local, local);
        return mx * (local[0] - f.x[0]) + my * (local[1] - f.x[1]) + mz * (local[2] - f.x[2]);
    }

    /**
     * Two round sides lying along each other (cylinders' or capsules' axes z_A, z_B parallel within
     * {@link Narrowphase#ALIGNED_NORMALS}, n perpendicular to both within {@link #PERPENDICULAR}): the two ends of the
     * line where they touch. With c = c_B − c_A, B's axis spans s ∈ c · z_A ± g |z_A · z_B| along A's, and their common
     * part [s_lo, s_hi] ⊂ [−h, h] (h, g the half lengths of the sides) holds the contact line. The normal is the
     * direction of v(s_mid), v(s) = q(s) − c_A − s z_A from A's axis to B's point q(s) = c_B + (s − c · z_A) /
     * (z_A · z_B) z_B; at s = s_lo and s_hi the distance is d = n · v(s) − r_A − r_B (r the radii), the witness on A is
     * c_A + s z_A + r_A n and on B that plus d n. False (nothing written) unless both shapes are round and lie so,
     * with a common part of positive length and a point within the margin.
     */
    private boolean sides(ConvexShape a, Placement pa, ConvexShape b, Placement pb, DistanceResult closest,
            double margin, ContactManifold out) {
        double ra = a instanceof Cylinder c ? c.radius() : a instanceof Capsule c ? c.radius() : -1;
        double rb = b instanceof Cylinder c ? c.radius() : b instanceof Capsule c ? c.radius() : -1;
        if (ra < 0 || rb < 0) {
            return false;
        }
        double ha = a instanceof Cylinder c ? c.halfLength() : ((Capsule) a).halfLength();
        double hb = b instanceof Cylinder c ? c.halfLength() : ((Capsule) b).halfLength();
        double ax = pa.r[2], ay = pa.r[5], az = pa.r[8], bx = pb.r[2], by = pb.r[5], bz = pb.r[8];
        double nx = closest.normal[0], ny = closest.normal[1], nz = closest.normal[2];
        double along = ax * bx + ay * by + az * bz;
        if (Math.abs(nx * ax + ny * ay + nz * az) > PERPENDICULAR
                || Math.abs(nx * bx + ny * by + nz * bz) > PERPENDICULAR
                || 1 - Math.abs(along) > Narrowphase.ALIGNED_NORMALS) {
            return false;
        }
        return commonLine(pa.p[0], pa.p[1], pa.p[2], ax, ay, az, -ha, ha, ra, pb.p, bx, by, bz, hb, rb, margin, out);
    }

    /**
     * The two ends of the common part of A's line o + s u, s ∈ [s_min, s_max] (u a unit vector; a round side's axis
     * of radius r_A, or an edge with r_A = 0), and B's round side (axis through c with unit z, half length g, radius
     * r_B) lying along it (z · u = ±1 within the callers' tolerance): B's axis spans s ∈ m ± g |u · z|, m = u · (c − o);
     * the normal is the direction of v(s_mid), v(s) = c + (s − m) / (u · z) z − o − s u from A's line to B's axis;
     * at each end d = n · v(s) − r_A − r_B, the witness on A is o + s u + r_A n and on B that plus d n. False (nothing
     * written) without a common part of positive length or a point within the margin.
     */
    private static boolean commonLine(double ox, double oy, double oz, double ux, double uy, double uz, double sMin,
            double sMax, double ra, double[] c, double zx, double zy, double zz, double g, double rb, double margin,
            ContactManifold out) {
        double along = ux * zx + uy * zy + uz * zz;
        double cx = c[0] - ox, cy = c[1] - oy, cz = c[2] - oz;
        double middle = cx * ux + cy * uy + cz * uz;
        double lo = Math.max(sMin, middle - g * Math.abs(along)), hi = Math.min(sMax, middle + g * Math.abs(along));
        if (!(hi > lo)) {
            return false;
        }
        double mid = 0.5 * (lo + hi);
        double t = (mid - middle) / along;
        double vx = cx + t * zx - mid * ux, vy = cy + t * zy - mid * uy, vz = cz + t * zz - mid * uz;
        double len = Math.sqrt(vx * vx + vy * vy + vz * vz);
        if (!(len > 0)) {
            return false;
        }
        double nx = vx / len, ny = vy / len, nz = vz / len;
        out.clear();
        out.setNormal(nx, ny, nz);
        for (int end = 0; end < 2; end++) {
            double s = end == 0 ? lo : hi;
            t = (s - middle) / along;
            double d = nx * (cx + t * zx - s * ux) + ny * (cy + t * zy - s * uy) + nz * (cz + t * zz - s * uz)
                    - ra - rb;
            if (d <= margin) {
                double px = ox + s * ux + ra * nx, py = oy + s * uy + ra * ny, pz = oz + s * uz + ra * nz;
                out.addFromB(d, px + d * nx, py + d * ny, pz + d * nz);
            }
        }
        return out.count > 0;
    }

    /**
     * A mesh triangle's edge (A's feature {@link #first}, from corner a₀ along the unit direction e, length ℓ)
     * along a round side (B a capsule or cylinder of radius r, axis z through c, half length g), parallel within
     * {@link Narrowphase#ALIGNED_NORMALS}, n perpendicular to the edge within {@link #PERPENDICULAR}: the two ends of
     * their common part, as {@link #sides} does for two round sides. B's axis spans s ∈ m ± g |e · z| along the
     * edge, m = e · (c − a₀), and the common part [max(0, ·), min(ℓ, ·)] holds the contact line. The normal is the
     * direction of v(s_mid), v(s) = q(s) − a₀ − s e from the edge to B's axis point q(s) = c + (s − m) / (e · z) z;
     * at each end d = n · v(s) − r, the witness on A is a₀ + s e and on B that plus d n. False (nothing written)
     * unless the features lie so, with a common part of positive length and a point within the margin. A capsule
     * lying along a ridge had one point at one end of the line, then the other end, and rocked.
     */
    private boolean edgeAlongSide(ConvexShape b, Placement pb, DistanceResult closest, double margin,
            ContactManifold out) {
        double rb = b instanceof Cylinder c ? c.radius() : b instanceof Capsule c ? c.radius() : -1;
        if (first.kind != SEGMENT || rb < 0) {
            return false;
        }
        double g = b instanceof Cylinder c ? c.halfLength() : ((Capsule) b).halfLength();
        double[] x = first.x;
        double ex = x[3] - x[0], ey = x[4] - x[1], ez = x[5] - x[2];
        double length = Math.sqrt(ex * ex + ey * ey + ez * ez);
        ex /= length;
        ey /= length;
        ez /= length;
        double zx = pb.r[2], zy = pb.r[5], zz = pb.r[8];
        double along = ex * zx + ey * zy + ez * zz;
        double nx = closest.normal[0], ny = closest.normal[1], nz = closest.normal[2];
        if (1 - Math.abs(along) > Narrowphase.ALIGNED_NORMALS || Math.abs(nx * ex + ny * ey + nz * ez) > PERPENDICULAR
                || Math.abs(nx * zx + ny * zy + nz * zz) > PERPENDICULAR) {
            return false;
        }
        return commonLine(x[0], x[1], x[2], ex, ey, ez, 0, length, 0, pb.p, zx, zy, zz, g, rb, margin, out);
    }

    /**
     * Clips the incident feature to the reference face's side planes into polygon[0..polygonCount), with the
     * distances above the face in depth and kept[k] for those within the margin, reduced to at most four; false
     * when none is within the margin.
     */
    private boolean clip(Feature reference, Feature incident, double margin) {
        int room = incident.count + reference.count;
        if (depth.length < room) {
            polygon = new double[3 * room]; // grows once to the largest facets met
            clipped = new double[3 * room];
            depth = new double[room];
            kept = new boolean[room];
        }
        System.arraycopy(incident.x, 0, polygon, 0, 3 * incident.count);
        polygonCount = incident.count;
        double[] v = reference.x;
        int m = reference.count;
        double offset = Double.NEGATIVE_INFINITY;
        for (int k = 0; k < m && polygonCount > 0; k++) {
            int i = 3 * k, j = 3 * ((k + 1) % m);
            double ex = v[j] - v[i], ey = v[j + 1] - v[i + 1], ez = v[j + 2] - v[i + 2];
            // (v_k+1 − v_k) × r: outward from the face's side through that edge
            double px = ey * rz - ez * ry, py = ez * rx - ex * rz, pz = ex * ry - ey * rx;
            double o = px * v[i] + py * v[i + 1] + pz * v[i + 2];
            if (incident.kind == SEGMENT) {
                clipSegment(px, py, pz, o);
            } else {
                clipPlane(px, py, pz, o);
            }
        }
        for (int k = 0; k < m; k++) {
            offset = Math.max(offset, rx * v[3 * k] + ry * v[3 * k + 1] + rz * v[3 * k + 2]);
        }
        int within = 0;
        for (int k = 0; k < polygonCount; k++) {
            depth[k] = rx * polygon[3 * k] + ry * polygon[3 * k + 1] + rz * polygon[3 * k + 2] - offset;
            kept[k] = depth[k] <= margin;
            if (kept[k]) {
                within++;
            }
        }
        if (within > ContactManifold.CAPACITY) {
            FaceClipping.keepFour(polygon, polygonCount, depth, kept, rx, ry, rz);
        }
        return within > 0;
    }

    /** Keeps the part of the polygon with p · x ≤ o ({@link FaceClipping#clipPlane}). */
    private void clipPlane(double px, double py, double pz, double o) {
        polygonCount = FaceClipping.clipPlane(polygon, polygonCount, clipped, px, py, pz, o);
        double[] swap = polygon;
        polygon = clipped;
        clipped = swap;
    }

    /** Keeps the part of the segment polygon[0..2) with p · x ≤ o. */
    private void clipSegment(double px, double py, double pz, double o) {
        if (polygonCount < 2) {
            return;
        }
        double h0 = px * polygon[0] + py * polygon[1] + pz * polygon[2] - o;
        double h1 = px * polygon[3] + py * polygon[4] + pz * polygon[5] - o;
        if (h0 > 0 && h1 > 0) {
            polygonCount = 0;
        } else if (h0 > 0 || h1 > 0) {
            double t = h0 / (h0 - h1);
            int out = h0 > 0 ? 0 : 3;
            double x = polygon[0] + t * (polygon[3] - polygon[0]);
            double y = polygon[1] + t * (polygon[4] - polygon[1]);
            double z = polygon[2] + t * (polygon[5] - polygon[2]);
            polygon[out] = x;
            polygon[out + 1] = y;
            polygon[out + 2] = z;
        }
    }


    /** f ← the feature of shape s at placement p facing the world unit direction u (see the class comment). */
    private void feature(ConvexShape s, Placement p, double ux, double uy, double uz, Feature f) {
        double[] r = p.r;
        // d = Rᵀ u: u in the shape's frame
        double dx = r[0] * ux + r[3] * uy + r[6] * uz;
        double dy = r[1] * ux + r[4] * uy + r[7] * uz;
        double dz = r[2] * ux + r[5] * uy + r[8] * uz;
        f.curved = false;
        if (s instanceof Box b) {
            boxFace(b, p, dx, dy, dz, f);
        } else if (s instanceof ConvexHull h) {
            hullFacet(h, p, dx, dy, dz, f);
        } else if (s instanceof Cylinder c) {
            cylinder(c, p, dx, dy, dz, f);
        } else if (s instanceof MeshTriangle m) {
            triangle(m, p, dx, dy, dz, f);
        } else if (s instanceof Capsule c && Math.abs(dz) < CAP_FACING) {
            // the end balls' support points c_± + r u
            double h = c.halfLength(), rad = c.radius();
            f.kind = SEGMENT;
            f.count = 2;
            put(f, 0, p, rad * dx, rad * dy, -h + rad * dz);
            put(f, 1, p, rad * dx, rad * dy, h + rad * dz);
        } else {
            f.kind = POINT;
            f.count = 0;
        }
    }

    private void boxFace(Box b, Placement p, double dx, double dy, double dz, Feature f) {
        double ax = Math.abs(dx), ay = Math.abs(dy), az = Math.abs(dz);
        int i = ax >= ay && ax >= az ? 0 : ay >= az ? 1 : 2;
        double di = i == 0 ? dx : i == 1 ? dy : dz;
        double sign = di >= 0 ? 1 : -1;
        int j = (i + 1) % 3, k = (i + 2) % 3;
        f.kind = FACE;
        f.count = 4;
        f.alignment = Math.abs(di);
        for (int c = 0; c < 4; c++) {
            int corner = sign > 0 ? c : 3 - c; // reversed order: counter-clockwise about −e_i
            local[i] = sign * b.halfExtent(i);
            local[j] = CORNERS[2 * corner] * b.halfExtent(j);
            local[k] = CORNERS[2 * corner + 1] * b.halfExtent(k);
            put(f, c, p, local[0], local[1], local[2]);
        }
        f.normal[0] = sign * p.r[i];
        f.normal[1] = sign * p.r[3 + i];
        f.normal[2] = sign * p.r[6 + i];
    }

    private void hullFacet(ConvexHull h, Placement p, double dx, double dy, double dz, Feature f) {
        HullFacets facets = h.facets;
        int g = facets.towards(h.supportIndex(dx, dy, dz), dx, dy, dz);
        double mx = facets.planes[4 * g], my = facets.planes[4 * g + 1], mz = facets.planes[4 * g + 2];
        f.kind = FACE;
        f.alignment = mx * dx + my * dy + mz * dz;
        int from = facets.start[g], to = facets.start[g + 1];
        f.count = to - from;
        f.room(f.count);
        for (int k = from; k < to; k++) {
            int v = facets.vertices[k];
            put(f, k - from, p, h.vertex(v, 0), h.vertex(v, 1), h.vertex(v, 2));
        }
        double[] r = p.r;
        f.normal[0] = r[0] * mx + r[1] * my + r[2] * mz;
        f.normal[1] = r[3] * mx + r[4] * my + r[5] * mz;
        f.normal[2] = r[6] * mx + r[7] * my + r[8] * mz;
    }

    private void cylinder(Cylinder c, Placement p, double dx, double dy, double dz, Feature f) {
        double rho = Math.sqrt(dx * dx + dy * dy);
        double ex = rho > 0 ? dx / rho : 1, ey = rho > 0 ? dy / rho : 0; // the rim's support direction
        double h = c.halfLength(), rad = c.radius();
        if (Math.abs(dz) < CAP_FACING) {
            f.kind = SEGMENT;
            f.count = 2;
            put(f, 0, p, rad * ex, rad * ey, -h);
            put(f, 1, p, rad * ex, rad * ey, h);
            return;
        }
        double sign = dz >= 0 ? 1 : -1;
        f.kind = FACE;
        f.curved = true;
        f.count = CAP_SIDES;
        f.alignment = Math.abs(dz);
        for (int k = 0; k < CAP_SIDES; k++) {
            // turned by ±2πk/N from (ex, ey): counter-clockwise about the cap's outward normal ±z
            double cos = ex * COS[k] - sign * ey * SIN[k], sin = ey * COS[k] + sign * ex * SIN[k];
            put(f, k, p, rad * cos, rad * sin, sign * h);
        }
        f.normal[0] = sign * p.r[2];
        f.normal[1] = sign * p.r[5];
        f.normal[2] = sign * p.r[8];
    }

    /**
     * A mesh triangle's feature facing the unit direction d (mesh frame): its face when d is its normal ±f within
     * {@link Narrowphase#ALIGNED_NORMALS}, counter-clockwise about the outward one; else its edge whose corners'
     * support values d · v differ by at most {@link #PERPENDICULAR} times the edge's length (the edge perpendicular
     * to d within about 1e-4 rad: a box's face resting on a mesh's ridge meets the whole edge); else its corner, a
     * point.
     */
    private void triangle(MeshTriangle m, Placement p, double dx, double dy, double dz, Feature f) {
        double[] v = m.v;
        int best = m.supportCorner(dx, dy, dz);
        double top = dx * v[3 * best] + dy * v[3 * best + 1] + dz * v[3 * best + 2];
        double e1x = v[3] - v[0], e1y = v[4] - v[1], e1z = v[5] - v[2];
        double e2x = v[6] - v[0], e2y = v[7] - v[1], e2z = v[8] - v[2];
        double nx = e1y * e2z - e1z * e2y, ny = e1z * e2x - e1x * e2z, nz = e1x * e2y - e1y * e2x;
        double nl = Math.sqrt(nx * nx + ny * ny + nz * nz);
        double along = (nx * dx + ny * dy + nz * dz) / nl;
        if (Math.abs(along) >= 1 - Narrowphase.ALIGNED_NORMALS) {
            double sign = along >= 0 ? 1 : -1;
            f.kind = FACE;
            f.count = 3;
            f.alignment = Math.abs(along);
            for (int k = 0; k < 3; k++) {
                int c = sign > 0 ? k : 2 - k; // reversed: counter-clockwise about −f
                put(f, k, p, v[3 * c], v[3 * c + 1], v[3 * c + 2]);
            }
            local[0] = sign * nx / nl;
            local[1] = sign * ny / nl;
            local[2] = sign * nz / nl;
            p.rotateToWorld(local, f.normal);
            return;
        }
        int other = -1;
        for (int c = 0; c < 3; c++) {
            if (c == best) {
                continue;
            }
            double ex = v[3 * c] - v[3 * best], ey = v[3 * c + 1] - v[3 * best + 1];
            double ez = v[3 * c + 2] - v[3 * best + 2];
            double h = dx * v[3 * c] + dy * v[3 * c + 1] + dz * v[3 * c + 2];
            if (top - h <= PERPENDICULAR * Math.sqrt(ex * ex + ey * ey + ez * ez)
                    && (other < 0 || h > dx * v[3 * other] + dy * v[3 * other + 1] + dz * v[3 * other + 2])) {
                other = c;
            }
        }
        if (other < 0) {
            f.kind = POINT;
            f.count = 0;
            return;
        }
        f.kind = SEGMENT;
        f.count = 2;
        put(f, 0, p, v[3 * best], v[3 * best + 1], v[3 * best + 2]);
        put(f, 1, p, v[3 * other], v[3 * other + 1], v[3 * other + 2]);
    }

    /** Corner k of f ← R x + p, x = (x, y, z) in the shape's frame. */
    private static void put(Feature f, int k, Placement p, double x, double y, double z) {
        double[] r = p.r, t = p.p;
        f.x[3 * k] = r[0] * x + r[1] * y + r[2] * z + t[0];
        f.x[3 * k + 1] = r[3] * x + r[4] * y + r[5] * z + t[1];
        f.x[3 * k + 2] = r[6] * x + r[7] * y + r[8] * z + t[2];
    }
}
