package org.symdyn.geometry;

/**
 * Closed-form signed distances between primitive pairs: sphere, capsule and box with each other (box-box in
 * {@link BoxBoxCollision}), every convex shape against a half-space, and cylinder against sphere. Each method
 * fills a {@link DistanceResult} with the conventions stated there (d, unit normal n from the first shape A to
 * the second B, witness points a on A and b on B with b − a = d n, all in world coordinates, metres) for the shapes
 * at their placements. One instance holds the scratch of its queries: no allocation per query; not thread-safe.
 *
 * <p>The formulas: a sphere is a point with radius r and a capsule a segment with radius r, so that the distance
 * between two of them is the distance between their cores (point or segment) minus the radii, along the line of
 * the cores' closest points. The penetration depth of a segment or a point into a box is the smallest overlap of
 * their projections on the separating axes (the box's face normals and, for a segment of direction u, the
 * products u × e_j with the box's edges), exact because those are all the facet normals of their Minkowski
 * difference. A half-space n · x ≤ c is met first by a shape's support point in direction −n.
 */
public final class PrimitiveDistance {
    /**
     * Ties between a face axis and an edge axis of a segment or box within this many metres per metre of the
     * shapes' size are resolved in favour of the face, whose witness is better conditioned; the reported depth
     * can exceed the exact one by at most this much.
     */
    static final double FACE_PREFERENCE = 1e-14;

    private final double[] st = new double[2];
    private final double[] x = new double[3];
    private final double[] y = new double[3];

    // ----------------------------------------------------------------------------------- spheres and capsules

    /**
     * Two spheres: d = |c_B − c_A| − r_A − r_B, n = (c_B − c_A)/|c_B − c_A|, a = c_A + r_A n, b = c_B − r_B n; for
     * coincident centres n = +z (world).
     */
    public void sphereSphere(Sphere a, Placement pa, Sphere b, Placement pb, DistanceResult out) {
        balls(pa.p[0], pa.p[1], pa.p[2], a.radius(), pb.p[0], pb.p[1], pb.p[2], b.radius(), 0, 0, 1, out);
    }

    /**
     * Sphere A and capsule B: the sphere's centre c against the closest point q of B's segment, as two spheres.
     * When c lies on the segment, n is the unit vector perpendicular to the capsule's axis u given by
     * {@link #perpendicular}.
     */
    public void sphereCapsule(Sphere a, Placement pa, Capsule b, Placement pb, DistanceResult out) {
        ballCapsule(a.radius(), pa.p[0], pa.p[1], pa.p[2], b, pb, out);
    }

    /** {@link #sphereCapsule} for the ball of radius r centred at (cx, cy, cz) (world). */
    void ballCapsule(double r, double cx, double cy, double cz, Capsule b, Placement pb, DistanceResult out) {
        double hl = b.halfLength();
        double ux = pb.r[2] * hl, uy = pb.r[5] * hl, uz = pb.r[8] * hl;
        double sx = pb.p[0] - ux, sy = pb.p[1] - uy, sz = pb.p[2] - uz;
        double t = Segments.clamp(((cx - sx) * ux + (cy - sy) * uy + (cz - sz) * uz) / (2 * (ux * ux + uy * uy + uz * uz)));
        double qx = sx + 2 * t * ux, qy = sy + 2 * t * uy, qz = sz + 2 * t * uz;
        double dx = qx - cx, dy = qy - cy, dz = qz - cz;
        double len = Math.sqrt(dx * dx + dy * dy + dz * dz);
        double onSegment = ON_SEGMENT * (hl + b.radius() + r);
        double l = len;
        if (len > onSegment && t > 0 && t < 1) {
            // From an interior point of the segment n is normal to it: remove the rounding along it.
            double k = dx * pb.r[2] + dy * pb.r[5] + dz * pb.r[8];
            dx -= k * pb.r[2];
            dy -= k * pb.r[5];
            dz -= k * pb.r[8];
            l = Math.sqrt(dx * dx + dy * dy + dz * dz);
        }
        if (len <= onSegment || !(l > onSegment)) {
            // c on the segment up to rounding: q − c is rounding noise (a NaN once the part along the axis is
            // removed, a direction into the capsule at its ends); any perpendicular is a shortest escape
            perpendicular(pb.r[2], pb.r[5], pb.r[8], x);
        } else {
            x[0] = dx / l;
            x[1] = dy / l;
            x[2] = dz / l;
        }
        ballsAlong(cx, cy, cz, r, qx, qy, qz, b.radius(), x[0], x[1], x[2], len, out);
    }

    /**
     * Two capsules: their segments' closest points ({@link Segments#closest}) as two spheres. When the segments
     * cross, n = ±(u_A × u_B)/|u_A × u_B| (the sign making n · (p_B − p_A) ≥ 0), and for collinear overlapping
     * segments the perpendicular of u_A given by {@link #perpendicular}.
     */
    public void capsuleCapsule(Capsule a, Placement pa, Capsule b, Placement pb, DistanceResult out) {
        double ha = a.halfLength(), hb = b.halfLength();
        double uax = pa.r[2], uay = pa.r[5], uaz = pa.r[8];
        double ubx = pb.r[2], uby = pb.r[5], ubz = pb.r[8];
        double sax = pa.p[0] - ha * uax, say = pa.p[1] - ha * uay, saz = pa.p[2] - ha * uaz;
        double sbx = pb.p[0] - hb * ubx, sby = pb.p[1] - hb * uby, sbz = pb.p[2] - hb * ubz;
        Segments.closest(sax, say, saz, 2 * ha * uax, 2 * ha * uay, 2 * ha * uaz, sbx, sby, sbz, 2 * hb * ubx,
                2 * hb * uby, 2 * hb * ubz, st);
        double s = 2 * ha * st[0], t = 2 * hb * st[1];
        double px = sax + s * uax, py = say + s * uay, pz = saz + s * uaz;
        double qx = sbx + t * ubx, qy = sby + t * uby, qz = sbz + t * ubz;
        double dx = qx - px, dy = qy - py, dz = qz - pz;
        double len = Math.sqrt(dx * dx + dy * dy + dz * dz);
        double fx = uay * ubz - uaz * uby, fy = uaz * ubx - uax * ubz, fz = uax * uby - uay * ubx;
        double fl = Math.sqrt(fx * fx + fy * fy + fz * fz);
        boolean interiorA = st[0] > 0 && st[0] < 1, interiorB = st[1] > 0 && st[1] < 1;
        double onSegment = ON_SEGMENT * (ha + hb + a.radius() + b.radius());
        boolean touching = len <= onSegment; // the segments meet, up to rounding: q − p is noise
        if (fl > 1e-12 && (touching || interiorA && interiorB)) {
            // Interior points of crossing segments: n is their common perpendicular, exactly.
            double sign = len > 0 ? fx * dx + fy * dy + fz * dz
                    : fx * (pb.p[0] - pa.p[0]) + fy * (pb.p[1] - pa.p[1]) + fz * (pb.p[2] - pa.p[2]);
            sign = sign < 0 ? -1 : 1;
            x[0] = sign * fx / fl;
            x[1] = sign * fy / fl;
            x[2] = sign * fz / fl;
        } else {
            // From an interior point n is normal to its segment: remove the rounding along it.
            double l = len;
            if (!touching && interiorA) {
                double k = dx * uax + dy * uay + dz * uaz;
                dx -= k * uax;
                dy -= k * uay;
                dz -= k * uaz;
                l = Math.sqrt(dx * dx + dy * dy + dz * dz);
            }
            if (!touching && interiorB) {
                double k = dx * ubx + dy * uby + dz * ubz;
                dx -= k * ubx;
                dy -= k * uby;
                dz -= k * ubz;
                l = Math.sqrt(dx * dx + dy * dy + dz * dz);
            }
            if (touching || !(l > onSegment)) {
                // collinear overlapping segments (up to rounding): any perpendicular of the axes is an escape
                perpendicular(uax, uay, uaz, x);
            } else {
                x[0] = dx / l;
                x[1] = dy / l;
                x[2] = dz / l;
            }
        }
        ballsAlong(px, py, pz, a.radius(), qx, qy, qz, b.radius(), x[0], x[1], x[2], len, out);
    }

    /**
     * A point within this fraction of the pair's size (half-lengths plus radii) of a segment is on it: the direction
     * between them is rounding (a centre on a capsule's axis came out at 1e-17 m, and its normal as NaN).
     */
    static final double ON_SEGMENT = 1e-12;

    /** Balls (centre, radius) at distance len between centres, along the unit normal n. */
    private static void ballsAlong(double ax, double ay, double az, double ra, double bx, double by, double bz,
            double rb, double nx, double ny, double nz, double len, DistanceResult out) {
        out.set(len - ra - rb, nx, ny, nz, ax + ra * nx, ay + ra * ny, az + ra * nz, bx - rb * nx, by - rb * ny,
                bz - rb * nz);
    }

    // ------------------------------------------------------------------------------------------------ boxes

    /**
     * Sphere A and box B, in B's frame: the centre c against the box |x_i| ≤ h_i. Outside, q = clamp(c, −h, h) is
     * the closest point, d = |q − c| − r, n = (q − c)/|q − c|. Inside (or on the surface), the face i of least
     * h_i − |c_i| is nearest: d = −(h_i − |c_i|) − r, n = −sign(c_i) e_i (B is pushed away across that face),
     * b = c moved onto that face.
     */
    public void sphereBox(Sphere a, Placement pa, Box b, Placement pb, DistanceResult out) {
        ballBox(a.radius(), pa.p[0], pa.p[1], pa.p[2], b, pb, out);
    }

    /** {@link #sphereBox} for the ball of radius r centred at (cx, cy, cz) (world). */
    void ballBox(double r, double cx, double cy, double cz, Box b, Placement pb, DistanceResult out) {
        x[0] = cx;
        x[1] = cy;
        x[2] = cz;
        pb.toLocal(x, x);
        double h0 = b.halfExtent(0), h1 = b.halfExtent(1), h2 = b.halfExtent(2);
        double q0 = Math.max(-h0, Math.min(h0, x[0])), q1 = Math.max(-h1, Math.min(h1, x[1]));
        double q2 = Math.max(-h2, Math.min(h2, x[2]));
        double d0 = q0 - x[0], d1 = q1 - x[1], d2 = q2 - x[2];
        double len = Math.sqrt(d0 * d0 + d1 * d1 + d2 * d2);
        // over one face (one coordinate clamped) or inside: the normal is a face normal of the box
        int clamped = (d0 != 0 ? 1 : 0) + (d1 != 0 ? 1 : 0) + (d2 != 0 ? 1 : 0);
        double n0, n1, n2, d;
        if (len > 0) {
            n0 = d0 / len;
            n1 = d1 / len;
            n2 = d2 / len;
            d = len - r;
        } else {
            double g0 = h0 - Math.abs(x[0]), g1 = h1 - Math.abs(x[1]), g2 = h2 - Math.abs(x[2]);
            int i = g0 <= g1 && g0 <= g2 ? 0 : g1 <= g2 ? 1 : 2;
            double sign = x[i] >= 0 ? 1 : -1;
            n0 = i == 0 ? -sign : 0;
            n1 = i == 1 ? -sign : 0;
            n2 = i == 2 ? -sign : 0;
            d = -Math.min(g0, Math.min(g1, g2)) - r;
            if (i == 0) {
                q0 = sign * h0;
            } else if (i == 1) {
                q1 = sign * h1;
            } else {
                q2 = sign * h2;
            }
        }
        setLocal(pb, d, n0, n1, n2, q0, q1, q2, out);
        out.features.face = clamped <= 1 ? -1 : 0;
        // two coordinates clamped: the witness is inside the edge along the third axis; three: a corner
        out.features.featureB = clamped == 3 ? ContactManifold.VERTEX : clamped == 2 ? ContactManifold.EDGE : 0;
        if (clamped == 2) {
            int free = d0 == 0 ? 0 : d1 == 0 ? 1 : 2;
            for (int i = 0; i < 3; i++) {
                out.features.edgeB[i] = pb.rotation(i, free);
            }
        }
    }

    /**
     * Capsule A and box B, in B's frame, the capsule's segment P(t) = p + t u against the box. The separating axes
     * are the face normals e_i and u × e_i. If the projections on one of them are apart, the distance of segment
     * and box is the least of the distances from the segment's two ends to the box and from the segment to the
     * box's twelve edges; d = that − r. Otherwise the segment's penetration depth δ is the least overlap on the
     * axes, d = −δ − r, and the witnesses are where the segment crosses the face (the deepest point of the segment
     * clipped to it) or passes the edge that realise it.
     */
    public void capsuleBox(Capsule a, Placement pa, Box b, Placement pb, DistanceResult out) {
        double hl = a.halfLength(), r = a.radius();
        double h0 = b.halfExtent(0), h1 = b.halfExtent(1), h2 = b.halfExtent(2);
        pb.toLocal(pa.p, x);
        double[] c = y;
        c[0] = pa.r[2];
        c[1] = pa.r[5];
        c[2] = pa.r[8];
        pb.rotateToLocal(c, c);
        double ux = 2 * hl * c[0], uy = 2 * hl * c[1], uz = 2 * hl * c[2];
        double px = x[0] - hl * c[0], py = x[1] - hl * c[1], pz = x[2] - hl * c[2];
        double scale = Math.max(Math.max(2 * hl, Math.max(h0, Math.max(h1, h2))), Math.max(
                Math.max(Math.abs(pa.p[0]), Math.max(Math.abs(pa.p[1]), Math.abs(pa.p[2]))),
                Math.max(Math.abs(pb.p[0]), Math.max(Math.abs(pb.p[1]), Math.abs(pb.p[2])))));

        // Separating axes: best (largest) signed separation, its axis and the direction from capsule to box.
        double best = Double.NEGATIVE_INFINITY;
        int bestAxis = -1;
        double bnx = 0, bny = 0, bnz = 0;
        for (int axis = 0; axis < 6; axis++) {
            double nx, ny, nz;
            if (axis < 3) {
                nx = axis == 0 ? 1 : 0;
                ny = axis == 1 ? 1 : 0;
                nz = axis == 2 ? 1 : 0;
            } else {
                int j = axis - 3;
                nx = j == 0 ? 0 : j == 1 ? -uz : uy;
                ny = j == 0 ? uz : j == 1 ? 0 : -ux;
                nz = j == 0 ? -uy : j == 1 ? ux : 0;
                double len = Math.sqrt(nx * nx + ny * ny + nz * nz);
                if (len == 0) {
                    continue;
                }
                nx /= len;
                ny /= len;
                nz /= len;
            }
            double s0 = nx * px + ny * py + nz * pz, s1 = s0 + nx * ux + ny * uy + nz * uz;
            double lo = Math.min(s0, s1), hi = Math.max(s0, s1);
            double rb = h0 * Math.abs(nx) + h1 * Math.abs(ny) + h2 * Math.abs(nz);
            double below = lo - rb, above = -rb - hi;
            double sep = Math.max(below, above);
            if (axis < 3 ? sep > best : sep > best + FACE_PREFERENCE * scale) {
                best = sep;
                bestAxis = axis;
                double sign = below >= above ? -1 : 1;
                bnx = sign * nx;
                bny = sign * ny;
                bnz = sign * nz;
            }
        }
        if (best > 0) {
            segmentBoxSeparated(px, py, pz, ux, uy, uz, h0, h1, h2, r, best, bnx, bny, bnz, scale, pb, out);
            return;
        }
        double d = best - r;
        double wx, wy, wz;
        if (bestAxis < 3) {
            int i = bestAxis;
            double sign = i == 0 ? bnx : i == 1 ? bny : bnz;
            // Clip P(t) to the face's rectangle |x_k| <= h_k, k != i (Liang-Barsky).
            double t0 = 0, t1 = 1;
            for (int k = 0; k < 3 && t0 <= t1; k++) {
                if (k == i) {
                    continue;
                }
                double pk = k == 0 ? px : k == 1 ? py : pz, uk = k == 0 ? ux : k == 1 ? uy : uz;
                double hk = k == 0 ? h0 : k == 1 ? h1 : h2;
                if (uk == 0) {
                    if (Math.abs(pk) > hk) {
                        t1 = -1;
                    }
                } else {
                    double ta = (-hk - pk) / uk, tb = (hk - pk) / uk;
                    t0 = Math.max(t0, Math.min(ta, tb));
                    t1 = Math.min(t1, Math.max(ta, tb));
                }
            }
            double ui = i == 0 ? ux : i == 1 ? uy : uz;
            double t;
            if (t0 > t1) {
                t = sign * ui > 0 ? 1 : 0;
            } else if (sign * ui * (t1 - t0) == 0) {
                t = (t0 + t1) / 2;
            } else {
                t = sign * ui > 0 ? t1 : t0;
            }
            wx = px + t * ux;
            wy = py + t * uy;
            wz = pz + t * uz;
        } else {
            // The box's edge along e_j farthest along −n, against the segment.
            int j = bestAxis - 3;
            double ex = j == 0 ? -h0 : bnx > 0 ? -h0 : h0;
            double ey = j == 1 ? -h1 : bny > 0 ? -h1 : h1;
            double ez = j == 2 ? -h2 : bnz > 0 ? -h2 : h2;
            Segments.closest(px, py, pz, ux, uy, uz, ex, ey, ez, j == 0 ? 2 * h0 : 0, j == 1 ? 2 * h1 : 0,
                    j == 2 ? 2 * h2 : 0, st);
            wx = px + st[0] * ux;
            wy = py + st[0] * uy;
            wz = pz + st[0] * uz;
        }
        double ax = wx + r * bnx, ay = wy + r * bny, az = wz + r * bnz;
        setLocal(pb, d, bnx, bny, bnz, ax + d * bnx, ay + d * bny, az + d * bnz, out);
    }

    /**
     * Segment p + t u (t in [0, 1]) apart from the box |x_i| ≤ h_i, all in the box's frame, with radius r; m the
     * separating axis with the largest separation, the normal when it realises the distance (within
     * {@link BoxBoxCollision#SEPARATION_ROUNDING} times the scale) or the shapes touch
     * ({@link BoxBoxCollision#TOUCHING}).
     */
    private void segmentBoxSeparated(double px, double py, double pz, double ux, double uy, double uz, double h0,
            double h1, double h2, double r, double separation, double mx, double my, double mz, double scale,
            Placement pb, DistanceResult out) {
        double bestD2 = Double.POSITIVE_INFINITY;
        double sx = 0, sy = 0, sz = 0, qx = 0, qy = 0, qz = 0;
        for (int end = 0; end < 2; end++) {
            double ex = px + end * ux, ey = py + end * uy, ez = pz + end * uz;
            double cx = Math.max(-h0, Math.min(h0, ex)), cy = Math.max(-h1, Math.min(h1, ey));
            double cz = Math.max(-h2, Math.min(h2, ez));
            double d2 = (cx - ex) * (cx - ex) + (cy - ey) * (cy - ey) + (cz - ez) * (cz - ez);
            if (d2 < bestD2) {
                bestD2 = d2;
                sx = ex;
                sy = ey;
                sz = ez;
                qx = cx;
                qy = cy;
                qz = cz;
            }
        }
        for (int edge = 0; edge < 12; edge++) {
            int j = edge / 4;
            double s1 = (edge & 1) == 0 ? -1 : 1, s2 = (edge & 2) == 0 ? -1 : 1;
            double ex = j == 0 ? -h0 : s1 * h0;
            double ey = j == 1 ? -h1 : (j == 0 ? s1 : s2) * h1;
            double ez = j == 2 ? -h2 : s2 * h2;
            double wx = j == 0 ? 2 * h0 : 0, wy = j == 1 ? 2 * h1 : 0, wz = j == 2 ? 2 * h2 : 0;
            Segments.closest(px, py, pz, ux, uy, uz, ex, ey, ez, wx, wy, wz, st);
            double ax = px + st[0] * ux, ay = py + st[0] * uy, az = pz + st[0] * uz;
            double bx = ex + st[1] * wx, by = ey + st[1] * wy, bz = ez + st[1] * wz;
            double d2 = (bx - ax) * (bx - ax) + (by - ay) * (by - ay) + (bz - az) * (bz - az);
            if (d2 < bestD2) {
                bestD2 = d2;
                sx = ax;
                sy = ay;
                sz = az;
                qx = bx;
                qy = by;
                qz = bz;
            }
        }
        double len = Math.sqrt(bestD2);
        boolean axis = len - separation <= BoxBoxCollision.SEPARATION_ROUNDING * scale
                || len <= BoxBoxCollision.TOUCHING * scale;
        double nx = axis ? mx : (qx - sx) / len, ny = axis ? my : (qy - sy) / len;
        double nz = axis ? mz : (qz - sz) / len;
        setLocal(pb, len - r, nx, ny, nz, qx, qy, qz, out);
    }

    // ------------------------------------------------------------------------------------------- half-spaces

    /**
     * Half-space A (n · x ≤ c) and a convex shape B: B is first met by its support point b in direction −n
     * ({@link ConvexShape#support}), so d = n · b − c, the normal is the half-space's outward normal n (world), and
     * a = b − d n is b's projection on the plane. Exact for every convex shape (a box's vertex, a capsule's or a
     * cylinder's rim point, a hull's vertex).
     */
    public void halfSpaceConvex(HalfSpace a, Placement pa, ConvexShape b, Placement pb, DistanceResult out) {
        double off = worldPlane(a, pa);
        double nx = x[0], ny = x[1], nz = x[2];
        pb.support(b, -nx, -ny, -nz, y);
        setFromB(nx * y[0] + ny * y[1] + nz * y[2] - off, nx, ny, nz, y[0], y[1], y[2], out);
    }

    // ------------------------------------------------------------------------------------------- cylinders

    /**
     * Cylinder A (radius R, half length H, frame S_A) and sphere B: the sphere's centre c in S_A against the solid
     * cylinder. Outside, q = (ρ_c clamped to R along c's radial direction, c_z clamped to [−H, H]) is the closest
     * point, d = |c − q| − r, n = (c − q)/|c − q|. Inside, the nearer of the side (depth R − ρ, n radial; for
     * ρ = 0 the +x axis of S_A) and the cap (depth H − |c_z|, n = sign(c_z) e_z), d = −depth − r.
     */
    public void cylinderSphere(Cylinder a, Placement pa, Sphere b, Placement pb, DistanceResult out) {
        pa.toLocal(pb.p, x);
        double bigR = a.radius(), bigH = a.halfLength(), r = b.radius();
        double rho = Math.sqrt(x[0] * x[0] + x[1] * x[1]);
        double ex = rho > 0 ? x[0] / rho : 1, ey = rho > 0 ? x[1] / rho : 0;
        double qr = Math.min(rho, bigR), qz = Math.max(-bigH, Math.min(bigH, x[2]));
        double qx = rho > bigR ? bigR * ex : x[0], qy = rho > bigR ? bigR * ey : x[1];
        double dx = x[0] - qx, dy = x[1] - qy, dz = x[2] - qz;
        double len = Math.sqrt(dx * dx + dy * dy + dz * dz);
        double nx, ny, nz, d;
        if (len > 0 && (rho > bigR || Math.abs(x[2]) > bigH)) {
            nx = dx / len;
            ny = dy / len;
            nz = dz / len;
            d = len - r;
        } else {
            double side = bigR - qr, cap = bigH - Math.abs(x[2]);
            if (side <= cap) {
                nx = ex;
                ny = ey;
                nz = 0;
                qx = bigR * ex;
                qy = bigR * ey;
                d = -side - r;
            } else {
                nx = 0;
                ny = 0;
                nz = x[2] >= 0 ? 1 : -1;
                qz = nz * bigH;
                d = -cap - r;
            }
        }
        // a = q on A; b = a + d n.
        x[0] = qx;
        x[1] = qy;
        x[2] = qz;
        pa.toWorld(x, x);
        y[0] = nx;
        y[1] = ny;
        y[2] = nz;
        pa.rotateToWorld(y, y);
        out.set(d, y[0], y[1], y[2], x[0], x[1], x[2], x[0] + d * y[0], x[1] + d * y[1], x[2] + d * y[2]);
    }

    // ------------------------------------------------------------------------------------------------ helpers

    /** Two balls (centre, radius); f the unit normal used when the centres coincide. */
    private static void balls(double ax, double ay, double az, double ra, double bx, double by, double bz, double rb,
            double fx, double fy, double fz, DistanceResult out) {
        double dx = bx - ax, dy = by - ay, dz = bz - az;
        double len = Math.sqrt(dx * dx + dy * dy + dz * dz);
        double nx = fx, ny = fy, nz = fz;
        if (len > 0) {
            nx = dx / len;
            ny = dy / len;
            nz = dz / len;
        }
        out.set(len - ra - rb, nx, ny, nz, ax + ra * nx, ay + ra * ny, az + ra * nz, bx - rb * nx, by - rb * ny,
                bz - rb * nz);
    }

    /**
     * The unit vector u × e_k / |u × e_k| for the world axis e_k least aligned with the unit vector u (the first of
     * equals): the normal chosen where only "perpendicular to u" is determined.
     */
    static void perpendicular(double ux, double uy, double uz, double[] out) {
        double ax = Math.abs(ux), ay = Math.abs(uy), az = Math.abs(uz);
        double cx, cy, cz;
        if (ax <= ay && ax <= az) {
            cx = 0;
            cy = uz;
            cz = -uy;
        } else if (ay <= az) {
            cx = -uz;
            cy = 0;
            cz = ux;
        } else {
            cx = uy;
            cy = -ux;
            cz = 0;
        }
        double len = Math.sqrt(cx * cx + cy * cy + cz * cz);
        out[0] = cx / len;
        out[1] = cy / len;
        out[2] = cz / len;
    }

    /** Writes the half-space's world normal to x and returns its world offset c + n_W · p. */
    private double worldPlane(HalfSpace a, Placement pa) {
        return worldPlane(a, pa, x);
    }

    /** Writes the half-space's world normal to x and returns its world offset c + n_W · p. */
    static double worldPlane(HalfSpace a, Placement pa, double[] x) {
        x[0] = a.normal(0);
        x[1] = a.normal(1);
        x[2] = a.normal(2);
        pa.rotateToWorld(x, x);
        return a.offset() + x[0] * pa.p[0] + x[1] * pa.p[1] + x[2] * pa.p[2];
    }

    /** Sets the result from d, world n and the world witness b on B (a = b − d n). */
    private static void setFromB(double d, double nx, double ny, double nz, double bx, double by, double bz,
            DistanceResult out) {
        out.set(d, nx, ny, nz, bx - d * nx, by - d * ny, bz - d * nz, bx, by, bz);
    }

    /** Sets the result from d, n and the witness b on B given in B's frame (a = b − d n). */
    private void setLocal(Placement pb, double d, double nx, double ny, double nz, double bx, double by, double bz,
            DistanceResult out) {
        x[0] = bx;
        x[1] = by;
        x[2] = bz;
        pb.toWorld(x, x);
        y[0] = nx;
        y[1] = ny;
        y[2] = nz;
        pb.rotateToWorld(y, y);
        setFromB(d, y[0], y[1], y[2], x[0], x[1], x[2], out);
    }
}
