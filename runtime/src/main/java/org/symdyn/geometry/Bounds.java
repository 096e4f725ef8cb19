package org.symdyn.geometry;

/**
 * World axis-aligned bounding boxes of shapes at their placements: out = (min_x, min_y, min_z, max_x, max_y,
 * max_z) (metres), widened by a margin. For a convex shape, max_k = e_k · s(e_k) and min_k = e_k · s(−e_k) with s
 * its support point for the world axis e_k (exact for every convex shape), except for a hull of
 * {@link ConvexHull#CLIMB_FROM} vertices or more: the world box around its own bounding box turned with it
 * (conservative, and six support queries fewer per step); for a mesh, the extremes of its
 * transformed vertices; a half-space is unbounded (±∞) along every axis except where its normal makes it bounded on
 * one side (a normal along an axis). No allocation.
 */
public final class Bounds {
    private final double[] u = new double[3];
    private final double[] x = new double[3];

    /** Writes the bounds of the shape at its placement, each side moved out by {@code margin} ≥ 0, to out[0..6). */
    public void of(Shape shape, Placement place, double margin, double[] out) {
        if (shape instanceof ConvexHull hull && hull.vertexCount() >= ConvexHull.CLIMB_FROM) {
            // the box of the hull's own bounding box turned into the world: c_W = R c + p, h_W,i = Σ_j |R_ij| h_j
            for (int i = 0; i < 3; i++) {
                double c = place.p[i], h = margin;
                for (int j = 0; j < 3; j++) {
                    double r = place.r[3 * i + j];
                    c += r * hull.boxCentre[j];
                    h += Math.abs(r) * hull.boxHalf[j];
                }
                out[i] = c - h;
                out[3 + i] = c + h;
            }
        } else if (shape instanceof ConvexShape c) {
            for (int k = 0; k < 3; k++) {
                for (int side = 0; side < 2; side++) {
                    double sign = side == 0 ? -1 : 1;
                    // e_k in the shape's frame: Rᵀ e_k, row k of R
                    u[0] = sign * place.r[3 * k];
                    u[1] = sign * place.r[3 * k + 1];
                    u[2] = sign * place.r[3 * k + 2];
                    c.support(u[0], u[1], u[2], x);
                    place.toWorld(x, x);
                    out[3 * side + k] = x[k] + sign * margin;
                }
            }
        } else if (shape instanceof TriangleMesh m) {
            for (int k = 0; k < 3; k++) {
                out[k] = Double.POSITIVE_INFINITY;
                out[3 + k] = Double.NEGATIVE_INFINITY;
            }
            for (int i = 0; i < m.vertexCount(); i++) {
                x[0] = m.vertex(i, 0);
                x[1] = m.vertex(i, 1);
                x[2] = m.vertex(i, 2);
                place.toWorld(x, x);
                for (int k = 0; k < 3; k++) {
                    out[k] = Math.min(out[k], x[k] - margin);
                    out[3 + k] = Math.max(out[3 + k], x[k] + margin);
                }
            }
        } else {
            HalfSpace h = (HalfSpace) shape;
            double offset = PrimitiveDistance.worldPlane(h, place, u);
            for (int k = 0; k < 3; k++) {
                out[k] = Double.NEGATIVE_INFINITY;
                out[3 + k] = Double.POSITIVE_INFINITY;
                // n = ±e_k: the half-space is x_k ≤ c (or x_k ≥ −c).
                if (Math.abs(u[k]) == 1) {
                    if (u[k] > 0) {
                        out[3 + k] = offset + margin;
                    } else {
                        out[k] = -offset - margin;
                    }
                }
            }
        }
    }
}
