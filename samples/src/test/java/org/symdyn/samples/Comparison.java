package org.symdyn.samples;

import java.util.Arrays;
import java.util.Random;
import org.ejml.data.DMatrixRMaj;
import org.opentest4j.AssertionFailedError;
import org.symdyn.constraints.GenericConstraints;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.model.Model;

/**
 * One quantity of a generated class against the generic runtime (GenericDynamics, GenericConstraints) on random
 * states.
 *
 * <p><b>Tolerance.</b> Every entry must agree within 1e-10 times the largest magnitude of the generic result of that
 * quantity at that state, or 1 if that is smaller (relative to the quantity's scale, absolute near zero): both
 * sides evaluate the same equations in a different order, so they differ by rounding amplified by the recursions;
 * a wrong term in generated code is off by far more. A frame pose is two quantities (rotation, position).
 *
 * <p><b>States</b> ({@link SampleCases#randomConfiguration}): joint positions within URDF limits where
 * lower &lt; upper, else ±π (prismatic ±0.5 m), unit quaternions, floating-base positions in ±1 m; velocities in
 * [-2, 2]; accelerations for inverse dynamics in [-5, 5]; torques for forward dynamics in [-10, 10].
 *
 * <p>Outputs given to the generated class are filled with NaN before every call, so that an entry it fails to write
 * (the contract says outputs are overwritten) fails the comparison, and the same generated instance serves every
 * state, so that stale scratch values would show.
 */
final class Comparison {
    static final double TOLERANCE = 1e-10;
    static final int STATES = 200;

    /** The quantities compared. */
    enum Quantity {
        MASS_MATRIX("H"), BIAS_FORCES("C"), GRAVITY_FORCES("g"), INVERSE_DYNAMICS("inverse dynamics"),
        FORWARD_DYNAMICS("forward dynamics"), FRAME_POSES("frame poses"), POSITION_ERROR("phi"),
        VELOCITY_ERROR("phidot"), CONSTRAINT_JACOBIAN("G"), GAMMA("gamma");

        final String label;

        Quantity(String label) {
            this.label = label;
        }

        boolean isConstraint() {
            return ordinal() >= POSITION_ERROR.ordinal();
        }
    }

    private final String what;
    private double worst;
    private double[] q;
    private int state;

    private Comparison(String what) {
        this.what = what;
    }

    /**
     * Compares {@code quantity} of {@code generated} (an instance of a generated class) with the generic runtime on
     * {@code model} over {@code states} random states drawn from {@code rnd}.
     *
     * @return the worst difference found, relative to the scale (see the class comment)
     * @throws AssertionFailedError at the first entry over the tolerance, with the state and the entry
     */
    static double check(Quantity quantity, Model model, Object generated, Random rnd, int states) {
        SampleCases.Generated gen = SampleCases.Generated.of(generated);
        Comparison c = new Comparison(model.name() + " " + quantity.label);
        GenericDynamics generic = new GenericDynamics(model);
        GenericConstraints constraints = quantity.isConstraint() ? new GenericConstraints(model) : null;
        int nv = model.nv();
        int rows = model.constraintRowCount();
        DMatrixRMaj m1 = new DMatrixRMaj(quantity == Quantity.CONSTRAINT_JACOBIAN ? rows : nv, nv);
        DMatrixRMaj m2 = new DMatrixRMaj(m1.numRows, m1.numCols);
        double[] x1 = new double[quantity.isConstraint() ? rows : nv];
        double[] x2 = new double[x1.length];
        double[] r1 = new double[9];
        double[] r2 = new double[9];
        double[] p1 = new double[3];
        double[] p2 = new double[3];
        for (int n = 0; n < states; n++) {
            double[] q = SampleCases.randomConfiguration(model, rnd);
            double[] v = SampleCases.uniform(rnd, nv, 2);
            c.at(n, q);
            Arrays.fill(x2, Double.NaN);
            Arrays.fill(m2.data, Double.NaN);
            switch (quantity) {
                case MASS_MATRIX -> {
                    generic.massMatrix(q, m1);
                    gen.dynamics().massMatrix(q, m2);
                    c.compare(m1.data, m2.data, "");
                }
                case BIAS_FORCES -> {
                    generic.biasForces(q, v, x1);
                    gen.dynamics().biasForces(q, v, x2);
                    c.compare(x1, x2, "");
                }
                case GRAVITY_FORCES -> {
                    generic.gravityForces(q, x1);
                    gen.dynamics().gravityForces(q, x2);
                    c.compare(x1, x2, "");
                }
                case INVERSE_DYNAMICS -> {
                    double[] vdot = SampleCases.uniform(rnd, nv, 5);
                    generic.inverseDynamics(q, v, vdot, x1);
                    gen.dynamics().inverseDynamics(q, v, vdot, x2);
                    c.compare(x1, x2, "");
                }
                case FORWARD_DYNAMICS -> {
                    double[] tau = SampleCases.uniform(rnd, nv, 10);
                    generic.forwardDynamics(q, v, tau, x1);
                    gen.dynamics().forwardDynamics(q, v, tau, x2);
                    c.compare(x1, x2, "");
                }
                case FRAME_POSES -> {
                    for (int f = 0; f < model.frames().size(); f++) {
                        Arrays.fill(r2, Double.NaN);
                        Arrays.fill(p2, Double.NaN);
                        generic.framePose(q, f, r1, p1);
                        gen.frames().framePose(q, f, r2, p2);
                        String frame = model.frames().get(f).name();
                        c.compare(r1, r2, " rotation of frame " + frame);
                        c.compare(p1, p2, " position of frame " + frame);
                    }
                }
                case POSITION_ERROR -> {
                    constraints.positionError(q, x1);
                    gen.constraints().positionError(q, x2);
                    c.compare(x1, x2, "");
                }
                case VELOCITY_ERROR -> {
                    constraints.velocityError(q, v, x1);
                    gen.constraints().velocityError(q, v, x2);
                    c.compare(x1, x2, "");
                }
                case CONSTRAINT_JACOBIAN -> {
                    constraints.constraintJacobian(q, m1);
                    gen.constraints().constraintJacobian(q, m2);
                    c.compare(m1.data, m2.data, "");
                }
                case GAMMA -> {
                    constraints.gamma(q, v, x1);
                    gen.constraints().gamma(q, v, x2);
                    c.compare(x1, x2, "");
                }
                default -> throw new IllegalStateException(quantity.name());
            }
        }
        return c.worst;
    }

    private void at(int n, double[] config) {
        state = n;
        q = config;
    }

    private void compare(double[] expected, double[] actual, String detail) {
        if (expected.length != actual.length) {
            throw new AssertionFailedError(what + detail + ": " + actual.length + " entries, expected "
                    + expected.length);
        }
        double scale = 1;
        for (double e : expected) {
            scale = Math.max(scale, Math.abs(e));
        }
        for (int i = 0; i < expected.length; i++) {
            double diff = Math.abs(expected[i] - actual[i]);
            if (!(diff <= TOLERANCE * scale)) { // also catches NaN: an entry left unwritten or undefined
                throw new AssertionFailedError(String.format(java.util.Locale.ROOT,
                        "%s%s, entry %d at random state %d: generated %s, generic %s (difference %.3e, allowed "
                                + "%.1e x scale %.3e)%n  q = %s", what, detail, i, state, actual[i], expected[i],
                        diff, TOLERANCE, scale, Arrays.toString(q)), expected, actual);
            }
            worst = Math.max(worst, diff / scale);
        }
    }
}
