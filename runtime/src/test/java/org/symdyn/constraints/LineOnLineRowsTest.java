package org.symdyn.constraints;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.symdyn.contract.ConstraintType;
import org.symdyn.contract.Kinematics;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.model.JointType;
import org.symdyn.model.LineOnLineConstraintModel;
import org.symdyn.model.Model;
import org.symdyn.model.ModelBuilder;
import org.symdyn.model.ModelException;
import org.symdyn.model.SourceLocation;
import org.symdyn.solvers.ConstrainedDynamics;
import org.symdyn.solvers.ConstraintSolverMethod;
import org.symdyn.spatial.Pose;
import org.symdyn.spatial.RigidBodyInertia;

/**
 * {@link LineOnLineRows}: a model's line-on-line constraint (rolling and not) in {@link ConstraintSet#of} runs through
 * constrained dynamics with KKT residuals below 1e-10 and its multipliers resolve into body forces consistent with
 * Gᵀ λ; the same rows added in code give the same φ, φ̇, G and γ.
 */
class LineOnLineRowsTest {
    private static final double NAN = Double.NaN;
    private static final RigidBodyInertia BOX = RigidBodyInertia.of(1.3, new double[] {0.05, -0.02, 0.1}, 0.02,
            0.001, 0, 0.03, 0.002, 0.025);

    /** A revolute link and a free block (bodies 0 and 1), no constraints. */
    private static ModelBuilder linkAndBlock() {
        return Model.builder("link_block")
                .addBody("link", "world", "hinge", JointType.REVOLUTE, new double[] {0, 0.3, 1},
                        Pose.fromXyzRpy(new double[] {0.1, 0.2, 0.3}, new double[] {0.1, -0.2, 0.3}), BOX)
                .addBody("block", "world", "free", JointType.FLOATING, null, Pose.IDENTITY, BOX);
    }

    private static Pose edge(double x, double y, double z, double roll, double pitch, double yaw) {
        return Pose.fromXyzRpy(new double[] {x, y, z}, new double[] {roll, pitch, yaw});
    }

    /** Constraints between the link (0), the block (1) and the world (-1), rolling and not. */
    private static List<LineOnLineConstraintModel> variants() {
        return List.of(
                new LineOnLineConstraintModel("link_block_rolling", 0, edge(0.1, -0.2, 0.15, 0.3, 0.2, -0.4), 0.4, 1,
                        edge(-0.1, 0.05, 0.2, -0.5, 0.1, 1.2), 0.3, true, NAN, SourceLocation.UNKNOWN),
                new LineOnLineConstraintModel("block_link_sliding", 1, edge(0, 0.1, 0.1, 0.2, 0.6, 0.9), 0.5, 0,
                        edge(0.3, 0, 0.05, -0.4, 0.2, 0.1), 0.5, false, NAN, SourceLocation.UNKNOWN),
                new LineOnLineConstraintModel("world_block_rolling", -1, edge(0.2, 0.1, -0.1, 0.4, -0.3, 0.2), 1, 1,
                        edge(0.05, 0.1, 0, 1.1, 0.4, -0.7), 0.2, true, NAN, SourceLocation.UNKNOWN),
                new LineOnLineConstraintModel("block_world_sliding", 1, edge(0.1, 0, -0.1, 0.9, 0.1, 0.2), 0.5, -1,
                        edge(0, 0.3, 0, 0.1, -0.2, 1.4), 0.5, false, NAN, SourceLocation.UNKNOWN));
    }

    private static double maxAbs(double[] x) {
        return TestMechanisms.maxAbs(x);
    }

    /**
     * H v̇ + C - τ - Gᵀ λ = 0 and G v̇ - γ = 0 to 1e-10 (relative to the terms' size) at random states, for every
     * variant; all three methods agree on v̇; and Σ_k J_kᵀ f_k of the resolved body forces equals Gᵀ λ to 1e-12.
     */
    @Test
    void modelConstraintRunsThroughConstrainedDynamicsAndResolvesForces() throws ModelException {
        Random rnd = new Random(21);
        for (LineOnLineConstraintModel cm : variants()) {
            Model model = linkAndBlock().addConstraint(cm).build();
            ConstraintData set = ConstraintSet.of(model).bindGeneric();
            assertEquals(ConstraintType.LINE_ON_LINE, set.set().group(0).type());
            assertEquals(cm.rolling() ? 3 : 1, set.size());
            ConstrainedDynamics cd = new ConstrainedDynamics(set);
            Kinematics kin = set.kinematics();
            ConstraintForces buffer = set.newForceBuffer();
            assertEquals(2, buffer.capacity());
            int nv = model.nv();
            int m = set.size();
            for (int n = 0; n < 10; n++) {
                double[] q = TestMechanisms.randomQ(model, rnd);
                double[] v = TestMechanisms.random(nv, 2, rnd);
                double[] tau = TestMechanisms.random(nv, 5, rnd);
                double[] vdot = new double[nv];
                cd.forwardDynamicsDirect(q, v, tau, vdot);
                double[] lambda = set.force().clone();
                DMatrixRMaj h = set.H();
                DMatrixRMaj g = set.G();
                double[] gtl = TestMechanisms.multTrans(g, lambda);
                double[] hv = TestMechanisms.mult(h, vdot);
                double scale = 1 + maxAbs(tau) + maxAbs(set.C()) + maxAbs(gtl) + maxAbs(hv);
                double residual = 0;
                for (int i = 0; i < nv; i++) {
                    residual = Math.max(residual, Math.abs(hv[i] + set.C()[i] - tau[i] - gtl[i]));
                }
                double[] gv = TestMechanisms.mult(g, vdot);
                double rowScale = 1 + maxAbs(set.gamma()) + maxAbs(gv);
                double rowResidual = 0;
                for (int i = 0; i < m; i++) {
                    rowResidual = Math.max(rowResidual, Math.abs(gv[i] - set.gamma()[i]));
                }
                assertTrue(residual < 1e-10 * scale, cm.name() + " dynamics residual " + residual / scale);
                assertTrue(rowResidual < 1e-10 * rowScale, cm.name() + " constraint residual " + rowResidual
                        / rowScale);
                for (ConstraintSolverMethod method : ConstraintSolverMethod.values()) {
                    double[] other = new double[nv];
                    cd.forwardDynamics(method, q, v, tau, other);
                    assertTrue(TestMechanisms.maxDiff(vdot, other) < 1e-9 * (1 + maxAbs(vdot)), method.toString());
                }
                System.arraycopy(lambda, 0, set.force(), 0, m);
                for (boolean inWorld : new boolean[] {false, true}) {
                    set.forces(0, q, inWorld, buffer);
                    assertEquals(2, buffer.count());
                    assertEquals(cm.bodyB(), buffer.body(0));
                    assertEquals(cm.bodyF(), buffer.body(1));
                    double[] actual = ConstraintForceChecks.generalisedForce(kin, q, buffer);
                    assertTrue(TestMechanisms.maxDiff(gtl, actual) <= 1e-12 * (1 + maxAbs(gtl)),
                            cm.name() + " inWorld=" + inWorld + " Gᵀλ " + java.util.Arrays.toString(gtl) + " vs "
                                    + java.util.Arrays.toString(actual));
                    // Action and reaction: the forces of B and F are opposite (moved to a common point).
                    if (inWorld) {
                        for (int i = 3; i < 6; i++) {
                            assertEquals(-buffer.force(0)[i], buffer.force(1)[i], 1e-12 * (1 + maxAbs(lambda)));
                        }
                    }
                }
            }
        }
    }

    /** Rows added in code (ConstraintSet.addRows) equal the model group's rows evaluated by GenericConstraints. */
    @Test
    void rowsAddedInCodeMatchTheModelRows() throws ModelException {
        Random rnd = new Random(22);
        for (LineOnLineConstraintModel cm : variants()) {
            ConstraintData fromModel = ConstraintSet.of(linkAndBlock().addConstraint(cm).build()).bindGeneric();
            Model bare = linkAndBlock().build();
            ConstraintSet.Builder inCodeBuilder = ConstraintSet.builder(bare).withoutModelConstraints();
            LineOnLineRows rows = new LineOnLineRows(cm);
            assertEquals(ConstraintType.LINE_ON_LINE, rows.type());
            assertEquals(cm.rolling() ? 3 : 1, rows.rowCount());
            inCodeBuilder.addRows(rows, cm.name(), 7);
            ConstraintData inCode = inCodeBuilder.build().bindGeneric();
            assertEquals(ConstraintType.LINE_ON_LINE, inCode.set().group(0).type());
            assertTrue(rows.contact() != null);
            int m = fromModel.size();
            int nv = bare.nv();
            for (int n = 0; n < 10; n++) {
                double[] q = TestMechanisms.randomQ(bare, rnd);
                double[] v = TestMechanisms.random(nv, 2, rnd);
                double[] a = new double[m];
                double[] b = new double[m];
                fromModel.positionError(q, a);
                inCode.positionError(q, b);
                assertTrue(TestMechanisms.maxDiff(a, b) <= 1e-15, "phi");
                fromModel.velocityError(q, v, a);
                inCode.velocityError(q, v, b);
                assertTrue(TestMechanisms.maxDiff(a, b) <= 1e-15, "phidot");
                fromModel.gamma(q, v, a);
                inCode.gamma(q, v, b);
                assertTrue(TestMechanisms.maxDiff(a, b) <= 1e-15 * (1 + maxAbs(a)), "gamma");
                DMatrixRMaj ga = new DMatrixRMaj(m, nv);
                DMatrixRMaj gb = new DMatrixRMaj(m, nv);
                fromModel.jacobian(q, ga);
                inCode.jacobian(q, gb);
                assertTrue(TestMechanisms.maxDiff(ga.data, gb.data) <= 1e-15, "G");
            }
            assertThrows(IllegalStateException.class, () -> rows.bind(new GenericDynamics(bare)));
        }
    }

    @Test
    void badBodyIsRefusedWhenBinding() throws ModelException {
        Model bare = linkAndBlock().build();
        ConstraintSet.Builder setBuilder = ConstraintSet.builder(bare).withoutModelConstraints();
        setBuilder.addRows(new LineOnLineRows(new LineOnLineConstraintModel("bad", 5, Pose.IDENTITY, 1, 0, Pose.IDENTITY, 1,
                false, NAN, SourceLocation.UNKNOWN)), "bad", ConstraintSet.NO_ID);
        assertThrows(IllegalArgumentException.class, () -> setBuilder.build().bindGeneric());
    }
}
