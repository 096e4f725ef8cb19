package org.symdyn.geometry;

/**
 * An axis-aligned bounding-volume hierarchy over the bounding boxes of a static mesh's triangles, so that a query
 * touching few triangles costs about log n box tests instead of n: the index behind contact with a
 * {@link TriangleMesh} and behind its ray casts. Boxes are (min_x, min_y, min_z, max_x, max_y, max_z) per triangle,
 * in the mesh's frame ({@link TriangleMesh#bvh()}) or in the world at a fixed placement
 * ({@link TriangleMesh#bvh(Placement)}); node boxes are the exact unions (min and max, no rounding) of their
 * triangles' boxes, so a triangle's box overlaps a query box only when every node above it does.
 *
 * <p><b>Build</b> (once, at set-up): top down, each node's triangles split in two by the binned surface-area
 * heuristic ({@value #BINS} bins of the triangles' box centres on each axis; the split minimising
 * A_left n_left + A_right n_right, A a box's surface area; the first axis and bin of equals), until a leaf holds at
 * most {@value #LEAF_SIZE} triangles. From depth {@value #SAH_DEPTH} on, or when all centres coincide, the split is
 * at the median (by centre along the widest axis, then index; by position when all centres are one point), which
 * halves the count, so the depth is at most {@value #SAH_DEPTH} + ⌈log₂(n / {@value #LEAF_SIZE})⌉ &lt;
 * {@value #MAX_DEPTH} for any n an array holds. O(n log n) time (O(n) per level), deterministic. Flat arrays, no
 * object per node: per node 6 doubles and 2 ints (56 bytes), per triangle its box (6 doubles) and 1 int (52 bytes);
 * at most 2n − 1 nodes, about n / 2 on terrains (leaves of 2-4 triangles), so about 80 bytes per triangle (at most
 * 164).
 *
 * <p><b>Queries</b> allocate nothing: a depth-first walk with an explicit int stack of {@link #stackSize()} entries
 * (at most {@value #MAX_DEPTH} + 1) that the caller owns. {@link #overlapping} gives every triangle whose box overlaps
 * a query box, in increasing index order: exactly the triangles, in exactly the order, of {@link #scanOverlapping},
 * which tests every box; at a cost of O(log n + k) box tests for k triangles near the box (O(n) when the box covers
 * the mesh) and a sort of the k found (insertion sort up to 32, heapsort above). Ray casts walk the same nodes
 * ({@link RayCast}). Immutable, so one instance serves every thread.
 */
public final class TriangleBvh {
    /** The most triangles in a leaf. */
    public static final int LEAF_SIZE = 4;
    /** Bins per axis of the surface-area heuristic. */
    public static final int BINS = 16;
    /** From this depth on, splits are at the median. */
    public static final int SAH_DEPTH = 36;
    /** A bound on the depth of every hierarchy (root at 0): a stack of MAX_DEPTH + 1 entries serves any of them. */
    public static final int MAX_DEPTH = 64;

    /** 6 per node: min_x, min_y, min_z, max_x, max_y, max_z. */
    final double[] nodeBounds;
    /**
     * 2 per node: a leaf (second entry &gt; 0) holds items[first, first + count); an inner node (second entry −1 −
     * axis, axis its split's) has its children at first and first + 1.
     */
    final int[] nodes;
    /** Triangle indices in leaf order. */
    final int[] items;
    /** 6 per triangle, by triangle index. */
    final double[] bounds;
    private final int depth;

    private TriangleBvh(double[] bounds) {
        this.bounds = bounds;
        Builder b = new Builder(bounds);
        b.build(0, 0, b.n, 0);
        nodeBounds = java.util.Arrays.copyOf(b.nodeBounds, 6 * b.nodeCount);
        nodes = java.util.Arrays.copyOf(b.nodes, 2 * b.nodeCount);
        items = b.items;
        depth = b.depth;
        if (depth > MAX_DEPTH) {
            throw new IllegalStateException("hierarchy of depth " + depth + " > " + MAX_DEPTH); // not reached
        }
    }

    /**
     * The hierarchy over the given boxes, triangle t's at boxes[6t, 6t + 6) (copied).
     *
     * @throws IllegalArgumentException for no boxes, a length not a multiple of 6, a non-finite bound or a min above
     *                                  its max (naming the box)
     */
    public static TriangleBvh of(double[] boxes) {
        if (boxes.length == 0 || boxes.length % 6 != 0) {
            throw new IllegalArgumentException("triangle boxes come in sixes (min xyz, max xyz), at least one; got "
                    + boxes.length + " numbers");
        }
        for (int t = 0; t < boxes.length / 6; t++) {
            for (int k = 0; k < 3; k++) {
                double lo = boxes[6 * t + k], hi = boxes[6 * t + 3 + k];
                if (!Double.isFinite(lo) || !Double.isFinite(hi) || lo > hi) {
                    throw new IllegalArgumentException("triangle box " + t + " has bounds [" + lo + ", " + hi
                            + "] along " + "xyz".charAt(k));
                }
            }
        }
        return new TriangleBvh(boxes.clone());
    }

    /**
     * The boxes of the mesh's triangles at a placement (null: in the mesh's frame): each the min and max over the
     * triangle's corners of R x + p ({@link Placement#toWorld}). Contact detection tests these same numbers.
     */
    static double[] triangleBoxes(TriangleMesh mesh, Placement place) {
        int nt = mesh.triangleCount();
        double[] out = new double[6 * nt];
        double[] x = new double[3];
        for (int t = 0; t < nt; t++) {
            for (int k = 0; k < 3; k++) {
                out[6 * t + k] = Double.POSITIVE_INFINITY;
                out[6 * t + 3 + k] = Double.NEGATIVE_INFINITY;
            }
            for (int c = 0; c < 3; c++) {
                int v = mesh.triangleVertex(t, c);
                x[0] = mesh.vertex(v, 0);
                x[1] = mesh.vertex(v, 1);
                x[2] = mesh.vertex(v, 2);
                if (place != null) {
                    place.toWorld(x, x);
                }
                for (int k = 0; k < 3; k++) {
                    out[6 * t + k] = Math.min(out[6 * t + k], x[k]);
                    out[6 * t + 3 + k] = Math.max(out[6 * t + 3 + k], x[k]);
                }
            }
        }
        return out;
    }

    /** The hierarchy of the mesh's triangles at a placement (null: the mesh's frame); built by {@link TriangleMesh}. */
    static TriangleBvh of(TriangleMesh mesh, Placement place) {
        return new TriangleBvh(triangleBoxes(mesh, place));
    }

    /** The number of triangles. */
    public int triangleCount() {
        return bounds.length / 6;
    }

    /** The number of nodes. */
    public int nodeCount() {
        return nodes.length / 2;
    }

    /** The depth of the deepest leaf (the root alone: 0). */
    public int depth() {
        return depth;
    }

    /** The entries a query's stack needs: {@link #depth()} + 1. */
    public int stackSize() {
        return depth + 1;
    }

    /** Bound k (0-2 min x, y, z; 3-5 max x, y, z) of triangle t's box. */
    public double bound(int t, int k) {
        return bounds[6 * t + k];
    }

    /**
     * Writes to out[0, k) the k triangles whose boxes overlap {@code box} (min xyz, max xyz; boxes that touch
     * overlap; a NaN bound excludes nothing), in increasing index order, and returns k: the same as
     * {@link #scanOverlapping}, found by walking the hierarchy.
     *
     * @param out   at least {@link #triangleCount()} entries
     * @param stack at least {@link #stackSize()} entries (scratch)
     */
    public int overlapping(double[] box, int[] out, int[] stack) {
        check(box, out);
        if (stack.length < stackSize()) {
            throw new IllegalArgumentException("stack of " + stack.length + " entries, the hierarchy needs "
                    + stackSize());
        }
        double x0 = box[0], y0 = box[1], z0 = box[2], x1 = box[3], y1 = box[4], z1 = box[5];
        int found = 0;
        int top = 0;
        stack[top++] = 0;
        while (top > 0) {
            int node = stack[--top];
            int o = 6 * node;
            double[] nb = nodeBounds;
            if (nb[o] > x1 || nb[o + 3] < x0 || nb[o + 1] > y1 || nb[o + 4] < y0 || nb[o + 2] > z1
                    || nb[o + 5] < z0) {
                continue;
            }
            int first = nodes[2 * node], count = nodes[2 * node + 1];
            if (count > 0) {
                for (int i = first; i < first + count; i++) {
                    int t = items[i];
                    if (!misses(bounds, 6 * t, x0, y0, z0, x1, y1, z1)) {
                        out[found++] = t;
                    }
                }
            } else {
                stack[top++] = first + 1;
                stack[top++] = first;
            }
        }
        sort(out, found);
        return found;
    }

    /**
     * The reference of {@link #overlapping}: tests every triangle's box in index order (O(n)). Writes the
     * overlapping triangles to out[0, k) and returns k.
     */
    public int scanOverlapping(double[] box, int[] out) {
        check(box, out);
        double x0 = box[0], y0 = box[1], z0 = box[2], x1 = box[3], y1 = box[4], z1 = box[5];
        int found = 0;
        for (int t = 0; t < bounds.length / 6; t++) {
            if (!misses(bounds, 6 * t, x0, y0, z0, x1, y1, z1)) {
                out[found++] = t;
            }
        }
        return found;
    }

    private void check(double[] box, int[] out) {
        if (box.length < 6 || out.length < triangleCount()) {
            throw new IllegalArgumentException("query box of " + box.length + " numbers (6 needed) and output of "
                    + out.length + " entries (" + triangleCount() + " needed)");
        }
    }

    /** True when box b[o, o + 6) lies apart from the query (a NaN comparison never separates). */
    private static boolean misses(double[] b, int o, double x0, double y0, double z0, double x1, double y1,
            double z1) {
        return b[o] > x1 || b[o + 3] < x0 || b[o + 1] > y1 || b[o + 4] < y0 || b[o + 2] > z1 || b[o + 5] < z0;
    }

    /** Sorts a[0, n) increasingly without allocating: insertion sort when short, else heapsort. */
    static void sort(int[] a, int n) {
        if (n <= 32) {
            for (int i = 1; i < n; i++) {
                int v = a[i];
                int j = i - 1;
                while (j >= 0 && a[j] > v) {
                    a[j + 1] = a[j];
                    j--;
                }
                a[j + 1] = v;
            }
            return;
        }
        for (int i = n / 2 - 1; i >= 0; i--) {
            siftDown(a, i, n);
        }
        for (int end = n - 1; end > 0; end--) {
            int v = a[0];
            a[0] = a[end];
            a[end] = v;
            siftDown(a, 0, end);
        }
    }

    private static void siftDown(int[] a, int i, int n) {
        int v = a[i];
        while (true) {
            int c = 2 * i + 1;
            if (c >= n) {
                break;
            }
            if (c + 1 < n && a[c + 1] > a[c]) {
                c++;
            }
            if (a[c] <= v) {
                break;
            }
            a[i] = a[c];
            i = c;
        }
        a[i] = v;
    }

    /** The top-down build: scratch for one hierarchy. */
    private static final class Builder {
        final double[] box;
        final int n;
        final double[] centre;
        final int[] items;
        final double[] nodeBounds;
        final int[] nodes;
        int nodeCount = 1;
        int depth;
        private final int[] binCount = new int[BINS];
        private final double[] binBounds = new double[6 * BINS];
        private final double[] rightArea = new double[BINS];
        private final int[] rightCount = new int[BINS];
        private final double[] sweep = new double[6];

        Builder(double[] box) {
            this.box = box;
            n = box.length / 6;
            centre = new double[3 * n];
            items = new int[n];
            for (int t = 0; t < n; t++) {
                items[t] = t;
                for (int k = 0; k < 3; k++) {
                    centre[3 * t + k] = 0.5 * (box[6 * t + k] + box[6 * t + 3 + k]);
                }
            }
            nodeBounds = new double[6 * (2 * n - 1)];
            nodes = new int[2 * (2 * n - 1)];
        }

        /** Node {@code node} over items[start, end) at depth {@code level}. */
        void build(int node, int start, int end, int level) {
            depth = Math.max(depth, level);
            int o = 6 * node;
            double cx0 = Double.POSITIVE_INFINITY, cy0 = cx0, cz0 = cx0;
            double cx1 = Double.NEGATIVE_INFINITY, cy1 = cx1, cz1 = cx1;
            for (int k = 0; k < 3; k++) {
                nodeBounds[o + k] = Double.POSITIVE_INFINITY;
                nodeBounds[o + 3 + k] = Double.NEGATIVE_INFINITY;
            }
            for (int i = start; i < end; i++) {
                int t = items[i];
                for (int k = 0; k < 3; k++) {
                    nodeBounds[o + k] = Math.min(nodeBounds[o + k], box[6 * t + k]);
                    nodeBounds[o + 3 + k] = Math.max(nodeBounds[o + 3 + k], box[6 * t + 3 + k]);
                }
                double x = centre[3 * t], y = centre[3 * t + 1], z = centre[3 * t + 2];
                cx0 = Math.min(cx0, x);
                cx1 = Math.max(cx1, x);
                cy0 = Math.min(cy0, y);
                cy1 = Math.max(cy1, y);
                cz0 = Math.min(cz0, z);
                cz1 = Math.max(cz1, z);
            }
            int count = end - start;
            if (count <= LEAF_SIZE) {
                nodes[2 * node] = start;
                nodes[2 * node + 1] = count;
                return;
            }
            double[] lo = {cx0, cy0, cz0};
            double[] extent = {cx1 - cx0, cy1 - cy0, cz1 - cz0};
            int axis = -1;
            int mid = -1;
            if (level < SAH_DEPTH) {
                long choice = surfaceAreaSplit(start, end, lo, extent);
                if (choice >= 0) {
                    axis = (int) (choice / BINS);
                    mid = partition(start, end, axis, (int) (choice % BINS), lo[axis], BINS / extent[axis]);
                }
            }
            if (mid < 0) {
                axis = 0;
                for (int k = 1; k < 3; k++) {
                    if (extent[k] > extent[axis]) {
                        axis = k;
                    }
                }
                mid = (start + end) >>> 1;
                if (extent[axis] > 0) {
                    select(start, end, mid, axis);
                } // else every centre is the same point: split by position as they are
            }
            int left = nodeCount;
            nodeCount += 2;
            nodes[2 * node] = left;
            nodes[2 * node + 1] = -1 - axis;
            build(left, start, mid, level + 1);
            build(left + 1, mid, end, level + 1);
        }

        /**
         * The binned surface-area split of items[start, end): axis · BINS + s for the split before bin s (the least
         * cost; the first axis and bin of equals), or −1 when every centre is one point.
         */
        private long surfaceAreaSplit(int start, int end, double[] lo, double[] extent) {
            double bestCost = Double.POSITIVE_INFINITY;
            long best = -1;
            for (int axis = 0; axis < 3; axis++) {
                if (!(extent[axis] > 0)) {
                    continue;
                }
                double scale = BINS / extent[axis];
                java.util.Arrays.fill(binCount, 0);
                for (int b = 0; b < BINS; b++) {
                    for (int k = 0; k < 3; k++) {
                        binBounds[6 * b + k] = Double.POSITIVE_INFINITY;
                        binBounds[6 * b + 3 + k] = Double.NEGATIVE_INFINITY;
                    }
                }
                for (int i = start; i < end; i++) {
                    int t = items[i];
                    int b = bin(centre[3 * t + axis], lo[axis], scale);
                    binCount[b]++;
                    for (int k = 0; k < 3; k++) {
                        binBounds[6 * b + k] = Math.min(binBounds[6 * b + k], box[6 * t + k]);
                        binBounds[6 * b + 3 + k] = Math.max(binBounds[6 * b + 3 + k], box[6 * t + 3 + k]);
                    }
                }
                clear(sweep);
                int countRight = 0;
                for (int b = BINS - 1; b > 0; b--) {
                    grow(sweep, binBounds, 6 * b);
                    countRight += binCount[b];
                    rightArea[b] = area(sweep);
                    rightCount[b] = countRight;
                }
                clear(sweep);
                int countLeft = 0;
                for (int s = 1; s < BINS; s++) {
                    grow(sweep, binBounds, 6 * (s - 1));
                    countLeft += binCount[s - 1];
                    if (countLeft == 0 || rightCount[s] == 0) {
                        continue;
                    }
                    double cost = area(sweep) * countLeft + rightArea[s] * rightCount[s];
                    if (cost < bestCost) {
                        bestCost = cost;
                        best = (long) axis * BINS + s;
                    }
                }
            }
            return best;
        }

        /** Moves the items of bins below s to the front of [start, end); returns the first of the others. */
        private int partition(int start, int end, int axis, int s, double lo, double scale) {
            int i = start, j = end - 1;
            while (i <= j) {
                if (bin(centre[3 * items[i] + axis], lo, scale) < s) {
                    i++;
                } else {
                    int t = items[i];
                    items[i] = items[j];
                    items[j] = t;
                    j--;
                }
            }
            return i;
        }

        private static int bin(double c, double lo, double scale) {
            int b = (int) ((c - lo) * scale);
            return b < 0 ? 0 : Math.min(b, BINS - 1);
        }

        /** Reorders items[start, end) so that position k holds the k-th by (centre along axis, index). */
        private void select(int start, int end, int k, int axis) {
            int lo = start, hi = end - 1;
            while (hi > lo) {
                int pivot = items[(lo + hi) >>> 1];
                int i = lo, j = hi;
                while (i <= j) {
                    while (before(items[i], pivot, axis)) {
                        i++;
                    }
                    while (before(pivot, items[j], axis)) {
                        j--;
                    }
                    if (i <= j) {
                        int t = items[i];
                        items[i] = items[j];
                        items[j] = t;
                        i++;
                        j--;
                    }
                }
                if (k <= j) {
                    hi = j;
                } else if (k >= i) {
                    lo = i;
                } else {
                    return;
                }
            }
        }

        private boolean before(int a, int b, int axis) {
            double ca = centre[3 * a + axis], cb = centre[3 * b + axis];
            return ca < cb || (ca == cb && a < b);
        }

        private static void clear(double[] s) {
            for (int k = 0; k < 3; k++) {
                s[k] = Double.POSITIVE_INFINITY;
                s[3 + k] = Double.NEGATIVE_INFINITY;
            }
        }

        private static void grow(double[] s, double[] b, int o) {
            for (int k = 0; k < 3; k++) {
                s[k] = Math.min(s[k], b[o + k]);
                s[3 + k] = Math.max(s[3 + k], b[o + 3 + k]);
            }
        }

        /** Surface area of a box (0 for an empty one). */
        private static double area(double[] s) {
            double dx = s[3] - s[0], dy = s[4] - s[1], dz = s[5] - s[2];
            return dx >= 0 ? 2 * (dx * dy + dy * dz + dz * dx) : 0;
        }
    }
}
