package org.symdyn.rollout;

import java.util.Arrays;
import java.util.Objects;

/**
 * Where a rollout ended: time (s), configuration (nq) and velocity (nv).
 */
public record FinalState(double time, double[] q, double[] v) {
    public FinalState {
        q = Objects.requireNonNull(q, "q").clone();
        v = Objects.requireNonNull(v, "v").clone();
    }

    @Override
    public double[] q() {
        return q.clone();
    }

    @Override
    public double[] v() {
        return v.clone();
    }

    /** True when both states have the same bits in every number (time included). */
    public boolean sameBits(FinalState o) {
        if (Double.doubleToRawLongBits(time) != Double.doubleToRawLongBits(o.time) || q.length != o.q.length
                || v.length != o.v.length) {
            return false;
        }
        for (int i = 0; i < q.length; i++) {
            if (Double.doubleToRawLongBits(q[i]) != Double.doubleToRawLongBits(o.q[i])) {
                return false;
            }
        }
        for (int i = 0; i < v.length; i++) {
            if (Double.doubleToRawLongBits(v[i]) != Double.doubleToRawLongBits(o.v[i])) {
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FinalState f && Double.compare(time, f.time) == 0 && Arrays.equals(q, f.q)
                && Arrays.equals(v, f.v);
    }

    @Override
    public int hashCode() {
        return Objects.hash(time, Arrays.hashCode(q), Arrays.hashCode(v));
    }

    @Override
    public String toString() {
        return "FinalState{t=" + time + ", q=" + Arrays.toString(q) + ", v=" + Arrays.toString(v) + "}";
    }
}
