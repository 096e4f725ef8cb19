package org.symdyn.geometry;

/**
 * One triangle of a {@link TriangleMesh} as a convex shape in the mesh's frame: a flat plate of zero thickness, for
 * the distance queries of a static mesh triangle by triangle. A flyweight: {@link #set} points it at a triangle;
 * one instance per query object, no allocation.
 */
final class MeshTriangle implements ConvexShape {
    final double[] v = new double[9];
    private double radius;

    /** Points this at triangle t of the mesh. */
    void set(TriangleMesh mesh, int t) {
        radius = 0;
        for (int c = 0; c < 3; c++) {
            int i = mesh.triangleVertex(t, c);
            double r2 = 0;
            for (int k = 0; k < 3; k++) {
                v[3 * c + k] = mesh.vertex(i, k);
                r2 += v[3 * c + k] * v[3 * c + k];
            }
            radius = Math.max(radius, Math.sqrt(r2));
        }
    }

    /** The corner maximising d · x (the first of equals). */
    @Override
    public void support(double dx, double dy, double dz, double[] out) {
        int best = supportCorner(dx, dy, dz);
        out[0] = v[3 * best];
        out[1] = v[3 * best + 1];
        out[2] = v[3 * best + 2];
    }

    /** The index (0, 1 or 2) of the corner maximising d · x (the first of equals). */
    int supportCorner(double dx, double dy, double dz) {
        int best = 0;
        double max = dx * v[0] + dy * v[1] + dz * v[2];
        for (int c = 1; c < 3; c++) {
            double h = dx * v[3 * c] + dy * v[3 * c + 1] + dz * v[3 * c + 2];
            if (h > max) {
                max = h;
                best = c;
            }
        }
        return best;
    }

    @Override
    public double boundingRadius() {
        return radius;
    }
}
