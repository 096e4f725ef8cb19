package org.symdyn.dynamics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.NormOps_DDRM;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.dense.row.factory.LinearSolverFactory_DDRM;
import org.ejml.interfaces.decomposition.CholeskyDecomposition_F64;
import org.ejml.interfaces.linsol.LinearSolverDense;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.symdyn.model.Body;
import org.symdyn.model.BodySpec;
import org.symdyn.model.Joint;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;
import org.symdyn.model.ModelException;
import org.symdyn.io.urdf.UrdfReader;
import org.symdyn.spatial.Pose;
import org.symdyn.spatial.RigidBodyInertia;
import org.symdyn.spatial.Rotations;
import org.symdyn.testing.SharedFiles;

/**
 * Identities the dynamics and kinematics of {@link GenericDynamics} must satisfy, on random states of every model
 * in {@code shared/models} and of two models built in code with ball and planar joints.
 *
 * <p>States: single-dof joints uniform within their URDF limits when given (else revolute/continuous [-π, π],
 * prismatic [-0.5, 0.5]; a degenerate limit with lower ≥ upper, such as double_pendulum_simple's 0..0, counts as
 * none, as in the reference files' sampler); floating and ball joints a uniformly random unit quaternion
 * (floating position in [-1, 1]³); planar x, y in [-1, 1], θ in [-π, π]; v in [-2, 2], τ in [-10, 10],
 * v̇ in [-3, 3]. Twenty states per model, fixed seeds.
 *
 * <p>Norms are max-abs (∞) norms. Every tolerance is stated where it is used, with its reason. The worst observed
 * ratio error / scale of each check is printed after the tests.
 *
 * <p>Finite differences move q along a velocity direction δ with {@link #integrate} (q ⊕ t δ): single-dof and planar
 * coordinates q + t δ (planar v = q̇), a floating base p + t R δ_lin and quaternion ⊗ exp(t δ_ω / 2) (ω in body
 * coordinates), a ball joint quaternion ⊗ exp(t δ_ω / 2). This curve has tangent δ at t = 0, which is all a first
 * derivative needs. Derivatives use the fourth-order central stencil
 * f'(0) ≈ (f(-2h) - 8 f(-h) + 8 f(h) - f(2h)) / 12h with h = 1e-4: truncation ≈ (h Ω)⁴/30 relative, with Ω the
 * fastest rate along the curve (≤ about 40 rad/s for the longest chains at |v_i| ≤ 2), i.e. ≤ 1e-11; round-off
 * ≈ 1.5 eps |f| / h ≈ 3e-12 |f|. Observed worst: 1.2e-11 relative (solo12 and anymal accelerations). A tolerance
 * of 1e-9 relative to max(1, scale) leaves a factor of about 80; an error in a Jacobian column or an acceleration
 * term shows up at 1e-3 or more.
 */
public class DynamicsPropertyTest {
    private static final int STATES = 20;
    private static final double FD_STEP = 1e-4;
    /** Finite-difference checks (see the class comment). */
    private static final double FD_TOL = 1e-9;
    private static final double EPS = Math.ulp(1.0);

    private static final List<String> FLOATING = List.of("hyq_no_sensors.urdf", "solo12.urdf", "anymal.urdf",
            "romeo_small.urdf");
    private static final String BUILT_PLANAR_BALL = "built:planar_ball";
    private static final String BUILT_FLOATING_BALL_PLANAR = "built:floating_ball_planar";

    private static final Map<String, Model> MODELS = new ConcurrentHashMap<>();
    private static final Map<String, Double> WORST = new ConcurrentHashMap<>();

    public static Stream<String> models() {
        return Stream.of("double_pendulum_simple.urdf", "ur5_robot.urdf", "kinova.urdf", "iiwa14_no_collision.urdf",
                "panda.urdf", "hyq_no_sensors.urdf", "solo12.urdf", "anymal.urdf", "romeo_small.urdf",
                BUILT_PLANAR_BALL, BUILT_FLOATING_BALL_PLANAR);
    }

    @AfterAll
    static void printWorst() {
        System.out.println("DynamicsPropertyTest worst error / scale per check and model:");
        new TreeMap<>(WORST).forEach((k, v) -> System.out.printf("  %-60s %.3e%n", k, v));
    }

    // ------------------------------------------------------------------------------------------------ dynamics

    /**
     * H is symmetric to 1e-12 relative (CRBA writes off-diagonal entries once for both halves; only the diagonal
     * blocks of multi-dof joints are computed entry by entry, with O(10) rounded operations each) and positive
     * definite: EJML's Cholesky factorisation succeeds.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("models")
    void massMatrixIsSymmetricPositiveDefinite(String name) {
        forEachState(name, s -> {
            DMatrixRMaj h = s.massMatrix();
            double scale = maxAbs(h.data);
            double asym = 0;
            for (int i = 0; i < s.nv; i++) {
                for (int j = 0; j < i; j++) {
                    asym = Math.max(asym, Math.abs(h.get(i, j) - h.get(j, i)));
                }
            }
            record(name, "H symmetric", asym / scale);
            assertTrue(asym <= 1e-12 * scale, s.where + ": H asymmetric by " + asym + " (scale " + scale + ")");
            CholeskyDecomposition_F64<DMatrixRMaj> chol = DecompositionFactory_DDRM.chol(s.nv, true);
            assertTrue(chol.decompose(h.copy()), s.where + ": Cholesky of H fails");
            for (int i = 0; i < s.nv; i++) {
                assertTrue(h.get(i, i) > 0, s.where + ": H(" + i + "," + i + ") = " + h.get(i, i));
            }
        });
    }

    /**
     * RNEA(q, v, ABA(q, v, τ)) = τ. Both are backward stable O(nb) recursions: ABA returns the exact solution for an
     * inertia and bias perturbed by O(nb eps) relative, and RNEA evaluates H v̇ + C with an error of the same order
     * relative to the sizes of the terms, τ and C (H v̇ = τ - C); the condition number of H does not enter. With
     * nb ≤ 32 bodies that is a few times 1e-14; observed worst 6.5e-15 (solo12). Tolerance 1e-12 relative to
     * ‖τ‖ + ‖C‖ (a wrong term in either algorithm gives O(1)).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("models")
    void inverseDynamicsUndoesForwardDynamics(String name) {
        forEachState(name, s -> {
            double[] vdot = new double[s.nv];
            double[] tau2 = new double[s.nv];
            double[] c = new double[s.nv];
            s.dyn.forwardDynamics(s.q, s.v, s.tau, vdot);
            s.dyn.inverseDynamics(s.q, s.v, vdot, tau2);
            s.dyn.biasForces(s.q, s.v, c);
            double scale = maxAbs(s.tau) + maxAbs(c);
            double err = maxDiff(tau2, s.tau);
            record(name, "RNEA(ABA(tau)) = tau", err / scale);
            assertTrue(err <= 1e-12 * scale, s.where + ": RNEA(ABA(τ)) - τ = " + err + " (scale " + scale + ")");
        });
    }

    /**
     * Column j of H is RNEA(q, 0, e_j) - g(q): inverse dynamics without velocity is H v̇ + g. The two sides
     * are sums of O(nb) products of the same magnitudes as H and g, computed in different orders, so they agree to a
     * few eps of ‖H‖ + ‖g‖ (observed worst 7e-16); 1e-13 relative (about 450 eps).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("models")
    void massMatrixColumnsAreInverseDynamicsOfUnitAccelerations(String name) {
        forEachState(name, s -> {
            DMatrixRMaj h = s.massMatrix();
            double[] g = new double[s.nv];
            s.dyn.gravityForces(s.q, g);
            double[] zero = new double[s.nv];
            double[] e = new double[s.nv];
            double[] tau = new double[s.nv];
            double scale = maxAbs(h.data) + maxAbs(g);
            double worst = 0;
            for (int j = 0; j < s.nv; j++) {
                e[j] = 1;
                s.dyn.inverseDynamics(s.q, zero, e, tau);
                e[j] = 0;
                for (int i = 0; i < s.nv; i++) {
                    worst = Math.max(worst, Math.abs(tau[i] - g[i] - h.get(i, j)));
                }
            }
            record(name, "H e_j = ID(q,0,e_j) - g", worst / scale);
            assertTrue(worst <= 1e-13 * scale, s.where + ": H columns differ from RNEA by " + worst);
        });
    }

    /**
     * C(q, v) = RNEA(q, v, 0) and g(q) = RNEA(q, 0, 0) = C(q, 0): the same recursion with the same inputs, so only a
     * reassociation in a future implementation could make them differ; 1e-13 relative. Also C - g is a quadratic
     * form in v: C(q, 2v) - g = 4 (C(q, v) - g), to 1e-13 relative to ‖C(q, 2v)‖ + ‖g‖ (each side carries the
     * rounding of RNEA, a few eps of those magnitudes; observed worst 1.1e-15).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("models")
    void biasForcesAreInverseDynamicsAtZeroAcceleration(String name) {
        forEachState(name, s -> {
            double[] zero = new double[s.nv];
            double[] c = new double[s.nv];
            double[] id = new double[s.nv];
            double[] g = new double[s.nv];
            double[] c0 = new double[s.nv];
            double[] g2 = new double[s.nv];
            s.dyn.biasForces(s.q, s.v, c);
            s.dyn.inverseDynamics(s.q, s.v, zero, id);
            s.dyn.gravityForces(s.q, g);
            s.dyn.biasForces(s.q, zero, c0);
            s.dyn.inverseDynamics(s.q, zero, zero, g2);
            double scale = Math.max(1, maxAbs(c));
            double err = maxDiff(c, id);
            record(name, "C = RNEA(q,v,0)", err / scale);
            assertTrue(err <= 1e-13 * scale, s.where + ": C - RNEA(q, v, 0) = " + err);
            double gScale = Math.max(1, maxAbs(g));
            double gErr = Math.max(maxDiff(g, c0), maxDiff(g, g2));
            record(name, "g = C(q,0) = RNEA(q,0,0)", gErr / gScale);
            assertTrue(gErr <= 1e-13 * gScale, s.where + ": g differs from C(q, 0) or RNEA(q, 0, 0) by " + gErr);

            double[] v2 = new double[s.nv];
            for (int i = 0; i < s.nv; i++) {
                v2[i] = 2 * s.v[i];
            }
            double[] c2 = new double[s.nv];
            s.dyn.biasForces(s.q, v2, c2);
            double qScale = Math.max(maxAbs(c2) + maxAbs(g), Double.MIN_NORMAL);
            double qErr = 0;
            for (int i = 0; i < s.nv; i++) {
                qErr = Math.max(qErr, Math.abs((c2[i] - g[i]) - 4 * (c[i] - g[i])));
            }
            record(name, "C - g quadratic in v", qErr / qScale);
            assertTrue(qErr <= 1e-13 * qScale, s.where + ": C(q, 2v) - g != 4 (C(q, v) - g), by " + qErr);
        });
    }

    /**
     * ABA against a dense solve of H v̇ = τ - C (EJML Cholesky). Both are backward stable, so they may differ by
     * about κ(H) · eps · ‖v̇‖ (forward error bound), κ the 2-norm condition number of H, which reaches 1e6..1e9 for
     * the files with placeholder links. The check is ‖v̇_ABA - v̇_chol‖ ≤ 10 · nv · eps · κ(H) · max(1, ‖v̇‖): the
     * factor 10 nv stands for the growth constants of both algorithms (observed worst ratio to eps κ ‖v̇‖: 1.1, on
     * the double pendulum; 0.02 or less on the others). The residual ‖H v̇_ABA + C - τ‖, which does not suffer
     * from κ, is the backward error: held to 1e-13 (‖τ‖ + ‖C‖ + ‖H‖ ‖v̇‖), about 450 eps (observed worst 9e-17).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("models")
    void forwardDynamicsSolvesTheEquationsOfMotion(String name) {
        forEachState(name, s -> {
            DMatrixRMaj h = s.massMatrix();
            double[] c = new double[s.nv];
            s.dyn.biasForces(s.q, s.v, c);
            double[] aba = new double[s.nv];
            s.dyn.forwardDynamics(s.q, s.v, s.tau, aba);
            DMatrixRMaj rhs = new DMatrixRMaj(s.nv, 1);
            for (int i = 0; i < s.nv; i++) {
                rhs.data[i] = s.tau[i] - c[i];
            }
            LinearSolverDense<DMatrixRMaj> solver = LinearSolverFactory_DDRM.chol(s.nv);
            assertTrue(solver.setA(h.copy()), s.where + ": Cholesky of H fails");
            DMatrixRMaj x = new DMatrixRMaj(s.nv, 1);
            solver.solve(rhs, x);
            double kappa = NormOps_DDRM.conditionP2(h);
            double scale = Math.max(1, maxAbs(x.data));
            double err = maxDiff(aba, x.data);
            double bound = 10 * s.nv * EPS * kappa * scale;
            record(name, "ABA vs Cholesky / (eps kappa |vdot|)", err / (EPS * kappa * scale));
            assertTrue(err <= bound, s.where + ": ABA - Cholesky = " + err + ", κ(H) = " + kappa + ", bound " + bound);

            double[] hv = new double[s.nv];
            for (int i = 0; i < s.nv; i++) {
                for (int j = 0; j < s.nv; j++) {
                    hv[i] += h.get(i, j) * aba[j];
                }
            }
            double res = 0;
            for (int i = 0; i < s.nv; i++) {
                res = Math.max(res, Math.abs(hv[i] + c[i] - s.tau[i]));
            }
            double resScale = maxAbs(s.tau) + maxAbs(c) + NormOps_DDRM.normPInf(h) * maxAbs(aba);
            record(name, "residual H vdot + C - tau", res / resScale);
            assertTrue(res <= 1e-13 * resScale, s.where + ": ‖H v̇ + C - τ‖ = " + res + " (scale " + resScale + ")");
        });
    }

    /**
     * Power balance, a check of the velocity terms of C that does not go through RNEA: with T = ½ vᵀ H v and the
     * potential's rate gᵀ v, d/dt T = (τ - g)ᵀ v and τ = H v̇ + C give vᵀ (C - g) = ½ vᵀ Ḣ v, with Ḣ the derivative
     * of H(q(t)) along q̇ ↔ v (valid for the floating base's body-frame velocities too). Ḣ by finite differences;
     * tolerance FD_TOL relative to max(1, Σ |v_i| (|C_i - g_i| + ‖Ḣ‖ |v|)).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("models")
    void coriolisForcesBalanceThePowerOfTheMassMatrixRate(String name) {
        forEachState(name, s -> {
            double[] c = new double[s.nv];
            double[] g = new double[s.nv];
            s.dyn.biasForces(s.q, s.v, c);
            s.dyn.gravityForces(s.q, g);
            double lhs = 0;
            double scale = 0;
            for (int i = 0; i < s.nv; i++) {
                lhs += s.v[i] * (c[i] - g[i]);
                scale += Math.abs(s.v[i] * (c[i] - g[i]));
            }
            DMatrixRMaj scratch = new DMatrixRMaj(s.nv, s.nv);
            double[] hdot = derivative(t -> {
                s.dyn.massMatrix(integrate(s.model, s.q, s.v, t), scratch);
                return scratch.data.clone();
            });
            double rhs = 0;
            double hdScale = 0;
            for (int i = 0; i < s.nv; i++) {
                for (int j = 0; j < s.nv; j++) {
                    rhs += 0.5 * s.v[i] * hdot[i * s.nv + j] * s.v[j];
                    hdScale += Math.abs(s.v[i] * hdot[i * s.nv + j] * s.v[j]);
                }
            }
            scale = Math.max(1, scale + hdScale);
            double err = Math.abs(lhs - rhs);
            record(name, "power: v.(C-g) = v.Hdot.v/2", err / scale);
            assertTrue(err <= FD_TOL * scale, s.where + ": vᵀ(C - g) = " + lhs + " but ½ vᵀ Ḣ v = " + rhs);
        });
    }

    /**
     * {@code massMatrixOnTree} and {@code pointJacobianOnBranch} write exactly what {@code massMatrix} and
     * {@code pointJacobian} write on the entries the tree can make non-zero (the same bits: the same recursion) and
     * leave every other entry as it was: with outputs filled with NaN beforehand, an entry is still NaN if and only
     * if neither dof is on the other's branch (H) or the dof is off the body's branch (J), and there the full
     * outputs are exactly zero.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("models")
    void treeRestrictedOutputsWriteTheTreeOnly(String name) {
        forEachState(name, s -> {
            org.symdyn.contact.DofBranches branches = new org.symdyn.contact.DofBranches(s.dyn);
            DMatrixRMaj full = s.massMatrix();
            DMatrixRMaj tree = new DMatrixRMaj(s.nv, s.nv);
            java.util.Arrays.fill(tree.data, Double.NaN);
            s.dyn.massMatrixOnTree(s.q, tree);
            for (int i = 0; i < s.nv; i++) {
                for (int j = 0; j < s.nv; j++) {
                    boolean related = onBranch(branches, i, j) || onBranch(branches, j, i);
                    String at = s.where + ": H(" + i + "," + j + ")";
                    if (related) {
                        assertEquals(full.get(i, j), tree.get(i, j), 0.0, at);
                    } else {
                        assertTrue(Double.isNaN(tree.get(i, j)), at + " written off the tree");
                        assertEquals(0.0, full.get(i, j), 0.0, at + " off the tree is not zero");
                    }
                }
            }
            DMatrixRMaj jFull = new DMatrixRMaj(3, s.nv);
            DMatrixRMaj jBranch = new DMatrixRMaj(3, s.nv);
            for (int b = 0; b < s.nb; b++) {
                s.dyn.pointJacobian(s.q, b, s.points[b], jFull);
                java.util.Arrays.fill(jBranch.data, Double.NaN);
                s.dyn.pointJacobianOnBranch(s.q, b, s.points[b], jBranch);
                int leaf = branches.leaf(b);
                for (int col = 0; col < s.nv; col++) {
                    boolean mine = leaf >= 0 && onBranch(branches, leaf, col);
                    for (int r = 0; r < 3; r++) {
                        String at = s.where + ": J of " + s.bodyName(b) + " (" + r + "," + col + ")";
                        if (mine) {
                            assertEquals(jFull.get(r, col), jBranch.get(r, col), 0.0, at);
                        } else {
                            assertTrue(Double.isNaN(jBranch.get(r, col)), at + " written off the branch");
                            assertEquals(0.0, jFull.get(r, col), 0.0, at + " off the branch is not zero");
                        }
                    }
                }
            }
        });
    }

    /** True when dof a is on dof i's branch (i itself or one of its ancestors). */
    private static boolean onBranch(org.symdyn.contact.DofBranches branches, int i, int a) {
        for (int d = i; d >= 0; d = branches.parent(d)) {
            if (d == a) {
                return true;
            }
        }
        return false;
    }

    // ------------------------------------------------------------------------------------------------ kinematics

    /**
     * Every column of every body's point Jacobian (at a random point per body) against central differences of the
     * point position along q ⊕ t e_j; for a floating base this checks the base columns through the exact
     * Lie-group perturbation. Tolerance: see the class comment.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("models")
    void pointJacobianMatchesFiniteDifferences(String name) {
        forEachState(name, s -> {
            DMatrixRMaj j = new DMatrixRMaj(3, s.nv);
            double[] e = new double[s.nv];
            double[] out = new double[3];
            double worst = 0;
            for (int b = 0; b < s.nb; b++) {
                int body = b;
                double[] point = s.points[b];
                s.dyn.pointJacobian(s.q, body, point, j);
                double scale = Math.max(1, maxAbs(j.data));
                for (int col = 0; col < s.nv; col++) {
                    e[col] = 1;
                    double[] fd = derivative(t -> {
                        s.dyn.pointPosition(integrate(s.model, s.q, e, t), body, point, out);
                        return out.clone();
                    });
                    e[col] = 0;
                    for (int r = 0; r < 3; r++) {
                        double err = Math.abs(fd[r] - j.get(r, col));
                        worst = Math.max(worst, err / scale);
                        assertTrue(err <= FD_TOL * scale, s.where + ": point Jacobian of body " + s.bodyName(b)
                                + " (" + r + ", " + s.dyn.vNames().get(col) + ") = " + j.get(r, col) + ", FD "
                                + fd[r]);
                    }
                }
            }
            record(name, "point Jacobian vs FD", worst);
        });
    }

    /**
     * Every column of every body Jacobian against the finite-difference rate of the body pose along q ⊕ t e_j:
     * [ω; v_origin] = [vee(Rᵀ Ṙ); Rᵀ ṗ] in body coordinates. Tolerance: see the class comment (Rᵀ Ṙ is within
     * FD error of skew-symmetric, so taking its vee from either triangle is fine).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("models")
    void bodyJacobianMatchesFiniteDifferencesOfThePose(String name) {
        forEachState(name, s -> {
            DMatrixRMaj j = new DMatrixRMaj(6, s.nv);
            double[] e = new double[s.nv];
            double[] rot = new double[9];
            double[] pos = new double[3];
            double worst = 0;
            for (int b = 0; b < s.nb; b++) {
                int body = b;
                s.dyn.bodyJacobian(s.q, body, j);
                s.dyn.bodyPose(s.q, body, rot, pos);
                double[] r0 = rot.clone();
                double scale = Math.max(1, maxAbs(j.data));
                for (int col = 0; col < s.nv; col++) {
                    e[col] = 1;
                    double[] fd = derivative(t -> {
                        s.dyn.bodyPose(integrate(s.model, s.q, e, t), body, rot, pos);
                        double[] x = new double[12];
                        System.arraycopy(rot, 0, x, 0, 9);
                        System.arraycopy(pos, 0, x, 9, 3);
                        return x;
                    });
                    e[col] = 0;
                    double[] twist = bodyTwist(r0, fd);
                    for (int r = 0; r < 6; r++) {
                        double err = Math.abs(twist[r] - j.get(r, col));
                        worst = Math.max(worst, err / scale);
                        assertTrue(err <= FD_TOL * scale, s.where + ": body Jacobian of " + s.bodyName(b) + " ("
                                + r + ", " + s.dyn.vNames().get(col) + ") = " + j.get(r, col) + ", FD " + twist[r]);
                    }
                }
            }
            record(name, "body Jacobian vs FD of pose", worst);
        });
    }

    /**
     * Velocity identities at a state, all from independent code paths (RNEA's velocity pass vs the Jacobian
     * builders): pointVelocity = J_point v; J_body v = [ω; Rᵀ pointVelocity(origin)] with ω read off the
     * velocities of the origin and of three unit points (v_{e_k} - v_0 = R (ω × e_k)); bodyVelocity = J_body v.
     * Also J_point = R [-[p]×  1] J_body. Only rounding separates them: 1e-12 relative to max(1, ‖J‖ ‖v‖ nv),
     * the size of the largest sum formed (observed worst 1.2e-15).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("models")
    void velocitiesAreJacobiansTimesV(String name) {
        forEachState(name, s -> {
            DMatrixRMaj jp = new DMatrixRMaj(3, s.nv);
            DMatrixRMaj jb = new DMatrixRMaj(6, s.nv);
            double[] vel = new double[3];
            double[] rot = new double[9];
            double[] pos = new double[3];
            double worst = 0;
            for (int b = 0; b < s.nb; b++) {
                double[] point = s.points[b];
                s.dyn.pointJacobian(s.q, b, point, jp);
                s.dyn.bodyJacobian(s.q, b, jb);
                s.dyn.bodyPose(s.q, b, rot, pos);
                double scale = Math.max(1, Math.max(maxAbs(jp.data), maxAbs(jb.data)) * maxAbs(s.v) * s.nv);
                double tol = 1e-12 * scale;

                s.dyn.pointVelocity(s.q, s.v, b, point, vel);
                double[] jv = times(jp, s.v);
                double err = maxDiff(jv, vel);
                worst = Math.max(worst, err / scale);
                assertTrue(err <= tol, s.where + ": pointVelocity - J v = " + err + " on " + s.bodyName(b));

                double[] twist = times(jb, s.v);
                double[] origin = new double[3];
                s.dyn.pointVelocity(s.q, s.v, b, new double[3], origin);
                double[] expected = new double[6];
                for (int k = 0; k < 3; k++) {
                    // v_origin in body coordinates: Rᵀ ṗ.
                    expected[3 + k] = rot[k] * origin[0] + rot[3 + k] * origin[1] + rot[6 + k] * origin[2];
                }
                // ω from unit points: Rᵀ (v_{e_k} - v_0) = ω × e_k; (ω × e_x)_y = ω_z, (ω × e_y)_z = ω_x,
                // (ω × e_z)_x = ω_y.
                double[][] rel = new double[3][];
                for (int k = 0; k < 3; k++) {
                    double[] ek = new double[3];
                    ek[k] = 1;
                    double[] vk = new double[3];
                    s.dyn.pointVelocity(s.q, s.v, b, ek, vk);
                    double[] d = new double[3];
                    for (int m = 0; m < 3; m++) {
                        d[m] = rot[m] * (vk[0] - origin[0]) + rot[3 + m] * (vk[1] - origin[1])
                                + rot[6 + m] * (vk[2] - origin[2]);
                    }
                    rel[k] = d;
                }
                expected[2] = rel[0][1];
                expected[0] = rel[1][2];
                expected[1] = rel[2][0];
                err = maxDiff(twist, expected);
                worst = Math.max(worst, err / scale);
                assertTrue(err <= tol, s.where + ": J_body v differs from point velocities by " + err + " on "
                        + s.bodyName(b));

                double[] bv = new double[6];
                s.dyn.bodyVelocity(s.q, s.v, b, bv);
                err = maxDiff(twist, bv);
                worst = Math.max(worst, err / scale);
                assertTrue(err <= tol, s.where + ": bodyVelocity - J_body v = " + err + " on " + s.bodyName(b));

                // J_point = R (J_lin - p × J_ang) column by column.
                double jScale = Math.max(1, maxAbs(jp.data));
                for (int col = 0; col < s.nv; col++) {
                    double w0 = jb.get(0, col), w1 = jb.get(1, col), w2 = jb.get(2, col);
                    double[] lin = {jb.get(3, col) + w1 * point[2] - w2 * point[1],
                            jb.get(4, col) + w2 * point[0] - w0 * point[2],
                            jb.get(5, col) + w0 * point[1] - w1 * point[0]};
                    for (int r = 0; r < 3; r++) {
                        double x = rot[3 * r] * lin[0] + rot[3 * r + 1] * lin[1] + rot[3 * r + 2] * lin[2];
                        double e2 = Math.abs(x - jp.get(r, col));
                        worst = Math.max(worst, e2 / jScale);
                        assertTrue(e2 <= 1e-12 * jScale, s.where + ": point and body Jacobians disagree by " + e2);
                    }
                }
            }
            record(name, "velocities = Jacobians v", worst);
        });
    }

    /**
     * pointAcceleration (classical, gravity excluded) and bodyAcceleration (the derivative of the body-velocity
     * coordinates) against finite differences of pointVelocity and bodyVelocity along the trajectory
     * q(t) = q ⊕ t v, v(t) = v + t v̇, whose q̇ ↔ v and v̇ match the state at t = 0 (all that the first derivative
     * depends on). Tolerance: see the class comment; the scale is max(1, ‖acceleration‖, ‖velocity‖ / 1 s).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("models")
    void accelerationsMatchFiniteDifferencesOfVelocities(String name) {
        forEachState(name, s -> {
            double[] acc = new double[3];
            double[] vel = new double[3];
            double[] bacc = new double[6];
            double[] bvel = new double[6];
            double worst = 0;
            for (int b = 0; b < s.nb; b++) {
                int body = b;
                double[] point = s.points[b];
                s.dyn.pointAcceleration(s.q, s.v, s.vdot, body, point, acc);
                s.dyn.bodyAcceleration(s.q, s.v, s.vdot, body, bacc);
                double[] fd = derivative(t -> {
                    double[] vt = new double[s.nv];
                    for (int i = 0; i < s.nv; i++) {
                        vt[i] = s.v[i] + t * s.vdot[i];
                    }
                    double[] qt = integrate(s.model, s.q, s.v, t);
                    s.dyn.pointVelocity(qt, vt, body, point, vel);
                    s.dyn.bodyVelocity(qt, vt, body, bvel);
                    double[] x = new double[9];
                    System.arraycopy(vel, 0, x, 0, 3);
                    System.arraycopy(bvel, 0, x, 3, 6);
                    return x;
                });
                s.dyn.pointVelocity(s.q, s.v, body, point, vel);
                s.dyn.bodyVelocity(s.q, s.v, body, bvel);
                double scale = Math.max(1, Math.max(Math.max(maxAbs(acc), maxAbs(vel)),
                        Math.max(maxAbs(bacc), maxAbs(bvel))));
                for (int r = 0; r < 3; r++) {
                    double err = Math.abs(fd[r] - acc[r]);
                    worst = Math.max(worst, err / scale);
                    assertTrue(err <= FD_TOL * scale, s.where + ": point acceleration of " + s.bodyName(b) + "["
                            + r + "] = " + acc[r] + ", FD " + fd[r]);
                }
                for (int r = 0; r < 6; r++) {
                    double err = Math.abs(fd[3 + r] - bacc[r]);
                    worst = Math.max(worst, err / scale);
                    assertTrue(err <= FD_TOL * scale, s.where + ": body acceleration of " + s.bodyName(b) + "["
                            + r + "] = " + bacc[r] + ", FD " + fd[3 + r]);
                }
            }
            record(name, "accelerations vs FD of velocities", worst);
        });
    }

    // ------------------------------------------------------------------------------------------------ conventions

    /**
     * The documented coordinates of planar, ball and floating joints (JointType): a planar joint with normal n on
     * the root puts the body at x u₁ + y u₂ rotated by θ about n, (u₁, u₂, n) from JointModels.planarBasis and
     * right-handed; a ball joint's rotation is its quaternion's; a floating body is at p with its quaternion's
     * rotation and a body Jacobian equal to the identity (v = [ω; v_origin] in body coordinates). Exact formulas
     * evaluated in a different order: 1e-14.
     */
    @Test
    void jointCoordinatesFollowTheDocumentedConventions() throws ModelException {
        double[] n = {0.3, -0.2, 0.9};
        double len = Math.sqrt(0.94);
        double[] un = {n[0] / len, n[1] / len, n[2] / len};
        RigidBodyInertia box = RigidBodyInertia.of(1.5, new double[] {0.1, 0, 0}, 0.02, 0, 0, 0.03, 0, 0.04);
        Model model = Model.builder("conventions")
                .addBody("sled", "world", "plane", JointType.PLANAR, n, Pose.IDENTITY, box)
                .addBody("head", "world", "neck", JointType.BALL, null, Pose.IDENTITY, box)
                .addBody("trunk", "world", "free", JointType.FLOATING, null, Pose.IDENTITY, box)
                .build();
        GenericDynamics dyn = new GenericDynamics(model);
        assertEquals(List.of("plane:x", "plane:y", "plane:theta", "neck:qx", "neck:qy", "neck:qz", "neck:qw",
                "trunk:x", "trunk:y", "trunk:z", "trunk:qx", "trunk:qy", "trunk:qz", "trunk:qw"), dyn.qNames());
        assertEquals(List.of("plane:x", "plane:y", "plane:theta", "neck:wx", "neck:wy", "neck:wz", "trunk:wx",
                "trunk:wy", "trunk:wz", "trunk:vx", "trunk:vy", "trunk:vz"), dyn.vNames());
        double[] u1 = new double[3];
        double[] u2 = new double[3];
        JointModels.planarBasis(un, u1, u2);
        assertEquals(0, dot(u1, un), 1e-15);
        assertEquals(1, dot(u1, u1), 1e-15);
        assertEquals(1, dot(u2, u2), 1e-15);
        double[] u1xu2 = cross(u1, u2);
        for (int k = 0; k < 3; k++) {
            assertEquals(un[k], u1xu2[k], 1e-15, "(u1, u2, n) right-handed");
        }
        Random rnd = new Random(7);
        double[] rot = new double[9];
        double[] pos = new double[3];
        double[] expected = new double[9];
        DMatrixRMaj jb = new DMatrixRMaj(6, dyn.nv());
        for (int trial = 0; trial < 10; trial++) {
            double[] q = randomConfiguration(model, rnd);
            dyn.bodyPose(q, 0, rot, pos);
            Rotations.axisAngle(un[0], un[1], un[2], q[2], expected);
            assertArrayClose(expected, rot, 1e-14, "planar rotation");
            for (int k = 0; k < 3; k++) {
                assertEquals(q[0] * u1[k] + q[1] * u2[k], pos[k], 1e-14, "planar position");
            }
            dyn.bodyPose(q, 1, rot, pos);
            Rotations.fromQuaternion(q[3], q[4], q[5], q[6], expected);
            assertArrayClose(expected, rot, 1e-14, "ball rotation");
            assertArrayClose(new double[3], pos, 0, "ball position");
            dyn.bodyPose(q, 2, rot, pos);
            Rotations.fromQuaternion(q[10], q[11], q[12], q[13], expected);
            assertArrayClose(expected, rot, 1e-14, "floating rotation");
            assertArrayClose(new double[] {q[7], q[8], q[9]}, pos, 0, "floating position");
            dyn.bodyJacobian(q, 2, jb);
            for (int r = 0; r < 6; r++) {
                for (int c = 0; c < dyn.nv(); c++) {
                    assertEquals(c == 6 + r ? 1 : 0, jb.get(r, c), 1e-14, "floating body Jacobian");
                }
            }
        }
    }

    // ------------------------------------------------------------------------------------------------ states

    /** One random state of one model, with a random point on each body. */
    private static final class State {
        final String where;
        final Model model;
        final GenericDynamics dyn;
        final int nv;
        final int nb;
        final double[] q;
        final double[] v;
        final double[] vdot;
        final double[] tau;
        final double[][] points;

        State(String where, Model model, GenericDynamics dyn, Random rnd) {
            this.where = where;
            this.model = model;
            this.dyn = dyn;
            this.nv = dyn.nv();
            this.nb = dyn.bodyCount();
            q = randomConfiguration(model, rnd);
            v = uniform(rnd, nv, 2);
            vdot = uniform(rnd, nv, 3);
            tau = uniform(rnd, nv, 10);
            points = new double[nb][];
            for (int b = 0; b < nb; b++) {
                points[b] = uniform(rnd, 3, 0.3);
            }
        }

        DMatrixRMaj massMatrix() {
            DMatrixRMaj h = new DMatrixRMaj(nv, nv);
            dyn.massMatrix(q, h);
            return h;
        }

        String bodyName(int b) {
            return dyn.bodyNames().get(b);
        }
    }

    private static void forEachState(String name, Consumer<State> check) {
        Model model = model(name);
        GenericDynamics dyn = new GenericDynamics(model);
        Random rnd = new Random(0x5EED + name.hashCode());
        for (int n = 0; n < STATES; n++) {
            check.accept(new State(name + " state " + n, model, dyn, rnd));
        }
    }

    /** The model of that name: a file of shared/models, or one of the models built in code. */
    public static Model model(String name) {
        return MODELS.computeIfAbsent(name, k -> {
            try {
                return switch (k) {
                    case BUILT_PLANAR_BALL -> planarBallModel();
                    case BUILT_FLOATING_BALL_PLANAR -> floatingBallPlanarModel();
                    default -> UrdfReader.read(SharedFiles.model(k),
                            new UrdfReader.Options(FLOATING.contains(k), false));
                };
            } catch (ModelException e) {
                throw new AssertionError("cannot read " + k + ": " + e.getMessage(), e);
            }
        });
    }

    private static double[] uniform(Random rnd, int n, double half) {
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = (2 * rnd.nextDouble() - 1) * half;
        }
        return x;
    }

    /** A uniformly distributed unit quaternion (x, y, z, w): a normalised 4D Gaussian. */
    private static void randomQuaternion(Random rnd, double[] q, int at) {
        double n2;
        do {
            n2 = 0;
            for (int k = 0; k < 4; k++) {
                q[at + k] = rnd.nextGaussian();
                n2 += q[at + k] * q[at + k];
            }
        } while (n2 < 1e-6);
        double n = Math.sqrt(n2);
        for (int k = 0; k < 4; k++) {
            q[at + k] /= n;
        }
    }

    /**
     * Moves every floating base of configuration q by (1000, -700, 300) m: far from the world's origin, where
     * arithmetic in world coordinates loses digits that the root body's coordinates keep.
     */
    public static void farFromTheOrigin(Model model, double[] q) {
        for (Body b : model.bodies()) {
            if (b.joint().type() == JointType.FLOATING) {
                int i = b.joint().qIndex();
                q[i] += 1000;
                q[i + 1] -= 700;
                q[i + 2] += 300;
            }
        }
    }

    public static double[] randomConfiguration(Model model, Random rnd) {
        double[] q = new double[model.nq()];
        for (Body b : model.bodies()) {
            Joint j = b.joint();
            int i = j.qIndex();
            switch (j.type()) {
                case REVOLUTE, CONTINUOUS, PRISMATIC -> {
                    double lo, hi;
                    if (j.type() != JointType.CONTINUOUS && j.hasLimits() && j.lower() < j.upper()) {
                        lo = j.lower();
                        hi = j.upper();
                    } else if (j.type() == JointType.PRISMATIC) {
                        lo = -0.5;
                        hi = 0.5;
                    } else {
                        lo = -Math.PI;
                        hi = Math.PI;
                    }
                    q[i] = lo + (hi - lo) * rnd.nextDouble();
                }
                case FLOATING -> {
                    for (int k = 0; k < 3; k++) {
                        q[i + k] = 2 * rnd.nextDouble() - 1;
                    }
                    randomQuaternion(rnd, q, i + 3);
                }
                case BALL -> randomQuaternion(rnd, q, i);
                case PLANAR -> {
                    q[i] = 2 * rnd.nextDouble() - 1;
                    q[i + 1] = 2 * rnd.nextDouble() - 1;
                    q[i + 2] = Math.PI * (2 * rnd.nextDouble() - 1);
                }
                default -> throw new IllegalStateException(j.type().toString());
            }
        }
        return q;
    }

    /**
     * q ⊕ t δ: the configuration reached from q along the velocity-space direction δ (see the class comment). Its
     * tangent at t = 0 is δ.
     */
    public static double[] integrate(Model model, double[] q, double[] delta, double t) {
        double[] out = q.clone();
        double[] r = new double[9];
        for (Body b : model.bodies()) {
            Joint j = b.joint();
            int qi = j.qIndex();
            int vi = j.vIndex();
            switch (j.type()) {
                case REVOLUTE, CONTINUOUS, PRISMATIC -> out[qi] = q[qi] + t * delta[vi];
                case PLANAR -> {
                    for (int k = 0; k < 3; k++) {
                        out[qi + k] = q[qi + k] + t * delta[vi + k];
                    }
                }
                case FLOATING -> {
                    // ṗ = R v_lin (v in body coordinates), with R held at q: the tangent is right.
                    Rotations.fromQuaternion(q[qi + 3], q[qi + 4], q[qi + 5], q[qi + 6], r);
                    for (int k = 0; k < 3; k++) {
                        out[qi + k] = q[qi + k] + t * (r[3 * k] * delta[vi + 3] + r[3 * k + 1] * delta[vi + 4]
                                + r[3 * k + 2] * delta[vi + 5]);
                    }
                    rotateQuaternion(q, qi + 3, delta, vi, t, out);
                }
                case BALL -> rotateQuaternion(q, qi, delta, vi, t, out);
                default -> throw new IllegalStateException(j.type().toString());
            }
        }
        return out;
    }

    /** out[qo..qo+4) = q ⊗ exp(t ω / 2) with ω = delta[wo..wo+3) in body coordinates, so Ṙ = R [ω]×. */
    private static void rotateQuaternion(double[] q, int qo, double[] delta, int wo, double t, double[] out) {
        double w0 = delta[wo] * t, w1 = delta[wo + 1] * t, w2 = delta[wo + 2] * t;
        double angle = Math.sqrt(w0 * w0 + w1 * w1 + w2 * w2);
        double half = 0.5 * angle;
        double sinc = angle == 0 ? 0.5 : Math.sin(half) / angle; // sin(|φ|/2) / |φ|
        double bx = w0 * sinc, by = w1 * sinc, bz = w2 * sinc, bw = Math.cos(half);
        double ax = q[qo], ay = q[qo + 1], az = q[qo + 2], aw = q[qo + 3];
        // Hamilton product a ⊗ b, (x, y, z, w).
        out[qo] = aw * bx + bw * ax + (ay * bz - az * by);
        out[qo + 1] = aw * by + bw * ay + (az * bx - ax * bz);
        out[qo + 2] = aw * bz + bw * az + (ax * by - ay * bx);
        out[qo + 3] = aw * bw - (ax * bx + ay * by + az * bz);
    }

    /** d/dt f(t) at 0 by the fourth-order central stencil with step {@link #FD_STEP}. */
    private static double[] derivative(java.util.function.DoubleFunction<double[]> f) {
        double h = FD_STEP;
        double[] m2 = f.apply(-2 * h);
        double[] m1 = f.apply(-h);
        double[] p1 = f.apply(h);
        double[] p2 = f.apply(2 * h);
        double[] d = new double[m2.length];
        for (int i = 0; i < d.length; i++) {
            d[i] = (m2[i] - 8 * m1[i] + 8 * p1[i] - p2[i]) / (12 * h);
        }
        return d;
    }

    /** [vee(Rᵀ Ṙ); Rᵀ ṗ] from R (9) and the rate (Ṙ (9), ṗ (3)). */
    private static double[] bodyTwist(double[] r, double[] rate) {
        double[] w = new double[9]; // Rᵀ Ṙ
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                w[3 * i + j] = r[i] * rate[j] + r[3 + i] * rate[3 + j] + r[6 + i] * rate[6 + j];
            }
        }
        double[] twist = new double[6];
        twist[0] = 0.5 * (w[7] - w[5]);
        twist[1] = 0.5 * (w[2] - w[6]);
        twist[2] = 0.5 * (w[3] - w[1]);
        for (int k = 0; k < 3; k++) {
            twist[3 + k] = r[k] * rate[9] + r[3 + k] * rate[10] + r[6 + k] * rate[11];
        }
        return twist;
    }

    // ------------------------------------------------------------------------------------------------ built models

    private static RigidBodyInertia inertia(double m, double cx, double cy, double cz, double a, double b, double c) {
        // Principal moments a, b, c (satisfying the triangle inequality) with small products of inertia.
        return RigidBodyInertia.of(m, new double[] {cx, cy, cz}, a, 0.1 * Math.min(a, b) * 0.3,
                -0.05 * Math.min(a, c), b, 0.02 * Math.min(b, c), c);
    }

    private static Pose pose(double x, double y, double z, double roll, double pitch, double yaw) {
        return Pose.fromXyzRpy(new double[] {x, y, z}, new double[] {roll, pitch, yaw});
    }

    /**
     * A fixed-base tree with every joint type but floating: a planar root joint with a tilted normal, then a
     * revolute, a ball, a prismatic joint with limits and a fixed tool link; a branch with a planar joint whose
     * normal is nearly x (the other case of planarBasis) and a continuous joint.
     */
    private static Model planarBallModel() throws ModelException {
        return Model.builder("planar_ball")
                .addBody("sled", "world", "slide", JointType.PLANAR, new double[] {0.3, -0.2, 0.9},
                        pose(0.1, 0.2, 0.3, 0.2, -0.1, 0.4), inertia(2.0, 0.05, -0.02, 0.1, 0.05, 0.07, 0.09))
                .addBody(BodySpec.builder("arm", "sled", "hinge", JointType.REVOLUTE).axis(0, 1, 0.2)
                        .placement(pose(0.2, 0, 0.1, 0, 0.3, 0)).limits(-2.0, 2.5)
                        .inertia(inertia(1.2, 0.2, 0, 0.01, 0.01, 0.04, 0.045)).build())
                .addBody("shoulder", "arm", "socket", JointType.BALL, null, pose(0.4, 0, 0, 0.5, 0.2, -0.3),
                        inertia(0.8, 0.1, 0.05, -0.03, 0.006, 0.008, 0.01))
                .addBody(BodySpec.builder("ram", "shoulder", "slider", JointType.PRISMATIC).axis(1, 0.5, 0)
                        .placement(pose(0.2, 0.1, 0, 0, 0, 0.7)).limits(-0.2, 0.3)
                        .inertia(inertia(0.5, 0, 0.02, 0.05, 0.002, 0.003, 0.004)).build())
                .addFixedLink("tool", "ram", pose(0.1, 0, 0.05, 0.3, 0, 0),
                        inertia(0.3, 0.02, 0, 0, 0.001, 0.0012, 0.0015), org.symdyn.model.SourceLocation.UNKNOWN,
                        org.symdyn.model.SourceLocation.UNKNOWN)
                .addBody("skid", "sled", "side_plane", JointType.PLANAR, new double[] {1, 0.05, 0.1},
                        pose(-0.1, 0.3, 0, 0, 0, 1.1), inertia(0.9, -0.04, 0.03, 0.02, 0.01, 0.012, 0.015))
                .addBody("wheel", "skid", "spin", JointType.CONTINUOUS, new double[] {0, 0, 1},
                        pose(0, 0.15, 0, 1.2, 0, 0), inertia(0.4, 0, 0, 0.01, 0.002, 0.002, 0.0035))
                .build();
    }

    /** A floating trunk carrying a ball-jointed arm and a planar-jointed foot with a revolute toe. */
    private static Model floatingBallPlanarModel() throws ModelException {
        return Model.builder("floating_ball_planar")
                .addBody("trunk", "world", "root", JointType.FLOATING, null, Pose.IDENTITY,
                        inertia(8.0, 0.02, -0.01, 0.03, 0.3, 0.5, 0.6))
                .addBody("upper_arm", "trunk", "shoulder", JointType.BALL, null, pose(0.2, 0.15, 0.1, 0, 0.4, 0),
                        inertia(1.1, 0, 0, -0.15, 0.012, 0.012, 0.003))
                .addBody("forearm", "upper_arm", "elbow", JointType.REVOLUTE, new double[] {0, 1, 0},
                        pose(0, 0, -0.3, 0, 0, 0), inertia(0.7, 0, 0, -0.12, 0.006, 0.006, 0.001))
                .addBody("skate", "trunk", "glide", JointType.PLANAR, new double[] {0, 0, 1},
                        pose(-0.2, -0.1, -0.25, 0.1, 0, 0), inertia(0.6, 0.03, 0, -0.02, 0.002, 0.003, 0.004))
                .addBody("toe", "skate", "toe_joint", JointType.REVOLUTE, new double[] {1, 0, 0},
                        pose(0.1, 0, -0.05, 0, 0, 0.2), inertia(0.2, 0, 0.02, 0, 0.0004, 0.0003, 0.0005))
                .build();
    }

    // ------------------------------------------------------------------------------------------------ helpers

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

    private static double maxDiff(double[] a, double[] b) {
        assertEquals(a.length, b.length);
        double m = 0;
        for (int i = 0; i < a.length; i++) {
            m = Math.max(m, Math.abs(a[i] - b[i]));
        }
        return m;
    }

    private static double[] times(DMatrixRMaj a, double[] x) {
        double[] y = new double[a.numRows];
        CommonOps_DDRM.mult(a, DMatrixRMaj.wrap(x.length, 1, x), DMatrixRMaj.wrap(y.length, 1, y));
        return y;
    }

    private static double dot(double[] a, double[] b) {
        return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    }

    private static double[] cross(double[] a, double[] b) {
        return new double[] {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
    }

    private static void assertArrayClose(double[] expected, double[] actual, double tol, String what) {
        assertEquals(expected.length, actual.length, what);
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], actual[i], tol, what + "[" + i + "]");
        }
    }
}
