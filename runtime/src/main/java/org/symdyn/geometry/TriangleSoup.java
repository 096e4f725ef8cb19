package org.symdyn.geometry;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Collects the triangles a mesh file reader finds into a {@link LoadedMesh}, applying the rules every mesh format
 * shares: each vertex x becomes (s_x x, s_y y, s_z z), the per-axis scale of a URDF {@code <mesh scale>} (finite and
 * non-zero; a negative product mirrors the mesh, and the corners' order is reversed so that the normals keep
 * pointing out); a zero-area triangle (area at most {@link TriangleMesh#MIN_RELATIVE_AREA} times the square of its
 * longest edge) is left out with one warning per file; more than {@link MeshFiles#MAX_TRIANGLES} triangles, or
 * none, is a {@link MeshFileException}. Vertices are not merged: each triangle keeps its own three.
 */
public final class TriangleSoup {
    private final String file;
    private final double[] scale;
    private final boolean mirror;
    private final List<String> warnings = new ArrayList<>();
    private double[] vertices = new double[9 * 256];
    private int triangles;
    private int dropped;
    private String firstDropped;

    /**
     * @param file the file's name as messages print it
     * @throws MeshFileException if a scale factor is zero or not finite
     */
    public TriangleSoup(String file, double sx, double sy, double sz) throws MeshFileException {
        this.file = file;
        for (double s : new double[] {sx, sy, sz}) {
            if (!(s != 0) || !Double.isFinite(s)) {
                throw new MeshFileException(file + ": mesh scale must be finite and non-zero, got [" + sx + ", "
                        + sy + ", " + sz + "]");
            }
        }
        scale = new double[] {sx, sy, sz};
        mirror = sx * sy * sz < 0;
    }

    /**
     * Adds the triangle with corners (v[0..3), v[3..6), v[6..9)) in the file's frame (before scaling).
     *
     * @param where the triangle's place in the file, for messages ("line 12", "byte 184 (triangle 2)")
     * @throws MeshFileException beyond {@link MeshFiles#MAX_TRIANGLES} triangles, or when a corner is so far out that
     *                           the triangle's lengths overflow
     */
    public void triangle(double[] v, String where) throws MeshFileException {
        if (triangles == MeshFiles.MAX_TRIANGLES) {
            throw new MeshFileException(file + ": " + where + ": more than " + MeshFiles.MAX_TRIANGLES
                    + " triangles");
        }
        if (9 * (triangles + 1) > vertices.length) {
            vertices = Arrays.copyOf(vertices, 2 * vertices.length);
        }
        int base = 9 * triangles;
        for (int c = 0; c < 3; c++) {
            int from = 3 * (mirror && c > 0 ? 3 - c : c);
            for (int k = 0; k < 3; k++) {
                vertices[base + 3 * c + k] = scale[k] * v[from + k];
            }
        }
        double area2 = TriangleMesh.crossLength(vertices, 3 * triangles, 3 * triangles + 1, 3 * triangles + 2);
        double longest = 0;
        for (int c = 0; c < 3; c++) {
            int i = base + 3 * c, j = base + 3 * ((c + 1) % 3);
            double e = 0;
            for (int k = 0; k < 3; k++) {
                e += (vertices[j + k] - vertices[i + k]) * (vertices[j + k] - vertices[i + k]);
            }
            longest = Math.max(longest, e);
        }
        if (!Double.isFinite(longest) || !Double.isFinite(area2)) {
            // a vertex so far out (1e308, or 1e160 squared) that lengths and areas overflow: no shape can be made
            throw new MeshFileException(file + ": " + where + ": a vertex is too far from the origin ("
                    + farthest(base) + " m after scaling): the triangle's lengths overflow");
        }
        if (!(area2 / 2 > TriangleMesh.MIN_RELATIVE_AREA * longest)) {
            if (dropped++ == 0) {
                firstDropped = where;
            }
            return;
        }
        triangles++;
    }

    /** The largest |coordinate| of the triangle at vertices[base .. base + 9). */
    private double farthest(int base) {
        double most = 0;
        for (int i = base; i < base + 9; i++) {
            most = Math.max(most, Math.abs(vertices[i]));
        }
        return most;
    }

    /** Adds a warning (naming the file and place) to those of the result. */
    public void warn(String message) {
        warnings.add(message);
    }

    /** The triangles added so far. */
    public int triangleCount() {
        return triangles;
    }

    /**
     * The mesh of the triangles kept, with the warnings.
     *
     * @throws MeshFileException if no triangle of non-zero area was added
     */
    public LoadedMesh build() throws MeshFileException {
        List<String> all = new ArrayList<>(warnings);
        if (dropped > 0) {
            all.add(file + ": " + dropped + " zero-area triangle" + (dropped == 1 ? "" : "s")
                    + " left out (the first at " + firstDropped + ")");
        }
        if (triangles == 0) {
            throw new MeshFileException(file + ": no triangles" + (dropped > 0 ? " of non-zero area" : ""));
        }
        int[] index = new int[3 * triangles];
        for (int i = 0; i < index.length; i++) {
            index[i] = i;
        }
        return new LoadedMesh(TriangleMesh.of(Arrays.copyOf(vertices, 9 * triangles), index), all);
    }
}
