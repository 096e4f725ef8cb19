package org.symdyn.dynamics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.constraints.ConstraintSet;
import org.symdyn.constraints.GenericModel;
import org.symdyn.contract.DynamicsDerivatives;
import org.symdyn.io.urdf.UrdfReader;
import org.symdyn.model.Model;
import org.symdyn.simulation.MechanicalEnergy;
import org.symdyn.solvers.ConstrainedDynamicsDerivatives;

/**
 * The interpreter sets a model's declared parameters as a generated class does: after {@code setParameter} it
 * evaluates exactly the model whose file has those values (read again from the changed file, the independent
 * reference), and the runtime's own structures built from the model follow it.
 */
class InterpreterParametersTest {
    private static final String[] NAMES = {"upperMass", "upperComY", "upperIxz", "elbowOffset", "elbowRotor"};
    private static final double[] DECLARED = {1.5, 0.02, 0.001, -0.5, 0.05};
    private static final double[] OTHER = {2.25, -0.04, -0.003, -0.65, 0.2};

    /**
     * A floating arm whose parameterised link carries a fixed child with mass (the merged body inertia must keep
     * it) and whose elbow hangs from a rotated fixed frame (the origin moves along that frame's z).
     */
    static String arm(double[] p) {
        return """
                <robot name="arm" xmlns:symdyn="urn:symdyn:1">
                  <link name="world"/>
                  <link name="base"><inertial><mass value="3"/>
                    <inertia ixx="0.05" ixy="0" ixz="0" iyy="0.06" iyz="0" izz="0.07"/></inertial></link>
                  <link name="upper">
                    <inertial><origin xyz="0.01 %s -0.3"/><mass value="%s"/>
                      <inertia ixx="0.06" ixy="0.001" ixz="%s" iyy="0.05" iyz="0.002" izz="0.01"/></inertial>
                  </link>
                  <link name="sensor">
                    <inertial><origin xyz="0.05 0 0"/><mass value="0.3"/>
                      <inertia ixx="0.001" ixy="0" ixz="0" iyy="0.001" iyz="0" izz="0.001"/></inertial>
                  </link>
                  <link name="mount"/>
                  <link name="fore">
                    <inertial><origin xyz="0 0 -0.2"/><mass value="0.8"/>
                      <inertia ixx="0.02" ixy="0" ixz="0" iyy="0.02" iyz="0" izz="0.002"/></inertial>
                  </link>
                  <joint name="float" type="floating"><parent link="world"/><child link="base"/></joint>
                  <joint name="shoulder" type="revolute"><parent link="base"/><child link="upper"/>
                    <axis xyz="0 1 0"/><limit lower="-2" upper="2" effort="1" velocity="1"/></joint>
                  <joint name="sensor_mount" type="fixed"><parent link="upper"/><child link="sensor"/>
                    <origin xyz="0.1 0 -0.1" rpy="0.3 0 0"/></joint>
                  <joint name="mount_joint" type="fixed"><parent link="upper"/><child link="mount"/>
                    <origin xyz="0 0 0" rpy="0.4 -0.2 0.1"/></joint>
                  <joint name="elbow" type="revolute"><parent link="mount"/><child link="fore"/>
                    <origin xyz="0.01 0.02 %s"/><axis xyz="1 0 0"/>
                    <limit lower="-2" upper="2" effort="1" velocity="1"/>
                    <dynamics symdyn:armature="%s"/></joint>
                  <symdyn:parameter name="upperMass" link="upper" field="mass"/>
                  <symdyn:parameter name="upperComY" link="upper" field="com_y"/>
                  <symdyn:parameter name="upperIxz" link="upper" field="ixz"/>
                  <symdyn:parameter name="elbowOffset" joint="elbow" field="origin_z"/>
                  <symdyn:parameter name="elbowRotor" joint="elbow" field="armature"/>
                </robot>
                """.formatted(p[1], p[0], p[2], p[3], p[4]);
    }

    static Model read(double[] p) throws Exception {
        return UrdfReader.parse(arm(p), "arm.urdf", UrdfReader.Options.DEFAULT);
    }

    @Test
    void setParametersGiveTheModelOfTheChangedFile() throws Exception {
        Model declared = read(DECLARED);
        assertEquals(List.of(NAMES), declared.parameters().stream().map(p -> p.name()).toList());
        GenericDynamics set = new GenericDynamics(declared);
        for (int k = 0; k < OTHER.length; k++) {
            set.setParameter(k, OTHER[k]);
            assertEquals(OTHER[k], set.parameter(k));
        }
        GenericDynamics reference = new GenericDynamics(read(OTHER));
        assertSameNumbers(reference, set, 1);
        assertSameNumbers(reference, set.copy(), 2);
        // describes and binds as the declared model; evaluates the changed one
        assertEquals(declared.contentHash(), set.modelHash());
        assertSame(declared, set.model());
        assertNotSame(declared, set.interpretedModel());
        // back to the declared values: the declared model's numbers
        for (int k = 0; k < DECLARED.length; k++) {
            set.setParameter(k, DECLARED[k]);
        }
        assertSame(declared, set.interpretedModel());
        assertSameNumbers(new GenericDynamics(declared), set, 3);
    }

    /** τ is linear in the mass for a fixed centre of mass: τ(m') − τ(m) = Y_p[:, mass] (m' − m), exactly. */
    @Test
    void theParameterRegressorPredictsTheChange() throws Exception {
        GenericDynamics d = new GenericDynamics(read(DECLARED));
        Random rnd = new Random(3);
        int nv = d.nv();
        double[] q = randomQ(d, rnd);
        double[] v = random(nv, rnd);
        double[] a = random(nv, rnd);
        double[] tau0 = new double[nv];
        double[] tau1 = new double[nv];
        DMatrixRMaj yp = new DMatrixRMaj(nv, NAMES.length);
        d.inverseDynamics(q, v, a, tau0);
        d.parameterRegressor(q, v, a, yp);
        d.setParameter(0, DECLARED[0] + 0.7);
        d.inverseDynamics(q, v, a, tau1);
        for (int i = 0; i < nv; i++) {
            assertEquals(tau1[i] - tau0[i], yp.get(i, 0) * 0.7, 1e-12 * (1 + Math.abs(tau0[i])), "tau[" + i + "]");
        }
    }

    @Test
    void badValuesAreRefusedByName() throws Exception {
        Model declared = read(DECLARED);
        GenericDynamics d = new GenericDynamics(declared);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> d.setParameter(3,
                Double.NaN));
        assertTrue(e.getMessage().contains("elbowOffset"), e.getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> d.setParameter(5, 1));
        assertThrows(IllegalArgumentException.class, () -> declared.withParameters(new double[2]));
        assertSame(declared, declared.withParameters(DECLARED.clone()));
        assertNotSame(declared, declared.withParameters(OTHER));
        // a helper's finding: a negative mass ran (rollouts completed with it); refused, naming the link, and the
        // interpreter keeps its value
        int mass = declared.parameters().stream().map(p -> p.name()).toList().indexOf("upperMass");
        double before = d.parameter(mass);
        IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
                () -> d.setParameter(mass, -1));
        assertTrue(negative.getMessage().contains("link 'upper'") && negative.getMessage().contains("no physical"
                + " body"), negative.getMessage());
        assertEquals(before, d.parameter(mass), 0);
        // a generated class takes any value; the structures that follow it refuse that value at every call, never
        // falling back to the old model silently (a review's finding: the second call returned it)
        double[] values = DECLARED.clone();
        org.symdyn.contract.ModelParameters unchecked = new org.symdyn.contract.ModelParameters() {
            @Override
            public List<String> parameterNames() {
                return declared.parameters().stream().map(p -> p.name()).toList();
            }

            @Override
            public double parameter(int index) {
                return values[index];
            }

            @Override
            public void setParameter(int index, double value) {
                values[index] = value;
            }
        };
        ParameterFollower<Double> follower = new ParameterFollower<>(declared, unchecked,
                m -> m.body(0).inertia().mass());
        values[mass] = -1;
        for (int call = 0; call < 2; call++) {
            assertThrows(IllegalArgumentException.class, follower::current, "call " + call);
        }
        values[mass] = 2;
        assertEquals(declared.withParameters(values).body(0).inertia().mass(), follower.current(), 0);
    }

    /**
     * The structures the runtime builds from a model beside the bound interpreter follow its values: the constrained
     * derivatives' motion derivatives of a contact on the moved forearm, and the energy's masses.
     */
    @Test
    void theSolversAndTheEnergyFollowTheValues() throws Exception {
        Model declared = read(DECLARED);
        Model changed = read(OTHER);
        GenericModel set = new GenericModel(declared);
        for (int k = 0; k < OTHER.length; k++) {
            set.setParameter(k, OTHER[k]);
        }
        int fore = declared.bodyIndex("fore");
        double[] point = {0.02, 0.01, -0.35};
        double[] normal = {0, 0.6, 0.8};
        ConstraintSet.Builder a = ConstraintSet.builder(declared).withoutModelConstraints();
        a.addContact(fore, point, normal);
        ConstraintData bound = a.build().bind(set);
        ConstraintSet.Builder b = ConstraintSet.builder(changed).withoutModelConstraints();
        b.addContact(fore, point, normal);
        ConstraintData reference = b.build().bindGeneric();
        Random rnd = new Random(11);
        int nv = declared.nv();
        for (int s = 0; s < 4; s++) {
            double[] q = randomQ(set, rnd);
            double[] v = random(nv, rnd);
            double[] tau = random(nv, rnd);
            DMatrixRMaj[] got = outputs(nv, 1);
            DMatrixRMaj[] want = outputs(nv, 1);
            new ConstrainedDynamicsDerivatives(bound).compute(q, v, tau, got[0], got[1], got[2], got[3], got[4],
                    got[5]);
            new ConstrainedDynamicsDerivatives(reference).compute(q, v, tau, want[0], want[1], want[2], want[3],
                    want[4], want[5]);
            for (int i = 0; i < got.length; i++) {
                assertClose(want[i], got[i], 1e-10, "state " + s + " output " + i);
            }
            double e = new MechanicalEnergy(declared, set, set).total(q, v);
            GenericDynamics r = new GenericDynamics(changed);
            assertEquals(new MechanicalEnergy(changed, r, r).total(q, v), e, 1e-12 * (1 + Math.abs(e)), "energy");
        }
    }

    private static DMatrixRMaj[] outputs(int nv, int m) {
        return new DMatrixRMaj[] {new DMatrixRMaj(nv, nv), new DMatrixRMaj(nv, nv), new DMatrixRMaj(nv, nv),
            new DMatrixRMaj(m, nv), new DMatrixRMaj(m, nv), new DMatrixRMaj(m, nv)};
    }

    private static void assertSameNumbers(GenericDynamics want, GenericDynamics got, long seed) {
        Random rnd = new Random(seed);
        int nv = want.nv();
        for (int s = 0; s < 5; s++) {
            double[] q = randomQ(want, rnd);
            double[] v = random(nv, rnd);
            double[] a = random(nv, rnd);
            DMatrixRMaj h1 = new DMatrixRMaj(nv, nv);
            DMatrixRMaj h2 = new DMatrixRMaj(nv, nv);
            want.massMatrix(q, h1);
            got.massMatrix(q, h2);
            assertClose(h1, h2, 1e-12, "H");
            double[] t1 = new double[nv];
            double[] t2 = new double[nv];
            want.inverseDynamics(q, v, a, t1);
            got.inverseDynamics(q, v, a, t2);
            assertClose(t1, t2, 1e-12, "tau");
            want.forwardDynamics(q, v, a, t1);
            got.forwardDynamics(q, v, a, t2);
            assertClose(t1, t2, 1e-11, "vdot");
            DMatrixRMaj[] d1 = {new DMatrixRMaj(nv, nv), new DMatrixRMaj(nv, nv), new DMatrixRMaj(nv, nv)};
            DMatrixRMaj[] d2 = {new DMatrixRMaj(nv, nv), new DMatrixRMaj(nv, nv), new DMatrixRMaj(nv, nv)};
            want.forwardDynamicsDerivatives(q, v, a, d1[0], d1[1], d1[2]);
            got.forwardDynamicsDerivatives(q, v, a, d2[0], d2[1], d2[2]);
            for (int i = 0; i < 3; i++) {
                assertClose(d1[i], d2[i], 1e-10, "dvdot " + i);
            }
            double[] p1 = new double[3];
            double[] p2 = new double[3];
            double[] r = new double[9];
            int fore = want.model().bodyIndex("fore");
            want.bodyPose(q, fore, r, p1);
            got.bodyPose(q, fore, r, p2);
            assertClose(p1, p2, 1e-14, "forearm position");
            double[] pi1 = new double[DynamicsDerivatives.PARAMETERS_PER_BODY * want.bodyCount()];
            double[] pi2 = pi1.clone();
            want.inertialParameters(pi1);
            got.inertialParameters(pi2);
            assertClose(pi1, pi2, 1e-14, "pi");
        }
    }

    private static double[] randomQ(org.symdyn.contract.Dynamics d, Random rnd) {
        double[] q = new double[d.nq()];
        for (int i = 0; i < q.length; i++) {
            q[i] = rnd.nextDouble() * 2 - 1;
        }
        // the floating base's quaternion (x y z w after the position) normalised
        double n = Math.sqrt(q[3] * q[3] + q[4] * q[4] + q[5] * q[5] + q[6] * q[6]);
        for (int i = 3; i < 7; i++) {
            q[i] /= n;
        }
        return q;
    }

    private static double[] random(int n, Random rnd) {
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = rnd.nextDouble() * 2 - 1;
        }
        return x;
    }

    private static void assertClose(DMatrixRMaj want, DMatrixRMaj got, double tol, String what) {
        assertClose(want.data, got.data, tol, what);
    }

    private static void assertClose(double[] want, double[] got, double tol, String what) {
        double scale = 1;
        for (double x : want) {
            scale = Math.max(scale, Math.abs(x));
        }
        for (int i = 0; i < want.length; i++) {
            assertEquals(want[i], got[i], tol * scale, what + " [" + i + "]");
        }
    }

    /**
     * A review's finding: values set one at a time are each checked against the others' current values, so a physical
     * set can be refused in one order and accepted in another (ixx raised before the product of inertia that needs
     * it). {@code setParameters} checks the set as a whole; a rollout restores and applies its parameters so.
     */
    @Test
    void aSetOfValuesIsCheckedAsAWhole() throws Exception {
        Model m = UrdfReader.parse("""
                <robot name="one" xmlns:symdyn="urn:symdyn:1">
                  <link name="world"/>
                  <link name="l"><inertial><mass value="1"/>
                    <inertia ixx="1" ixy="0" ixz="0" iyy="3" iyz="0" izz="3"/></inertial></link>
                  <joint name="j" type="revolute"><parent link="world"/><child link="l"/><axis xyz="0 0 1"/>
                    <limit lower="-2" upper="2" effort="1" velocity="1"/></joint>
                  <symdyn:parameter name="ixx" link="l" field="ixx"/>
                  <symdyn:parameter name="ixy" link="l" field="ixy"/>
                </robot>
                """, "one.urdf", null);
        GenericDynamics d = new GenericDynamics(m);
        d.setParameters(new double[] {3, 2.5});
        assertEquals(2.5, d.parameter(1));
        // back one at a time in declaration order: ixx 1 with ixy 2.5 is no physical body
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> d.setParameter(0, 1));
        assertTrue(e.getMessage().contains("not positive definite"), e.getMessage());
        d.setParameters(new double[] {1, 0});
        assertEquals(1, d.parameter(0));
        assertEquals(0, d.parameter(1));
        DMatrixRMaj h = new DMatrixRMaj(1, 1);
        d.massMatrix(new double[1], h);
        assertEquals(3, h.get(0, 0), 1e-15); // izz of the file, about the joint's z at the centre of mass
        assertThrows(IllegalArgumentException.class, () -> d.setParameters(new double[] {1}));
        // a negative principal moment
        assertThrows(IllegalArgumentException.class, () -> d.setParameters(new double[] {-5, 0}));
    }
}
