package org.symdyn.geometry;

/**
 * Broadphase by sweep and prune: the pairs of shapes whose axis-aligned bounding boxes overlap. Boxes are sorted by
 * their lower x bound (insertion sort, linear for the nearly sorted order of consecutive steps), and each box is
 * tested in y and z only against the boxes whose lower x lies within its x extent, so the cost is close to linear in
 * the number of shapes when few overlap.
 *
 * <p>Set up once with the most shapes and the most pairs (bounds the caller chooses); after that nothing allocates.
 * Each step: {@link #setBounds} (or {@link #update} from a shape and its placement) for every shape, then
 * {@link #findPairs()}. A pair (i, j) has i &lt; j; two shapes of the same non-negative group ({@link #setGroup}, a
 * body's shapes, say) are never paired. Boxes that touch (equal bounds) overlap. More overlapping pairs than the
 * bound: the first {@link #pairCapacity()} found are kept, {@link #overflowed()} is true and
 * {@link #overlappingPairs()} tells how many there were, so the caller can report it and enlarge the bound.
 */
public final class SweepAndPrune {
    private final double[] lower;
    private final double[] upper;
    private final int[] group;
    private final int[] order;
    private final int[] pairs;
    private final Bounds bounds = new Bounds();
    private final double[] box = new double[6];
    private int shapes;
    private int pairCount;
    private int overlapping;

    /**
     * @param maxShapes the most shapes (≥ 0)
     * @param maxPairs  the most pairs reported per step (≥ 0)
     */
    public SweepAndPrune(int maxShapes, int maxPairs) {
        if (maxShapes < 0 || maxPairs < 0) {
            throw new IllegalArgumentException("shape and pair bounds must be >= 0, got " + maxShapes + " and "
                    + maxPairs);
        }
        lower = new double[3 * maxShapes];
        upper = new double[3 * maxShapes];
        group = new int[maxShapes];
        order = new int[maxShapes];
        pairs = new int[2 * maxPairs];
        java.util.Arrays.fill(group, -1);
    }

    /** Sets the number of shapes in use, n ≤ the bound given at construction; shapes are 0..n-1. */
    public void setShapeCount(int n) {
        if (n < 0 || n > group.length) {
            throw new IllegalArgumentException("shape count must be in [0, " + group.length + "], got " + n);
        }
        for (int i = shapes; i < n; i++) {
            order[i] = i;
        }
        if (n < shapes) {
            int k = 0;
            for (int i = 0; i < shapes; i++) {
                if (order[i] < n) {
                    order[k++] = order[i];
                }
            }
        }
        shapes = n;
    }

    /** Refuses a shape index outside the bound given at construction, naming both. */
    private void checkShape(int i) {
        if (i < 0 || i >= group.length) {
            throw new IndexOutOfBoundsException("shape " + i + " is outside [0, " + group.length + "), the bound"
                    + " given at construction");
        }
    }

    /** Shape i's group: shapes of one non-negative group are never paired; −1 (the default) pairs with all. */
    public void setGroup(int i, int g) {
        checkShape(i);
        group[i] = g;
    }

    /** Shape i's bounds (world, metres); a NaN bound is refused. */
    public void setBounds(int i, double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        checkShape(i);
        if (!(minX <= maxX && minY <= maxY && minZ <= maxZ)) {
            throw new IllegalArgumentException("shape " + i + " has bounds with NaN or min > max");
        }
        lower[3 * i] = minX;
        lower[3 * i + 1] = minY;
        lower[3 * i + 2] = minZ;
        upper[3 * i] = maxX;
        upper[3 * i + 1] = maxY;
        upper[3 * i + 2] = maxZ;
    }

    /** Shape i's bounds from the shape at its placement ({@link Bounds}), widened by {@code margin}. */
    public void update(int i, Shape shape, Placement place, double margin) {
        bounds.of(shape, place, margin, box);
        setBounds(i, box[0], box[1], box[2], box[3], box[4], box[5]);
    }

    /** Finds the overlapping pairs; returns how many are kept (at most {@link #pairCapacity()}). */
    public int findPairs() {
        for (int a = 1; a < shapes; a++) {
            int i = order[a];
            double key = lower[3 * i];
            int b = a - 1;
            while (b >= 0 && lower[3 * order[b]] > key) {
                order[b + 1] = order[b];
                b--;
            }
            order[b + 1] = i;
        }
        pairCount = 0;
        overlapping = 0;
        int capacity = pairs.length / 2;
        for (int a = 0; a < shapes; a++) {
            int i = order[a];
            double end = upper[3 * i];
            for (int b = a + 1; b < shapes; b++) {
                int j = order[b];
                if (lower[3 * j] > end) {
                    break;
                }
                if (group[i] >= 0 && group[i] == group[j]) {
                    continue;
                }
                if (lower[3 * j + 1] > upper[3 * i + 1] || lower[3 * i + 1] > upper[3 * j + 1]
                        || lower[3 * j + 2] > upper[3 * i + 2] || lower[3 * i + 2] > upper[3 * j + 2]) {
                    continue;
                }
                overlapping++;
                if (pairCount < capacity) {
                    pairs[2 * pairCount] = Math.min(i, j);
                    pairs[2 * pairCount + 1] = Math.max(i, j);
                    pairCount++;
                }
            }
        }
        return pairCount;
    }

    /** The number of pairs kept by the last {@link #findPairs()}. */
    public int pairCount() {
        return pairCount;
    }

    /** The first shape (the smaller index) of pair k &lt; {@link #pairCount()}. */
    public int first(int k) {
        return pairs[2 * k];
    }

    /** The second shape (the larger index) of pair k. */
    public int second(int k) {
        return pairs[2 * k + 1];
    }

    /** The most pairs kept per step. */
    public int pairCapacity() {
        return pairs.length / 2;
    }

    /** All overlapping pairs found by the last {@link #findPairs()}, kept or not. */
    public int overlappingPairs() {
        return overlapping;
    }

    /** True if the last {@link #findPairs()} found more pairs than it could keep. */
    public boolean overflowed() {
        return overlapping > pairCount;
    }
}
