package org.symdyn.model;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.symdyn.geometry.Sphere;
import org.symdyn.spatial.Pose;
import org.symdyn.spatial.RigidBodyInertia;

/**
 * A placement with a NaN or an infinity is refused where it is given, as a non-finite mass is. The model check at
 * the zero configuration missed one: a first joint's translation does not enter H, and forward dynamics then
 * answered NaN.
 */
class NonFinitePlacementTest {
    private static final RigidBodyInertia BOX = RigidBodyInertia.of(1, new double[] {0, 0, -0.1}, 0.01, 0, 0, 0.01,
            0, 0.01);

    private static String refusal(ModelBuilder b) {
        ModelException e = assertThrows(ModelException.class, b::build);
        return e.getMessage();
    }

    @Test
    void aJointPlacementThatIsNotFiniteIsRefusedAtTheJoint() {
        for (double bad : new double[] {Double.NaN, Double.POSITIVE_INFINITY}) {
            String m = refusal(Model.builder("m").addBody("l0", "world", "j0", JointType.REVOLUTE,
                    new double[] {0, 1, 0}, Pose.translation(bad, 0, 0), BOX));
            assertTrue(m.contains("joint 'j0': placement") && m.contains("is not finite"), m);
        }
    }

    @Test
    void aFixedLinkFrameOrShapePlacementThatIsNotFiniteIsRefused() {
        ModelBuilder fixed = Model.builder("m").addBody("l0", "world", "j0", JointType.REVOLUTE,
                new double[] {0, 1, 0}, Pose.IDENTITY, BOX);
        fixed.addFixedLink("tool", "l0", Pose.translation(0, Double.NaN, 0), BOX, SourceLocation.UNKNOWN,
                SourceLocation.UNKNOWN);
        String m = refusal(fixed);
        assertTrue(m.contains("link or frame 'tool': placement") && m.contains("is not finite"), m);

        ModelBuilder frame = Model.builder("m").addBody("l0", "world", "j0", JointType.REVOLUTE,
                new double[] {0, 1, 0}, Pose.IDENTITY, BOX);
        frame.addFrame("tip", "l0", Pose.translation(0, 0, Double.NEGATIVE_INFINITY));
        assertTrue(refusal(frame).contains("link or frame 'tip'"));

        ModelBuilder shape = Model.builder("m").addBody("l0", "world", "j0", JointType.REVOLUTE,
                new double[] {0, 1, 0}, Pose.IDENTITY, BOX);
        shape.addCollisionShape("ball", "l0", Pose.translation(Double.NaN, 0, 0), new Sphere(0.1),
                new ContactMaterial(0.5, 0), SourceLocation.UNKNOWN);
        shape.addVisualShape("l0", Pose.translation(0, Double.NaN, 0), new Sphere(0.1), null, SourceLocation.UNKNOWN);
        String s = refusal(shape);
        assertTrue(s.contains("collision shape 'ball': placement") && s.contains("visual shape of link 'l0'"), s);
    }
}
