package org.symdyn.io.mjcf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.symdyn.io.mjcf.MjcfTesting.errorAt;
import static org.symdyn.io.mjcf.MjcfTesting.failure;
import static org.symdyn.io.mjcf.MjcfTesting.read;
import static org.symdyn.io.mjcf.MjcfTesting.warning;

import org.junit.jupiter.api.Test;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.constraints.ConstraintSet;
import org.symdyn.contract.ServoSpec;
import org.symdyn.contract.TorqueSourceSpec;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;

/**
 * Rules of MuJoCo's compiler that change the numbers, each against what MuJoCo compiles (a probe's findings: every
 * case here read without a word and gave other numbers): a box's or ellipsoid's {@code fromto}, a weld's
 * {@code relpose} with an {@code anchor} and its {@code torquescale}, a joint's {@code actuatorfrcrange}, the damper
 * flags, and the {@code limited="auto"} rule of ranges.
 */
class MjcfMuJoCoRulesTest {
    private static String slider(String geom) {
        return """
                <mujoco model="m">
                  <worldbody>
                    <body name="slider">
                      <joint name="x" type="slide" axis="1 0 0"/>
                      %s
                    </body>
                  </worldbody>
                </mujoco>
                """.formatted(geom);
    }

    /** MuJoCo sets a box's or ellipsoid's second size to its first under fromto: square across the segment. */
    @Test
    void aBoxOrEllipsoidAlongFromtoIsSquareAcrossIt() {
        double boxMass = 1000 * 8 * 0.03 * 0.03 * 0.2;
        for (String size : new String[] {"0.03 0.05", "0.03", "0.03 0.05 0.7"}) {
            Model m = read(slider("<geom type=\"box\" fromto=\"0 0 0 0 0 0.4\" size=\"" + size + "\"/>"));
            assertEquals(boxMass, m.body(0).inertia().mass(), 1e-12, "box, size " + size);
        }
        Model e = read(slider("<geom type=\"ellipsoid\" fromto=\"0 0 0 0 0 0.4\" size=\"0.03 0.05\"/>"));
        assertEquals(1000 * 4.0 / 3 * Math.PI * 0.03 * 0.03 * 0.2, e.body(0).inertia().mass(), 1e-12);
    }

    @Test
    void fromtoOnAnotherTypeOrBesidePosIsRefused() {
        errorAt(failure(slider("<geom type=\"sphere\" fromto=\"0 0 0 0 0 0.4\" size=\"0.03\"/>")), 5,
                "fromto needs a capsule, cylinder, box or ellipsoid, not a sphere");
        errorAt(failure(slider("<geom type=\"capsule\" pos=\"0 0 1\" fromto=\"0 0 0 0 0 0.4\" size=\"0.03\"/>")),
                5, "both pos and fromto");
        // MuJoCo refuses a nonzero pos only, its class's too
        read(slider("<geom type=\"capsule\" pos=\"0 0 0\" fromto=\"0 0 0 0 0 0.4\" size=\"0.03\"/>"));
        String classed = slider("<geom type=\"capsule\" fromto=\"0 0 0 0 0 0.4\" size=\"0.03\"/>").replace(
                "<worldbody>", "<default><geom pos=\"0 0 1\"/></default><worldbody>");
        errorAt(failure(classed), 5, "both pos and fromto");
    }

    private static String weld(String attributes) {
        return """
                <mujoco model="w">
                  <worldbody>
                    <body name="a" pos="0 0 1">
                      <freejoint/>
                      <geom type="sphere" size="0.1"/>
                    </body>
                  </worldbody>
                  <equality>
                    <weld name="w" body1="a" %s/>
                  </equality>
                </mujoco>
                """.formatted(attributes);
    }

    private static double[] positionError(Model m, double[] q) {
        ConstraintSet set = ConstraintSet.of(m);
        ConstraintData data = set.bindGeneric();
        double[] phi = new double[set.size()];
        data.positionError(q, phi);
        return phi;
    }

    /**
     * MuJoCo's weld holds x₁ + R₁ p_rel = x₂ + R₂ anchor and R₁ R_rel = R₂: with body2 the world, body a's frame at
     * anchor − R_rel p_rel... here with R_rel = I, at (0.5, 0, 0) − (0.1, 0.2, 0.3).
     */
    @Test
    void aWeldsRelposeIsBodyOnesFrameAndItsAnchorBodyTwos() {
        Model m = read(weld("relpose=\"0.1 0.2 0.3 1 0 0 0\" anchor=\"0.5 0 0\""));
        double[] phi = positionError(m, new double[] {0.4, -0.2, -0.3, 0, 0, 0, 1});
        assertEquals(6, phi.length);
        for (double e : phi) {
            assertEquals(0, e, 1e-15);
        }
        // relpose turned a quarter about z: body a turned back by it, its point p_rel at the anchor
        Model turned = read(weld("relpose=\"0.1 0.2 0.3 0.7071067811865476 0 0 0.7071067811865476\""
                + " anchor=\"0.5 0 0\""));
        double s = Math.sqrt(0.5);
        // R_a = R_z(−90°): R_a p_rel = (0.2, −0.1, 0.3), so x_a = (0.5, 0, 0) − (0.2, −0.1, 0.3)
        double[] phiTurned = positionError(turned, new double[] {0.3, 0.1, -0.3, 0, 0, -s, s});
        for (double e : phiTurned) {
            assertEquals(0, e, 1e-15);
        }
        // without relpose, the anchor's frame of body2 and the frame of body a there at the reference pose
        Model plain = read(weld("anchor=\"0.5 0 0\""));
        for (double e : positionError(plain, new double[] {0, 0, 1, 0, 0, 0, 1})) {
            assertEquals(0, e, 1e-15);
        }
    }

    @Test
    void aWeldWithTorquescaleZeroHoldsItsPointAlone() {
        Model m = read(weld("anchor=\"0.5 0 0\" torquescale=\"0\""));
        double s = Math.sqrt(0.5);
        double[] phi = positionError(m, new double[] {0, 0, 1, 0, 0, 0, 1});
        assertEquals(3, phi.length, "a connect's three rows");
        double[] turned = positionError(read(weld("anchor=\"0.5 0 0\" torquescale=\"2\"")),
                new double[] {0, 0, 1, 0, 0, s, s});
        assertEquals(6, turned.length);
        double rotation = 0;
        for (int k = 0; k < 3; k++) {
            rotation = Math.max(rotation, Math.abs(turned[k]));
        }
        assertTrue(rotation > 0.5, "the rotational rows hold the turn: " + java.util.Arrays.toString(turned));
    }

    private static String hinge(String jointAttributes, String actuator, String options) {
        return """
                <mujoco model="h">
                  %s
                  <worldbody>
                    <body name="a">
                      <joint name="h" axis="0 1 0" damping="3" %s/>
                      <geom type="capsule" size="0.05" fromto="0 0 0 0.4 0 0"/>
                    </body>
                  </worldbody>
                  <actuator>%s</actuator>
                </mujoco>
                """.formatted(options, jointAttributes, actuator);
    }

    /** A joint's actuatorfrcrange bounds its actuator's force: the smaller of the bounds holds. */
    @Test
    void aJointsActuatorForceRangeBoundsItsActuator() {
        Model motor = read(hinge("actuatorfrcrange=\"-5 5\"", "<motor name=\"m\" joint=\"h\" gear=\"2\""
                + " ctrlrange=\"-10 10\"/>", ""));
        assertEquals(5, ((TorqueSourceSpec) motor.devices().get(0)).maxTorque());
        Model weak = read(hinge("actuatorfrcrange=\"-50 50\"", "<motor name=\"m\" joint=\"h\" gear=\"2\""
                + " ctrlrange=\"-10 10\"/>", ""));
        assertEquals(20, ((TorqueSourceSpec) weak.devices().get(0)).maxTorque());
        Model servo = read(hinge("actuatorfrcrange=\"-5 5\"", "<position name=\"p\" joint=\"h\" kp=\"100\"/>",
                ""));
        assertEquals(5, ((ServoSpec) servo.devices().get(0)).maxTorque());
        Model off = read(hinge("actuatorfrcrange=\"-5 5\" actuatorfrclimited=\"false\"",
                "<motor name=\"m\" joint=\"h\"/>", ""));
        assertEquals(Double.POSITIVE_INFINITY, ((TorqueSourceSpec) off.devices().get(0)).maxTorque());
        Model two = read(hinge("actuatorfrcrange=\"-5 5\"", "<motor name=\"m\" joint=\"h\"/>"
                + "<motor name=\"n\" joint=\"h\"/>", ""));
        warning(two, "has more than one actuator");
        Model positive = read(hinge("actuatorfrcrange=\"1 5\"", "<motor name=\"m\" joint=\"h\"/>", ""));
        assertEquals(5, ((TorqueSourceSpec) positive.devices().get(0)).maxTorque());
        warning(positive, "not symmetric");
        // MuJoCo bounds no actuator force on ball and free joints: read without a word, whatever the range
        Model ball = read(hinge("type=\"ball\" actuatorfrcrange=\"1 5\"", "",
                "<compiler autolimits=\"false\"/>"));
        assertEquals(0, ball.warnings().stream().filter(w -> w.message().contains("actuatorfrcrange")).count());
    }

    @Test
    void theDamperFlagsSwitchJointDampingOff() {
        assertEquals(3, read(hinge("", "", "")).body(0).joint().damping());
        for (String flag : new String[] {"damper", "passive"}) {
            Model m = read(hinge("", "", "<option><flag " + flag + "=\"disable\"/></option>"));
            assertEquals(0, m.body(0).joint().damping(), flag);
        }
    }

    @Test
    void whatIsNotModelledIsSaid() {
        warning(read(hinge("springdamper=\"0.5 1\"", "", "")), "springdamper 0.5 1.0");
        warning(read(hinge("", "", "<option viscosity=\"0.001\"/>")), "fluid forces");
        warning(read(hinge("", "", "<option density=\"1.2\"/>")), "fluid forces");
        warning(read(hinge("", "<motor name=\"m\" joint=\"h\" armature=\"0.1\"/>", "")), "armature is not read");
    }

    /**
     * limited="auto" limits when the range's lower bound is below its upper one ("0 0", the schema's default, limits
     * nothing), and is refused under autolimits="false" for actuators as for joints.
     */
    @Test
    void anAutoRangeLimitsWhenItIsARange() {
        Model m = read(hinge("range=\"0 0\"", "<motor name=\"m\" joint=\"h\" ctrlrange=\"0 0\"/>", ""));
        assertEquals(JointType.CONTINUOUS, m.body(0).joint().type());
        assertEquals(Double.POSITIVE_INFINITY, ((TorqueSourceSpec) m.devices().get(0)).maxTorque());
        Model inverted = read(hinge("range=\"1 -1\"", "", ""));
        assertEquals(JointType.CONTINUOUS, inverted.body(0).joint().type());
        warning(inverted, "limits nothing");
        errorAt(failure(hinge("", "<motor name=\"m\" joint=\"h\" ctrlrange=\"-1 1\"/>",
                "<compiler autolimits=\"false\"/>")), 9, "ctrllimited is auto and the compiler's autolimits is"
                + " false");
        // "0 0" is no range, so MuJoCo takes it under autolimits="false" too
        Model none = read(hinge("range=\"0 0\"", "<motor name=\"m\" joint=\"h\" ctrlrange=\"0 0\"/>",
                "<compiler autolimits=\"false\"/>"));
        assertEquals(Double.POSITIVE_INFINITY, ((TorqueSourceSpec) none.devices().get(0)).maxTorque());
    }

    /** A joint that cannot be read is reported at the joint alone, not again at its actuator as "not a joint". */
    @Test
    void aRefusedJointIsReportedOnce() {
        var e = failure(hinge("range=\"a b\"", "<motor name=\"m\" joint=\"h\"/>", ""));
        errorAt(e, 5, "range 'a b'");
        assertEquals(0, e.diagnostics().stream().filter(d -> d.message().contains("is not a joint")).count(),
                MjcfTesting.describe(e));
    }

    @Test
    void aFlagsValueIsEnableOrDisable() {
        errorAt(failure(hinge("", "", "<option><flag damper=\"off\"/></option>")), 2, "must be enable or disable");
    }
}
