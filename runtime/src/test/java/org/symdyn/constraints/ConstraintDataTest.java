package org.symdyn.constraints;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.model.CouplerConstraintModel;
import org.symdyn.model.Model;
import org.symdyn.model.SourceLocation;
import org.symdyn.simulation.DriftControl;
import org.symdyn.simulation.Simulator;
import org.symdyn.solvers.ConstrainedDynamics;
import org.symdyn.solvers.ConstraintSolverMethod;

/** Binding a {@link ConstraintSet}: the fused path, sets from a model's functions alone, and what is refused. */
class ConstraintDataTest {
    private static final double[] X = {0, 0, 0, 1, 0, 0};
    private static final double[] Y = {0, 0, 0, 0, 1, 0};

    /** One fused call gives the same H, C, G, γ and solve as separate evaluations, with and without Baumgarte. */
    @Test
    void fusedEvaluationEqualsSeparateCalls() throws Exception {
        Random rnd = new Random(41);
        for (Model model : List.of(TestMechanisms.fourBar(), TestMechanisms.spatialMechanism(),
                TestMechanisms.planarLeg())) {
            ConstraintSet set = ConstraintSet.of(model);
            GenericDynamics dyn = new GenericDynamics(model);
            ConstraintData fused = set.bind(new GenericModel(model));
            ConstraintData separate = set.bind(dyn, dyn, new GenericConstraints(model));
            assertTrue(fused.isFused());
            assertTrue(!separate.isFused());
            for (int n = 0; n < 20; n++) {
                boolean stabilise = n % 2 == 1;
                for (int g = 0; g < set.groupCount(); g++) {
                    if (stabilise) {
                        fused.enableBaumgarte(g);
                        separate.enableBaumgarte(g);
                    } else {
                        fused.disableBaumgarte(g);
                        separate.disableBaumgarte(g);
                    }
                }
                double[] q = TestMechanisms.randomQ(model, rnd);
                double[] v = TestMechanisms.random(model.nv(), 2, rnd);
                fused.computeSystem(q, v);
                separate.computeSystem(q, v);
                assertEquals(0, TestMechanisms.maxDiff(fused.H().data, separate.H().data));
                assertEquals(0, TestMechanisms.maxDiff(fused.C(), separate.C()));
                assertEquals(0, TestMechanisms.maxDiff(fused.G().data, separate.G().data));
                assertEquals(0, TestMechanisms.maxDiff(fused.gamma(), separate.gamma()), model.name());
            }
        }
    }

    /** A set built from the functions alone (no Model) solves as the set built from the Model. */
    @Test
    void setFromFunctionsAloneSolvesLikeTheModelsSet() throws Exception {
        Model model = TestMechanisms.spatialMechanism();
        GenericModel functions = new GenericModel(model);
        ConstraintSet alone = ConstraintSet.of(functions);
        ConstraintSet full = ConstraintSet.of(model);
        assertNull(alone.model());
        assertEquals(full.rowNames(), alone.rowNames());
        assertEquals(full.modelHash(), alone.modelHash());
        ConstraintData a = alone.bind(functions);
        ConstraintData b = full.bindGeneric();
        ConstrainedDynamics fa = new ConstrainedDynamics(a);
        ConstrainedDynamics fb = new ConstrainedDynamics(b);
        Random rnd = new Random(43);
        double[] va = new double[model.nv()];
        double[] vb = new double[model.nv()];
        for (int n = 0; n < 10; n++) {
            double[] q = TestMechanisms.randomQ(model, rnd);
            double[] v = TestMechanisms.random(model.nv(), 1, rnd);
            double[] tau = TestMechanisms.random(model.nv(), 3, rnd);
            for (ConstraintSolverMethod method : ConstraintSolverMethod.values()) {
                fa.forwardDynamics(method, q, v, tau, va);
                fb.forwardDynamics(method, q, v, tau, vb);
                assertEquals(0, TestMechanisms.maxDiff(va, vb), 1e-12 * (1 + TestMechanisms.maxAbs(vb)));
            }
        }
        // the steppers bind such a set too: they compare its hash, which it has, not its Model's (a helper found a
        // NullPointerException there)
        org.symdyn.contact.TimeStepper sa = org.symdyn.contact.TimeStepper.builder(functions).constraints(a).build();
        org.symdyn.contact.TimeStepper sb = org.symdyn.contact.TimeStepper.builder(functions).constraints(b).build();
        double[] q = TestMechanisms.randomQ(model, rnd);
        double[] v = TestMechanisms.random(model.nv(), 1, rnd);
        double[] tau = TestMechanisms.random(model.nv(), 3, rnd);
        double[] qa = new double[model.nq()];
        double[] qb = new double[model.nq()];
        sa.step(q, v, tau, 1e-3, qa, va);
        sb.step(q, v, tau, 1e-3, qb, vb);
        assertEquals(0, TestMechanisms.maxDiff(va, vb), 1e-12 * (1 + TestMechanisms.maxAbs(vb)));
        org.symdyn.systems.ContinuousTimeSystem.builder(functions).constraints(a).build();
        GenericDynamics other = new GenericDynamics(TestMechanisms.fourBar());
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> org.symdyn.contact.TimeStepper.builder(other).constraints(a)).getMessage()
                .contains("stepper's dynamics"));
        assertThrows(IllegalArgumentException.class,
                () -> org.symdyn.systems.ContinuousTimeSystem.builder(other).constraints(b));
        // Forces of model constraints need the constraint geometry of the Model.
        assertThrows(UnsupportedOperationException.class,
                () -> a.forces(0, model.neutralConfiguration(), false, a.newForceBuffer()));
    }

    /** Another model's implementation with the same sizes is refused, naming the content hash. */
    @Test
    void anotherModelsImplementationIsRefused() throws Exception {
        Model fourBar = TestMechanisms.fourBar();
        Model otherAxes = TestMechanisms.fourBarWithAxes(X, Y, X);
        assertEquals(fourBar.nv(), otherAxes.nv());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ConstraintSet.of(fourBar).bind(new GenericModel(otherAxes)));
        assertTrue(e.getMessage().contains("content hash"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> ConstraintSet.of(fourBar).bind(new GenericModel(TestMechanisms.planarLeg())));
        // Code groups need kinematics.
        ConstraintSet.Builder b = ConstraintSet.builder(TestMechanisms.planarLeg()).withoutModelConstraints();
        b.addContact(2, new double[] {0, -0.4, 0}, new double[] {1, 0, 0});
        GenericDynamics dyn = new GenericDynamics(TestMechanisms.planarLeg());
        assertThrows(IllegalArgumentException.class, () -> b.build().bind(dyn, null, null));
    }

    /** The simulator's default drift control keeps the Baumgarte stabilisation the model states. */
    @Test
    void simulatorKeepsTheModelsBaumgarteByDefault() throws Exception {
        Model model = TestMechanisms.spatialBodies(Model.builder("stabilised").root("base"))
                .addConstraint(new CouplerConstraintModel("gear", 4, 0, 2.5, 0.1, 0.05, SourceLocation.UNKNOWN))
                .build();
        Simulator sim = Simulator.builder(model).build();
        assertEquals(DriftControl.AS_SET, sim.driftControl());
        assertTrue(sim.constraintData().isBaumgarteEnabled(0));
        assertEquals(0.05, sim.constraintData().baumgarteTimeConstant(0), 1e-15);
        Simulator none = Simulator.builder(model).driftControl(DriftControl.NONE).build();
        assertTrue(!none.constraintData().isBaumgarteEnabled(0));
        // From the functions alone (no Model): same rows, bound to them.
        Simulator alone = Simulator.builder(new GenericModel(model)).build();
        assertTrue(alone.constraintData().isFused());
        assertTrue(alone.constraintData().isBaumgarteEnabled(0));
        assertTrue(Double.isNaN(alone.potentialEnergy()));
        double[] v = TestMechanisms.random(model.nv(), 1, new Random(47));
        alone.setState(0, model.neutralConfiguration(), v);
        DMatrixRMaj h = new DMatrixRMaj(model.nv(), model.nv());
        new GenericDynamics(model).massMatrix(model.neutralConfiguration(), h);
        double expected = 0.5 * dot(v, TestMechanisms.mult(h, v));
        assertEquals(expected, alone.kineticEnergy(), 1e-12 * Math.abs(expected));
    }

    private static double dot(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }
}
