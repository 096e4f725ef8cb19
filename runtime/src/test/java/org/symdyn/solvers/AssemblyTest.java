package org.symdyn.solvers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.constraints.ConstraintSet;
import org.symdyn.constraints.SolverSettings;
import org.symdyn.constraints.TestMechanisms;
import org.symdyn.contract.Kinematics;
import org.symdyn.model.Model;
import org.symdyn.spatial.Pose;

/** Position assembly through quaternion coordinates, weights, failure reporting; exact velocity assembly. */
class AssemblyTest {
    private static final List<double[]> ALL_AXES = List.of(new double[] {1, 0, 0, 0, 0, 0},
            new double[] {0, 1, 0, 0, 0, 0}, new double[] {0, 0, 1, 0, 0, 0}, new double[] {0, 0, 0, 1, 0, 0},
            new double[] {0, 0, 0, 0, 1, 0}, new double[] {0, 0, 0, 0, 0, 1});

    /** A floating trunk welded to a world frame by a 6-axis loop: assembly must rotate its quaternion there. */
    @Test
    void floatingBaseReachesTheTargetPose() throws Exception {
        Model model = TestMechanisms.floatingBiped();
        Pose target = Pose.fromXyzRpy(new double[] {0.1, 0.2, 0.8}, new double[] {0.3, -0.2, 0.5});
        ConstraintSet.Builder setBuilder = ConstraintSet.builder(model).withoutModelConstraints();
        setBuilder.addLoop(-1, target, 0, Pose.IDENTITY, ALL_AXES, false, 0.1, "weld", ConstraintSet.NO_ID);
        ConstraintData set = setBuilder.build().bindGeneric();
        Assembly assembly = new Assembly(set);
        Random rnd = new Random(37);
        Kinematics kin = set.kinematics();
        for (int n = 0; n < 10; n++) {
            double[] q0 = TestMechanisms.randomQ(model, rnd);
            // Start within about 0.5 rad and 0.3 m of the target, legs anywhere.
            q0[0] = 0.1 + 0.3 * q0[0];
            q0[1] = 0.2 + 0.3 * q0[1];
            q0[2] = 0.8 + 0.3 * q0[2];
            double[] rpyQuat = quaternionOf(0.3 + 0.25 * q0[7], -0.2 + 0.25 * q0[8], 0.5 + 0.25 * q0[9]);
            System.arraycopy(rpyQuat, 0, q0, 3, 4);
            double[] qOut = new double[model.nq()];
            assertTrue(assembly.assembleQ(q0, ones(model.nv()), qOut), "error " + assembly.lastError());
            assertTrue(assembly.lastError() < 1e-12);
            assertTrue(assembly.lastIterations() > 1 && assembly.lastIterations() < 20);
            double[] rot = new double[9];
            double[] pos = new double[3];
            kin.bodyPose(qOut, 0, rot, pos);
            for (int i = 0; i < 3; i++) {
                assertEquals(target.translation(i), pos[i], 1e-12);
                for (int j = 0; j < 3; j++) {
                    assertEquals(target.rotation(i, j), rot[3 * i + j], 1e-12);
                }
            }
            double norm = 0;
            for (int i = 3; i < 7; i++) {
                norm += qOut[i] * qOut[i];
            }
            assertEquals(1, norm, 1e-14);
            // The legs take no part in the weld: the W-smallest steps leave them alone.
            for (int i = 7; i < 11; i++) {
                assertEquals(q0[i], qOut[i], 1e-15);
            }
        }
    }

    private static double[] quaternionOf(double roll, double pitch, double yaw) {
        double cr = Math.cos(roll / 2), sr = Math.sin(roll / 2);
        double cp = Math.cos(pitch / 2), sp = Math.sin(pitch / 2);
        double cy = Math.cos(yaw / 2), sy = Math.sin(yaw / 2);
        return new double[] {sr * cp * cy - cr * sp * sy, cr * sp * cy + sr * cp * sy, cr * cp * sy - sr * sp * cy,
            cr * cp * cy + sr * sp * sy};
    }

    /**
     * A parallelogram with a middle crank: one row is dependent everywhere on the manifold, so just off it the rows
     * are nearly dependent and the Newton path drifts along the mechanism. From guesses 1e-6 to 0.2 rad off the
     * manifold, under {@code DROP_DEPENDENT_ROWS}, assembly returns the nearest point of the manifold (it returned
     * points up to 10 rad away, θ = −3π, before the damped steps and the moves along the manifold).
     */
    @Test
    void aRedundantLoopAssemblesNearItsGuess() throws Exception {
        // crank (1 m) and coupler (2 m) from the ground origin, a rocker (1 m) closing onto (2, 0), and a middle crank
        // (1 m) from (1, 0) onto the coupler's middle: slender rods turning about z
        StringBuilder urdf = new StringBuilder("<robot name=\"parallelogram\" xmlns:symdyn=\"urn:symdyn:1\">"
                + "<link name=\"ground\"/>");
        String[][] rods = {{"crank", "1", "ground", "0"}, {"coupler", "2", "crank", "1"}, {"rocker", "1", "coupler", "2"},
            {"middle", "1", "ground", "1"}};
        for (String[] r : rods) {
            double l = Double.parseDouble(r[1]);
            urdf.append(String.format(java.util.Locale.ROOT, "<link name=\"%s\"><inertial><origin xyz=\"%s 0 0\"/>"
                    + "<mass value=\"%s\"/><inertia ixx=\"0.001\" ixy=\"0\" ixz=\"0\" iyy=\"%s\" iyz=\"0\" izz=\"%s\"/>"
                    + "</inertial></link><joint name=\"%s_joint\" type=\"continuous\"><parent link=\"%s\"/>"
                    + "<child link=\"%s\"/><origin xyz=\"%s 0 0\"/><axis xyz=\"0 0 1\"/></joint>", r[0], l / 2, l,
                    l * l * l / 12, l * l * l / 12, r[0], r[2], r[0], r[3]));
        }
        String axes = "<symdyn:axis value=\"0 0 0 1 0 0\"/><symdyn:axis value=\"0 0 0 0 1 0\"/>";
        urdf.append("<symdyn:loop name=\"closure\"><symdyn:predecessor link=\"ground\" xyz=\"2 0 0\"/>"
                + "<symdyn:successor link=\"rocker\" xyz=\"1 0 0\"/>" + axes + "</symdyn:loop>"
                + "<symdyn:loop name=\"middle\"><symdyn:predecessor link=\"coupler\" xyz=\"1 0 0\"/>"
                + "<symdyn:successor link=\"middle\" xyz=\"1 0 0\"/>" + axes + "</symdyn:loop></robot>");
        Model model = org.symdyn.io.urdf.UrdfReader.parse(urdf.toString(), "parallelogram.urdf", null);
        ConstraintData data = ConstraintSet.of(model).bindGeneric();
        data.settings().rankPolicy(SolverSettings.RankPolicy.DROP_DEPENDENT_ROWS);
        Assembly assembly = new Assembly(data);
        Random rnd = new Random(1);
        double worst = 0;
        for (int t = 0; t < 160; t++) {
            double th = 0.3 + rnd.nextDouble();
            double[] q0 = {th, -th, th + Math.PI, th};
            double off = new double[] {1e-6, 1e-2, 0.1, 0.2}[t % 4];
            for (int i = 0; i < 4; i++) {
                q0[i] += off * rnd.nextGaussian();
            }
            double[] q = new double[4];
            assertTrue(assembly.assembleQ(q0, ones(4), q), "error " + assembly.lastError());
            double[] phi = new double[data.size()];
            data.positionError(q, phi);
            for (double e : phi) {
                assertEquals(0, e, 1e-12);
            }
            // the manifold is θ ↦ (θ, −θ, θ + π, θ): its nearest point to q0 has θ = Σ s_i (q0_i − c_i) / 4
            double[] sign = {1, -1, 1, 1};
            double[] offset = {0, 0, Math.PI, 0};
            double nearest = 0;
            for (int i = 0; i < 4; i++) {
                nearest += sign[i] * (q0[i] - offset[i]) / 4;
            }
            for (int i = 0; i < 4; i++) {
                worst = Math.max(worst, Math.abs(q[i] - (sign[i] * nearest + offset[i])));
            }
        }
        assertTrue(worst < 1e-9, "the farthest coordinate is " + worst + " rad from the nearest point");
    }

    /**
     * Under DROP_DEPENDENT_ROWS, mechanisms without dependent rows assemble as under FAIL, whatever the weights' scale
     * and however far the guess (a review's finding: an anchored damped step left a four-bar with weights 1e3
     * unassembled, and a floating base 30 m from its weld; Newton takes 3 iterations).
     */
    @Test
    void dropAssemblesWhatFailAssembles() throws Exception {
        Model fourBar = TestMechanisms.fourBar();
        Random rnd = new Random(11);
        for (double scale : new double[] {1e-6, 1, 1e3, 1e6}) {
            double[] weights = {scale, scale, scale};
            for (int t = 0; t < 20; t++) {
                double[] q0 = {rnd.nextDouble() * 6 - 3, rnd.nextDouble() * 6 - 3, rnd.nextDouble() * 6 - 3};
                ConstraintData fail = ConstraintSet.of(fourBar).bindGeneric();
                ConstraintData drop = ConstraintSet.of(fourBar).bindGeneric();
                drop.settings().rankPolicy(SolverSettings.RankPolicy.DROP_DEPENDENT_ROWS);
                Assembly a = new Assembly(fail);
                Assembly b = new Assembly(drop);
                double[] qa = new double[3], qb = new double[3];
                boolean okA;
                try {
                    okA = a.assembleQ(q0, weights, qa);
                } catch (ConstraintRankException e) {
                    continue; // a singular configuration on FAIL's path
                }
                boolean okB = b.assembleQ(q0, weights, qb);
                assertEquals(okA, okB, "weights " + scale + " from " + java.util.Arrays.toString(q0));
                assertTrue(b.lastIterations() <= a.lastIterations() + 10, b.lastIterations() + " against "
                        + a.lastIterations());
            }
        }
        Model biped = TestMechanisms.floatingBiped();
        Pose target = Pose.fromXyzRpy(new double[] {0.1, 0.2, 0.8}, new double[] {0.3, -0.2, 0.5});
        ConstraintSet.Builder setBuilder = ConstraintSet.builder(biped).withoutModelConstraints();
        setBuilder.addLoop(-1, target, 0, Pose.IDENTITY, ALL_AXES, false, 0.1, "weld", ConstraintSet.NO_ID);
        ConstraintData weld = setBuilder.build().bindGeneric();
        weld.settings().rankPolicy(SolverSettings.RankPolicy.DROP_DEPENDENT_ROWS);
        Assembly assembly = new Assembly(weld);
        double[] q0 = biped.neutralConfiguration();
        q0[0] = 100.1;
        double[] q = new double[biped.nq()];
        assertTrue(assembly.assembleQ(q0, ones(biped.nv()), q), "error " + assembly.lastError());
        assertTrue(assembly.lastIterations() <= 10, assembly.lastIterations() + " iterations from 100 m");
    }

    private static double[] ones(int n) {
        double[] w = new double[n];
        java.util.Arrays.fill(w, 1);
        return w;
    }

    @Test
    void heavyWeightsKeepCoordinatesAndIterationLimitReportsFailure() throws Exception {
        ConstraintData set = ConstraintSet.of(TestMechanisms.fourBar()).bindGeneric();
        Assembly assembly = new Assembly(set);
        double[] q0 = {-0.5681570464292384, 1.9325032737729368, -2.318139928011819};
        double[] qOut = new double[3];
        assertTrue(assembly.assembleQ(q0, new double[] {1e6, 1, 1}, qOut));
        assertTrue(Math.abs(qOut[0] - q0[0]) < 1e-5 * Math.abs(qOut[1] - q0[1]));
        assertFalse(assembly.assembleQ(q0, new double[] {1, 1, 1}, 1e-12, 1, qOut));
        assertEquals(1, assembly.lastIterations());
        assertTrue(assembly.lastError() > 1e-12 && assembly.lastError() < 0.1);
        // Already assembled: no step.
        assertTrue(assembly.assembleQ(qOut, new double[] {1, 1, 1}, 1.0, 100, qOut));
        assertEquals(0, assembly.lastIterations());
    }

    /** Velocity assembly: G v = 0 and v - v0 is W-orthogonal to every admissible motion (the exact minimiser). */
    @Test
    void velocityAssemblyIsTheWeightedProjection() throws Exception {
        ConstraintData set = SolverPropertyTest.bipedSet().bindGeneric();
        Assembly assembly = new Assembly(set);
        Model model = set.set().model();
        int nv = model.nv();
        Random rnd = new Random(41);
        DMatrixRMaj g = new DMatrixRMaj(set.size(), nv);
        ConstraintRankAnalysis qr = new ConstraintRankAnalysis(set.size(), nv);
        for (int n = 0; n < 10; n++) {
            double[] q = TestMechanisms.randomQ(model, rnd);
            double[] v0 = TestMechanisms.random(nv, 2, rnd);
            double[] w = TestMechanisms.random(nv, 1, rnd);
            for (int i = 0; i < nv; i++) {
                w[i] = 1.5 + w[i];
            }
            double[] v = new double[nv];
            assembly.assembleV(q, v0, w, v);
            set.jacobian(q, g);
            assertTrue(TestMechanisms.maxAbs(TestMechanisms.mult(g, v)) < 1e-12);
            int r = qr.decompose(g, 1e-10);
            assertEquals(set.size(), r);
            DMatrixRMaj basis = qr.Q();
            for (int c = r; c < nv; c++) {
                double s = 0;
                for (int i = 0; i < nv; i++) {
                    s += w[i] * (v[i] - v0[i]) * basis.get(i, c);
                }
                assertEquals(0, s, 1e-12);
            }
        }
    }
}
