package org.symdyn.contact;

/**
 * The spanning directions of a linearised (polygonal) Coulomb cone in a contact's tangent plane, shared by the
 * acceleration-level problem ({@link AccelerationProblemData}) and the velocity-level step
 * ({@link LinearizedConeStep}):
 * <pre>
 *   d_k = cos(π k / r) t1 + sin(π k / r) t2,   k = 0 … r − 1,   the cone's 2r edges ±d_k
 * </pre>
 * with t1, t2 the contact frame's tangents ({@link ContactKinematics}). d_0 is t1 exactly and, for r = 2, d_1 is t2
 * exactly (cos(π/2) would leave 6e-17 of t1 in it), so that the default cone's edges are the frame's own axes.
 * Immutable.
 */
final class SpanningDirections {
    /** cos(π k / r): the t1 component of d_k. */
    final double[] cos;
    /** sin(π k / r): the t2 component of d_k. */
    final double[] sin;

    /** The r ≥ 1 directions. */
    SpanningDirections(int r) {
        cos = new double[r];
        sin = new double[r];
        for (int k = 0; k < r; k++) {
            cos[k] = StrictMath.cos(Math.PI * k / r);
            sin[k] = StrictMath.sin(Math.PI * k / r);
        }
        cos[0] = 1;
        sin[0] = 0;
        if (r == 2) {
            cos[1] = 0;
            sin[1] = 1;
        }
    }
}
