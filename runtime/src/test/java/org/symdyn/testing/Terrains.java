package org.symdyn.testing;

import java.util.Random;
import org.symdyn.geometry.TriangleMesh;

/**
 * Terrains for the tests of static meshes. {@link #heightfield}: a square grid of nx × ny cells of side {@code cell} (m) from
 * the origin, heights z = 0.3 sin(0.9 x + φ₁) cos(0.7 y + φ₂) + 0.1 sin(2.3 x + 1.7 y + φ₃) plus a uniform bump of
 * ±{@code roughness} per vertex (phases and bumps from the seed), two triangles per cell (2 nx ny), fronts facing
 * up, vertices shared.
 */
public final class Terrains {
    private Terrains() {
    }

    /** A vertex's height from its grid indices (i along x, j along y). */
    public interface VertexHeight {
        double at(int i, int j);
    }

    public static TriangleMesh heightfield(int nx, int ny, double cell, double roughness, long seed) {
        Random rnd = new Random(seed);
        double p1 = 2 * Math.PI * rnd.nextDouble(), p2 = 2 * Math.PI * rnd.nextDouble();
        double p3 = 2 * Math.PI * rnd.nextDouble();
        return grid(nx, ny, cell, 0, 0, (i, j) -> {
            double x = i * cell, y = j * cell;
            return 0.3 * Math.sin(0.9 * x + p1) * Math.cos(0.7 * y + p2) + 0.1 * Math.sin(2.3 * x + 1.7 * y + p3)
                    + roughness * (2 * rnd.nextDouble() - 1);
        });
    }

    /**
     * A square grid of nx × ny cells of side {@code cell} from (x0, y0), heights from {@code height} (asked in the
     * order i = 0..nx, and for each i, j = 0..ny), two triangles per cell, fronts facing up, vertices shared.
     */
    public static TriangleMesh grid(int nx, int ny, double cell, double x0, double y0, VertexHeight height) {
        double[] v = new double[3 * (nx + 1) * (ny + 1)];
        for (int i = 0; i <= nx; i++) {
            for (int j = 0; j <= ny; j++) {
                int k = 3 * (i * (ny + 1) + j);
                v[k] = x0 + i * cell;
                v[k + 1] = y0 + j * cell;
                v[k + 2] = height.at(i, j);
            }
        }
        int[] t = new int[6 * nx * ny];
        int n = 0;
        for (int i = 0; i < nx; i++) {
            for (int j = 0; j < ny; j++) {
                int a = i * (ny + 1) + j, b = (i + 1) * (ny + 1) + j, c = b + 1, d = a + 1;
                // counter-clockwise seen from above (+z)
                t[n++] = a;
                t[n++] = b;
                t[n++] = c;
                t[n++] = a;
                t[n++] = c;
                t[n++] = d;
            }
        }
        return TriangleMesh.of(v, t);
    }
}
