package org.symdyn.geometry;

/**
 * Signed distance and contact manifold of two boxes, in closed form (world coordinates, metres; the conventions of
 * {@link DistanceResult} and {@link ContactManifold}: n from box A towards box B). One instance holds the scratch
 * of its queries: no allocation per query; not thread-safe.
 *
 * <p>The separating axes are the three face normals u_i of A, the three v_j of B and the nine products u_i × v_j
 * (those of parallel edges, |u_i × v_j| &lt; 1e-12, left out: the face normals stand for them); on a unit axis m
 * the boxes project to intervals of half widths Σ h_k |m · u_k| and Σ g_k |m · v_k| about their centres (computed
 * in A's frame from the relative rotation, see {@link #separatingAxes}). If the intervals are apart on some axis the
 * boxes are apart; the largest separation is a lower bound on their distance, attained when the axis is an edge axis
 * whose two supporting edges have their closest points inside both edges; otherwise their distance is the least over
 * the 8 + 8 vertex-to-box distances and the 144 edge-to-edge distances (closest features of two polytopes are one of
 * those). Otherwise the
 * penetration depth is the least overlap over the axes (they include every facet normal of the Minkowski
 * difference), and the axis realising it gives n. For a face axis the face of the other box most opposed to it
 * (the incident face) is clipped (Sutherland-Hodgman) to the side planes of the reference face: each clipped corner
 * is a contact point with its own depth, so that parallel faces give their whole overlap polygon, reduced to four
 * points. For an edge axis the closest points of the two edges give one point. Between a face axis and an edge axis
 * within {@link PrimitiveDistance#FACE_PREFERENCE} of each other the face is taken; a manifold takes it within
 * {@link Narrowphase#MANIFOLD_FACE_TOLERANCE} (resting contacts).
 */
public final class BoxBoxCollision {
    /**
     * Apart boxes whose distance exceeds the largest separation over the axes by at most this many metres per
     * metre of size and position have that axis as their normal (the closest features lie in planes normal to it), rather than
     * the direction between closest points, which is rounding alone when they touch.
     */
    static final double SEPARATION_ROUNDING = 1e-15;

    /**
     * Apart shapes closer than this many metres per metre of their size and position (a few hundred roundings)
     * touch: their normal is the separating axis, since the direction between their closest points is rounding.
     */
    static final double TOUCHING = 1e-13;


    /** The signs of a face's corners in order around it. */
    private static final double[] CORNERS = {1, 1, -1, 1, -1, -1, 1, -1};

    private final double[] ca = new double[3];
    private final double[] cb = new double[3];
    private final double[] ua = new double[9]; // ua[3i + k]: component k of A's axis i
    private final double[] ub = new double[9];
    private final double[] ha = new double[3];
    private final double[] hb = new double[3];
    private final double[] n = new double[3];
    private final double[] c = new double[9]; // C = Aᵀ B, row-major: C_ij = u_i · v_j
    private final double[] ac = new double[9]; // |C_ij|
    private final double[] t = new double[3]; // Aᵀ (c_B − c_A)
    private final double[] st = new double[2];
    private final double[] v = new double[3];
    private double[] polygon = new double[3 * 8];
    private double[] clipped = new double[3 * 8]; // the two swap after each clipping plane
    private final double[] depth = new double[8];
    private final boolean[] kept = new boolean[8];
    private int polygonCount;
    private double scale;
    private int bestAxis;
    private double best;
    /** The best face axis (0-5), its separation and its centre offset, as {@link #separatingAxes} found them. */
    private int bestFaceAxis;
    private double bestFace;
    private double bestFaceCentre;

    /** The signed distance of boxes A and B (see the class comment). */
    public void distance(Box a, Placement pa, Box b, Placement pb, DistanceResult out) {
        load(a, pa, b, pb);
        separatingAxes(Double.POSITIVE_INFINITY);
        if (best > 0) {
            if (bestAxis < 6 || !edgeWitness(out)) {
                separated(pa, pb, out);
            }
        } else if (bestAxis < 6) {
            clip();
            int deepest = 0;
            for (int k = 1; k < polygonCount; k++) {
                if (depth[k] < depth[deepest]) {
                    deepest = k;
                }
            }
            if (polygonCount == 0) {
                // Touching at a corner of the reference face, where rounding clips the incident face away.
                separated(pa, pb, out);
                return;
            }
            double bx = polygon[3 * deepest], by = polygon[3 * deepest + 1], bz = polygon[3 * deepest + 2];
            if (bestAxis < 3) {
                out.set(best, n[0], n[1], n[2], bx - best * n[0], by - best * n[1], bz - best * n[2], bx, by, bz);
            } else {
                out.set(best, n[0], n[1], n[2], bx, by, bz, bx + best * n[0], by + best * n[1], bz + best * n[2]);
            }
        } else {
            edgeWitness(out);
        }
    }

    /**
     * The contact manifold of boxes A and B: the points with distance ≤ {@code margin} (metres), up to four (the
     * deepest, the farthest from it, and the two that span the largest area with them), none when the boxes are
     * farther apart than the margin. {@code scratch} receives the single-point result where one is computed.
     */
    public void manifold(Box a, Placement pa, Box b, Placement pb, double margin, ContactManifold out,
            DistanceResult scratch) {
        out.clear();
        load(a, pa, b, pb);
        separatingAxes(margin);
        if (best > margin) {
            return;
        }
        double smallest = Math.min(Math.min(ha[0], Math.min(ha[1], ha[2])), Math.min(hb[0], Math.min(hb[1], hb[2])));
        double tolerance = Narrowphase.MANIFOLD_FACE_TOLERANCE * smallest;
        // A face within the tolerance of an edge axis stands for it when shallow, and at any depth when the edge axis
        // is the face's normal up to the edges' rounding (nearly parallel edges): a box sunk 4 mm into another, both
        // tilted 1e-6 rad, stood on that axis's one point instead of the face's four (a helper's probe).
        if (bestAxis >= 6 && bestFace >= best - tolerance && (best >= -tolerance || edgeAxisAlongFace())) {
            best = bestFace;
            bestAxis = bestFaceAxis;
            faceNormal(bestFaceAxis, bestFaceCentre);
        }
        if (bestAxis < 6) {
            clip();
            out.setNormal(n[0], n[1], n[2]);
            int within = 0;
            for (int k = 0; k < polygonCount; k++) {
                kept[k] = depth[k] <= margin;
                if (kept[k]) {
                    within++;
                }
            }
            if (within > 0) {
                out.setFace(bestAxis < 3 ? 1 : -1);
                reduce(within);
                for (int k = 0; k < polygonCount; k++) {
                    if (kept[k]) {
                        double x = polygon[3 * k], y = polygon[3 * k + 1], z = polygon[3 * k + 2];
                        if (bestAxis < 3) {
                            out.addFromB(depth[k], x, y, z);
                        } else {
                            out.addFromB(depth[k], x + depth[k] * n[0], y + depth[k] * n[1], z + depth[k] * n[2]);
                        }
                    }
                }
                return;
            }
        }
        if (bestAxis < 6 || (!edgeWitness(scratch) && best > 0)) {
            separated(pa, pb, scratch);
        }
        if (scratch.distance <= margin) {
            out.setFrom(scratch);
        }
    }

    private void load(Box a, Placement pa, Box b, Placement pb) {
        for (int k = 0; k < 3; k++) {
            ca[k] = pa.p[k];
            cb[k] = pb.p[k];
            ha[k] = a.halfExtent(k);
            hb[k] = b.halfExtent(k);
            for (int i = 0; i < 3; i++) {
                ua[3 * i + k] = pa.r[3 * k + i];
                ub[3 * i + k] = pb.r[3 * k + i];
            }
        }
    }

    /**
     * Sets best (largest signed separation), bestAxis (0-2 A's faces, 3-5 B's, 6-14 edges) and n = ±axis; stops at
     * the first axis separating by more than {@code stop} (metres), which is then best (the manifold needs no more).
     *
     * <p>All in A's frame: C = Aᵀ B (C_ij = u_i · v_j, column j is v_j in A's frame) and t = Aᵀ (c_B − c_A). On A's
     * face axis u_i the half widths are h_i and Σ_k g_k |C_ik|; on B's v_j, Σ_k h_k |C_kj| and g_j; on the edge axis
     * m = e_i × C_j (u_i × v_j in A's frame, components m_i1 = −C_i2,j, m_i2 = C_i1,j for (i, i1, i2) cyclic), of
     * length |m| = √(m_i1² + m_i2²) from its small components (accurate for nearly parallel edges), h_i1 |m_i1| + h_i2
     * |m_i2| and Σ_k g_k |m · C_k|, each divided by |m|. The projections use the same m throughout, so each
     * separation is exact along some direction to rounding.
     */
    private void separatingAxes(double stop) {
        scale = Math.max(Math.max(ha[0], Math.max(ha[1], ha[2])), Math.max(hb[0], Math.max(hb[1], hb[2])));
        for (int k = 0; k < 3; k++) {
            scale = Math.max(scale, Math.max(Math.abs(ca[k]), Math.abs(cb[k])));
        }
        double dx = cb[0] - ca[0], dy = cb[1] - ca[1], dz = cb[2] - ca[2];
        for (int i = 0; i < 3; i++) {
            double ux = ua[3 * i], uy = ua[3 * i + 1], uz = ua[3 * i + 2];
            t[i] = ux * dx + uy * dy + uz * dz;
            for (int j = 0; j < 3; j++) {
                double cij = ux * ub[3 * j] + uy * ub[3 * j + 1] + uz * ub[3 * j + 2];
                c[3 * i + j] = cij;
                ac[3 * i + j] = Math.abs(cij);
            }
        }
        best = Double.NEGATIVE_INFINITY;
        bestAxis = -1;
        double bestCentre = 0;
        for (int i = 0; i < 3; i++) {
            double sep = Math.abs(t[i]) - ha[i] - (hb[0] * ac[3 * i] + hb[1] * ac[3 * i + 1] + hb[2] * ac[3 * i + 2]);
            if (sep > best) {
                best = sep;
                bestAxis = i;
                bestCentre = t[i];
                if (sep > stop) {
                    break;
                }
            }
        }
        for (int j = 0; j < 3 && best <= stop; j++) {
            double centre = t[0] * c[j] + t[1] * c[3 + j] + t[2] * c[6 + j]; // v_j · (c_B − c_A)
            double sep = Math.abs(centre) - (ha[0] * ac[j] + ha[1] * ac[3 + j] + ha[2] * ac[6 + j]) - hb[j];
            if (sep > best) {
                best = sep;
                bestAxis = 3 + j;
                bestCentre = centre;
            }
        }
        bestFaceAxis = bestAxis;
        bestFace = best;
        bestFaceCentre = bestCentre;
        double preference = PrimitiveDistance.FACE_PREFERENCE * scale;
        double bestLength = 1;
        for (int i = 0; i < 3 && best <= stop; i++) {
            int i1 = i == 2 ? 0 : i + 1, i2 = i == 0 ? 2 : i - 1;
            for (int j = 0; j < 3; j++) {
                double m1 = -c[3 * i2 + j], m2 = c[3 * i1 + j]; // m = e_i × C_j: components i1, i2
                double length = Math.sqrt(m1 * m1 + m2 * m2);
                if (length < 1e-12) {
                    continue; // parallel edges: the face normals stand for them
                }
                double centre = m1 * t[i1] + m2 * t[i2];
                double ra = ha[i1] * Math.abs(m1) + ha[i2] * Math.abs(m2);
                double rb = 0;
                for (int k = 0; k < 3; k++) {
                    if (k != j) {
                        rb += hb[k] * Math.abs(m1 * c[3 * i1 + k] + m2 * c[3 * i2 + k]);
                    }
                }
                double gap = Math.abs(centre) - ra - rb; // the separation times |m|
                if (gap > (best + preference) * length) {
                    double sep = gap / length;
                    best = sep;
                    bestAxis = 6 + 3 * i + j;
                    bestCentre = centre;
                    bestLength = length;
                    if (sep > stop) {
                        break;
                    }
                }
            }
        }
        double sign = bestCentre >= 0 ? 1 : -1;
        if (bestAxis < 6) {
            faceNormal(bestAxis, bestCentre);
        } else {
            int i = (bestAxis - 6) / 3, j = (bestAxis - 6) % 3;
            int i1 = i == 2 ? 0 : i + 1, i2 = i == 0 ? 2 : i - 1;
            double m1 = -c[3 * i2 + j], m2 = c[3 * i1 + j], f = sign / bestLength;
            for (int q = 0; q < 3; q++) {
                n[q] = f * (m1 * ua[3 * i1 + q] + m2 * ua[3 * i2 + q]); // A m / |m|, in the world
            }
        }
    }

    /** True if the chosen edge axis n is the best face axis's direction within {@link Narrowphase#ALIGNED_NORMALS}. */
    private boolean edgeAxisAlongFace() {
        double[] u = bestFaceAxis < 3 ? ua : ub;
        int o = 3 * (bestFaceAxis < 3 ? bestFaceAxis : bestFaceAxis - 3);
        return Math.abs(n[0] * u[o] + n[1] * u[o + 1] + n[2] * u[o + 2]) >= 1 - Narrowphase.ALIGNED_NORMALS;
    }

    /** n = ± face axis (0-2 A's, 3-5 B's), pointing from A to B by the sign of the centres' offset on it. */
    private void faceNormal(int axis, double centre) {
        double sign = centre >= 0 ? 1 : -1;
        double[] u = axis < 3 ? ua : ub;
        int o = 3 * (axis < 3 ? axis : axis - 3);
        n[0] = sign * u[o];
        n[1] = sign * u[o + 1];
        n[2] = sign * u[o + 2];
    }

    /**
     * Clips the incident face to the reference face's side planes: polygon[0..polygonCount) are points on the
     * incident box, depth[k] their signed heights above the reference face along its outward normal.
     */
    private void clip() {
        boolean referenceIsA = bestAxis < 3;
        int i = referenceIsA ? bestAxis : bestAxis - 3;
        double[] rc = referenceIsA ? ca : cb, ru = referenceIsA ? ua : ub, rh = referenceIsA ? ha : hb;
        double[] ic = referenceIsA ? cb : ca, iu = referenceIsA ? ub : ua, ih = referenceIsA ? hb : ha;
        double s = referenceIsA ? 1 : -1;
        double mx = s * n[0], my = s * n[1], mz = s * n[2]; // reference face's outward normal
        int j = 0;
        double most = -1;
        for (int k = 0; k < 3; k++) {
            double dot = Math.abs(mx * iu[3 * k] + my * iu[3 * k + 1] + mz * iu[3 * k + 2]);
            if (dot > most) {
                most = dot;
                j = k;
            }
        }
        double tau = mx * iu[3 * j] + my * iu[3 * j + 1] + mz * iu[3 * j + 2] > 0 ? -1 : 1;
        int k1 = (j + 1) % 3, k2 = (j + 2) % 3;
        for (int c = 0; c < 4; c++) {
            for (int q = 0; q < 3; q++) {
                polygon[3 * c + q] = ic[q] + tau * ih[j] * iu[3 * j + q] + CORNERS[2 * c] * ih[k1] * iu[3 * k1 + q]
                        + CORNERS[2 * c + 1] * ih[k2] * iu[3 * k2 + q];
            }
        }
        polygonCount = 4;
        for (int k = 0; k < 3 && polygonCount > 0; k++) {
            if (k == i) {
                continue;
            }
            double px = ru[3 * k], py = ru[3 * k + 1], pz = ru[3 * k + 2];
            double o = px * rc[0] + py * rc[1] + pz * rc[2];
            clipPlane(px, py, pz, o + rh[k]);
            clipPlane(-px, -py, -pz, -o + rh[k]);
        }
        double face = mx * rc[0] + my * rc[1] + mz * rc[2] + rh[i];
        for (int c = 0; c < polygonCount; c++) {
            depth[c] = mx * polygon[3 * c] + my * polygon[3 * c + 1] + mz * polygon[3 * c + 2] - face;
        }
    }

    /** Keeps the part of the polygon with p · x ≤ o (Sutherland-Hodgman). */
    private void clipPlane(double px, double py, double pz, double o) {
        if (polygonCount == 0) {
            return;
        }
        double[] in = polygon, out = clipped;
        int count = 0;
        int last = polygonCount - 1;
        double hc = px * in[3 * last] + py * in[3 * last + 1] + pz * in[3 * last + 2] - o;
        // each edge (c, d) with c the previous corner: the height of c carried over from the last step
        for (int d = 0, c = last; d <= last; c = d, d++) {
            double hd = px * in[3 * d] + py * in[3 * d + 1] + pz * in[3 * d + 2] - o;
            if ((hc < 0 && hd > 0) || (hc > 0 && hd < 0)) {
                double t = hc / (hc - hd);
                out[3 * count] = in[3 * c] + t * (in[3 * d] - in[3 * c]);
                out[3 * count + 1] = in[3 * c + 1] + t * (in[3 * d + 1] - in[3 * c + 1]);
                out[3 * count + 2] = in[3 * c + 2] + t * (in[3 * d + 2] - in[3 * c + 2]);
                count++;
            }
            if (hd <= 0) {
                out[3 * count] = in[3 * d];
                out[3 * count + 1] = in[3 * d + 1];
                out[3 * count + 2] = in[3 * d + 2];
                count++;
            }
            hc = hd;
        }
        polygon = out;
        clipped = in;
        polygonCount = count;
    }

    /** Of the kept points, keeps at most four ({@link FaceClipping#keepFour}). */
    private void reduce(int within) {
        if (within > ContactManifold.CAPACITY) {
            FaceClipping.keepFour(polygon, polygonCount, depth, kept, n[0], n[1], n[2]);
        }
    }


    /**
     * The edge-edge axis: the closest points of A's edge farthest along n and B's farthest along −n. True when they
     * are interior to both edges: then they are the closest points of the edges' lines, whose common perpendicular
     * is n, so they lie best apart along n; for apart boxes that attains the separating axes' lower bound on the
     * distance, which is therefore exact (no search over the other features needed).
     */
    private boolean edgeWitness(DistanceResult out) {
        int i = (bestAxis - 6) / 3, j = (bestAxis - 6) % 3;
        double ax = ca[0], ay = ca[1], az = ca[2], bx = cb[0], by = cb[1], bz = cb[2];
        for (int k = 0; k < 3; k++) {
            double sa = k == i ? -1 : n[0] * ua[3 * k] + n[1] * ua[3 * k + 1] + n[2] * ua[3 * k + 2] >= 0 ? 1 : -1;
            double sb = k == j ? -1 : n[0] * ub[3 * k] + n[1] * ub[3 * k + 1] + n[2] * ub[3 * k + 2] >= 0 ? -1 : 1;
            ax += sa * ha[k] * ua[3 * k];
            ay += sa * ha[k] * ua[3 * k + 1];
            az += sa * ha[k] * ua[3 * k + 2];
            bx += sb * hb[k] * ub[3 * k];
            by += sb * hb[k] * ub[3 * k + 1];
            bz += sb * hb[k] * ub[3 * k + 2];
        }
        double wax = 2 * ha[i] * ua[3 * i], way = 2 * ha[i] * ua[3 * i + 1], waz = 2 * ha[i] * ua[3 * i + 2];
        double wbx = 2 * hb[j] * ub[3 * j], wby = 2 * hb[j] * ub[3 * j + 1], wbz = 2 * hb[j] * ub[3 * j + 2];
        Segments.closest(ax, ay, az, wax, way, waz, bx, by, bz, wbx, wby, wbz, st);
        double px = ax + st[0] * wax, py = ay + st[0] * way, pz = az + st[0] * waz;
        out.set(best, n[0], n[1], n[2], px, py, pz, px + best * n[0], py + best * n[1], pz + best * n[2]);
        return st[0] > 0 && st[0] < 1 && st[1] > 0 && st[1] < 1;
    }

    /** The exact distance of separated boxes from their closest features. */
    private void separated(Placement pa, Placement pb, DistanceResult out) {
        double bestD2 = Double.POSITIVE_INFINITY;
        double nx = 0, ny = 0, nz = 0, px = 0, py = 0, pz = 0;
        for (int side = 0; side < 2; side++) {
            // Vertices of one box against the other box, in the other's frame.
            double[] c = side == 0 ? ca : cb, u = side == 0 ? ua : ub, h = side == 0 ? ha : hb;
            double[] oh = side == 0 ? hb : ha;
            Placement other = side == 0 ? pb : pa;
            for (int vertex = 0; vertex < 8; vertex++) {
                for (int q = 0; q < 3; q++) {
                    v[q] = c[q];
                    for (int k = 0; k < 3; k++) {
                        v[q] += ((vertex >> k & 1) == 0 ? -h[k] : h[k]) * u[3 * k + q];
                    }
                }
                double wx = v[0], wy = v[1], wz = v[2];
                other.toLocal(v, v);
                double e0 = Math.max(-oh[0], Math.min(oh[0], v[0])) - v[0];
                double e1 = Math.max(-oh[1], Math.min(oh[1], v[1])) - v[1];
                double e2 = Math.max(-oh[2], Math.min(oh[2], v[2])) - v[2];
                double d2 = e0 * e0 + e1 * e1 + e2 * e2;
                if (d2 < bestD2) {
                    bestD2 = d2;
                    v[0] = e0;
                    v[1] = e1;
                    v[2] = e2;
                    other.rotateToWorld(v, v);
                    double len = Math.sqrt(d2) * (side == 0 ? 1 : -1); // n points from A to B
                    nx = v[0] / len;
                    ny = v[1] / len;
                    nz = v[2] / len;
                    // the witness on A
                    px = side == 0 ? wx : wx + v[0];
                    py = side == 0 ? wy : wy + v[1];
                    pz = side == 0 ? wz : wz + v[2];
                }
            }
        }
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                for (int ea = 0; ea < 4; ea++) {
                    double ax = ca[0], ay = ca[1], az = ca[2];
                    for (int k = 0, bit = 0; k < 3; k++) {
                        double s = k == i ? -1 : ((ea >> bit++ & 1) == 0 ? -1 : 1);
                        ax += s * ha[k] * ua[3 * k];
                        ay += s * ha[k] * ua[3 * k + 1];
                        az += s * ha[k] * ua[3 * k + 2];
                    }
                    double wax = 2 * ha[i] * ua[3 * i], way = 2 * ha[i] * ua[3 * i + 1];
                    double waz = 2 * ha[i] * ua[3 * i + 2];
                    for (int eb = 0; eb < 4; eb++) {
                        double bx = cb[0], by = cb[1], bz = cb[2];
                        for (int k = 0, bit = 0; k < 3; k++) {
                            double s = k == j ? -1 : ((eb >> bit++ & 1) == 0 ? -1 : 1);
                            bx += s * hb[k] * ub[3 * k];
                            by += s * hb[k] * ub[3 * k + 1];
                            bz += s * hb[k] * ub[3 * k + 2];
                        }
                        double wbx = 2 * hb[j] * ub[3 * j], wby = 2 * hb[j] * ub[3 * j + 1];
                        double wbz = 2 * hb[j] * ub[3 * j + 2];
                        Segments.closest(ax, ay, az, wax, way, waz, bx, by, bz, wbx, wby, wbz, st);
                        double qax = ax + st[0] * wax, qay = ay + st[0] * way, qaz = az + st[0] * waz;
                        double dx = bx + st[1] * wbx - qax, dy = by + st[1] * wby - qay, dz = bz + st[1] * wbz - qaz;
                        double d2 = dx * dx + dy * dy + dz * dz;
                        if (d2 < bestD2) {
                            bestD2 = d2;
                            px = qax;
                            py = qay;
                            pz = qaz;
                            double len = Math.sqrt(d2);
                            nx = dx / len;
                            ny = dy / len;
                            nz = dz / len;
                            if (st[0] > 0 && st[0] < 1 && st[1] > 0 && st[1] < 1) {
                                // Interior points of two edges: n is along their common perpendicular.
                                double mx = way * wbz - waz * wby, my = waz * wbx - wax * wbz, mz = wax * wby - way * wbx;
                                double ml = Math.sqrt(mx * mx + my * my + mz * mz);
                                if (ml > 1e-12 * Math.sqrt((wax * wax + way * way + waz * waz) * (wbx * wbx + wby * wby + wbz * wbz))) {
                                    double sign = mx * dx + my * dy + mz * dz >= 0 ? 1 : -1;
                                    nx = sign * mx / ml;
                                    ny = sign * my / ml;
                                    nz = sign * mz / ml;
                                }
                            }
                        }
                    }
                }
            }
        }
        double d = Math.sqrt(bestD2);
        if (d - best <= SEPARATION_ROUNDING * scale || d <= TOUCHING * scale) {
            // The separating axis realises the distance (a face or edges in contact): it is the normal, exactly,
            // where the closest points' difference can be rounding alone.
            nx = n[0];
            ny = n[1];
            nz = n[2];
        }
        out.set(d, nx, ny, nz, px, py, pz, px + d * nx, py + d * ny, pz + d * nz);
    }
}
