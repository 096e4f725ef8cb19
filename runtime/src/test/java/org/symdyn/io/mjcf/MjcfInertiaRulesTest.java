package org.symdyn.io.mjcf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.symdyn.io.mjcf.MjcfTesting.errorAt;
import static org.symdyn.io.mjcf.MjcfTesting.failure;
import static org.symdyn.io.mjcf.MjcfTesting.read;

import org.junit.jupiter.api.Test;
import org.symdyn.model.Model;
import org.symdyn.spatial.RigidBodyInertia;

/**
 * MuJoCo's rules for a body's inertia from its geoms that a helper's probe found read wrongly (checked against
 * mjCBody's InertiaFromGeom and mjCGeom's compile): only geoms of the compiler's inertiagrouprange count (default 0
 * to 5); inertiafromgeom="true" with no geom counted keeps the {@code <inertial>}; a partial {@code size} keeps the
 * default class's other entries; rules this reader does not apply (shellinertia, a free joint's align) are refused
 * where they would change the numbers.
 */
class MjcfInertiaRulesTest {
    private static final double DENSITY = 1000;

    private static RigidBodyInertia inertiaOf(String bodies) {
        Model m = read("<mujoco model=\"r\"><worldbody>" + bodies + "</worldbody></mujoco>");
        return m.body(0).inertia();
    }

    private static RigidBodyInertia inertiaOf(String compiler, String bodies) {
        Model m = read("<mujoco model=\"r\"><compiler " + compiler + "/><worldbody>" + bodies
                + "</worldbody></mujoco>");
        return m.body(0).inertia();
    }

    private static void assertSame(RigidBodyInertia expected, RigidBodyInertia actual) {
        assertEquals(expected.mass(), actual.mass(), 1e-15 * expected.mass());
        for (int i = 0; i < 3; i++) {
            assertEquals(expected.com(i), actual.com(i), 1e-15);
            for (int j = 0; j < 3; j++) {
                assertEquals(expected.inertiaAboutCom(i, j), actual.inertiaAboutCom(i, j), 1e-15);
            }
        }
    }

    @Test
    void geomsOutsideTheInertiaGroupRangeHaveNoMass() {
        String box = "<geom type=\"box\" size=\"0.1 0.05 0.02\"/>";
        RigidBodyInertia alone = inertiaOf("<body name=\"a\"><joint name=\"j\"/>" + box + "</body>");
        assertEquals(DENSITY * 8 * 0.1 * 0.05 * 0.02, alone.mass(), 1e-12);
        // the default range is 0 to 5: groups 6 and -1 are left out (a sphere of 4 kg at 0.3 m before)
        assertSame(alone, inertiaOf("<body name=\"a\"><joint name=\"j\"/>" + box
                + "<geom size=\"0.1\" pos=\"0 0 0.3\" group=\"6\"/><geom size=\"0.1\" group=\"-1\"/></body>"));
        RigidBodyInertia withSphere = inertiaOf("<body name=\"a\"><joint name=\"j\"/>" + box
                + "<geom size=\"0.1\" pos=\"0 0 0.3\" group=\"5\"/></body>");
        assertEquals(alone.mass() + DENSITY * 4.0 / 3 * Math.PI * 1e-3, withSphere.mass(), 1e-12);
        // a compiler's range: group 3 outside 0 to 2, inside 3 to 3 (where the box, group 0, is not)
        assertSame(alone, inertiaOf("inertiagrouprange=\"0 2\"", "<body name=\"a\"><joint name=\"j\"/>" + box
                + "<geom size=\"0.1\" pos=\"0 0 0.3\" group=\"3\"/></body>"));
        assertEquals(DENSITY * 4.0 / 3 * Math.PI * 1e-3, inertiaOf("inertiagrouprange=\"3 3\"",
                "<body name=\"a\"><joint name=\"j\"/>" + box + "<geom size=\"0.1\" pos=\"0 0 0.3\" group=\"3\"/>"
                        + "</body>").mass(), 1e-12);
    }

    @Test
    void inertiaFromGeomsTrueKeepsTheInertialOfABodyWithNoGeomCounted() {
        String inertial = "<inertial pos=\"0 0 0.1\" mass=\"2\" diaginertia=\"0.1 0.2 0.25\"/>";
        RigidBodyInertia declared = inertiaOf("<body name=\"a\"><joint name=\"j\"/>" + inertial + "</body>");
        assertEquals(2, declared.mass(), 0);
        // no geom at all, or only one of a group outside the range: the <inertial> stands (it was mass 0 before)
        assertSame(declared, inertiaOf("inertiafromgeom=\"true\"", "<body name=\"a\"><joint name=\"j\"/>"
                + inertial + "</body>"));
        assertSame(declared, inertiaOf("inertiafromgeom=\"true\"", "<body name=\"a\"><joint name=\"j\"/>"
                + inertial + "<geom size=\"0.1\" group=\"7\"/></body>"));
        // a geom counted replaces it
        assertEquals(DENSITY * 4.0 / 3 * Math.PI * 1e-3, inertiaOf("inertiafromgeom=\"true\"",
                "<body name=\"a\"><joint name=\"j\"/>" + inertial + "<geom size=\"0.1\"/></body>").mass(), 1e-12);
    }

    @Test
    void aPartialSizeKeepsTheDefaultClassesOtherEntries() {
        Model partial = read("""
                <mujoco model="p">
                  <default><geom type="capsule" size="0.05 0.2"/></default>
                  <worldbody><body name="a"><joint name="j" axis="1 0 0"/><geom size="0.03" pos="0 0.2 0"/></body>
                  </worldbody>
                </mujoco>
                """);
        Model full = read("""
                <mujoco model="p">
                  <worldbody><body name="a"><joint name="j" axis="1 0 0"/>
                    <geom type="capsule" size="0.03 0.2" pos="0 0.2 0"/></body>
                  </worldbody>
                </mujoco>
                """);
        assertSame(full.body(0).inertia(), partial.body(0).inertia());
        // each level of the class tree over the one above: class c "0.05 0.2 0.3", its child d "0.1 0.1", the geom
        // "0.03": 0.03 0.1 0.3 (a review's case; the nearest class alone gave two numbers and a refusal)
        Model layered = read("""
                <mujoco model="p">
                  <default><default class="c"><geom type="box" size="0.05 0.2 0.3"/>
                    <default class="d"><geom size="0.1 0.1"/></default></default></default>
                  <worldbody><body name="a" childclass="d"><joint name="j" axis="1 0 0"/>
                    <geom size="0.03" pos="0 0.2 0"/></body>
                  </worldbody>
                </mujoco>
                """);
        Model box = read("""
                <mujoco model="p">
                  <worldbody><body name="a"><joint name="j" axis="1 0 0"/>
                    <geom type="box" size="0.03 0.1 0.3" pos="0 0.2 0"/></body>
                  </worldbody>
                </mujoco>
                """);
        assertSame(box.body(0).inertia(), layered.body(0).inertia());
    }

    @Test
    void rulesThisReaderDoesNotApplyAreRefusedWhereTheyChangeTheNumbers() {
        errorAt(failure("""
                <mujoco model="s">
                  <worldbody><body name="a"><joint name="j"/>
                    <geom name="g" size="0.1" shellinertia="true"/></body>
                  </worldbody>
                </mujoco>
                """), 3, "shellinertia is not supported");
        // with an <inertial> the geom's inertia is not used: nothing to refuse
        read("""
                <mujoco model="s">
                  <worldbody><body name="a"><joint name="j"/><inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/>
                    <geom name="g" size="0.1" shellinertia="true"/></body>
                  </worldbody>
                </mujoco>
                """);
        errorAt(failure("""
                <mujoco model="f">
                  <worldbody><body name="a" pos="0.3 0 0">
                    <freejoint align="true"/><geom type="box" size="0.1 0.2 0.3"/></body>
                  </worldbody>
                </mujoco>
                """), 3, "align=\"true\" is not supported");
        read("""
                <mujoco model="f">
                  <worldbody><body name="a" pos="0.3 0 0">
                    <freejoint align="false"/><geom type="box" size="0.1 0.2 0.3"/></body>
                  </worldbody>
                </mujoco>
                """);
        // a mocap body is moved by the user, not by joints: MuJoCo refuses joints on it; without, it is welded
        errorAt(failure("""
                <mujoco model="m">
                  <worldbody><body name="target" mocap="true" pos="0 0 1">
                    <joint name="j"/><geom size="0.1"/></body>
                  </worldbody>
                </mujoco>
                """), 2, "is a mocap body and has joints");
        assertEquals(0, read("""
                <mujoco model="m">
                  <worldbody><body name="target" mocap="true" pos="0 0 1"><geom size="0.1"/></body></worldbody>
                </mujoco>
                """).nv());
    }
}
