package org.symdyn.io.mjcf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.symdyn.io.mjcf.MjcfTesting.read;
import static org.symdyn.io.mjcf.MjcfTesting.warning;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.symdyn.contact.ContactSet;
import org.symdyn.contact.TimeStepper;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.io.MeshPolicy;
import org.symdyn.model.CollisionShapeModel;
import org.symdyn.model.ContactMaterial;
import org.symdyn.model.Model;

/**
 * MJCF contact settings read as MuJoCo reads them, found different by a helper that ran MJCF scenes: friction
 * combined by the larger coefficient, contype/conaffinity bit masks, {@code <flag contact="disable"/>}; and the
 * settings not read (condim, priority, other flags) said so instead of ignored silently.
 */
class MjcfContactTest {
    /** A box on a plane, gravity tilted 30° along x: it holds iff μ ≥ tan 30° = 0.577. */
    private static String slope(double floor, double box) {
        return """
                <mujoco model="slope"><compiler angle="radian"/>
                  <option gravity="4.905 0 -8.495709211"/>
                  <worldbody><geom name="floor" type="plane" size="0 0 1" friction="%s"/>
                    <body name="box" pos="0 0 0.05"><freejoint/>
                      <geom name="b" type="box" size="0.1 0.1 0.05" mass="1" friction="%s"/></body>
                  </worldbody>
                </mujoco>
                """.formatted(floor, box);
    }

    /** The box's x after 0.5 s from rest, time stepping with h = 1 ms. */
    private static double slid(Model m) {
        TimeStepper s = TimeStepper.builder(new GenericDynamics(m)).contacts(ContactSet.of(m)).build();
        double[] q = m.referenceConfiguration();
        double[] v = new double[6];
        for (int i = 0; i < 500; i++) {
            s.step(q, v, new double[6], 1e-3, q, v);
        }
        return q[0];
    }

    @Test
    void frictionCombinesByTheLargerCoefficientAsInMujoco() {
        Model m = read(slope(1, 0.3));
        for (CollisionShapeModel c : m.collisionShapes()) {
            assertEquals(ContactMaterial.FrictionRule.MAXIMUM, c.material().frictionRule(), c.name());
        }
        assertEquals(1, ContactMaterial.combinedFriction(m.collisionShapes().get(0).material(),
                m.collisionShapes().get(1).material()), 0);
        // μ = max(1, 0.3) = 1 holds the box (it slid at 0.984 m/s² with the harmonic mean's 0.46)
        assertEquals(0, slid(m), 1e-6);
        // μ = 0.3 on both slides at g (sin 30° − 0.3 cos 30°) = 2.356 m/s²: x = a t² / 2 after 0.5 s (first order)
        double a = 9.81 * (0.5 - 0.3 * Math.sqrt(3) / 2);
        assertEquals(a * 0.25 / 2, slid(read(slope(0.3, 0.3))), 2e-3);
        // a URDF material and an MJCF one combine by the harmonic mean
        ContactMaterial urdf = new ContactMaterial(1, 0);
        ContactMaterial mjcf = new ContactMaterial(0.3, 0, ContactMaterial.FrictionRule.MAXIMUM);
        assertEquals(2 * 0.3 / 1.3, ContactMaterial.combinedFriction(urdf, mjcf), 1e-15);
    }

    @Test
    void contypeAndConaffinityKeepLinksApartAsInMujoco() {
        Model m = read("""
                <mujoco model="filter">
                  <worldbody><geom name="floor" type="plane" size="0 0 1"/>
                    <body name="a" pos="0 0 0.1"><freejoint/>
                      <geom name="ga" type="box" size="0.1 0.1 0.1" contype="2" conaffinity="0"/></body>
                    <body name="b" pos="0 0 0.5"><freejoint/>
                      <geom name="gb" type="box" size="0.1 0.1 0.1" contype="2" conaffinity="0"/></body>
                    <body name="c" pos="1 0 0.5"><freejoint/>
                      <geom name="gc" type="sphere" size="0.1"/>
                      <geom name="gc2" type="sphere" size="0.1" pos="0.3 0 0" contype="4" conaffinity="4"/></body>
                  </worldbody>
                </mujoco>
                """);
        // a and b: contype 2 meets conaffinity 1 of the floor (2 & 1 = 0) and 0 of each other: nothing collides
        assertTrue(m.scene().excluded("a", "world"));
        assertTrue(m.scene().excluded("b", "world"));
        assertTrue(m.scene().excluded("a", "b"));
        // c's first sphere collides with the floor (1 & 1), its second not (4 & 1 = 0): the link pair collides,
        // with a warning at the pair MuJoCo skips
        assertFalse(m.scene().excluded("c", "world"));
        warning(m, "geom 'floor' and geom 'gc2': their contype and conaffinity keep them apart in MuJoCo");
        // a and c: ga (2, 0) with gc (1, 1): 2 & 1 = 0, 1 & 0 = 0; with gc2 (4, 4): 0: apart
        assertTrue(m.scene().excluded("a", "c"));
    }

    @Test
    void geomsAreDrawnAsMujocoDrawsThem() {
        // A helper's finding: colliding geoms were collision shapes only, without their colour, so a scene of
        // coloured primitives drew (by default) nothing but its one visual-only geom.
        Model m = read("""
                <mujoco model="drawn">
                  <asset><material name="metal" rgba="0.1 0.8 0.2 1"/></asset>
                  <default><default class="collision"><geom group="3" rgba="0 0 1 1"/></default></default>
                  <worldbody><geom name="floor" type="plane" size="0 0 1" rgba="0.9 0.9 0.9 1"/>
                    <body name="a" pos="0 0 0.1"><freejoint/>
                      <geom name="red" type="sphere" size="0.1" rgba="1 0 0 1"/>
                      <geom name="shiny" type="box" size="0.1 0.1 0.1" material="metal" pos="0 0 0.3"/>
                      <geom name="grey" type="box" size="0.1 0.1 0.1" material="metal" rgba="0.2 0.2 0.2 1"
                            pos="0 0 0.6"/>
                      <geom name="hidden" class="collision" type="capsule" size="0.05 0.1" pos="0 0 0.9"/>
                      <geom name="mesh_like" type="sphere" size="0.12" contype="0" conaffinity="0" group="2"/>
                    </body>
                  </worldbody>
                </mujoco>
                """);
        assertEquals(5, m.scene().collisionShapes().size());
        List<double[]> colours = m.scene().visualShapes().stream().map(v -> v.rgba()).toList();
        // the floor, red, shiny, grey and the visual-only sphere; the group-3 capsule collides but is not drawn
        assertEquals(5, colours.size());
        assertArrayEquals(new double[] {0.9, 0.9, 0.9, 1}, colours.get(0));
        assertArrayEquals(new double[] {1, 0, 0, 1}, colours.get(1));
        assertArrayEquals(new double[] {0.1, 0.8, 0.2, 1}, colours.get(2), "the material's colour");
        assertArrayEquals(new double[] {0.2, 0.2, 0.2, 1}, colours.get(3), "the geom's own rgba wins");
        Model unknown = read("<mujoco><worldbody><body><freejoint/><geom size=\"0.1\" material=\"nope\"/></body>"
                + "</worldbody></mujoco>");
        warning(unknown, "material 'nope' is not declared in <asset>");
    }

    @Test
    void contactDisabledMakesEveryGeomVisualAndUnreadSettingsAreWarnings() {
        Model m = read("""
                <mujoco model="flags">
                  <option><flag contact="disable" limit="disable"/></option>
                  <worldbody><geom name="floor" type="plane" size="0 0 1"/>
                    <body name="a" pos="0 0 0.1"><freejoint/>
                      <geom name="ga" type="sphere" size="0.1"/>
                    </body>
                  </worldbody>
                </mujoco>
                """);
        assertEquals(0, m.collisionShapes().size());
        assertEquals(2, m.scene().visualShapes().size());
        warning(m, "<flag limit=\"disable\"> is not read");
        Model servo = read("""
                <mujoco model="servo">
                  <worldbody><body name="a"><joint name="j" axis="0 1 0"/>
                    <geom type="sphere" size="0.1" pos="0.5 0 0"/></body></worldbody>
                  <actuator><position name="p" joint="j" kp="100" dampratio="1"/></actuator>
                </mujoco>
                """);
        warning(servo, "dampratio is not read");
    }

    /**
     * MuJoCo's pair rules: the geom of higher priority decides the friction; between equal priorities the larger
     * coefficient and the larger condim, a pair of condim 1 being frictionless. Menagerie's robots give their links
     * condim 1 and their feet condim 6 and priority 1: a link on MuJoCo's default floor (condim 3) has friction,
     * two links touching each other have none, and a foot takes its own coefficient.
     */
    @Test
    void priorityAndCondimDecideThePairsFrictionAsInMujoco() {
        String xml = """
                <mujoco model="pairs">
                  <worldbody><geom name="floor" type="plane" size="0 0 1" friction="1"/>
                    <body name="a" pos="0 0 1"><freejoint/>
                      <geom name="link" type="sphere" size="0.1" condim="1" friction="0.4"/>
                      <geom name="foot" type="sphere" size="0.05" pos="0 0 -0.2" condim="6" priority="1"
                        friction="0.3"/></body>
                    <body name="b" pos="1 0 1"><freejoint/>
                      <geom name="other" type="sphere" size="0.1" condim="1" friction="0.8"/></body>
                  </worldbody>
                </mujoco>
                """;
        Model m = read(xml);
        ContactMaterial floor = material(m, "floor");
        ContactMaterial link = material(m, "link");
        ContactMaterial foot = material(m, "foot");
        ContactMaterial other = material(m, "other");
        assertEquals(1, ContactMaterial.combinedFriction(link, floor), 0, "condim max(1, 3) = 3: μ max(0.4, 1)");
        assertEquals(0, ContactMaterial.combinedFriction(link, other), 0, "two condim 1 geoms: frictionless");
        assertEquals(0.3, ContactMaterial.combinedFriction(foot, floor), 0, "the foot's priority decides");
        assertEquals(0.3, ContactMaterial.combinedFriction(other, foot), 0);
        warning(m, "geom 'foot' of body 'a': condim 6 is read as 3");
        // reading for the dynamics (meshes skipped: generate, evaluate) says nothing about contact settings, so
        // that --strict does not refuse a model for them
        Model quiet;
        try {
            quiet = MjcfReader.parse(xml, "m.xml", new MjcfReader.Options(true, false, MeshPolicy.SKIP));
        } catch (org.symdyn.model.ModelException e) {
            throw new AssertionError(MjcfTesting.describe(e), e);
        }
        assertEquals(java.util.List.of(), quiet.warnings());
    }

    private static ContactMaterial material(Model m, String geom) {
        for (CollisionShapeModel c : m.collisionShapes()) {
            if (geom.equals(c.name())) {
                return c.material();
            }
        }
        throw new AssertionError("no geom " + geom);
    }
}
