package org.symdyn.contact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.io.urdf.UrdfReader;
import org.symdyn.model.GroundModel;
import org.symdyn.model.Model;
import org.symdyn.model.ModelException;
import org.symdyn.model.SourceLocation;
import org.symdyn.testing.Allocations;
import org.symdyn.testing.ShapeScenes;

/**
 * {@link SparseDelassus} against the dense {@link InertiaSolve} (the same W, H⁻¹ b and H⁻¹ Jᵀ λ from rows given on
 * their supports), and the time stepper's sparse path against its dense one (the same steps within the solves'
 * tolerance) on a tree with a floating robot, a fixed-base arm and free boxes.
 */
class SparseDelassusTest {
    private static final double H = 1e-3;

    /**
     * A floating base with two two-link legs (contact points at the feet, joint limits), a fixed-base arm with a
     * revolute and a prismatic joint, and two free boxes: branches of depth 1 to 8 dofs, four root trees.
     */
    static Model tree() {
        String xml = """
                <robot name="tree" xmlns:sd="urn:symdyn:1">
                  <link name="world"/>
                  <link name="base"><inertial><mass value="6"/><inertia ixx="0.2" ixy="0.01" ixz="0" iyy="0.3" iyz="0.02" izz="0.25"/></inertial></link>
                  <joint name="free" type="floating"><parent link="world"/><child link="base"/></joint>
                  %s
                  <link name="a1"><inertial><origin xyz="0 0 -0.2"/><mass value="1.5"/><inertia ixx="0.02" ixy="0" ixz="0" iyy="0.02" iyz="0" izz="0.003"/></inertial></link>
                  <joint name="arm1" type="revolute"><parent link="world"/><child link="a1"/><origin xyz="1 0 0.8"/><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="10" velocity="5"/></joint>
                  <link name="a2"><inertial><origin xyz="0 0 -0.1"/><mass value="0.8"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.002"/></inertial></link>
                  <joint name="arm2" type="prismatic"><parent link="a1"/><child link="a2"/><origin xyz="0 0 -0.4"/><axis xyz="0 0 1"/><limit lower="-0.2" upper="0.2" effort="10" velocity="5"/></joint>
                  <link name="box1"><inertial><mass value="0.7"/><inertia ixx="0.003" ixy="0" ixz="0" iyy="0.004" iyz="0" izz="0.005"/></inertial></link>
                  <joint name="b1" type="floating"><parent link="world"/><child link="box1"/></joint>
                  <link name="box2"><inertial><mass value="1.1"/><inertia ixx="0.006" ixy="0" ixz="0" iyy="0.004" iyz="0" izz="0.005"/></inertial></link>
                  <joint name="b2" type="floating"><parent link="world"/><child link="box2"/></joint>
                  <sd:ground name="floor" normal="0 0 1" friction="0.8"/>
                  <sd:contact_point name="f1" link="shin1" point="0 0 -0.3"/>
                  <sd:contact_point name="f2" link="shin2" point="0 0 -0.3"/>
                  <sd:contact_sphere name="s1" link="box1" center="0 0 0" radius="0.05"/>
                  <sd:contact_sphere name="s2" link="box2" center="0 0 0" radius="0.05"/>
                  <sd:contact_point name="tip" link="a2" point="0 0 -0.2"/>
                </robot>
                """.formatted(leg(1, 0.15) + leg(2, -0.15));
        try {
            return UrdfReader.parse(xml, "tree.urdf", null);
        } catch (ModelException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    /** One robot: a floating base carrying a chain of n revolute links (6 + n dofs in one tree). */
    static Model floatingChain(int n) {
        StringBuilder x = new StringBuilder("<robot name=\"chain\"><link name=\"world\"/>"
                + "<link name=\"l0\"><inertial><mass value=\"2\"/><inertia ixx=\"0.1\" ixy=\"0\" ixz=\"0\""
                + " iyy=\"0.1\" iyz=\"0\" izz=\"0.1\"/></inertial></link>"
                + "<joint name=\"free\" type=\"floating\"><parent link=\"world\"/><child link=\"l0\"/></joint>");
        for (int i = 1; i <= n; i++) {
            x.append("<link name=\"l").append(i).append("\"><inertial><mass value=\"0.5\"/><inertia ixx=\"0.01\""
                    + " ixy=\"0\" ixz=\"0\" iyy=\"0.01\" iyz=\"0\" izz=\"0.01\"/></inertial></link><joint name=\"j")
                    .append(i).append("\" type=\"continuous\"><parent link=\"l").append(i - 1)
                    .append("\"/><child link=\"l").append(i).append("\"/><origin xyz=\"0 0 0.1\"/><axis xyz=\"")
                    .append(i % 2 == 0 ? "1 0 0" : "0 1 0").append("\"/></joint>");
        }
        try {
            return UrdfReader.parse(x.append("</robot>").toString(), "chain.urdf", null);
        } catch (ModelException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    private static String leg(int i, double y) {
        return """
                <link name="thigh%1$d"><inertial><origin xyz="0 0 -0.15"/><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.001"/></inertial></link>
                <joint name="hip%1$d" type="revolute"><parent link="base"/><child link="thigh%1$d"/><origin xyz="0 %2$s -0.1"/><axis xyz="0 1 0"/><limit lower="-1.5" upper="1.5" effort="20" velocity="10"/></joint>
                <link name="shin%1$d"><inertial><origin xyz="0 0 -0.15"/><mass value="0.5"/><inertia ixx="0.005" ixy="0" ixz="0" iyy="0.005" iyz="0" izz="0.0005"/></inertial></link>
                <joint name="knee%1$d" type="revolute"><parent link="thigh%1$d"/><child link="shin%1$d"/><origin xyz="0 0 -0.3"/><axis xyz="0 1 0"/><limit lower="-2.5" upper="0" effort="20" velocity="10"/></joint>
                """.formatted(i, y);
    }

    static double[] randomQ(Model model, GenericDynamics dyn, Random random) {
        double[] q = new double[model.nq()];
        for (int i = 0; i < q.length; i++) {
            q[i] = 0.5 * random.nextGaussian();
        }
        for (int b = 0; b < dyn.bodyCount(); b++) {
            int qi = dyn.quaternionIndex(b);
            if (qi >= 0) {
                double n = Math.sqrt(q[qi] * q[qi] + q[qi + 1] * q[qi + 1] + q[qi + 2] * q[qi + 2] + q[qi + 3] * q[qi + 3]);
                for (int k = 0; k < 4; k++) {
                    q[qi + k] /= n;
                }
            }
        }
        return q;
    }

    @Test
    void theOperatorIsTheDenseDelassusMatrix() {
        Model model = tree();
        GenericDynamics dyn = new GenericDynamics(model);
        int nv = model.nv();
        DofBranches branches = new DofBranches(dyn);
        assertEquals(8, branches.maxDepth(), "a foot: the knee, the hip and the base's six");
        Random random = new Random(7);
        int maxRows = 40;
        SparseDelassus sparse = new SparseDelassus(dyn.dofParents(), maxRows, maxRows * nv);
        InertiaSolve dense = new InertiaSolve(nv, maxRows);
        DMatrixRMaj Hm = new DMatrixRMaj(nv, nv);
        int[] support = new int[2 * branches.maxDepth()];
        for (int trial = 0; trial < 20; trial++) {
            double[] q = randomQ(model, dyn, random);
            dyn.massMatrix(q, Hm);
            sparse.factor(Hm);
            dense.factor(Hm);
            double[] J = new double[maxRows * nv];
            ContactProblem blocks = new ContactProblem(maxRows);
            int m = 0;
            // ten contacts between random pairs of bodies (−1: the world), three rows on one support each
            for (int c = 0; c < 10; c++) {
                int a = random.nextInt(dyn.bodyCount() + 1) - 1;
                int b = random.nextInt(dyn.bodyCount());
                int len = branches.union(a, b, support, 0);
                blocks.addCoulomb(0.5);
                for (int d = 0; d < 3; d++, m++) {
                    double[] values = new double[len];
                    for (int e = 0; e < len; e++) {
                        values[e] = random.nextGaussian();
                        J[m * nv + support[e]] = values[e];
                    }
                    assertEquals(m, sparse.addRow(support, 0, len, values, 0));
                }
            }
            // a joint-limit row and a dense row (a loop closure's: two legs' dofs)
            int dof = random.nextInt(nv);
            J[m * nv + dof] = -1;
            assertEquals(m++, sparse.addUnitRow(branches, dof, -1));
            blocks.addUnilateral();
            double[] row = new double[nv];
            row[dyn.vIndex(model.bodyIndex("shin1"))] = 0.7;
            row[dyn.vIndex(model.bodyIndex("thigh2"))] = -1.3;
            System.arraycopy(row, 0, J, m * nv, nv);
            assertEquals(m++, sparse.addDenseRow(row, 0, branches));
            blocks.addBilateral();

            double[] W = new double[m * m];
            dense.delassus(J, m, W);
            double scale = 0;
            for (double w : W) {
                scale = Math.max(scale, Math.abs(w));
            }
            for (int r = 0; r < m; r++) {
                for (int c = 0; c < m; c++) {
                    assertEquals(W[r * m + c], sparse.w(r, c), 1e-13 * scale, "W(" + r + "," + c + ")");
                }
            }
            // formed whole, block by block over the shared dofs: the same matrix, exactly symmetric
            double[] formed = blocks.delassus();
            sparse.formDense(blocks, formed);
            for (int r = 0; r < m; r++) {
                for (int c = 0; c < m; c++) {
                    assertEquals(W[r * m + c], formed[r * m + c], 1e-13 * scale, "formed W(" + r + "," + c + ")");
                    assertEquals(formed[c * m + r], formed[r * m + c], 0.0, "symmetric");
                }
            }
            double[] lambda = new double[m];
            for (int r = 0; r < m; r++) {
                lambda[r] = random.nextGaussian();
            }
            double[] dvDense = new double[nv];
            double[] dvSparse = new double[nv];
            dense.applyTranspose(lambda, m, dvDense);
            sparse.applyTranspose(lambda, dvSparse);
            assertClose(dvDense, dvSparse, 1e-12, "H⁻¹ Jᵀ λ");
            double[] rhs = new double[nv];
            for (int i = 0; i < nv; i++) {
                rhs[i] = random.nextGaussian();
            }
            double[] xDense = new double[nv];
            double[] xSparse = new double[nv];
            dense.solve(rhs, xDense);
            sparse.solve(rhs, xSparse);
            assertClose(xDense, xSparse, 1e-12, "H⁻¹ b");
        }
    }

    /** A contact's three rows swept together are the three rows swept one by one, bit for bit. */
    @Test
    void threeRowsOnOneSupportAreThreeRows() {
        Model model = tree();
        GenericDynamics dyn = new GenericDynamics(model);
        int nv = model.nv();
        DofBranches branches = new DofBranches(dyn);
        Random random = new Random(11);
        DMatrixRMaj Hm = new DMatrixRMaj(nv, nv);
        dyn.massMatrix(randomQ(model, dyn, random), Hm);
        SparseDelassus one = new SparseDelassus(dyn.dofParents(), 30, 30 * nv);
        SparseDelassus three = new SparseDelassus(dyn.dofParents(), 30, 30 * nv);
        one.factor(Hm);
        three.factor(Hm);
        int[] support = new int[2 * branches.maxDepth()];
        for (int c = 0; c < 10; c++) {
            int len = branches.union(random.nextInt(dyn.bodyCount() + 1) - 1, random.nextInt(dyn.bodyCount()),
                    support, 0);
            double[] values = new double[3 * len];
            for (int e = 0; e < values.length; e++) {
                values[e] = random.nextGaussian();
            }
            for (int d = 0; d < 3; d++) {
                one.addRow(support, 0, len, values, d * len);
            }
            assertEquals(3 * c, three.addRows3(support, 0, len, values, 0, len, 2 * len));
        }
        for (int r = 0; r < 30; r++) {
            for (int c = 0; c < 30; c++) {
                assertEquals(one.w(r, c), three.w(r, c), 0.0, "W(" + r + "," + c + ")");
            }
        }
    }

    /** formDense reads a block's rows through its first row's support: rows on other supports are refused. */
    @Test
    void aBlockWhoseRowsDoNotShareASupportIsRefused() {
        Model model = tree();
        GenericDynamics dyn = new GenericDynamics(model);
        int nv = model.nv();
        DofBranches branches = new DofBranches(dyn);
        DMatrixRMaj Hm = new DMatrixRMaj(nv, nv);
        dyn.massMatrix(randomQ(model, dyn, new Random(3)), Hm);
        SparseDelassus sparse = new SparseDelassus(dyn.dofParents(), 3, 3 * nv);
        sparse.factor(Hm);
        int[] foot = new int[nv];
        int[] box = new int[nv];
        int footLen = branches.union(-1, model.bodyIndex("shin1"), foot, 0);
        int boxLen = branches.union(-1, model.bodyIndex("box1"), box, 0);
        double[] ones = new double[nv];
        java.util.Arrays.fill(ones, 1);
        sparse.addRow(foot, 0, footLen, ones, 0);
        sparse.addRow(foot, 0, footLen, ones, 0);
        sparse.addRow(box, 0, boxLen, ones, 0);
        ContactProblem blocks = new ContactProblem(3);
        blocks.addCoulomb(0.5);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> sparse.formDense(blocks, blocks.delassus()));
        assertTrue(e.getMessage().contains("do not share one support"), e.getMessage());
    }

    private static void assertClose(double[] expected, double[] actual, double relative, String what) {
        double scale = 0;
        for (double e : expected) {
            scale = Math.max(scale, Math.abs(e));
        }
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], actual[i], relative * scale, what + " [" + i + "]");
        }
    }

    /**
     * The robot dropped on its feet with its limits, the arm's tip on the floor, two balls: the sparse and dense
     * steppers (PGS to 1e-12 m/s) take the same steps. Unique velocities (no redundant contacts), so the states
     * agree to the solves' tolerance times the steps, far below 1e-9.
     */
    @Test
    void theSparseStepIsTheDenseStep() {
        Model model = tree();
        GenericDynamics dyn = new GenericDynamics(model);
        ContactSettings pgs = ContactSettings.defaults().solver(ContactSettings.Solver.PGS).maxIterations(5000);
        TimeStepper dense = TimeStepper.builder(dyn).contacts(ContactSet.of(model)).settings(pgs)
                .jointLimits(model).sparseDelassus(false).build();
        TimeStepper sparse = TimeStepper.builder(new GenericDynamics(model)).contacts(ContactSet.of(model))
                .settings(pgs).jointLimits(model).sparseDelassus(true).build();
        assertFalse(dense.sparseDelassus());
        assertTrue(sparse.sparseDelassus());
        double[] q = new double[model.nq()];
        int base = dyn.qIndex(model.bodyIndex("base"));
        q[base + 2] = 0.70;
        q[base + 6] = 1;
        q[dyn.qIndex(model.bodyIndex("shin1"))] = -0.3;
        q[dyn.qIndex(model.bodyIndex("shin2"))] = -0.3;
        q[dyn.qIndex(model.bodyIndex("thigh1"))] = 0.15;
        q[dyn.qIndex(model.bodyIndex("thigh2"))] = 0.15;
        int box1 = dyn.qIndex(model.bodyIndex("box1"));
        q[box1] = 0.5;
        q[box1 + 2] = 0.06;
        q[box1 + 6] = 1;
        int box2 = dyn.qIndex(model.bodyIndex("box2"));
        q[box2] = -0.5;
        q[box2 + 2] = 0.2;
        q[box2 + 6] = 1;
        q[dyn.qIndex(model.bodyIndex("a1"))] = 0.95;
        double[] v = new double[model.nv()];
        v[dyn.vIndex(model.bodyIndex("box1")) + 3] = 0.4; // sliding
        v[dyn.vIndex(model.bodyIndex("a1"))] = 2;
        double[] qd = q.clone(), vd = v.clone(), qs = new double[q.length], vs = new double[v.length];
        double[] tau = new double[model.nv()];
        int contacts = 0, limits = 0, compared = 0;
        for (int i = 0; i < 400; i++) {
            System.arraycopy(qd, 0, qs, 0, qd.length);
            System.arraycopy(vd, 0, vs, 0, vd.length);
            ContactReport rd = dense.step(qd, vd, tau, H, qd, vd);
            int nd = dense.contactCount();
            ContactReport rs = sparse.step(qs, vs, tau, H, qs, vs);
            assertEquals(nd, sparse.contactCount(), "step " + i);
            assertEquals(dense.limitRowCount(), sparse.limitRowCount(), "step " + i);
            contacts = Math.max(contacts, nd);
            limits = Math.max(limits, dense.limitRowCount());
            if (rd.converged() && rs.converged()) {
                compared++;
                for (int k = 0; k < vd.length; k++) {
                    assertEquals(vd[k], vs[k], 1e-9, "v[" + k + "] after step " + i);
                }
                for (int k = 0; k < qd.length; k++) {
                    assertEquals(qd[k], qs[k], 1e-12, "q[" + k + "] after step " + i);
                }
            }
        }
        assertTrue(compared >= 300, "steps where both converged: " + compared);
        assertTrue(contacts >= 4, "feet, balls and the arm's tip touched: " + contacts);
        assertTrue(limits >= 1, "the arm reached its limit: " + limits);
    }

    /** Free boxes resting on boxes on a floor (four-point manifolds, redundant): the same velocities, to 1e-9. */
    @Test
    void pilesOfBoxesTakeTheSameStepsSparseOrDense() {
        Model model = ShapeScenes.sixBoxPile("piles");
        double[] q = ShapeScenes.sixBoxPileStart();
        int n = q.length / 7;
        ContactSettings pgs = ContactSettings.defaults().solver(ContactSettings.Solver.PGS).tolerance(1e-11)
                .maxIterations(20000);
        TimeStepper dense = TimeStepper.builder(new GenericDynamics(model)).contacts(ContactSet.of(model))
                .settings(pgs).sparseDelassus(false).build();
        TimeStepper sparse = TimeStepper.builder(new GenericDynamics(model)).contacts(ContactSet.of(model))
                .settings(pgs).sparseDelassus(true).build();
        // from the dense run's state at every step: where both solves converge, the same velocities (the pile's
        // contacts are redundant, so λ may differ; σ and v⁺ may not); where PGS stops short on the redundant set
        // (both do, at the same steps), the two runs would drift apart by the unconverged residual
        double[] qd = q.clone(), qs = new double[7 * n];
        double[] vd = new double[6 * n], vs = new double[6 * n];
        double[] tau = new double[6 * n];
        int compared = 0;
        for (int i = 0; i < 300; i++) {
            System.arraycopy(qd, 0, qs, 0, qd.length);
            System.arraycopy(vd, 0, vs, 0, vd.length);
            ContactReport rd = dense.step(qd, vd, tau, H, qd, vd);
            ContactReport rs = sparse.step(qs, vs, tau, H, qs, vs);
            assertEquals(dense.contactCount(), sparse.contactCount(), "step " + i);
            if (rd.converged() && rs.converged()) {
                compared++;
                for (int k = 0; k < vd.length; k++) {
                    assertEquals(vd[k], vs[k], 1e-9, "v[" + k + "] after step " + i);
                }
            }
        }
        assertTrue(compared >= 250, "steps where both converged: " + compared);
        assertTrue(dense.contactCount() >= 20, "the boxes rest on their faces: " + dense.contactCount());
    }

    @Test
    void theDefaultIsSparseOnLargeModelsWithoutIslands() {
        ShapeScenes scenes = new ShapeScenes("ten");
        for (int i = 0; i < 10; i++) {
            scenes.freeBox("box" + i, 1, 0.1, 0.1, 0.1, 0.8);
        }
        Model model = scenes.build();
        GenericDynamics dyn = new GenericDynamics(model);
        ContactSettings pgs = ContactSettings.defaults().solver(ContactSettings.Solver.PGS);
        assertTrue(TimeStepper.builder(dyn).contacts(ContactSet.of(model)).settings(pgs).build().sparseDelassus(),
                "60 dofs, PGS");
        assertTrue(TimeStepper.builder(dyn).contacts(ContactSet.of(model)).build().sparseDelassus(),
                "60 dofs in ten trees, ADMM");
        assertFalse(TimeStepper.builder(dyn).contacts(ContactSet.of(model)).settings(pgs).islands(true).build()
                .sparseDelassus(), "islands");
        Model robot = floatingChain(60);
        assertFalse(TimeStepper.builder(new GenericDynamics(robot)).settings(pgs).build().sparseDelassus(),
                "one robot of 66 dofs, PGS");
        assertFalse(TimeStepper.builder(new GenericDynamics(robot)).build().sparseDelassus(),
                "one robot of 66 dofs, ADMM: W formed, so that step derivatives serve it");
        Model small = tree();
        assertFalse(TimeStepper.builder(new GenericDynamics(small)).settings(pgs).build().sparseDelassus(),
                "24 dofs");
        assertFalse(TimeStepper.builder(new GenericDynamics(small)).build().sparseDelassus(), "24 dofs, ADMM");
        assertTrue(TimeStepper.builder(new GenericDynamics(small)).sparseDelassus(true).build().sparseDelassus(),
                "asked for, ADMM");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TimeStepper.builder(dyn)
                .contacts(ContactSet.of(model)).settings(pgs).islands(true).sparseDelassus(true).build());
        assertTrue(e.getMessage().contains("islands"), e.getMessage());
    }

    @Test
    void aSparseStepAllocatesNothing() {
        ShapeScenes scenes = new ShapeScenes("pile");
        scenes.builder().addGround(new GroundModel("floor", new double[3], new double[] {0, 0, 1}, 0.8, 0,
                SourceLocation.UNKNOWN));
        for (int i = 0; i < 4; i++) {
            scenes.freeBox("box" + i, 1, 0.1, 0.1, 0.1, 0.8);
        }
        Model model = scenes.build();
        double[] q = new double[28];
        for (int i = 0; i < 4; i++) {
            System.arraycopy(ShapeScenes.pose(0.01 * i, 0, 0.1 + 0.2 * i, 0.02 * i), 0, q, 7 * i, 7);
        }
        double[] v = new double[24];
        double[] tau = new double[24];
        TimeStepper s = TimeStepper.builder(new GenericDynamics(model)).contacts(ContactSet.of(model))
                .settings(ContactSettings.defaults().solver(ContactSettings.Solver.PGS)).sparseDelassus(true).build();
        for (int i = 0; i < 200; i++) {
            s.step(q, v, tau, H, q, v);
        }
        long bytes = Allocations.allocatedBytes(200, () -> s.step(q, v, tau, H, q, v));
        assertTrue(bytes < 16 * 200, "allocated " + bytes + " bytes over 200 steps");
        assertTrue(s.contactCount() >= 8, "the pile touches: " + s.contactCount());
    }
}
