package org.symdyn.contact;

import java.util.Arrays;

/**
 * The impulses of the last step's shape contacts, keyed by contact identity (the two shapes and the point's slot in
 * their manifold), so that the next step's solve starts from them: an open-addressing hash table of fixed capacity,
 * cleared and refilled each step without allocation. A key not found warm-starts at zero.
 */
final class ImpulseMemory {
    private static final long EMPTY = Long.MIN_VALUE;
    private final long[] keys;
    private final double[] impulses;
    private final int mask;

    /** @param capacity the most entries (the most shape contacts per step) */
    ImpulseMemory(int capacity) {
        int size = Integer.highestOneBit(Math.max(2, 2 * capacity - 1)) << 1;
        keys = new long[size];
        impulses = new double[3 * size];
        mask = size - 1;
        Arrays.fill(keys, EMPTY);
    }

    /** The identity of a contact point: shapes a and b of n shapes and grounds, slot s of their pair. */
    static long key(int a, int b, int n, int slot) {
        return ((long) a * n + b) * 1024 + Math.min(slot, 1023);
    }

    void clear() {
        Arrays.fill(keys, EMPTY);
    }

    void put(long key, double n, double t1, double t2) {
        int i = slot(key);
        keys[i] = key;
        impulses[3 * i] = n;
        impulses[3 * i + 1] = t1;
        impulses[3 * i + 2] = t2;
    }

    /** Writes the impulse stored for key to out[o..o+3), or zeros. */
    void get(long key, double[] out, int o) {
        int i = slot(key);
        if (keys[i] == key) {
            out[o] = impulses[3 * i];
            out[o + 1] = impulses[3 * i + 1];
            out[o + 2] = impulses[3 * i + 2];
        } else {
            out[o] = 0;
            out[o + 1] = 0;
            out[o + 2] = 0;
        }
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
