package org.symdyn.solvers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.Function;
import java.util.stream.Stream;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.constraints.ConstraintSet;
import org.symdyn.constraints.TestMechanisms;
import org.symdyn.dynamics.DynamicsDerivativesTest;
import org.symdyn.model.Model;
import org.symdyn.manifold.StateSpace;

/**
 * {@link ConstrainedDynamicsDerivatives} against central differences of the constrained forward dynamics itself
 * (Richardson, q moved along the tangent directions through {@link StateSpace}), on mechanisms with loops between
 * moving bodies and at rotated frames, contacts, couplers, ball, planar and floating joints, and Baumgarte
 * stabilisation; plus the identities ∂v̇/∂τ = H⁻¹ - H⁻¹Gᵀ K⁻¹ G H⁻¹ (G ∂v̇/∂τ = 0) and the refusals.
 */
class ConstrainedDynamicsDerivativesTest {
    private static final double[] FOOT = {0, 0, -0.3};
    private static final int STATES = 6;
    /** Richardson's O(h⁶) error on these smooth functions is far below; 1e-6 of the scale is the bar. */
    private static final double TOL = 1e-6;
    private static final Map<String, Double> WORST = new ConcurrentSkipListMap<>();

    static Stream<Arguments> sets() throws Exception {
        List<Arguments> out = new ArrayList<>();
        out.add(Arguments.of("spatial mechanism", ConstraintSet.of(TestMechanisms.spatialMechanism()), false));
        out.add(Arguments.of("spatial mechanism, Baumgarte", ConstraintSet.of(TestMechanisms.spatialMechanism()),
                true));
        out.add(Arguments.of("four-bar", ConstraintSet.of(TestMechanisms.fourBar()), false));
        out.add(Arguments.of("four-bar, Baumgarte", ConstraintSet.of(TestMechanisms.fourBar()), true));
        out.add(Arguments.of("planar leg", ConstraintSet.of(TestMechanisms.planarLeg()), true));
        out.add(Arguments.of("biped with coupler", SolverPropertyTest.bipedSet(), false));
        out.add(Arguments.of("tripod on 9 rows", SolverTestSupport.tripodSet(), false));
        ConstraintSet.Builder loops = ConstraintSet.builder(TestMechanisms.floatingBiped()).withoutModelConstraints();
        // A loop between the two shanks (both moving, frames rotated) and one to the world, a contact on the trunk.
        loops.addLoop(2, org.symdyn.spatial.Pose.fromXyzRpy(new double[] {0.02, 0.1, -0.3},
                new double[] {0.3, -0.2, 0.5}), 4, org.symdyn.spatial.Pose.fromXyzRpy(new double[] {0, -0.05, -0.25},
                new double[] {-0.1, 0.2, 0.1}), List.of(new double[] {0, 0, 0, 1, 0, 0},
                new double[] {0, 0, 0, 0, 0.6, 0.8}, new double[] {0.8, 0.6, 0, 0, 0, 0}), false, 0.1, "shanks",
                ConstraintSet.NO_ID);
        loops.addLoop(-1, org.symdyn.spatial.Pose.translation(0.1, 0.2, -0.6), 2,
                org.symdyn.spatial.Pose.translation(0, 0, -0.3), new double[] {0, 0, 0, 0, 0, 1});
        loops.addContact(0, new double[] {0.1, 0, 0.05}, new double[] {0.6, 0, 0.8});
        // A loop whose successor is the world (its frame in world coordinates).
        loops.addLoop(3, org.symdyn.spatial.Pose.fromXyzRpy(new double[] {0, 0.02, -0.1},
                new double[] {0.2, 0.1, -0.3}), -1, org.symdyn.spatial.Pose.fromXyzRpy(new double[] {0.1, -0.2, -0.4},
                new double[] {0.1, 0, 0.2}), List.of(new double[] {0, 1, 0, 0, 0, 0}, new double[] {0, 0, 0, 0, 0, 1}),
                false, 0.1, "thigh_to_world", ConstraintSet.NO_ID);
        ConstraintSet bipedLoops = loops.build();
        out.add(Arguments.of("biped with loops", bipedLoops, false));
        out.add(Arguments.of("biped with loops, Baumgarte", bipedLoops, true));
        return out.stream();
    }

    /** No rows: the unconstrained forward dynamics derivatives, and λ's derivatives have no rows. */
    @Test
    void withoutRowsTheUnconstrainedDerivatives() throws Exception {
        Model model = TestMechanisms.floatingBiped();
        ConstraintData data = ConstraintSet.builder(model).withoutModelConstraints().build().bindGeneric();
        int nv = model.nv();
        Random rnd = new Random(5);
        double[] q = TestMechanisms.randomQ(model, rnd);
        double[] v = TestMechanisms.random(nv, 1, rnd);
        double[] tau = TestMechanisms.random(nv, 3, rnd);
        DMatrixRMaj[] out = {new DMatrixRMaj(nv, nv), new DMatrixRMaj(nv, nv), new DMatrixRMaj(nv, nv),
            new DMatrixRMaj(0, nv), new DMatrixRMaj(0, nv), new DMatrixRMaj(0, nv)};
        new ConstrainedDynamicsDerivatives(data).compute(q, v, tau, out[0], out[1], out[2], out[3], out[4], out[5]);
        DMatrixRMaj[] expected = {new DMatrixRMaj(nv, nv), new DMatrixRMaj(nv, nv), new DMatrixRMaj(nv, nv)};
        new org.symdyn.dynamics.GenericDynamics(model).forwardDynamicsDerivatives(q, v, tau, expected[0],
                expected[1], expected[2]);
        String[] names = {"dvdot/dq", "dvdot/dv", "dvdot/dtau"};
        for (int i = 0; i < 3; i++) {
            double scale = Math.max(1, org.ejml.dense.row.CommonOps_DDRM.elementMaxAbs(expected[i]));
            for (int k = 0; k < nv * nv; k++) {
                assertEquals(expected[i].data[k], out[i].data[k], 1e-12 * scale, names[i]);
            }
        }
    }

    /** Outputs that are the same matrix are refused by name. */
    @Test
    void outputsMustBeDistinct() throws Exception {
        ConstraintData data = ConstraintSet.of(TestMechanisms.fourBar()).bindGeneric();
        ConstrainedDynamicsDerivatives d = new ConstrainedDynamicsDerivatives(data);
        DMatrixRMaj a = new DMatrixRMaj(3, 3);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> d.compute(
                new double[] {0.3, -0.2, 0.4}, new double[3], new double[3], a, new DMatrixRMaj(3, 3), a,
                new DMatrixRMaj(2, 3), new DMatrixRMaj(2, 3), new DMatrixRMaj(2, 3)));
        assertTrue(e.getMessage().startsWith("dvdotDtau must not be the same array as dvdotDq"), e.getMessage());
    }

    /** Under the policy that drops dependent rows the solve goes on, but the derivatives are refused: λ is not unique. */
    @Test
    void droppedRowsAreRefused() throws Exception {
        ConstraintSet set = ConstraintSet.of(TestMechanisms.fourBarWithAxes(new double[] {0, 0, 0, 1, 0, 0},
                new double[] {0, 0, 0, 1, 0, 0}));
        ConstraintData data = set.bindGeneric();
        data.settings().rankPolicy(org.symdyn.constraints.SolverSettings.RankPolicy.DROP_DEPENDENT_ROWS);
        ConstrainedDynamicsDerivatives d = new ConstrainedDynamicsDerivatives(data);
        int nv = data.nv();
        ConstraintRankException e = assertThrows(ConstraintRankException.class, () -> d.compute(
                new double[] {0.3, -0.2, 0.4}, new double[nv], new double[nv], new DMatrixRMaj(nv, nv),
                new DMatrixRMaj(nv, nv), new DMatrixRMaj(nv, nv), new DMatrixRMaj(2, nv), new DMatrixRMaj(2, nv),
                new DMatrixRMaj(2, nv)));
        assertTrue(e.getMessage().startsWith("constrained dynamics derivatives need independent rows"),
                e.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sets")
    void derivativesMatchCentralDifferences(String name, ConstraintSet set, boolean baumgarte) {
        ConstraintData data = set.bindGeneric();
        ConstraintData reference = set.bindGeneric();
        if (baumgarte) {
            for (int g = 0; g < set.groupCount(); g++) {
                data.setBaumgarteCoefficients(g, 3 + g, 5 + g);
                reference.setBaumgarteCoefficients(g, 3 + g, 5 + g);
                data.enableBaumgarte(g);
                reference.enableBaumgarte(g);
            }
        }
        Model model = set.model();
        int nv = model.nv();
        int m = set.size();
        StateSpace space = new StateSpace(model);
        ConstrainedDynamicsDerivatives derivatives = new ConstrainedDynamicsDerivatives(data);
        ConstrainedDynamics fd = new ConstrainedDynamics(reference);
        Random rnd = new Random(0xC0DE + name.hashCode());
        DMatrixRMaj[] out = {new DMatrixRMaj(nv, nv), new DMatrixRMaj(nv, nv), new DMatrixRMaj(nv, nv),
                new DMatrixRMaj(m, nv), new DMatrixRMaj(m, nv), new DMatrixRMaj(m, nv)};
        for (int s = 0; s < STATES; s++) {
            double[] q = TestMechanisms.randomQ(model, rnd);
            double[] v = TestMechanisms.random(nv, 1.5, rnd);
            double[] tau = TestMechanisms.random(nv, 5, rnd);
            derivatives.compute(q, v, tau, out[0], out[1], out[2], out[3], out[4], out[5]);
            // The solution itself is the forward dynamics'.
            double[] expectedVdot = new double[nv];
            fd.forwardDynamics(ConstraintSolverMethod.DIRECT, q, v, tau, expectedVdot);
            assertTrue(TestMechanisms.maxDiff(expectedVdot, derivatives.vdot())
                    <= 1e-9 * Math.max(1, TestMechanisms.maxAbs(expectedVdot)), name + ": v̇ differs");
            Function<double[][], double[]> solve = state -> {
                double[] vdot = new double[nv];
                fd.forwardDynamics(ConstraintSolverMethod.DIRECT, state[0], state[1], state[2], vdot);
                double[] both = Arrays.copyOf(vdot, nv + m);
                System.arraycopy(reference.force(), 0, both, nv, m);
                return both;
            };
            DMatrixRMaj[] expected = new DMatrixRMaj[6];
            for (int wrt = 0; wrt < 3; wrt++) {
                DMatrixRMaj vd = new DMatrixRMaj(nv, nv);
                DMatrixRMaj ld = new DMatrixRMaj(m, nv);
                for (int k = 0; k < nv; k++) {
                    double[] e = new double[nv];
                    e[k] = 1;
                    double[] xi = new double[nv];
                    if (wrt == 0) {
                        space.tangent(q, e, xi);
                    }
                    int which = wrt;
                    double[] col = DynamicsDerivativesTest.richardson(t -> {
                        double[] qq = q.clone();
                        double[] vv = v.clone();
                        double[] tt = tau.clone();
                        if (which == 0) {
                            space.retract(q, xi, t, qq);
                        } else if (which == 1) {
                            vv[e.length == 0 ? 0 : indexOf(e)] += t;
                        } else {
                            tt[indexOf(e)] += t;
                        }
                        return solve.apply(new double[][] {qq, vv, tt});
                    });
                    for (int r = 0; r < nv; r++) {
                        vd.set(r, k, col[r]);
                    }
                    for (int r = 0; r < m; r++) {
                        ld.set(r, k, col[nv + r]);
                    }
                }
                expected[wrt] = vd;
                expected[3 + wrt] = ld;
            }
            String[] names = {"dvdot/dq", "dvdot/dv", "dvdot/dtau", "dlambda/dq", "dlambda/dv", "dlambda/dtau"};
            for (int i = 0; i < 6; i++) {
                assertClose(name, names[i], expected[i], out[i], name + " state " + s);
            }
            // G ∂v̇/∂τ = 0: a torque cannot move the system off its rows.
            DMatrixRMaj gdt = new DMatrixRMaj(m, nv);
            org.ejml.dense.row.CommonOps_DDRM.mult(data.G(), out[2], gdt);
            double scale = Math.max(1, org.ejml.dense.row.CommonOps_DDRM.elementMaxAbs(out[2]));
            assertTrue(org.ejml.dense.row.CommonOps_DDRM.elementMaxAbs(gdt) <= 1e-9 * scale * Math.max(1,
                    org.ejml.dense.row.CommonOps_DDRM.elementMaxAbs(data.G())), name + ": G dv̇/dτ not zero");
        }
    }

    /**
     * The shared quadrupeds (floating base) held at their four feet along world x, y and z: 12 rows, as Crocoddyl's
     * 3-D contacts.
     */
    @ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.CsvSource({"solo12.urdf, FL_FOOT FR_FOOT HL_FOOT HR_FOOT",
        "anymal.urdf, LF_FOOT RF_FOOT LH_FOOT RH_FOOT", "hyq_no_sensors.urdf, lf_foot rf_foot lh_foot rh_foot"})
    void quadrupedsOnTheirFourFeet(String file, String feet) throws Exception {
        Model model = org.symdyn.io.urdf.UrdfReader.read(org.symdyn.testing.SharedFiles.model(file),
                new org.symdyn.io.urdf.UrdfReader.Options(true, false));
        ConstraintSet.Builder b = ConstraintSet.builder(model);
        for (String foot : feet.split(" ")) {
            org.symdyn.model.Frame f = model.frame(foot);
            for (int axis = 0; axis < 3; axis++) {
                double[] normal = new double[3];
                normal[axis] = 1;
                b.addContact(f.bodyIndex(), f.pose().translationArray(), normal, foot + "_" + "xyz".charAt(axis),
                        ConstraintSet.NO_ID);
            }
        }
        derivativesMatchCentralDifferences(file + " on 12 rows", b.build(), false);
    }

    /**
     * romeo_small (floating humanoid, nv = 37) with both soles held in all six directions, Crocoddyl's 6-D contacts:
     * a loop from a world frame to each sole frame with the six unit axes (12 rows).
     */
    @Test
    void humanoidOnTwoSixDimensionalContacts() throws Exception {
        Model model = org.symdyn.io.urdf.UrdfReader.read(org.symdyn.testing.SharedFiles.model("romeo_small.urdf"),
                new org.symdyn.io.urdf.UrdfReader.Options(true, false));
        ConstraintSet.Builder b = ConstraintSet.builder(model);
        List<double[]> axes = new ArrayList<>();
        for (int k = 0; k < 6; k++) {
            double[] a = new double[6];
            a[k] = 1;
            axes.add(a);
        }
        for (String sole : new String[] {"l_sole", "r_sole"}) {
            org.symdyn.model.Frame f = model.frame(sole);
            b.addLoop(-1, org.symdyn.spatial.Pose.translation(0, sole.startsWith("l") ? 0.1 : -0.1, 0), f.bodyIndex(),
                    f.pose(), axes, false, 0.1, sole, ConstraintSet.NO_ID);
        }
        derivativesMatchCentralDifferences("romeo_small on two soles", b.build(), false);
    }

    @Test
    void lineOnLineRowsAreRefusedByNameWhenBound() throws Exception {
        org.symdyn.spatial.RigidBodyInertia box = org.symdyn.spatial.RigidBodyInertia.of(1.3,
                new double[] {0.05, -0.02, 0.1}, 0.02, 0.001, 0, 0.03, 0.002, 0.025);
        Model model = Model.builder("link_block")
                .addBody("link", "world", "hinge", org.symdyn.model.JointType.REVOLUTE, new double[] {0, 0.3, 1},
                        org.symdyn.spatial.Pose.translation(0.1, 0.2, 0.3), box)
                .addBody("block", "world", "free", org.symdyn.model.JointType.FLOATING, null,
                        org.symdyn.spatial.Pose.IDENTITY, box)
                .addConstraint(new org.symdyn.model.LineOnLineConstraintModel("edges", 0,
                        org.symdyn.spatial.Pose.translation(0.1, -0.2, 0.15), 0.4, 1,
                        org.symdyn.spatial.Pose.translation(-0.1, 0.05, 0.2), 0.3, true, Double.NaN,
                        org.symdyn.model.SourceLocation.UNKNOWN))
                .build();
        ConstraintSet set = ConstraintSet.of(model);
        ConstraintData data = set.bindGeneric();
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                () -> new ConstrainedDynamicsDerivatives(data));
        assertTrue(e.getMessage().contains("'" + set.group(0).name() + "'"), e.getMessage());
    }

    @Test
    void dependentRowsAreRefused() throws Exception {
        // The four-bar closed twice along x: the rows are dependent, λ is not unique.
        ConstraintSet set = ConstraintSet.of(TestMechanisms.fourBarWithAxes(new double[] {0, 0, 0, 1, 0, 0},
                new double[] {0, 0, 0, 1, 0, 0}));
        ConstraintData data = set.bindGeneric();
        ConstrainedDynamicsDerivatives d = new ConstrainedDynamicsDerivatives(data);
        int nv = data.nv();
        double[] q = {0.3, -0.2, 0.4};
        assertThrows(ConstraintRankException.class, () -> d.compute(q, new double[nv], new double[nv],
                new DMatrixRMaj(nv, nv), new DMatrixRMaj(nv, nv), new DMatrixRMaj(nv, nv), new DMatrixRMaj(2, nv),
                new DMatrixRMaj(2, nv), new DMatrixRMaj(2, nv)));
    }

    @Test
    void noAllocationAfterTheFirstCall() throws Exception {
        // The biped with loops applies 7 wrenches: more than the wrench list's first capacity.
        ConstraintSet set = (ConstraintSet) sets().filter(a -> a.get()[0].equals("biped with loops")).findFirst()
                .orElseThrow().get()[1];
        ConstraintData data = set.bindGeneric();
        data.enableBaumgarte(0);
        ConstrainedDynamicsDerivatives d = new ConstrainedDynamicsDerivatives(data);
        int nv = data.nv();
        int m = data.size();
        Random rnd = new Random(7);
        double[] q = TestMechanisms.randomQ(data.set().model(), rnd);
        double[] v = TestMechanisms.random(nv, 1, rnd);
        double[] tau = TestMechanisms.random(nv, 3, rnd);
        DMatrixRMaj a = new DMatrixRMaj(nv, nv);
        DMatrixRMaj b = new DMatrixRMaj(nv, nv);
        DMatrixRMaj c = new DMatrixRMaj(nv, nv);
        DMatrixRMaj x = new DMatrixRMaj(m, nv);
        DMatrixRMaj y = new DMatrixRMaj(m, nv);
        DMatrixRMaj z = new DMatrixRMaj(m, nv);
        long bytes = SolverTestSupport.allocatedBytes(50, () -> d.compute(q, v, tau, a, b, c, x, y, z));
        assertEquals(0, bytes, "bytes allocated per 50 calls after warm-up");
    }

    private static int indexOf(double[] e) {
        for (int i = 0; i < e.length; i++) {
            if (e[i] != 0) {
                return i;
            }
        }
        throw new IllegalArgumentException();
    }

    private static void assertClose(String name, String what, DMatrixRMaj expected, DMatrixRMaj actual,
            String where) {
        double scale = Math.max(1, org.ejml.dense.row.CommonOps_DDRM.elementMaxAbs(expected));
        double worst = 0;
        int wr = 0;
        int wc = 0;
        for (int r = 0; r < expected.numRows; r++) {
            for (int c = 0; c < expected.numCols; c++) {
                double e = Math.abs(expected.get(r, c) - actual.get(r, c));
                if (!(e <= worst)) {
                    worst = e;
                    wr = r;
                    wc = c;
                }
            }
        }
        WORST.merge(what + " | " + name, worst / scale, Math::max);
        double err = worst;
        int r = wr;
        int c = wc;
        assertTrue(err <= TOL * scale, () -> where + ": " + what + " off by " + err + " at (" + r + ", " + c
                + "): expected " + expected.get(r, c) + ", got " + actual.get(r, c) + " (scale " + scale + ")");
    }

    @AfterAll
    static void printWorst() {
        WORST.forEach((k, v) -> System.out.printf(java.util.Locale.ROOT, "constrained derivatives %-50s %.2e%n", k,
                v));
    }
}
