package org.symdyn.constraints;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.symdyn.contract.ConstraintType;
import org.symdyn.contract.Kinematics;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.model.ConstraintModel;
import org.symdyn.model.ContactConstraintModel;
import org.symdyn.model.CouplerConstraintModel;
import org.symdyn.model.LoopConstraintModel;
import org.symdyn.model.Model;
import org.symdyn.model.SourceLocation;
import org.symdyn.spatial.Pose;
import org.symdyn.testing.SharedFiles;
import org.symdyn.testing.TestJson;

/** Groups, queries, row evaluation, Baumgarte and force resolution of {@link ConstraintSet}. */
class ConstraintSetTest {
    private static final double[] FOOT = {0, -0.4, 0};
    private static final double[] X = {1, 0, 0};
    private static final double[] Y = {0, 1, 0};

    @Test
    void modelConstraintsBecomeNamedGroups() throws Exception {
        ConstraintSet set = ConstraintSet.of(TestMechanisms.spatialMechanism());
        assertEquals(3, set.groupCount());
        assertEquals(6, set.size());
        assertEquals(0, set.groupIndex("loop"));
        assertEquals(1, set.groupIndex("touch"));
        assertEquals(2, set.groupIndex("gear"));
        assertEquals(ConstraintType.LOOP, set.group(0).type());
        assertEquals(ConstraintType.CONTACT, set.group(1).type());
        assertEquals(ConstraintType.COUPLER, set.group(2).type());
        assertEquals(4, set.group(0).size());
        assertEquals(ConstraintSet.NO_ID, set.group(0).userId());
        assertEquals(0, set.group(0).assignedId());
        assertEquals(4, set.group(1).assignedId());
        assertEquals(5, set.group(2).assignedId());
        assertEquals(1, set.groupIndexByAssignedId(4));
        assertEquals(0, set.groupIndexByAssignedId(3));
        assertEquals("loop", set.group(0).name());
        assertFalse(set.group(0).baumgarteByDefault());
        assertArrayEquals(new double[] {10, 10}, new double[] {set.group(0).defaultBaumgarteAlpha(),
            set.group(0).defaultBaumgarteBeta()});
        ConstraintData data = set.bindGeneric();
        assertFalse(data.isBaumgarteEnabled(0));
        assertEquals(List.of("loop[0]", "loop[1]", "loop[2]", "loop[3]", "touch", "gear"), set.rowNames());
        assertEquals(4, set.group(1).rowOffset());
        assertEquals(5, set.group(2).rowOffset());
        assertThrows(IllegalArgumentException.class, () -> set.groupIndex("nope"));
        // The description is immutable: adding to a builder after build() leaves the built set as it was.
        ConstraintSet.Builder builder = ConstraintSet.builder(TestMechanisms.spatialMechanism());
        ConstraintSet before = builder.build();
        builder.addContact(2, FOOT, X);
        assertEquals(6, before.size());
        assertEquals(7, builder.build().size());
    }

    @Test
    void modelTimeConstantEnablesBaumgarte() throws Exception {
        Model model = TestMechanisms.spatialBodies(Model.builder("stabilised").root("base"))
                .addConstraint(new CouplerConstraintModel("gear", 4, 0, 2.5, 0.1, 0.05, SourceLocation.UNKNOWN))
                .build();
        ConstraintSet set = ConstraintSet.of(model);
        assertTrue(set.group(0).baumgarteByDefault());
        ConstraintData data = set.bindGeneric();
        assertTrue(data.isBaumgarteEnabled(0));
        assertEquals(0.05, data.baumgarteTimeConstant(0), 1e-15);
        assertEquals(20, data.baumgarteAlpha(0), 1e-12);
    }

    @Test
    void codeConstraintsGroupByBodyPointAndFrames() throws Exception {
        ConstraintSet.Builder builder = ConstraintSet.builder(TestMechanisms.planarLeg()).withoutModelConstraints();
        assertEquals(0, builder.addContact(2, FOOT, X, "foot_x", 7));
        assertEquals(1, builder.addContact(2, FOOT, Y, "foot_y", 8));
        assertEquals(2, builder.addContact(1, FOOT, X));
        assertEquals(3, builder.addLoop(-1, Pose.translation(0, -1, 0), 0, Pose.IDENTITY,
                List.of(new double[] {0, 0, 0, 0, 1, 0}, new double[] {0, 0, 1, 0, 0, 0}), true, 0.2, "trunk", 9));
        assertEquals(5, builder.addLoop(-1, Pose.translation(0, -1, 0), 0, Pose.IDENTITY, List.of(X6), true, 0.2,
                null, ConstraintSet.NO_ID));
        assertEquals(6, builder.addCoupler(2, 1, -1, 0.5, "knee_hip", 11));
        ConstraintSet set = builder.build();
        assertEquals(4, set.groupCount());
        assertEquals(0, set.groupIndex("foot_x"));
        assertEquals(0, set.groupIndex("foot_y"));
        assertEquals(0, set.groupIndexById(8));
        assertEquals(7, set.group(0).userId());
        assertEquals(0, set.groupIndexByAssignedId(1));
        assertEquals(1, set.groupIndexByAssignedId(2));
        assertEquals("contact#2", set.group(1).name());
        assertEquals(2, set.groupIndexById(9));
        assertEquals(2, set.groupIndexByAssignedId(5));
        assertEquals(3, set.group(2).size());
        assertTrue(set.group(2).baumgarteByDefault());
        assertEquals(5, set.group(2).defaultBaumgarteAlpha(), 1e-15);
        assertEquals(ConstraintType.COUPLER, set.group(3).type());
        assertEquals(3, set.groupIndexById(11));
        // Names and ids are unique; a second contact at the same point only differs in its normal.
        assertThrows(IllegalArgumentException.class, () -> builder.addContact(2, FOOT, X, "foot_x", 1));
        assertThrows(IllegalArgumentException.class, () -> builder.addContact(2, FOOT, X, "other", 7));
        assertThrows(IllegalArgumentException.class, () -> builder.addContact(2, FOOT, new double[] {1, 1, 0}));
        assertThrows(IllegalArgumentException.class, () -> builder.addContact(5, FOOT, X));
        // numbers that are not finite are refused where they are given (a NaN point failed later as "G has a
        // non-finite entry"; a NaN frame gave finite rows)
        assertThrows(IllegalArgumentException.class, () -> builder.addContact(2, new double[] {Double.NaN, 0, 0}, X));
        assertThrows(IllegalArgumentException.class, () -> builder.addLoop(-1,
                org.symdyn.spatial.Pose.translation(Double.POSITIVE_INFINITY, 0, 0), 2,
                org.symdyn.spatial.Pose.IDENTITY, X6));
        assertEquals(List.of("foot_x", "foot_y", "contact#2", "trunk[0]", "trunk[1]", "loop#5", "knee_hip"),
                set.rowNames());
        assertEquals(List.of("trunk[0]", "trunk[1]", "loop#5"), set.group(2).rowNames());
        assertEquals(3, set.group(2).rowOffset());
    }

    private static final double[] X6 = {0, 0, 0, 1, 0, 0};

    /** A model built in code is held to the numbers its readers check: a NaN contact point or loop frame is an error. */
    @Test
    void modelConstraintsInCodeMustBeFinite() {
        for (ConstraintModel bad : List.of(
                new ContactConstraintModel("c", 0, new double[] {0, Double.NaN, 0}, new double[] {0, 0, 1}, 0.1,
                        SourceLocation.UNKNOWN),
                new LoopConstraintModel("l", -1, Pose.translation(0, 0, Double.NaN), 0, Pose.IDENTITY,
                        List.of(X6), 0.1, SourceLocation.UNKNOWN))) {
            org.symdyn.model.ModelBuilder b = Model.builder("one");
            b.addBody("link", "world", "j", org.symdyn.model.JointType.REVOLUTE, new double[] {0, 0, 1},
                    Pose.IDENTITY, org.symdyn.spatial.RigidBodyInertia.of(1, new double[3], 0.1, 0, 0, 0.1, 0, 0.1));
            b.addConstraint(bad);
            org.symdyn.model.ModelException e = assertThrows(org.symdyn.model.ModelException.class, b::build);
            assertTrue(e.getMessage().contains("is not finite"), e.getMessage());
        }
    }

    /** The same constraints added in code (evaluated through Kinematics) as declared in the model. */
    private static ConstraintData codeTwin(Model model) {
        ConstraintSet.Builder set = ConstraintSet.builder(model).withoutModelConstraints();
        for (ConstraintModel c : model.constraints()) {
            if (c instanceof LoopConstraintModel l) {
                set.addLoop(l.predecessorBody(), l.predecessorFrame(), l.successorBody(), l.successorFrame(),
                        l.axes(), false, 0.1, l.name(), ConstraintSet.NO_ID);
            } else if (c instanceof ContactConstraintModel k) {
                set.addContact(k.body(), k.point(), k.normal(), k.name(), ConstraintSet.NO_ID);
            } else if (c instanceof CouplerConstraintModel k) {
                set.addCoupler(k.joint(), k.referenceJoint(), k.ratio(), k.offset(), k.name(), ConstraintSet.NO_ID);
            }
        }
        return set.build().bindGeneric();
    }

    /** Rows in code (Kinematics) and the model's ConstraintFunctions (GenericConstraints) agree to rounding. */
    @Test
    void codeRowsMatchModelConstraintFunctions() throws Exception {
        Random rnd = new Random(3);
        for (Model model : List.of(TestMechanisms.fourBar(), TestMechanisms.planarLeg(),
                TestMechanisms.spatialMechanism())) {
            ConstraintData fromModel = ConstraintSet.of(model).bindGeneric();
            ConstraintData inCode = codeTwin(model);
            assertEquals(fromModel.set().rowNames(), inCode.set().rowNames());
            int m = fromModel.size();
            for (int n = 0; n < 20; n++) {
                double[] q = TestMechanisms.randomQ(model, rnd);
                double[] v = TestMechanisms.random(model.nv(), 2, rnd);
                double[][] a = evaluate(fromModel, q, v);
                double[][] b = evaluate(inCode, q, v);
                for (int k = 0; k < a.length; k++) {
                    double scale = Math.max(1, TestMechanisms.maxAbs(a[k]));
                    assertTrue(TestMechanisms.maxDiff(a[k], b[k]) <= 1e-12 * scale, model.name() + " quantity " + k);
                }
                assertEquals(m, a[0].length);
            }
        }
    }

    private static double[][] evaluate(ConstraintData set, double[] q, double[] v) {
        int m = set.size();
        double[] phi = new double[m];
        double[] phidot = new double[m];
        double[] gamma = new double[m];
        DMatrixRMaj g = new DMatrixRMaj(m, set.nv());
        set.positionError(q, phi);
        set.velocityError(q, v, phidot);
        set.gamma(q, v, gamma);
        set.jacobian(q, g);
        // φ̇ = G v for holonomic rows, a check of both.
        assertTrue(TestMechanisms.maxDiff(phidot, TestMechanisms.mult(g, v)) <= 1e-12 * (1 + TestMechanisms.maxAbs(
                phidot)));
        return new double[][] {phi, phidot, gamma, g.data.clone()};
    }

    /** Per-group errors and RBDL's Baumgarte terms on the four-bar's inconsistent reference state. */
    @Test
    void groupErrorsAndBaumgarteAgainstReference() throws Exception {
        Path file = SharedFiles.require("reference/fourbar.json");
        Map<String, Object> ref = TestJson.object(TestJson.parse(file));
        for (ConstraintData set : List.of(ConstraintSet.of(TestMechanisms.fourBar()).bindGeneric(),
                codeTwin(TestMechanisms.fourBar()))) {
            for (Object o : TestJson.list(ref.get("samples"))) {
                Map<String, Object> in = TestJson.object(TestJson.object(o).get("inconsistent_state"));
                Map<String, Object> off = TestJson.object(in.get("baumgarte_off"));
                Map<String, Object> on = TestJson.object(in.get("baumgarte_on_Tstab_0.1"));
                double[] q = TestJson.vector(in.get("q"));
                double[] v = TestJson.vector(in.get("qdot"));
                double[] phi = new double[2];
                double[] phidot = new double[2];
                set.positionError(0, q, phi);
                set.velocityError(0, q, v, phidot);
                assertClose(TestJson.vector(off.get("position_error")), phi);
                assertClose(TestJson.vector(off.get("velocity_error")), phidot);
                set.computeSystem(q, v);
                assertClose(TestJson.vector(off.get("gamma")), set.gamma());
                assertClose(flatten(TestJson.matrix(off.get("H"))), set.H().data);
                assertClose(TestJson.vector(off.get("C")), set.C());
                assertClose(flatten(TestJson.matrix(off.get("G"))), set.G().data);
                double[] stab = new double[2];
                set.baumgarteTerm(0, phi, phidot, stab);
                double[] offGamma = TestJson.vector(off.get("gamma"));
                double[] expected = TestJson.vector(on.get("gamma"));
                assertClose(expected, new double[] {offGamma[0] + stab[0], offGamma[1] + stab[1]});
                set.enableBaumgarte(0);
                set.computeSystem(q, v);
                assertClose(expected, set.gamma());
                set.disableBaumgarte(0);
            }
        }
    }

    private static void assertClose(double[] expected, double[] actual) {
        double scale = Math.max(1e-300, TestMechanisms.maxAbs(expected));
        assertTrue(TestMechanisms.maxDiff(expected, actual) <= 1e-11 * Math.max(1, scale),
                java.util.Arrays.toString(expected) + " vs " + java.util.Arrays.toString(actual));
    }

    private static double[] flatten(double[][] m) {
        double[] out = new double[m.length * m[0].length];
        for (int i = 0; i < m.length; i++) {
            System.arraycopy(m[i], 0, out, i * m[0].length, m[0].length);
        }
        return out;
    }

    /**
     * The four-bar's closure in closed form as a user constraint: the rocker tip (c, 0, 0) minus the ground
     * point (d, 0, 0), with G and γ from the planar 3R chain.
     */
    static final class ClosedFormClosure extends CustomConstraint {
        private static final double[] L = {1, 2, 1.5};
        int bindCalls;

        ClosedFormClosure() {
            super(2);
        }

        @Override
        protected void onBind(Kinematics kin) {
            assertEquals(3, kin.nv());
            bindCalls++;
        }

        @Override
        public void positionError(double[] q, double[] phi, int offset) {
            double t = 0, x = 0, y = 0;
            for (int i = 0; i < 3; i++) {
                t += q[i];
                x += L[i] * Math.cos(t);
                y += L[i] * Math.sin(t);
            }
            phi[offset] = x - 2;
            phi[offset + 1] = y;
        }

        @Override
        public void jacobian(double[] q, DMatrixRMaj g, int rowOffset) {
            double[] t = {q[0], q[0] + q[1], q[0] + q[1] + q[2]};
            for (int j = 0; j < 3; j++) {
                double sx = 0, sy = 0;
                for (int i = j; i < 3; i++) {
                    sx -= L[i] * Math.sin(t[i]);
                    sy += L[i] * Math.cos(t[i]);
                }
                g.set(rowOffset, j, sx);
                g.set(rowOffset + 1, j, sy);
            }
        }

        @Override
        public void gamma(double[] q, double[] v, double[] gamma, int offset) {
            double t = 0, w = 0, ax = 0, ay = 0;
            for (int i = 0; i < 3; i++) {
                t += q[i];
                w += v[i];
                // Tip acceleration at zero joint acceleration: -Σ L_i ω_i² (cos, sin).
                ax -= L[i] * w * w * Math.cos(t);
                ay -= L[i] * w * w * Math.sin(t);
            }
            gamma[offset] = -ax;
            gamma[offset + 1] = -ay;
        }
    }

    @Test
    void customConstraintMatchesLoopRows() throws Exception {
        Model model = TestMechanisms.fourBar();
        ConstraintSet.Builder builder = ConstraintSet.builder(model).withoutModelConstraints();
        ClosedFormClosure closure = new ClosedFormClosure();
        assertEquals(0, builder.addCustom(closure, "closed_form", 42));
        ConstraintSet customSet = builder.build();
        assertEquals(ConstraintType.CUSTOM, customSet.group(0).type());
        assertEquals(0, customSet.groupIndexById(42));
        ConstraintData custom = customSet.bindGeneric();
        assertEquals(1, closure.bindCalls);
        // An instance binds once; a second bind is refused with advice.
        assertThrows(IllegalStateException.class, customSet::bindGeneric);
        ConstraintData loop = ConstraintSet.of(model).bindGeneric();
        Random rnd = new Random(5);
        for (int n = 0; n < 20; n++) {
            double[] q = TestMechanisms.randomQ(model, rnd);
            double[] v = TestMechanisms.random(3, 2, rnd);
            double[][] a = evaluate(loop, q, v);
            double[][] b = evaluate(custom, q, v);
            for (int k = 0; k < a.length; k++) {
                assertTrue(TestMechanisms.maxDiff(a[k], b[k]) <= 1e-12 * Math.max(1, TestMechanisms.maxAbs(a[k])),
                        "quantity " + k);
            }
        }
        assertThrows(UnsupportedOperationException.class,
                () -> custom.forces(0, new double[3], false, custom.newForceBuffer()));
    }

    /**
     * Spatial forces resolved on bodies reproduce the generalised constraint force: Σ_k J_kᵀ f_k = G_gᵀ λ_g for
     * every group (loop between two bodies and to the world, contact, coupler), in frame and in world coordinates;
     * impulses give -G_gᵀ Λ_g.
     */
    @Test
    void bodyForcesReproduceGeneralisedForces() throws Exception {
        Model spatial = TestMechanisms.spatialMechanism();
        ConstraintData spatialSet = ConstraintSet.of(spatial).bindGeneric();
        ConstraintData fourBarSet = ConstraintSet.of(TestMechanisms.fourBar()).bindGeneric();
        ConstraintData code = codeTwin(spatial);
        Random rnd = new Random(9);
        for (ConstraintData set : List.of(spatialSet, fourBarSet, code)) {
            Kinematics kin = set.kinematics();
            Model model = set.set().model();
            ConstraintForces buffer = set.newForceBuffer();
            DMatrixRMaj g = new DMatrixRMaj(set.size(), model.nv());
            for (int n = 0; n < 10; n++) {
                double[] q = TestMechanisms.randomQ(model, rnd);
                set.jacobian(q, g);
                double[] lambda = TestMechanisms.random(set.size(), 3, rnd);
                System.arraycopy(lambda, 0, set.force(), 0, lambda.length);
                for (int i = 0; i < lambda.length; i++) {
                    set.impulse()[i] = -lambda[i];
                }
                for (int group = 0; group < set.set().groupCount(); group++) {
                    double[] masked = new double[lambda.length];
                    int off = set.set().group(group).rowOffset();
                    System.arraycopy(lambda, off, masked, off, set.set().group(group).size());
                    double[] expected = TestMechanisms.multTrans(g, masked);
                    for (boolean inWorld : new boolean[] {false, true}) {
                        set.forces(group, q, inWorld, buffer);
                        assertTrue(buffer.count() >= 2);
                        double[] actual = ConstraintForceChecks.generalisedForce(kin, q, buffer);
                        assertTrue(TestMechanisms.maxDiff(expected, actual) <= 1e-12 * (1 + TestMechanisms.maxAbs(
                                expected)), set.set().group(group).name() + " world=" + inWorld + ": "
                                        + java.util.Arrays.toString(expected) + " vs "
                                        + java.util.Arrays.toString(actual));
                        set.impulses(group, q, inWorld, buffer);
                        actual = ConstraintForceChecks.generalisedForce(kin, q, buffer);
                        assertTrue(TestMechanisms.maxDiff(expected, actual) <= 1e-12 * (1 + TestMechanisms.maxAbs(
                                expected)), "impulses of " + set.set().group(group).name());
                    }
                }
            }
        }
    }
}
