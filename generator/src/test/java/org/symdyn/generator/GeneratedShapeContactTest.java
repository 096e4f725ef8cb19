package org.symdyn.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.symdyn.contact.ContactSet;
import org.symdyn.contact.ContactSettings;
import org.symdyn.contact.TimeStepper;
import org.symdyn.contract.ModelFunctions;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.geometry.Box;
import org.symdyn.geometry.Capsule;
import org.symdyn.geometry.Sphere;
import org.symdyn.model.BodySpec;
import org.symdyn.model.GroundModel;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;
import org.symdyn.model.SourceLocation;
import org.symdyn.spatial.Pose;
import org.symdyn.spatial.RigidBodyInertia;
import org.symdyn.testing.ShapeScenes;

/**
 * Contact between collision shapes on both backends: the time stepper on a generated class and on the interpreter
 * take the same steps (state within 1e-9 over a second of contact, the same contacts every step) for a box sliding
 * down a tilted box, three boxes settling into a stack, a sphere dropped onto a capsule and rolling off, and a
 * pendulum falling onto a ledge link.
 */
class GeneratedShapeContactTest {
    private static final double H = 1e-3;

    static Stream<Arguments> scenes() {
        ShapeScenes stack = new ShapeScenes("stack3");
        stack.builder().addGround(new GroundModel("floor", new double[3], new double[] {0, 0, 1}, 0.8, 0,
                SourceLocation.UNKNOWN));
        for (int i = 0; i < 3; i++) {
            stack.freeBox("box" + i, 1 + i, 0.1, 0.12, 0.1, 0.8);
        }
        double[] q3 = new double[21];
        for (int i = 0; i < 3; i++) {
            System.arraycopy(ShapeScenes.pose(0.01 * i, 0, 0.1 + 0.2 * i + 0.001 * i, 0), 0, q3, 7 * i, 7);
        }
        double theta = 0.6;
        Model tilted = new ShapeScenes("tilted").shape("table", "world", ShapeScenes.rotationX(theta, 0, 0, 0),
                new Box(1, 1, 0.05), 0.5).freeBox("box", 1, 0.1, 0.1, 0.1, 0.5).build();
        Pose alongX = Pose.of(new double[] {0, 0, 1, 0, 1, 0, -1, 0, 0}, new double[3]);
        Model ball = new ShapeScenes("ball_on_bar").shape("bar", "world", alongX, new Capsule(0.05, 1), 1)
                .freeSphere("ball", 1, 0.1, 1).build();
        ShapeScenes pendulum = new ShapeScenes("pendulum_ledge");
        pendulum.builder().addBody(BodySpec.builder("arm", "world", "pivot", JointType.REVOLUTE).axis(0, 1, 0)
                .inertia(RigidBodyInertia.of(1, new double[] {1, 0, 0}, 1e-3, 0, 0, 1e-3, 0, 1e-3)).build());
        pendulum.builder().addFixedLink("ledge", "world", Pose.translation(1, 0, -0.55), RigidBodyInertia.ZERO,
                SourceLocation.UNKNOWN, SourceLocation.UNKNOWN);
        Model ledge = pendulum.shape("bob", "arm", Pose.translation(1, 0, 0), new Sphere(0.05), 0.5)
                .shape("ledge_top", "ledge", Pose.IDENTITY, new Box(0.5, 0.5, 0.05), 0.5).build();
        return Stream.of(
                Arguments.of(stack.build(), q3),
                Arguments.of(tilted, ShapeScenes.pose(0, -0.16 * Math.sin(theta), 0.16 * Math.cos(theta), theta)),
                Arguments.of(ball, ShapeScenes.pose(0.03, 0.01, 0.2, 0.3)),
                Arguments.of(ledge, new double[] {0}));
    }

    @ParameterizedTest
    @MethodSource("scenes")
    void generatedAndGenericTakeTheSameSteps(Model model, double[] q0) throws Exception {
        ModelFunctions generated = GeneratedVsGenericTest.instance(new CodeGenerator().generate(model,
                GeneratorOptions.of("org.symdyn.generated", "Shapes" + model.name().replace("_", ""))));
        GenericDynamics generic = new GenericDynamics(model);
        ContactSet set = ContactSet.of(model);
        TimeStepper a = TimeStepper.builder(generic).contacts(set).settings(ContactSettings.defaults()).build();
        TimeStepper b = TimeStepper.builder(generated).contacts(set).settings(ContactSettings.defaults()).build();
        double[] qa = q0.clone(), qb = q0.clone();
        double[] va = new double[model.nv()], vb = new double[model.nv()];
        double[] tau = new double[model.nv()];
        int touched = 0;
        for (int i = 0; i < 1000; i++) {
            assertTrue(a.step(qa, va, tau, H, qa, va).converged(), a.report().toString());
            assertTrue(b.step(qb, vb, tau, H, qb, vb).converged(), b.report().toString());
            assertEquals(a.contactCount(), b.contactCount(), "the same contacts at step " + i);
            touched += a.contactCount() > 0 ? 1 : 0;
            for (int j = 0; j < qa.length; j++) {
                assertEquals(qa[j], qb[j], 1e-9, "q[" + j + "] at step " + i);
            }
            for (int j = 0; j < va.length; j++) {
                assertEquals(va[j], vb[j], 1e-9, "v[" + j + "] at step " + i);
            }
        }
        assertTrue(touched > 300, "in contact for a good part of the run: " + touched + " steps");
    }
}
