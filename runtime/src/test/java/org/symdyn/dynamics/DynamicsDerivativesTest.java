package org.symdyn.dynamics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.DoubleFunction;
import java.util.function.Function;
import java.util.stream.Stream;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.symdyn.contract.DynamicsDerivatives;
import org.symdyn.model.Body;
import org.symdyn.model.BodySpec;
import org.symdyn.model.Joint;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;
import org.symdyn.model.ModelBuilder;
import org.symdyn.model.ModelException;
import org.symdyn.io.urdf.UrdfReader;
import org.symdyn.manifold.StateSpace;
import org.symdyn.model.SourceLocation;
import org.symdyn.spatial.RigidBodyInertia;
import org.symdyn.spatial.Rotations;
import org.symdyn.spatial.SpatialVectors;
import org.symdyn.testing.Allocations;

/**
 * The generic analytical derivatives ({@link GenericDynamics} as {@link DynamicsDerivatives}) against finite
 * differences and the identities they must satisfy, on random states of every model of {@code shared/models}, the
 * two models built in code with ball and planar joints ({@link DynamicsPropertyTest}) and the samples' models.
 *
 * <p>States as in {@link DynamicsPropertyTest}: q within limits (quaternions uniform), v in [-2, 2], v̇ in [-3, 3],
 * τ in [-10, 10]; {@value #STATES} states per model, fixed seeds.
 *
 * <p><b>Finite differences</b> are taken in the tangent space exactly as the contract defines ∂/∂q: column k is
 * d/dt f(StateSpace.retract(q, t ξ)) at t = 0 with ξ = StateSpace.tangent(q, e_k) (a floating base's linear part
 * becomes the world displacement R e_k, so the curve moves the base along its own axis k). Central differences at
 * h, h/2, h/4 (h = {@value #FD_STEP}) combined by Richardson extrapolation to O(h⁶): truncation ≈ (h Ω)⁶ / 10⁴ with
 * Ω ≤ about 40 rad/s, below 1e-13; round-off ≈ 2 · eps |f| / (h/4) ≈ 2e-12 |f|. The bar is the 1e-6
 * relative to max(1, ‖exact‖∞); the worst observed ratio of every check is printed after the tests. Observed
 * worst: ∂τ/∂q, ∂τ/∂v, ∂v̇/∂q, ∂v̇/∂τ 3e-11; ∂v̇/∂v 4e-9 (romeo_small: round-off, v̇ of its light links is large
 * beside ∂v̇/∂v; it falls to 5e-10 with h = 1e-2, as round-off ∝ 1/h does).
 */
public class DynamicsDerivativesTest {
    private static final int STATES = 8;
    private static final double FD_STEP = 1e-3;
    /** The bar for derivatives against finite differences (see the class comment). */
    private static final double FD_TOL = 1e-6;
    private static final List<String> SAMPLES = List.of("arm7.urdf", "double_pendulum.urdf", "edge_roller.urdf",
            "fourbar.urdf", "quadruped.urdf", "slider_crank.urdf");
    private static final Map<String, Model> SAMPLE_MODELS = new ConcurrentHashMap<>();
    private static final Map<String, Double> WORST = new ConcurrentHashMap<>();

    static Stream<String> models() {
        return Stream.concat(DynamicsPropertyTest.models(), SAMPLES.stream().map(f -> "sample:" + f));
    }

    @AfterAll
    static void printWorst() {
        System.out.println("DynamicsDerivativesTest worst error / scale per check and model:");
        new TreeMap<>(WORST).forEach((k, v) -> System.out.printf("  %-62s %.3e%n", k, v));
    }

    // ------------------------------------------------------------------------------------------------ derivatives

    /** ∂τ/∂q and ∂τ/∂v against finite differences of the inverse dynamics. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("models")
    void inverseDynamicsDerivativesMatchFiniteDifferences(String name) {
        forEachState(name, s -> {
            DMatrixRMaj dq = new DMatrixRMaj(s.nv, s.nv);
            DMatrixRMaj dv = new DMatrixRMaj(s.nv, s.nv);
            s.dyn.inverseDynamicsDerivatives(s.q, s.v, s.vdot, dq, dv);
            DMatrixRMaj fdq = tangentDifferences(s, q -> {
                double[] tau = new double[s.nv];
                s.fd.inverseDynamics(q, s.v, s.vdot, tau);
                return tau;
            });
            DMatrixRMaj fdv = velocityDifferences(s, v -> {
                double[] tau = new double[s.nv];
                s.fd.inverseDynamics(s.q, v, s.vdot, tau);
                return tau;
            });
            assertClose(name, "dtau/dq vs FD", fdq, dq, FD_TOL, s.where);
            assertClose(name, "dtau/dv vs FD", fdv, dv, FD_TOL, s.where);
        });
    }

    /**
     * ∂v̇/∂q, ∂v̇/∂v and ∂v̇/∂τ against finite differences of the forward dynamics. ∂v̇/∂τ is also
     * {@link GenericDynamics#inverseMassMatrix} (the same articulated-body factorisation of the same q: 1e-14
     * relative), and H⁻¹ H = 1: each column of H⁻¹ is a backward-stable ABA solve, so the residual is a few nb eps
     * of ‖H⁻¹‖ ‖H‖; checked as ‖H⁻¹ H - 1‖∞ ≤ 1e-10 nv ‖H⁻¹‖∞ ‖H‖∞ (entry norms).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("models")
    void forwardDynamicsDerivativesMatchFiniteDifferences(String name) {
        forEachState(name, s -> {
            DMatrixRMaj dq = new DMatrixRMaj(s.nv, s.nv);
            DMatrixRMaj dv = new DMatrixRMaj(s.nv, s.nv);
            DMatrixRMaj dtau = new DMatrixRMaj(s.nv, s.nv);
            s.dyn.forwardDynamicsDerivatives(s.q, s.v, s.tau, dq, dv, dtau);
            DMatrixRMaj fdq = tangentDifferences(s, q -> {
                double[] a = new double[s.nv];
                s.fd.forwardDynamics(q, s.v, s.tau, a);
                return a;
            });
            DMatrixRMaj fdv = velocityDifferences(s, v -> {
                double[] a = new double[s.nv];
                s.fd.forwardDynamics(s.q, v, s.tau, a);
                return a;
            });
            DMatrixRMaj fdtau = new DMatrixRMaj(s.nv, s.nv);
            for (int k = 0; k < s.nv; k++) {
                int col = k;
                setColumn(fdtau, k, richardson(t -> {
                    double[] tau = s.tau.clone();
                    tau[col] += t;
                    double[] a = new double[s.nv];
                    s.fd.forwardDynamics(s.q, s.v, tau, a);
                    return a;
                }));
            }
            assertClose(name, "dvdot/dq vs FD", fdq, dq, FD_TOL, s.where);
            assertClose(name, "dvdot/dv vs FD", fdv, dv, FD_TOL, s.where);
            assertClose(name, "dvdot/dtau vs FD", fdtau, dtau, FD_TOL, s.where);

            DMatrixRMaj minv = new DMatrixRMaj(s.nv, s.nv);
            s.dyn.inverseMassMatrix(s.q, minv);
            assertClose(name, "Minv = dvdot/dtau", dtau, minv, 1e-14, s.where);
            DMatrixRMaj h = new DMatrixRMaj(s.nv, s.nv);
            s.dyn.massMatrix(s.q, h);
            DMatrixRMaj prod = new DMatrixRMaj(s.nv, s.nv);
            org.ejml.dense.row.CommonOps_DDRM.mult(minv, h, prod);
            double err = 0;
            for (int i = 0; i < s.nv; i++) {
                for (int j = 0; j < s.nv; j++) {
                    err = Math.max(err, Math.abs(prod.get(i, j) - (i == j ? 1 : 0)));
                }
            }
            double scale = maxAbs(minv.data) * maxAbs(h.data) * s.nv;
            record(name, "Minv H - 1 / (|Minv| |H| nv)", err / scale);
            assertTrue(err <= 1e-10 * scale, s.where + ": Minv H - 1 = " + err + " (scale " + scale + ")");
        });
    }

    // ------------------------------------------------------------------------------------------------ Coriolis

    /**
     * C v + g = the bias forces, to 1e-12 of the magnitudes summed (Σ_j |C_kj v_j| + |g_k| + |bias_k|: both sides
     * are sums of O(nb) rounded products of that size; observed a few 1e-16).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("models")
    void coriolisMatrixTimesVelocityIsTheBiasWithoutGravity(String name) {
        forEachState(name, s -> {
            DMatrixRMaj c = new DMatrixRMaj(s.nv, s.nv);
            s.dyn.coriolisMatrix(s.q, s.v, c);
            double[] g = new double[s.nv];
            double[] bias = new double[s.nv];
            s.dyn.gravityForces(s.q, g);
            s.dyn.biasForces(s.q, s.v, bias);
            double err = 0;
            double scale = 0;
            for (int k = 0; k < s.nv; k++) {
                double sum = g[k];
                double mag = Math.abs(g[k]) + Math.abs(bias[k]);
                for (int j = 0; j < s.nv; j++) {
                    sum += c.get(k, j) * s.v[j];
                    mag += Math.abs(c.get(k, j) * s.v[j]);
                }
                err = Math.max(err, Math.abs(sum - bias[k]));
                scale = Math.max(scale, mag);
            }
            record(name, "C v + g - bias", err / scale);
            assertTrue(err <= 1e-12 * scale, s.where + ": C v + g - bias = " + err + " (scale " + scale + ")");
        });
    }

    /**
     * Ḣ - 2C is skew-symmetric, with Ḣ = d/dt H(q ⊕ t v) by finite differences (Richardson, see the class comment):
     * ‖(Ḣ - 2C) + (Ḣ - 2C)ᵀ‖∞ ≤ 1e-9 max(1, ‖Ḣ‖∞, ‖C‖∞), the bar; the finite differences' own error is about
     * 1e-12 relative.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("models")
    void hdotMinusTwiceCoriolisIsSkew(String name) {
        forEachState(name, s -> {
            DMatrixRMaj c = new DMatrixRMaj(s.nv, s.nv);
            s.dyn.coriolisMatrix(s.q, s.v, c);
            double[] xi = new double[s.nv];
            s.space.tangent(s.q, s.v, xi);
            double[] hdot = richardson(t -> {
                double[] q = new double[s.q.length];
                s.space.retract(s.q, xi, t, q);
                DMatrixRMaj h = new DMatrixRMaj(s.nv, s.nv);
                s.fd.massMatrix(q, h);
                return h.data;
            });
            double err = 0;
            for (int i = 0; i < s.nv; i++) {
                for (int j = 0; j <= i; j++) {
                    double a = hdot[i * s.nv + j] - 2 * c.get(i, j);
                    double b = hdot[j * s.nv + i] - 2 * c.get(j, i);
                    err = Math.max(err, Math.abs(a + b));
                }
            }
            double scale = Math.max(1, Math.max(maxAbs(hdot), maxAbs(c.data)));
            record(name, "Hdot - 2C skew (Hdot by FD)", err / scale);
            assertTrue(err <= 1e-9 * scale, s.where + ": (Hdot - 2C) + (Hdot - 2C)^T = " + err);
        });
    }

    /**
     * C is the matrix of the Christoffel symbols: C_kj = Σ_l v_l Γ_k,lj with Γ from Koszul's formula on finite
     * differences of H along the tangent directions (X_l H) and the brackets of those directions (zero between
     * coordinate directions; [X_a, X_b] = X_{e_a × e_b} within a floating joint, motion cross product, and within a
     * ball joint, the cross product of the angular parts). Tolerance: the finite-difference bar, 1e-6 relative to
     * max(1, ‖C‖∞).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("models")
    void coriolisMatrixIsTheChristoffelSymbolsMatrix(String name) {
        forEachState(name, s -> {
            int n = s.nv;
            DMatrixRMaj c = new DMatrixRMaj(n, n);
            s.dyn.coriolisMatrix(s.q, s.v, c);
            DMatrixRMaj h = new DMatrixRMaj(n, n);
            s.fd.massMatrix(s.q, h);
            // dh[l] = X_l H
            double[][] dh = new double[n][];
            double[] xi = new double[n];
            double[] e = new double[n];
            for (int l = 0; l < n; l++) {
                java.util.Arrays.fill(e, 0);
                e[l] = 1;
                s.space.tangent(s.q, e, xi);
                double[] dir = xi.clone();
                dh[l] = richardson(t -> {
                    double[] q = new double[s.q.length];
                    s.space.retract(s.q, dir, t, q);
                    DMatrixRMaj hq = new DMatrixRMaj(n, n);
                    s.fd.massMatrix(q, hq);
                    return hq.data;
                });
            }
            double[][][] bracket = brackets(s.model);
            DMatrixRMaj expected = new DMatrixRMaj(n, n);
            for (int k = 0; k < n; k++) {
                for (int j = 0; j < n; j++) {
                    double sum = 0;
                    for (int l = 0; l < n; l++) {
                        if (s.v[l] == 0) {
                            continue;
                        }
                        double gamma = dh[l][j * n + k] + dh[j][l * n + k] - dh[k][l * n + j]
                                + pairing(bracket, h, l, j, k) - pairing(bracket, h, l, k, j)
                                - pairing(bracket, h, j, k, l);
                        sum += 0.5 * gamma * s.v[l];
                    }
                    expected.set(k, j, sum);
                }
            }
            assertClose(name, "C vs Christoffel (Koszul, FD of H)", expected, c, FD_TOL, s.where);
        });
    }

    /** ⟨[X_a, X_b], X_c⟩ = Σ_m bracket[a][b][m] H_mc. */
    private static double pairing(double[][][] bracket, DMatrixRMaj h, int a, int b, int c) {
        double[] coeff = bracket[a][b];
        if (coeff == null) {
            return 0;
        }
        double sum = 0;
        for (int m = 0; m < coeff.length; m++) {
            sum += coeff[m] * h.get(m, c);
        }
        return sum;
    }

    /** The brackets of the tangent directions: null where they commute. */
    private static double[][][] brackets(Model model) {
        int n = model.nv();
        double[][][] out = new double[n][n][];
        for (Body b : model.bodies()) {
            Joint j = b.joint();
            int vi = j.vIndex();
            if (j.type() == JointType.FLOATING) {
                for (int a = 0; a < 6; a++) {
                    for (int c = 0; c < 6; c++) {
                        double[] ea = new double[6];
                        double[] ec = new double[6];
                        ea[a] = 1;
                        ec[c] = 1;
                        double[] x = new double[6];
                        SpatialVectors.crossMotion(ea, 0, ec, 0, x, 0);
                        double[] full = new double[n];
                        System.arraycopy(x, 0, full, vi, 6);
                        out[vi + a][vi + c] = full;
                    }
                }
            } else if (j.type() == JointType.BALL) {
                for (int a = 0; a < 3; a++) {
                    for (int c = 0; c < 3; c++) {
                        double[] full = new double[n];
                        // e_a × e_c
                        int d = 3 - a - c;
                        if (a != c) {
                            full[vi + d] = (c == (a + 1) % 3) ? 1 : -1;
                        }
                        out[vi + a][vi + c] = full;
                    }
                }
            }
        }
        return out;
    }

    // ------------------------------------------------------------------------------------------------ regressor

    /**
     * Y π = τ with the model's own parameters, and Y π' = τ' of the same model with random inertias (Y does not
     * depend on π, so this checks every column, not one combination), both to 1e-12 of the summed magnitudes
     * Σ_p |Y_kp π_p| + |τ_k|. Also Y(q, 0, 0) π = g.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("models")
    void regressorTimesParametersIsTheInverseDynamics(String name) {
        Model other = withRandomInertias(load(name), new Random(name.hashCode()));
        GenericDynamics otherDyn = new GenericDynamics(other);
        forEachState(name, s -> {
            int cols = DynamicsDerivatives.PARAMETERS_PER_BODY * s.dyn.bodyCount();
            DMatrixRMaj y = new DMatrixRMaj(s.nv, cols);
            s.dyn.regressor(s.q, s.v, s.vdot, y);
            double[] pi = new double[cols];
            double[] tau = new double[s.nv];
            s.dyn.inertialParameters(pi);
            s.dyn.inverseDynamics(s.q, s.v, s.vdot, tau);
            checkRegressor(name, "Y pi = tau", y, pi, tau, s.where);

            double[] piOther = new double[cols];
            otherDyn.inertialParameters(piOther);
            otherDyn.inverseDynamics(s.q, s.v, s.vdot, tau);
            checkRegressor(name, "Y pi' = tau' (random inertias)", y, piOther, tau, s.where);

            double[] zero = new double[s.nv];
            s.dyn.regressor(s.q, zero, zero, y);
            s.dyn.gravityForces(s.q, tau);
            checkRegressor(name, "Y(q,0,0) pi = g", y, pi, tau, s.where);
        });
    }

    private static void checkRegressor(String name, String check, DMatrixRMaj y, double[] pi, double[] tau,
            String where) {
        double err = 0;
        double scale = 0;
        for (int k = 0; k < y.numRows; k++) {
            double sum = 0;
            double mag = Math.abs(tau[k]);
            for (int p = 0; p < y.numCols; p++) {
                sum += y.get(k, p) * pi[p];
                mag += Math.abs(y.get(k, p) * pi[p]);
            }
            err = Math.max(err, Math.abs(sum - tau[k]));
            scale = Math.max(scale, mag);
        }
        record(name, check, err / scale);
        assertTrue(err <= 1e-12 * scale, where + ": " + check + " off by " + err + " (scale " + scale + ")");
    }

    /** The same tree (joints, placements, gravity) with random valid inertias: mass, centre of mass, I_c. */
    private static Model withRandomInertias(Model model, Random rnd) {
        ModelBuilder b = Model.builder(model.name() + "_random_inertias").root(model.rootName());
        double[] gr = model.gravity();
        b.gravity(gr[0], gr[1], gr[2]);
        for (Body body : model.bodies()) {
            Joint j = body.joint();
            String parent = body.parentIndex() < 0 ? model.rootName() : model.body(body.parentIndex()).name();
            double[] com = {0.2 * (2 * rnd.nextDouble() - 1), 0.2 * (2 * rnd.nextDouble() - 1),
                0.2 * (2 * rnd.nextDouble() - 1)};
            // Principal moments in [0.5, 1] (triangle inequality holds), turned by a random rotation.
            double[] r = new double[9];
            Rotations.fromQuaternion(rnd.nextGaussian(), rnd.nextGaussian(), rnd.nextGaussian(), rnd.nextGaussian(),
                    r);
            double[] d = {0.5 + 0.5 * rnd.nextDouble(), 0.5 + 0.5 * rnd.nextDouble(), 0.5 + 0.5 * rnd.nextDouble()};
            double[] ic = new double[9];
            for (int row = 0; row < 3; row++) {
                for (int col = 0; col < 3; col++) {
                    double sum = 0;
                    for (int k = 0; k < 3; k++) {
                        sum += r[3 * row + k] * d[k] * r[3 * col + k];
                    }
                    ic[3 * row + col] = 0.1 * sum;
                }
            }
            RigidBodyInertia inertia = RigidBodyInertia.of(0.5 + 1.5 * rnd.nextDouble(), com, ic);
            b.addBody(BodySpec.builder(body.name(), parent, j.name(), j.type()).axis(j.axis()).placement(j.placement())
                    .limits(j.lower(), j.upper()).inertia(inertia).build());
        }
        try {
            return b.build();
        } catch (ModelException e) {
            throw new AssertionError("cannot rebuild " + model.name() + ": " + e.getMessage(), e);
        }
    }

    // ------------------------------------------------------------------------------------------------ the contract

    /** No method allocates after construction (1000 rounds of all six; a few hundred bytes of JIT noise). */
    @Test
    void derivativesDoNotAllocate() {
        Model model = load(DynamicsPropertyTest.models().filter(m -> m.startsWith("built:floating")).findFirst()
                .orElseThrow());
        GenericDynamics dyn = new GenericDynamics(model);
        int nv = model.nv();
        Random rnd = new Random(3);
        double[] q = DynamicsPropertyTest.randomConfiguration(model, rnd);
        double[] v = uniform(rnd, nv, 2);
        double[] a = uniform(rnd, nv, 3);
        DMatrixRMaj m1 = new DMatrixRMaj(nv, nv);
        DMatrixRMaj m2 = new DMatrixRMaj(nv, nv);
        DMatrixRMaj m3 = new DMatrixRMaj(nv, nv);
        DMatrixRMaj y = new DMatrixRMaj(nv, 10 * model.bodyCount());
        double[] pi = new double[10 * model.bodyCount()];
        long bytes = Allocations.allocatedBytes(1000, () -> {
            dyn.inverseDynamicsDerivatives(q, v, a, m1, m2);
            dyn.forwardDynamicsDerivatives(q, v, a, m1, m2, m3);
            dyn.inverseMassMatrix(q, m3);
            dyn.coriolisMatrix(q, v, m1);
            dyn.regressor(q, v, a, y);
            dyn.inertialParameters(pi);
        });
        assertTrue(bytes < 4096, "allocated " + bytes + " bytes");
    }

    /** The contract's argument policy: exact shapes, no aliasing, names in the messages. */
    @Test
    void argumentsAreCheckedByTheContractsPolicy() {
        Model model = load("built:planar_ball");
        GenericDynamics dyn = new GenericDynamics(model);
        int nv = model.nv();
        double[] q = model.neutralConfiguration();
        double[] v = new double[nv];
        DMatrixRMaj m = new DMatrixRMaj(nv, nv);
        DMatrixRMaj wrong = new DMatrixRMaj(nv, nv - 1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> dyn.inverseDynamicsDerivatives(q, v, v, m, wrong));
        assertEquals("dtauDv must be " + nv + "x" + nv + ", got " + nv + "x" + (nv - 1), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> dyn.inverseDynamicsDerivatives(q, v, v, m, m));
        assertTrue(e.getMessage().startsWith("dtauDv must not be the same array as dtauDq"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> dyn.regressor(q, v, v, new DMatrixRMaj(nv, 10 * model.bodyCount() - 1)));
        assertTrue(e.getMessage().startsWith("Y must be"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> dyn.coriolisMatrix(q, v, wrong));
        assertTrue(e.getMessage().startsWith("coriolis must be"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> dyn.inverseMassMatrix(new double[1], m));
        assertTrue(e.getMessage().startsWith("q must have"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> dyn.inertialParameters(new double[3]));
        assertTrue(e.getMessage().startsWith("pi must have"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> dyn.forwardDynamicsDerivatives(q, v, v, m, new DMatrixRMaj(nv, nv), m));
        assertTrue(e.getMessage().startsWith("dvdotDtau must not be the same array as dvdotDq"), e.getMessage());
    }

    // ------------------------------------------------------------------------------------------------ states

    /** One random state of one model. */
    private static final class State {
        final String where;
        final Model model;
        final GenericDynamics dyn;
        /** A second instance for the finite differences, so that they never share scratch with dyn. */
        final GenericDynamics fd;
        final StateSpace space;
        final int nv;
        final double[] q;
        final double[] v;
        final double[] vdot;
        final double[] tau;

        State(String where, Model model, GenericDynamics dyn, GenericDynamics fd, StateSpace space, Random rnd) {
            this.where = where;
            this.model = model;
            this.dyn = dyn;
            this.fd = fd;
            this.space = space;
            nv = model.nv();
            q = DynamicsPropertyTest.randomConfiguration(model, rnd);
            v = uniform(rnd, nv, 2);
            vdot = uniform(rnd, nv, 3);
            tau = uniform(rnd, nv, 10);
        }
    }

    private static void forEachState(String name, Consumer<State> check) {
        Model model = load(name);
        GenericDynamics dyn = new GenericDynamics(model);
        GenericDynamics fd = dyn.copy();
        StateSpace space = new StateSpace(model);
        Random rnd = new Random(0xD1FF + name.hashCode());
        for (int n = 0; n < STATES; n++) {
            check.accept(new State(name + " state " + n, model, dyn, fd, space, rnd));
        }
    }

    /** A shared or built model ({@link DynamicsPropertyTest#model}) or a sample's ("sample:arm7.urdf"). */
    static Model load(String name) {
        if (!name.startsWith("sample:")) {
            return DynamicsPropertyTest.model(name);
        }
        return SAMPLE_MODELS.computeIfAbsent(name, k -> {
            String file = k.substring("sample:".length());
            Path dir = Path.of("").toAbsolutePath();
            for (int i = 0; i < 3 && dir != null; i++, dir = dir.getParent()) {
                Path p = dir.resolve("samples/src/main/symdyn").resolve(file);
                if (Files.exists(p)) {
                    try {
                        return UrdfReader.read(p, UrdfReader.Options.DEFAULT);
                    } catch (ModelException e) {
                        throw new AssertionError("cannot read " + p + ": " + e.getMessage(), e);
                    }
                }
            }
            throw new AssertionError("sample model " + file + " not found above " + Path.of("").toAbsolutePath());
        });
    }

    // ------------------------------------------------------------------------------------------------ differences

    /** Columns d/dt f(q ⊕ t e_k) at t = 0 (the contract's tangent space, through StateSpace). */
    private static DMatrixRMaj tangentDifferences(State s, Function<double[], double[]> f) {
        DMatrixRMaj out = null;
        double[] e = new double[s.nv];
        for (int k = 0; k < s.nv; k++) {
            java.util.Arrays.fill(e, 0);
            e[k] = 1;
            double[] xi = new double[s.nv];
            s.space.tangent(s.q, e, xi);
            double[] col = richardson(t -> {
                double[] q = new double[s.q.length];
                s.space.retract(s.q, xi, t, q);
                return f.apply(q);
            });
            if (out == null) {
                out = new DMatrixRMaj(col.length, s.nv);
            }
            setColumn(out, k, col);
        }
        return out;
    }

    /** Columns d/dt f(v + t e_k) at t = 0. */
    private static DMatrixRMaj velocityDifferences(State s, Function<double[], double[]> f) {
        DMatrixRMaj out = null;
        for (int k = 0; k < s.nv; k++) {
            int col = k;
            double[] d = richardson(t -> {
                double[] v = s.v.clone();
                v[col] += t;
                return f.apply(v);
            });
            if (out == null) {
                out = new DMatrixRMaj(d.length, s.nv);
            }
            setColumn(out, k, d);
        }
        return out;
    }

    /** f'(0) by central differences at h, h/2, h/4 and two Richardson steps (error O(h⁶)). */
    public static double[] richardson(DoubleFunction<double[]> f) {
        double[][] d = new double[3][];
        double h = FD_STEP;
        for (int level = 0; level < 3; level++) {
            double[] p = f.apply(h);
            double[] m = f.apply(-h);
            d[level] = new double[p.length];
            for (int i = 0; i < p.length; i++) {
                d[level][i] = (p[i] - m[i]) / (2 * h);
            }
            h /= 2;
        }
        int n = d[0].length;
        double[] out = new double[n];
        for (int i = 0; i < n; i++) {
            double r0 = (4 * d[1][i] - d[0][i]) / 3;
            double r1 = (4 * d[2][i] - d[1][i]) / 3;
            out[i] = (16 * r1 - r0) / 15;
        }
        return out;
    }

    // ------------------------------------------------------------------------------------------------ helpers

    private static void setColumn(DMatrixRMaj m, int k, double[] col) {
        for (int r = 0; r < col.length; r++) {
            m.set(r, k, col[r]);
        }
    }

    private static double[] uniform(Random rnd, int n, double half) {
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = (2 * rnd.nextDouble() - 1) * half;
        }
        return x;
    }

    /** ‖actual - expected‖∞ ≤ tol max(1, ‖expected‖∞); records the ratio. */
    private static void assertClose(String name, String check, DMatrixRMaj expected, DMatrixRMaj actual, double tol,
            String where) {
        assertEquals(expected.numRows, actual.numRows);
        assertEquals(expected.numCols, actual.numCols);
        double worst = 0;
        int worstRow = 0;
        int worstCol = 0;
        for (int r = 0; r < expected.numRows; r++) {
            for (int c = 0; c < expected.numCols; c++) {
                double e = Math.abs(expected.get(r, c) - actual.get(r, c));
                if (e > worst || Double.isNaN(e)) {
                    worst = e;
                    worstRow = r;
                    worstCol = c;
                }
            }
        }
        double err = worst;
        double scale = Math.max(1, maxAbs(expected.data));
        record(name, check, err / scale);
        int wr = worstRow;
        int wc = worstCol;
        assertTrue(err <= tol * scale, () -> where + ": " + check + " off by " + err + " at (" + wr + ", " + wc
                + "): expected " + expected.get(wr, wc) + ", got " + actual.get(wr, wc) + " (scale " + scale + ")");
    }

    private static void record(String model, String check, double value) {
        WORST.merge(check + " | " + model, value, Math::max);
    }

    private static double maxAbs(double[] x) {
        double m = 0;
        for (double d : x) {
            m = Math.max(m, Math.abs(d));
        }
        return m;
    }
}
