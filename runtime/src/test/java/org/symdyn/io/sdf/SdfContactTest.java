package org.symdyn.io.sdf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.symdyn.io.sdf.SdfTesting.read;

import org.junit.jupiter.api.Test;
import org.symdyn.contact.ContactSet;
import org.symdyn.contact.TimeStepper;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.model.CollisionShapeModel;
import org.symdyn.model.ContactMaterial;
import org.symdyn.model.Model;

/** SDFormat's surface friction combined as Gazebo combines it: the smaller of the two {@code <mu>}. */
class SdfContactTest {
    private static final double SLOPE = Math.toRadians(30);

    /** A box on a plane tilted 30° about y (normal (sin θ, 0, cos θ)), resting on it at its file pose. */
    private static String slope(double plane, double box) {
        double s = Math.sin(SLOPE);
        double c = Math.cos(SLOPE);
        return """
                <?xml version="1.0"?>
                <sdf version="1.9"><model name="slope">
                  <link name="ground">
                    <collision name="plane"><geometry><plane><normal>%s 0 %s</normal><size>10 10</size></plane></geometry>
                      <surface><friction><ode><mu>%s</mu></ode></friction></surface></collision></link>
                  <joint name="fix" type="fixed"><parent>world</parent><child>ground</child></joint>
                  <link name="box"><pose>%s 0 %s 0 %s 0</pose>
                    <inertial><mass>1</mass><inertia><ixx>0.004</ixx><iyy>0.004</iyy><izz>0.007</izz></inertia></inertial>
                    <collision name="b"><geometry><box><size>0.2 0.2 0.1</size></box></geometry>
                      <surface><friction><ode><mu>%s</mu></ode></friction></surface></collision></link>
                </model></sdf>
                """.formatted(s, c, plane, 0.05 * s, 0.05 * c, SLOPE, box);
    }

    /** How far the box moved along x in 0.5 s from rest, time stepping with h = 1 ms. */
    private static double slid(Model m) {
        TimeStepper stepper = TimeStepper.builder(new GenericDynamics(m)).contacts(ContactSet.of(m)).build();
        double[] q = m.referenceConfiguration();
        double x0 = q[0];
        double[] v = new double[6];
        for (int i = 0; i < 500; i++) {
            stepper.step(q, v, new double[6], 1e-3, q, v);
        }
        return q[0] - x0;
    }

    /** x after 0.5 s of sliding down the slope at g (sin θ − μ cos θ), along the slope's direction (cos θ, 0, −sin θ). */
    private static double slide(double mu) {
        double a = 9.81 * (Math.sin(SLOPE) - mu * Math.cos(SLOPE));
        return a * 0.25 / 2 * Math.cos(SLOPE);
    }

    @Test
    void frictionCombinesByTheSmallerCoefficientAsInGazebo() {
        Model m = read(slope(1, 0.3));
        for (CollisionShapeModel c : m.collisionShapes()) {
            assertEquals(ContactMaterial.FrictionRule.MINIMUM, c.material().frictionRule(), c.name());
        }
        assertEquals(0.3, ContactMaterial.combinedFriction(m.collisionShapes().get(0).material(),
                m.collisionShapes().get(1).material()), 0);
        // μ = min(1, 0.3) slides as μ = 0.3 on both (0.255 m; the harmonic mean's 0.46 would give 0.107 m); the
        // step is first order in h, hence the millimetres
        assertEquals(slide(0.3), slid(m), 3e-3);
        assertEquals(slide(0.3), slid(read(slope(0.3, 0.3))), 3e-3);
        // μ = min(1, 0.8) = 0.8 > tan 30°: it holds
        assertEquals(0, slid(read(slope(0.8, 1))), 1e-6);
        // an SDFormat material and a URDF one combine by the harmonic mean
        ContactMaterial sdf = new ContactMaterial(0.3, 0, ContactMaterial.FrictionRule.MINIMUM);
        assertEquals(2 * 0.3 / 1.3, ContactMaterial.combinedFriction(new ContactMaterial(1, 0), sdf), 1e-15);
        assertEquals(2 * 0.3 / 1.3, ContactMaterial.combinedFriction(sdf,
                new ContactMaterial(1, 0, ContactMaterial.FrictionRule.MAXIMUM)), 1e-15);
    }

    /** A torsional coefficient is friction against spinning about the normal: the sliding μ stays SDFormat's 1. */
    @Test
    void aTorsionalCoefficientIsNotTheSlidingFriction() {
        String torsional = slope(1, 0.3).replace("<friction><ode><mu>0.3</mu></ode></friction>",
                "<friction><torsional><coefficient>0.05</coefficient></torsional></friction>");
        Model m = read(torsional);
        assertEquals(1, m.collisionShapes().get(1).material().friction(), 0, "μ 0.05 before");
        assertEquals(0, slid(m), 1e-6, "μ = 1 holds the box on 30°");
    }
}
