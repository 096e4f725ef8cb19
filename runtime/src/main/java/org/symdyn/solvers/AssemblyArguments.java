package org.symdyn.solvers;

import org.symdyn.contract.Arguments;
import org.symdyn.contract.ModelInfo;

/**
 * The argument checks of {@link Assembly}'s public methods: lengths, finiteness, the tolerance and iteration limit,
 * and the quaternions of a guess (a zero quaternion has no rotation to start from: renormalising it gives NaN,
 * and a position error computed from it can look like success). Lengths by the contract's rule
 * ({@link Arguments#checkLength}); unlike the contract's functions, assembly works in place: qOut may be q0 and
 * vOut may be v0 (every input is read before the output is written).
 */
final class AssemblyArguments {
    private AssemblyArguments() {
    }

    static void checkQ(ModelInfo model, int nq, int nv, double[] q0, double[] weights, double tolerance,
            int maxIterations, double[] qOut) {
        length("q0", q0, nq);
        length("weights", weights, nv);
        length("qOut", qOut, nq);
        if (!(tolerance > 0) || !Double.isFinite(tolerance)) {
            throw new IllegalArgumentException("tolerance must be a finite positive number, got " + tolerance);
        }
        if (maxIterations < 0) {
            throw new IllegalArgumentException("maxIterations must not be negative, got " + maxIterations);
        }
        finite("q0", q0);
        quaternions(model, q0);
    }

    static void checkV(ModelInfo model, int nq, int nv, double[] q, double[] v0, double[] weights, double[] vOut) {
        length("q", q, nq);
        length("v0", v0, nv);
        length("weights", weights, nv);
        length("vOut", vOut, nv);
        finite("q", q);
        finite("v0", v0);
        quaternions(model, q);
    }

    private static void length(String name, double[] array, int n) {
        if (array == null) {
            throw new IllegalArgumentException(name + " is null");
        }
        Arguments.checkLength(array, n, name);
    }

    private static void finite(String name, double[] array) {
        for (int i = 0; i < array.length; i++) {
            if (!Double.isFinite(array[i])) {
                throw new IllegalArgumentException(name + "[" + i + "] is " + array[i]);
            }
        }
    }

    /** Every floating or ball joint's quaternion in q is non-zero. */
    private static void quaternions(ModelInfo model, double[] q) {
        for (int b = 0; b < model.bodyCount(); b++) {
            int at = model.quaternionIndex(b);
            if (at < 0) {
                continue;
            }
            double n = Math.abs(q[at]) + Math.abs(q[at + 1]) + Math.abs(q[at + 2]) + Math.abs(q[at + 3]);
            if (n == 0) {
                throw new IllegalArgumentException("the quaternion of joint '" + model.jointNames().get(b) + "' (q[" + at
                        + ".." + (at + 3) + "]) is zero");
            }
        }
    }
}
