package org.symdyn.io.urdf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.symdyn.io.urdf.UrdfTesting.errorAt;
import static org.symdyn.io.urdf.UrdfTesting.failure;
import static org.symdyn.io.urdf.UrdfTesting.read;

import java.util.List;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.junit.jupiter.api.Test;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.model.Diagnostic;
import org.symdyn.model.Model;
import org.symdyn.model.ModelException;

/**
 * A joint's {@code <dynamics damping friction symdyn:armature>}, a {@code <mimic>} on a fixed joint, and the
 * inertias of public files that are singular to rounding (point masses, a lone 2.4e-35 entry: iCub's pattern) or
 * carry a mimic on a fixed joint (Talos's grippers): read with located warnings, H positive definite, dynamics
 * finite; what makes H singular or is negative beyond rounding stays refused.
 */
class UrdfJointDynamicsTest {
    private static final String INERTIAL = """
            <inertial><origin xyz="0 0 -0.5"/><mass value="1"/>
              <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial>""";

    @Test
    void dampingAndArmatureAreRead() {
        Model m = read("""
                <robot name="r" xmlns:symdyn="urn:symdyn:1">
                  <link name="a"/>
                  <link name="b">%s</link>
                  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 1 0"/>
                    <dynamics damping="0.7" symdyn:armature="0.25"/>
                  </joint>
                </robot>
                """.formatted(INERTIAL));
        assertEquals(0.7, m.body(0).joint().damping());
        assertEquals(0.25, m.body(0).joint().armature());
        assertEquals(List.of(), m.warnings());
        DMatrixRMaj h = new DMatrixRMaj(1, 1);
        new GenericDynamics(m).massMatrix(new double[1], h);
        assertEquals(0.1 + 0.25 + 0.25, h.get(0, 0), 1e-15, "m l² + I_yy + a");
    }

    @Test
    void anArmatureInAnotherNamespaceOrNoneIsNotOurs() {
        Model m = read("""
                <robot name="r" xmlns:other="urn:other:1">
                  <link name="a"/>
                  <link name="b">%s</link>
                  <joint name="j" type="revolute"><parent link="a"/><child link="b"/>
                    <dynamics damping="0" friction="0" armature="1" other:armature="2"/>
                  </joint>
                </robot>
                """.formatted(INERTIAL));
        assertEquals(0.0, m.body(0).joint().armature());
        assertEquals(0.0, m.body(0).joint().damping());
        assertEquals(List.of(), m.warnings(), "zero friction is no warning");
    }

    @Test
    void frictionIsWarnedAboutAsIgnored() {
        Model m = read("""
                <robot name="r">
                  <link name="a"/>
                  <link name="b">%s</link>
                  <joint name="j" type="revolute"><parent link="a"/><child link="b"/>
                    <dynamics damping="0.1" friction="0.4"/>
                  </joint>
                </robot>
                """.formatted(INERTIAL));
        Diagnostic w = single(m.warnings(), "friction");
        assertEquals(6, w.location().line());
        assertTrue(w.message().contains("joint 'j': dynamics friction 0.4 (Coulomb joint friction) is not modelled and"
                + " is ignored"), w.message());
    }

    @Test
    void negativeOrMalformedCoefficientsAreLocatedErrors() {
        ModelException e = failure("""
                <robot name="r" xmlns:sd="urn:symdyn:1">
                  <link name="a"/>
                  <link name="b">%1$s</link>
                  <link name="c">%1$s</link>
                  <joint name="j1" type="revolute"><parent link="a"/><child link="b"/>
                    <dynamics damping="-0.1"/>
                  </joint>
                  <joint name="j2" type="revolute"><parent link="b"/><child link="c"/>
                    <dynamics sd:armature="lots"/>
                  </joint>
                </robot>
                """.formatted(INERTIAL));
        errorAt(e, 8, "joint 'j1': dynamics damping -0.1 is negative");
        errorAt(e, 11, "joint 'j2': dynamics symdyn:armature 'lots' is not a number");
        e = failure("""
                <robot name="r" xmlns:sd="urn:symdyn:1">
                  <link name="a"/>
                  <link name="b">%s</link>
                  <joint name="j" type="revolute"><parent link="a"/><child link="b"/>
                    <dynamics sd:armature="-2" damping="inf"/>
                  </joint>
                </robot>
                """.formatted(INERTIAL));
        errorAt(e, 6, "joint 'j': dynamics symdyn:armature -2.0 is negative");
        errorAt(e, 6, "joint 'j': dynamics damping 'inf' is not a finite number");
    }

    /** Talos's pattern: twelve fixed joints of its grippers carry a mimic, which urdfdom and Pinocchio ignore. */
    @Test
    void aMimicOnAFixedJointIsWarnedAboutAndIgnored() {
        Model m = read("""
                <robot name="r">
                  <link name="a"/>
                  <link name="b">%1$s</link>
                  <link name="c">%1$s</link>
                  <joint name="j" type="revolute"><parent link="a"/><child link="b"/></joint>
                  <joint name="f" type="fixed"><parent link="b"/><child link="c"/>
                    <mimic joint="j" multiplier="-1" offset="0"/>
                  </joint>
                </robot>
                """.formatted(INERTIAL));
        assertEquals(List.of(), m.constraints());
        Diagnostic w = single(m.warnings(), "mimic");
        assertEquals(9, w.location().line());
        assertTrue(w.message().contains("joint 'f': <mimic> on a fixed joint is ignored"), w.message());
        assertFiniteDynamics(m);
    }

    /**
     * iCub's patterns: a point mass (mass, zero rotational inertia) on a revolute joint off its axis, and a link whose
     * only inertia entry is rounding noise (ixz = 2.40741e-35): both warned about at their link, H positive definite.
     */
    @Test
    void pointMassesAndRoundingNoiseAreWarnedAbout() {
        Model m = read("""
                <robot name="r">
                  <link name="a"/>
                  <link name="head">
                    <inertial><origin xyz="0.0185 -0.1108 0"/><mass value="1.33687"/>
                      <inertia ixx="0" ixy="0" ixz="2.40741e-35" iyy="0" iyz="0" izz="0"/></inertial>
                  </link>
                  <link name="ankle">
                    <inertial><origin xyz="0.008 0 0.0553"/><mass value="0.2675"/>
                      <inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/></inertial>
                  </link>
                  <joint name="neck" type="revolute"><parent link="a"/><child link="head"/><axis xyz="1 0 0"/>
                  </joint>
                  <joint name="pitch" type="revolute"><parent link="head"/><child link="ankle"/>
                    <origin xyz="0 0.2 0"/><axis xyz="0 1 0"/>
                  </joint>
                </robot>
                """);
        List<Diagnostic> singular = m.warnings().stream().filter(d -> d.message().contains("singular to rounding"))
                .toList();
        assertEquals(2, singular.size(), m.warnings().toString());
        assertEquals(3, singular.get(0).location().line());
        assertTrue(singular.get(0).message().startsWith("link 'head': inertia about the centre of mass is singular"),
                singular.get(0).message());
        assertEquals(7, singular.get(1).location().line());
        assertFiniteDynamics(m);
    }

    /** The same noise on a link fixed to a moving one: the merged body is accepted too. */
    @Test
    void roundingNoiseMergedIntoAMovingBodyIsAccepted() {
        Model m = read("""
                <robot name="r">
                  <link name="a"/>
                  <link name="b">%s</link>
                  <link name="c">
                    <inertial><origin xyz="0 0.1 0"/><mass value="0.5"/>
                      <inertia ixx="0" ixy="0" ixz="-1.35525e-20" iyy="0" iyz="0" izz="0"/></inertial>
                  </link>
                  <joint name="j" type="revolute"><parent link="a"/><child link="b"/></joint>
                  <joint name="f" type="fixed"><parent link="b"/><child link="c"/></joint>
                </robot>
                """.formatted(INERTIAL));
        assertEquals(1.5, m.body(0).inertia().mass(), 1e-15);
        assertFiniteDynamics(m);
    }

    /** A point mass on its own joint's axis adds no inertia along it: H is singular, refused as before. */
    @Test
    void aPointMassOnItsJointAxisIsStillRefused() {
        ModelException e = failure("""
                <robot name="r">
                  <link name="a"/>
                  <link name="b">
                    <inertial><origin xyz="0 0 0.3"/><mass value="1"/>
                      <inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/></inertial>
                  </link>
                  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/></joint>
                </robot>
                """);
        errorAt(e, 3, "the joint-space inertia H is singular at the zero configuration: coordinate 'j'");
    }

    /** A negative principal moment beyond rounding is not a physical body: refused. */
    @Test
    void aNegativeMomentBeyondRoundingIsStillRefused() {
        ModelException e = failure("""
                <robot name="r">
                  <link name="a"/>
                  <link name="b">
                    <inertial><origin xyz="0 0 0.3"/><mass value="1"/>
                      <inertia ixx="0" ixy="0" ixz="1e-9" iyy="0" iyz="0" izz="0"/></inertial>
                  </link>
                  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><axis xyz="1 0 0"/></joint>
                </robot>
                """);
        errorAt(e, 3, "link 'b': inertia about the centre of mass is not positive definite");
    }

    private static Diagnostic single(List<Diagnostic> diagnostics, String fragment) {
        List<Diagnostic> matching = diagnostics.stream().filter(d -> d.message().contains(fragment)).toList();
        assertEquals(1, matching.size(), diagnostics.toString());
        assertTrue(!matching.get(0).isError());
        return matching.get(0);
    }

    /** H positive definite (Cholesky) and C, v̇ finite at a few configurations. */
    private static void assertFiniteDynamics(Model m) {
        GenericDynamics d = new GenericDynamics(m);
        int nv = m.nv();
        for (int s = 0; s < 5; s++) {
            double[] q = m.neutralConfiguration();
            for (int k = 0; k < q.length; k++) {
                q[k] += 0.3 * (s + 1) * (k + 1);
            }
            DMatrixRMaj h = new DMatrixRMaj(nv, nv);
            d.massMatrix(q, h);
            assertTrue(DecompositionFactory_DDRM.chol(nv, true).decompose(h.copy()), "H positive definite");
            double[] v = new double[nv];
            java.util.Arrays.fill(v, 0.5);
            double[] vdot = new double[nv];
            d.forwardDynamics(q, v, new double[nv], vdot);
            for (double x : vdot) {
                assertTrue(Double.isFinite(x), java.util.Arrays.toString(vdot));
            }
            assertTrue(CommonOps_DDRM.det(h) > 0);
        }
    }
}
