package org.symdyn.samples;

import java.util.Arrays;
import java.util.Random;
import org.ejml.data.DMatrixRMaj;
import org.opentest4j.AssertionFailedError;
import org.symdyn.constraints.GenericModel;
import org.symdyn.contract.ModelFunctions;
import org.symdyn.model.Model;

/**
 * One quantity of a generated class against the generic runtime ({@link GenericModel}: GenericDynamics,
 * GenericConstraints, the fused evaluations' separate-call defaults) on random states. Kinematics quantities are
 * compared for every body, with a new random point per body and state for the point quantities.
 *
 * <p><b>Tolerance.</b> Every entry must agree within 1e-10 times the largest magnitude of the generic result of that
 * quantity at that state, or 1 if that is smaller (relative to the quantity's scale, absolute near zero): both
 * sides evaluate the same equations in a different order, so they differ by rounding amplified by the recursions;
 * a wrong term in generated code is off by far more. A frame pose is two quantities (rotation, position).
 *
 * <p><b>States</b> ({@link SampleCases#randomConfiguration}): joint positions within URDF limits where
 * lower &lt; upper, else ±π (prismatic ±0.5 m), unit quaternions, floating-base positions in ±1 m; velocities in
 * [-2, 2]; accelerations for inverse dynamics and kinematics in [-5, 5]; torques for forward dynamics in [-10, 10];
 * points in [-0.5, 0.5]³ m.
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
        FORWARD_DYNAMICS("forward dynamics"), FRAME_POSES("frame poses"), BODY_POSES("body poses"),
        BODY_VELOCITIES("body velocities"), BODY_ACCELERATIONS("body accelerations"),
        POINT_POSITIONS("point positions"), POINT_VELOCITIES("point velocities"),
        POINT_ACCELERATIONS("point accelerations"), POINT_BIAS_ACCELERATIONS("point bias accelerations"),
        POINT_JACOBIANS("point Jacobians"), BODY_JACOBIANS("body Jacobians"),
        CONSTRAINED_SYSTEM("H, C, G, gamma"), CONSTRAINED_SYSTEM_WITH_ERRORS("H, C, G, gamma, phi, phidot"),
        IMPULSE_SYSTEM("H, G"),
        POSITION_ERROR("phi", true), VELOCITY_ERROR("phidot", true), CONSTRAINT_JACOBIAN("G", true),
        GAMMA("gamma", true);

        final String label;
        private final boolean constraint;

        Quantity(String label) {
            this(label, false);
        }

        Quantity(String label, boolean constraint) {
            this.label = label;
            this.constraint = constraint;
        }

        /** A quantity of the constraints alone (nothing to compare on a model without constraints). */
        boolean isConstraint() {
            return constraint;
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
        ModelFunctions gen = SampleCases.Generated.of(generated).functions();
        Comparison c = new Comparison(model.name() + " " + quantity.label);
        GenericModel generic = new GenericModel(model);
        int nv = model.nv();
        int rows = model.constraintRowCount();
        DMatrixRMaj h1 = new DMatrixRMaj(nv, nv);
        DMatrixRMaj h2 = new DMatrixRMaj(nv, nv);
        DMatrixRMaj g1 = new DMatrixRMaj(rows, nv);
        DMatrixRMaj g2 = new DMatrixRMaj(rows, nv);
        DMatrixRMaj j1 = new DMatrixRMaj(3, nv);
        DMatrixRMaj j2 = new DMatrixRMaj(3, nv);
        DMatrixRMaj b1 = new DMatrixRMaj(6, nv);
        DMatrixRMaj b2 = new DMatrixRMaj(6, nv);
        double[] x1 = new double[nv];
        double[] x2 = new double[nv];
        double[] y1 = new double[rows];
        double[] y2 = new double[rows];
        double[] z1 = new double[rows];
        double[] z2 = new double[rows];
        double[] e1 = new double[rows];
        double[] e2 = new double[rows];
        double[] d1 = new double[rows];
        double[] d2 = new double[rows];
        double[] r1 = new double[9];
        double[] r2 = new double[9];
        double[] p1 = new double[3];
        double[] p2 = new double[3];
        double[] s1 = new double[6];
        double[] s2 = new double[6];
        for (int n = 0; n < states; n++) {
            double[] q = SampleCases.randomConfiguration(model, rnd);
            double[] v = SampleCases.uniform(rnd, nv, 2);
            c.at(n, q);
            switch (quantity) {
                case MASS_MATRIX -> {
                    generic.massMatrix(q, h1);
                    gen.massMatrix(q, nan(h2));
                    c.compare(h1.data, h2.data, "");
                }
                case BIAS_FORCES -> {
                    generic.biasForces(q, v, x1);
                    gen.biasForces(q, v, nan(x2));
                    c.compare(x1, x2, "");
                }
                case GRAVITY_FORCES -> {
                    generic.gravityForces(q, x1);
                    gen.gravityForces(q, nan(x2));
                    c.compare(x1, x2, "");
                }
                case INVERSE_DYNAMICS -> {
                    double[] vdot = SampleCases.uniform(rnd, nv, 5);
                    generic.inverseDynamics(q, v, vdot, x1);
                    gen.inverseDynamics(q, v, vdot, nan(x2));
                    c.compare(x1, x2, "");
                }
                case FORWARD_DYNAMICS -> {
                    double[] tau = SampleCases.uniform(rnd, nv, 10);
                    generic.forwardDynamics(q, v, tau, x1);
                    gen.forwardDynamics(q, v, tau, nan(x2));
                    c.compare(x1, x2, "");
                }
                case FRAME_POSES -> {
                    for (int f = 0; f < model.frames().size(); f++) {
                        generic.framePose(q, f, r1, p1);
                        gen.framePose(q, f, nan(r2), nan(p2));
                        String frame = model.frames().get(f).name();
                        c.compare(r1, r2, " rotation of frame " + frame);
                        c.compare(p1, p2, " position of frame " + frame);
                    }
                }
                case POSITION_ERROR -> {
                    generic.positionError(q, y1);
                    gen.positionError(q, nan(y2));
                    c.compare(y1, y2, "");
                }
                case VELOCITY_ERROR -> {
                    generic.velocityError(q, v, y1);
                    gen.velocityError(q, v, nan(y2));
                    c.compare(y1, y2, "");
                }
                case CONSTRAINT_JACOBIAN -> {
                    generic.constraintJacobian(q, g1);
                    gen.constraintJacobian(q, nan(g2));
                    c.compare(g1.data, g2.data, "");
                }
                case GAMMA -> {
                    generic.gamma(q, v, y1);
                    gen.gamma(q, v, nan(y2));
                    c.compare(y1, y2, "");
                }
                case CONSTRAINED_SYSTEM -> {
                    generic.constrainedSystem(q, v, h1, x1, g1, y1);
                    gen.constrainedSystem(q, v, nan(h2), nan(x2), nan(g2), nan(y2));
                    c.compare(h1.data, h2.data, " H");
                    c.compare(x1, x2, " C");
                    c.compare(g1.data, g2.data, " G");
                    c.compare(y1, y2, " gamma");
                }
                case CONSTRAINED_SYSTEM_WITH_ERRORS -> {
                    generic.constrainedSystem(q, v, h1, x1, g1, y1, e1, d1);
                    gen.constrainedSystem(q, v, nan(h2), nan(x2), nan(g2), nan(y2), nan(e2), nan(d2));
                    c.compare(h1.data, h2.data, " H");
                    c.compare(x1, x2, " C");
                    c.compare(g1.data, g2.data, " G");
                    c.compare(y1, y2, " gamma");
                    c.compare(e1, e2, " phi");
                    c.compare(d1, d2, " phidot");
                }
                case IMPULSE_SYSTEM -> {
                    generic.impulseSystem(q, h1, g1);
                    gen.impulseSystem(q, nan(h2), nan(g2));
                    c.compare(h1.data, h2.data, " H");
                    c.compare(g1.data, g2.data, " G");
                }
                default -> {
                    double[] vdot = SampleCases.uniform(rnd, nv, 5);
                    for (int b = 0; b < model.bodyCount(); b++) {
                        String body = " of body " + model.body(b).name();
                        // A new point per body and state, in [-0.5, 0.5]³ m (body coordinates).
                        double[] point = SampleCases.uniform(rnd, 3, 0.5);
                        switch (quantity) {
                            case BODY_POSES -> {
                                generic.bodyPose(q, b, r1, p1);
                                gen.bodyPose(q, b, nan(r2), nan(p2));
                                c.compare(r1, r2, " rotation" + body);
                                c.compare(p1, p2, " position" + body);
                            }
                            case BODY_VELOCITIES -> {
                                generic.bodyVelocity(q, v, b, s1);
                                gen.bodyVelocity(q, v, b, nan(s2));
                                c.compare(s1, s2, body);
                            }
                            case BODY_ACCELERATIONS -> {
                                generic.bodyAcceleration(q, v, vdot, b, s1);
                                gen.bodyAcceleration(q, v, vdot, b, nan(s2));
                                c.compare(s1, s2, body);
                            }
                            case POINT_POSITIONS -> {
                                generic.pointPosition(q, b, point, p1);
                                gen.pointPosition(q, b, point, nan(p2));
                                c.compare(p1, p2, body);
                            }
                            case POINT_VELOCITIES -> {
                                generic.pointVelocity(q, v, b, point, p1);
                                gen.pointVelocity(q, v, b, point, nan(p2));
                                c.compare(p1, p2, body);
                            }
                            case POINT_ACCELERATIONS -> {
                                generic.pointAcceleration(q, v, vdot, b, point, p1);
                                gen.pointAcceleration(q, v, vdot, b, point, nan(p2));
                                c.compare(p1, p2, body);
                            }
                            case POINT_BIAS_ACCELERATIONS -> {
                                generic.pointBiasAcceleration(q, v, b, point, p1);
                                gen.pointBiasAcceleration(q, v, b, point, nan(p2));
                                c.compare(p1, p2, body);
                            }
                            case POINT_JACOBIANS -> {
                                generic.pointJacobian(q, b, point, j1);
                                gen.pointJacobian(q, b, point, nan(j2));
                                c.compare(j1.data, j2.data, body);
                            }
                            case BODY_JACOBIANS -> {
                                generic.bodyJacobian(q, b, b1);
                                gen.bodyJacobian(q, b, nan(b2));
                                c.compare(b1.data, b2.data, body);
                            }
                            default -> throw new IllegalStateException(quantity.name());
                        }
                    }
                }
            }
        }
        return c.worst;
    }

    private static double[] nan(double[] x) {
        Arrays.fill(x, Double.NaN);
        return x;
    }

    private static DMatrixRMaj nan(DMatrixRMaj m) {
        Arrays.fill(m.data, Double.NaN);
        return m;
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
