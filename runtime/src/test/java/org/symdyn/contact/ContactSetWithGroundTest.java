package org.symdyn.contact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.geometry.Box;
import org.symdyn.model.BodySpec;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;
import org.symdyn.spatial.Pose;
import org.symdyn.spatial.RigidBodyInertia;
import org.symdyn.testing.ShapeScenes;

/**
 * {@link ContactSet#withGround}: a floor added in code to the shapes of a model that declares no ground carries a
 * box's weight (m g h per step, no drift), keeps the model's shapes and pair rule, counts its pairs in the default
 * bound, and refuses what the builder refuses.
 */
class ContactSetWithGroundTest {
    private static final double H = 1e-3;

    private static Model box(double m) {
        return new ShapeScenes("box_alone").freeBox("box", m, 0.1, 0.1, 0.1, 0.8).build();
    }

    @Test
    void aFloorAddedInCodeCarriesTheBoxsWeightWithoutDrift() {
        double m = 2;
        Model model = box(m);
        ContactSet declared = ContactSet.of(model);
        assertEquals(0, declared.groundCount());
        ContactSet set = declared.withGround("floor", new double[] {0, 0, 0}, new double[] {0, 0, 2}, 0.8, 0);
        assertEquals(1, set.groundCount());
        assertEquals("floor", set.grounds().get(0).name());
        assertEquals(1.0, set.grounds().get(0).normal()[2], 0, "normalised");
        assertSame(declared.shapes().get(0), set.shapes().get(0));
        assertEquals(0, declared.maxShapeContacts(), "no ground, no other shape: nothing to touch");
        assertEquals(4, set.maxShapeContacts(), "the default bound counts the floor's pair: four per pair");

        TimeStepper s = TimeStepper.builder(new GenericDynamics(model)).contacts(set).build();
        double[] q = ShapeScenes.pose(0, 0, 0.1, 0);
        double[] v = new double[6];
        double[] tau = new double[6];
        for (int i = 0; i < 1000; i++) {
            assertTrue(s.step(q, v, tau, H, q, v).converged(), s.report().toString());
            assertEquals(4, s.contactCount(), "a face on the floor: four points");
            double sum = 0;
            for (int k = 0; k < s.contactCount(); k++) {
                sum += s.contactImpulse(k, 0);
            }
            assertEquals(m * ShapeScenes.G * H, sum, 1e-9 * m * ShapeScenes.G * H, "normal impulses carry m g h");
        }
        assertEquals(0.1, q[2], 1e-9, "no drift in 1 s");
    }

    /**
     * Overlaps at q are left out between shapes of one mechanism only (a free box and the box of its grandchild
     * link), not between two free boxes; an explicit bound stays and an excluded pair stays excluded under a new
     * ground.
     */
    @Test
    void anExplicitBoundStaysAndOverlapExclusionsAreKept() {
        ShapeScenes scenes = new ShapeScenes("arm_box").freeBox("a", 1, 0.1, 0.1, 0.1, 0.8);
        RigidBodyInertia light = RigidBodyInertia.of(0.1, new double[3], 1e-3, 0, 0, 1e-3, 0, 1e-3);
        scenes.builder().addBody(BodySpec.builder("c1", "a", "j1", JointType.REVOLUTE).axis(0, 0, 1).inertia(light)
                .build());
        scenes.builder().addBody(BodySpec.builder("c2", "c1", "j2", JointType.REVOLUTE).axis(0, 0, 1).inertia(light)
                .build());
        Model model = scenes.shape("c2", "c2", Pose.translation(0.05, 0, 0), new Box(0.1, 0.1, 0.1), 0.8).build();
        ContactSet set = ContactSet.of(model, 7).withGround("floor", new double[3], new double[] {0, 0, 1}, 1, 0);
        assertEquals(7, set.maxShapeContacts());
        double[] q = new double[9];
        System.arraycopy(ShapeScenes.pose(0, 0, 0.1, 0), 0, q, 0, 7);
        ContactSet apart = ContactSet.of(model).withoutOverlapsAt(new GenericDynamics(model), q, 1e-6, null);
        assertTrue(ContactSet.of(model).mayTouch(0, 1) && !apart.mayTouch(0, 1), "a and its grandchild's box");
        ContactSet floored = apart.withGround("floor", new double[3], new double[] {0, 0, 1}, 1, 0);
        assertTrue(!floored.mayTouch(0, 1), "the excluded pair stays excluded");
        assertEquals(8, floored.maxShapeContacts(), "two shapes on the floor, four points each");

        Model free = new ShapeScenes("two_boxes").freeBox("a", 1, 0.1, 0.1, 0.1, 0.8)
                .freeBox("b", 1, 0.1, 0.1, 0.1, 0.8).build();
        double[] both = new double[14];
        System.arraycopy(ShapeScenes.pose(0, 0, 0.1, 0), 0, both, 0, 7);
        System.arraycopy(ShapeScenes.pose(0.05, 0, 0.1, 0), 0, both, 7, 7); // overlapping a
        assertTrue(ContactSet.of(free).withoutOverlapsAt(new GenericDynamics(free), both, 1e-6, null).mayTouch(0, 1),
                "two free boxes keep their contact however deep they start");
    }

    /**
     * A free tool welded to a hinged arm is one mechanism with it: their hulls overlapping at the start are left out
     * (kept, they fought the weld: 926 of 1,000 solves unconverged and the arm spun up to 110 rad/s).
     */
    @Test
    void aWeldJoinsItsBodiesIntoOneMechanism() throws Exception {
        String xml = """
                <mujoco><worldbody>
                  <body name="arm" pos="0 0 1"><joint name="j" type="hinge" axis="0 1 0" damping="0.5"/>
                    <geom type="box" size="0.2 0.03 0.03" pos="0.2 0 0" mass="1"/></body>
                  <body name="tool" pos="0.45 0 1"><freejoint/><geom type="box" size="0.06 0.05 0.05" mass="0.3"/></body>
                </worldbody>%s</mujoco>
                """;
        Model welded = org.symdyn.io.mjcf.MjcfReader.parse(xml.formatted(
                "<equality><weld body1=\"arm\" body2=\"tool\"/></equality>"), "weld.xml", null);
        Model loose = org.symdyn.io.mjcf.MjcfReader.parse(xml.formatted(""), "loose.xml", null);
        double[] q = {0, 0.45, 0, 1, 0, 0, 0, 1}; // the tool at its XML pose, its box into the arm's
        assertTrue(!ContactSet.of(welded).withoutOverlapsAt(new GenericDynamics(welded), q, 1e-9, null)
                .mayTouch(0, 1), "welded: left out");
        assertTrue(ContactSet.of(loose).withoutOverlapsAt(new GenericDynamics(loose), q, 1e-9, null).mayTouch(0, 1),
                "not welded: a free tool keeps its contact");
    }

    @Test
    void refusesWhatTheBuilderRefuses() {
        ContactSet set = ContactSet.of(box(1)).withGround("floor", new double[3], new double[] {0, 0, 1}, 1, 0);
        assertThrows(IllegalArgumentException.class,
                () -> set.withGround("floor", new double[3], new double[] {0, 0, 1}, 1, 0), "duplicate name");
        assertThrows(IllegalArgumentException.class,
                () -> set.withGround("wall", new double[3], new double[3], 1, 0), "zero normal");
        assertThrows(IllegalArgumentException.class,
                () -> set.withGround("wall", new double[3], new double[] {1, 0, 0}, -1, 0), "negative friction");
        assertThrows(IllegalArgumentException.class,
                () -> set.withGround("wall", new double[3], new double[] {1, 0, 0}, 1, 2), "restitution above 1");
    }
}
