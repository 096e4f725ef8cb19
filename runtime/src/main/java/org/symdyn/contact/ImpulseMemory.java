package org.symdyn.contact;

import java.util.Arrays;
import org.symdyn.geometry.ConvexShape;
import org.symdyn.geometry.Placement;

/**
 * The impulses of the last step's shape contacts, so that the next step's solve starts each contact from the impulse
 * of the same point: kept per pair of shapes, each with its point (B's witness) and its impulse vector
 * λ_n n + λ_1 t1 + λ_2 t2 in shape B's frame. A contact of the next step takes, among the kept points of its pair
 * that no other contact has taken, the nearest one within 0.1 of B's bounding radius (in B's frame, so that a pair
 * carried along together keeps its points), and starts from that impulse re-expressed in its own frame
 * [n; t1; t2] (λ_n ≥ 0 kept, the tangential part projected on the new tangents); a contact with none starts at zero.
 *
 * <p>Why by position, not by the point's index in its manifold: detection lists a pair's points in no lasting order
 * (a box-box manifold's clipping and reduction may list the same four corners in another order from one step to the
 * next, a mesh's triangles come in the tree's order), and the tangent basis of a normal near a tie of its
 * components ({@link org.symdyn.spatial.Directions#tangentBasis}) may turn by 90°. Keyed by index, a resting pile of
 * 100 boxes started each step from impulses on the wrong corners: its warm start violated the contact law by
 * 0.3-1.5 m/s where the step's velocities are 0.01 m/s, and projected Gauss-Seidel never reached 1e-6 m/s in
 * 200 sweeps (see {@code PileStepBenchmark}).
 *
 * <p>Two generations, fixed capacity, no allocation: {@link #recall} reads the one the last step kept,
 * {@link #keep} writes the other between {@link #beginKeeping} and {@link #endKeeping}, which swaps them.
 */
final class ImpulseMemory {
    private static final long EMPTY = Long.MIN_VALUE;
    private static final double RADIUS = 0.1;

    /** Per shape: the squared matching radius, (0.1 bounding radius)². */
    private final double[] radius2;
    private final int shapes;
    private final Generation[] generations = new Generation[2];
    private int current;
    private final double[] x = new double[3];
    private final double[] f = new double[3];
    /** The pair and shape B of the contact {@link #pointInB} last read. */
    private long pair;
    private int shapeB;

    /**
     * @param capacity the most shape contacts per step
     * @param scene    the shapes and their placements (read when keeping and recalling)
     * @param grounds  the ground half-spaces, which number after the shapes as a contact's shape A
     */
    ImpulseMemory(int capacity, ScenePlacements scene, int grounds) {
        shapes = scene.count() + grounds;
        radius2 = new double[scene.count()];
        for (int i = 0; i < radius2.length; i++) {
            double r = scene.shape(i) instanceof ConvexShape c ? RADIUS * c.boundingRadius() : 0;
            radius2[i] = r * r;
        }
        generations[0] = new Generation(capacity);
        generations[1] = new Generation(capacity);
    }

    /** Forgets both generations. */
    void clear() {
        generations[0].clear();
        generations[1].clear();
    }

    /** Starts the generation that {@link #keep} fills. */
    void beginKeeping() {
        generations[1 - current].clear();
    }

    /** Makes the kept generation the one {@link #recall} reads. */
    void endKeeping() {
        current = 1 - current;
    }

    /**
     * Keeps shape contact k's impulse lambda[r..r+3) ([n; t1; t2] in its frame), with its point, both in shape B's
     * frame at the placements of this step.
     */
    void keep(ContactKinematics c, int k, double[] lambda, int r) {
        Placement place = pointInB(c, k);
        for (int i = 0; i < 3; i++) {
            f[i] = lambda[r] * c.frame(k, 0, i) + lambda[r + 1] * c.frame(k, 1, i) + lambda[r + 2] * c.frame(k, 2, i);
        }
        place.rotateToLocal(f, f);
        generations[1 - current].put(pair, x, lambda[r], f);
    }

    /** Writes shape contact k's warm start to lambda[r..r+3): its pair's nearest kept point's impulse, or zeros. */
    void recall(ContactKinematics c, int k, double[] lambda, int r) {
        Placement place = pointInB(c, k);
        Generation g = generations[current];
        int e = g.take(pair, x, radius2[shapeB]);
        if (e < 0) {
            lambda[r] = 0;
            lambda[r + 1] = 0;
            lambda[r + 2] = 0;
            return;
        }
        for (int i = 0; i < 3; i++) {
            f[i] = g.impulse[3 * e + i];
        }
        place.rotateToWorld(f, f);
        lambda[r] = g.normal[e];
        for (int t = 1; t <= 2; t++) {
            lambda[r + t] = f[0] * c.frame(k, t, 0) + f[1] * c.frame(k, t, 1) + f[2] * c.frame(k, t, 2);
        }
    }

    /**
     * Sets {@link #x} to shape contact k's point (B's witness) in shape B's frame, {@link #pair} and
     * {@link #shapeB}; returns B's placement.
     */
    private Placement pointInB(ContactKinematics c, int k) {
        ShapeContactDetection d = c.shapeContacts();
        int s = c.shapeContactIndex(k);
        shapeB = d.shapeB(s);
        pair = (long) d.shapeA(s) * shapes + shapeB;
        Placement place = d.placements().placement(shapeB);
        for (int i = 0; i < 3; i++) {
            x[i] = c.worldPoint(k, i);
        }
        place.toLocal(x, x);
        return place;
    }

    /** One step's kept points: entries chained per pair from an open-addressing table of pair keys. */
    private static final class Generation {
        final long[] keys;
        final int[] head;
        final int mask;
        final int[] next;
        final double[] point;
        final double[] normal;
        final double[] impulse;
        final boolean[] taken;
        int count;

        Generation(int capacity) {
            int size = Integer.highestOneBit(Math.max(2, 2 * capacity - 1)) << 1;
            keys = new long[size];
            head = new int[size];
            mask = size - 1;
            int n = Math.max(1, capacity);
            next = new int[n];
            point = new double[3 * n];
            normal = new double[n];
            impulse = new double[3 * n];
            taken = new boolean[n];
            Arrays.fill(keys, EMPTY);
        }

        void clear() {
            if (count > 0) {
                Arrays.fill(keys, EMPTY);
                count = 0;
            }
        }

        void put(long pair, double[] x, double normalImpulse, double[] f) {
            if (count == next.length) {
                return; // more contacts than the stepper's bound cannot reach here; the rest start at zero
            }
            int e = count++;
            int i = slot(pair);
            next[e] = keys[i] == pair ? head[i] : -1;
            keys[i] = pair;
            head[i] = e;
            for (int j = 0; j < 3; j++) {
                point[3 * e + j] = x[j];
                impulse[3 * e + j] = f[j];
            }
            normal[e] = normalImpulse;
            taken[e] = false;
        }

        /** The untaken entry of pair nearest to x within √radius2, now taken; −1 if none. */
        int take(long pair, double[] x, double radius2) {
            int i = slot(pair);
            if (keys[i] != pair) {
                return -1;
            }
            int best = -1;
            double bestD = radius2;
            for (int e = head[i]; e >= 0; e = next[e]) {
                if (taken[e]) {
                    continue;
                }
                double dx = point[3 * e] - x[0], dy = point[3 * e + 1] - x[1], dz = point[3 * e + 2] - x[2];
                double d = dx * dx + dy * dy + dz * dz;
                if (d <= bestD) {
                    bestD = d;
                    best = e;
                }
            }
            if (best >= 0) {
                taken[best] = true;
            }
            return best;
        }

        private int slot(long key) {
            long h = key * 0x9E3779B97F4A7C15L;
            int i = (int) (h >>> 40) & mask;
            while (keys[i] != EMPTY && keys[i] != key) {
                i = (i + 1) & mask;
            }
            return i;
        }
    }
}
