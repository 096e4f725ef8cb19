package org.symdyn.systems;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.model.BodySpec;
import org.symdyn.model.JointDamping;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;
import org.symdyn.model.ModelException;
import org.symdyn.simulation.Simulator;
import org.symdyn.spatial.RigidBodyInertia;

/**
 * Joint damping, a passive force −d v that simulations apply and the dynamics do not, on a slider of mass m with
 * armature a and damping d along a horizontal axis: m_eff v̇ = −d v with m_eff = m + a, so v(t) = v₀ e^{−d t / m_eff}.
 * The time-stepping system treats it implicitly, exactly v_n = v₀ / (1 + h d / m_eff)ⁿ, and stays monotone for any h;
 * the continuous system and the simulator integrate it explicitly with RK4 (error O(h⁴)).
 */
class JointDampingTest {
    private static final double M = 2.0;
    private static final double A = 0.5;
    private static final double D = 3.0;
    private static final double V0 = 1.5;

    private static Model slider() throws ModelException {
        return Model.builder("damped_slider")
                .addBody(BodySpec.builder("cart", "world", "rail", JointType.PRISMATIC).axis(1, 0, 0).armature(A)
                        .damping(D).inertia(RigidBodyInertia.of(M, new double[3], 0.1, 0, 0, 0.1, 0, 0.1)).build())
                .build();
    }

    @Test
    void timeSteppingDecaysAsTheImplicitStep() throws ModelException {
        Model model = slider();
        double h = 1e-3;
        TimeSteppingSystem sys = TimeSteppingSystem.builder(new GenericDynamics(model)).timeStep(h)
                .jointDamping(JointDamping.of(model)).build();
        sys.setState(0, new double[] {0}, new double[] {V0});
        sys.run(1.0);
        double mEff = M + A;
        assertEquals(V0 / Math.pow(1 + h * D / mEff, 1000), sys.v()[0], 1e-12);
        assertEquals(V0 * Math.exp(-D / mEff), sys.v()[0], 1e-3, "first order in h of the closed form");
        assertEquals(0.0, sys.appliedForces()[0], 0.0, "the damping is not an applied force");
    }

    /** h d / m_eff = 120: an explicit step would blow up; the implicit one decays monotonically. */
    @Test
    void implicitDampingIsStableAtAnyStep() throws ModelException {
        Model model = slider();
        double h = 100.0;
        TimeSteppingSystem sys = TimeSteppingSystem.builder(new GenericDynamics(model)).timeStep(h)
                .jointDamping(JointDamping.of(model)).build();
        sys.setState(0, new double[] {0}, new double[] {V0});
        double previous = V0;
        for (int n = 0; n < 5; n++) {
            sys.step();
            assertTrue(sys.v()[0] > 0 && sys.v()[0] < previous, "monotone decay, step " + n + ": " + sys.v()[0]);
            previous = sys.v()[0];
        }
    }

    @Test
    void continuousSystemFollowsTheClosedForm() throws ModelException {
        Model model = slider();
        ContinuousTimeSystem sys = ContinuousTimeSystem.builder(new GenericDynamics(model))
                .jointDamping(JointDamping.of(model)).build();
        sys.setState(0, new double[] {0}, new double[] {V0});
        sys.run(1.0, 1e-2);
        double mEff = M + A;
        assertEquals(V0 * Math.exp(-D / mEff), sys.v()[0], 1e-9);
        assertEquals(V0 * mEff / D * (1 - Math.exp(-D / mEff)), sys.q()[0], 1e-9);
    }

    @Test
    void withoutDampingNothingDecays() throws ModelException {
        Model model = slider();
        TimeSteppingSystem sys = TimeSteppingSystem.builder(new GenericDynamics(model)).build();
        sys.setState(0, new double[] {0}, new double[] {V0});
        sys.run(0.5);
        assertEquals(V0, sys.v()[0], 1e-12, "the builder's default is no damping");
    }

    @Test
    void simulatorAppliesTheModelsDampingUnlessSwitchedOff() throws ModelException {
        Model model = slider();
        Simulator damped = Simulator.builder(model).build();
        damped.setState(0, new double[] {0}, new double[] {V0});
        damped.run(1.0, 1e-2, null);
        assertEquals(V0 * Math.exp(-D / (M + A)), damped.v()[0], 1e-9);
        Simulator free = Simulator.builder(model).jointDamping(JointDamping.NONE).build();
        free.setState(0, new double[] {0}, new double[] {V0});
        free.run(1.0, 1e-2, null);
        assertEquals(V0, free.v()[0], 1e-12);
    }

    @Test
    void dampingOfAnotherSizeOrNegativeIsRefused() throws ModelException {
        Model model = slider();
        assertThrows(IllegalArgumentException.class,
                () -> TimeSteppingSystem.builder(new GenericDynamics(model)).jointDamping(JointDamping.perDof(1, 2)));
        assertThrows(IllegalArgumentException.class, () -> JointDamping.perDof(-1));
        assertThrows(IllegalArgumentException.class, () -> JointDamping.perDof(Double.NaN));
    }
}
