package org.symdyn.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.constraints.ConstraintSet;
import org.symdyn.constraints.TestMechanisms;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.model.Model;
import org.symdyn.solvers.ConstraintSolverMethod;

/** The simulator's plumbing: time keeping, listener, drift settings, forces, custom right-hand sides, the log. */
class SimulatorTest {

    /**
     * An interpreter given with a joint origin set as a parameter: the simulator's loop closes on its numbers, as the
     * interpreter's own constraints do (it bound constraints of the file's numbers: phi of the declared model, a
     * review's probe).
     */
    @Test
    void anInterpretersParametersReachItsConstraints() throws Exception {
        Model m = org.symdyn.testing.LoopModels.fourBarWithCrankLength();
        double[] q = {0.3, -0.2, 0.4};
        org.symdyn.constraints.GenericModel reference = new org.symdyn.constraints.GenericModel(m);
        reference.setParameter(0, 1.2);
        ConstraintData data = ConstraintSet.of(m).bind(reference);
        double[] want = new double[data.size()];
        data.positionError(q, want);
        GenericDynamics d = new GenericDynamics(m);
        d.setParameter(0, 1.2);
        Simulator sim = Simulator.builder(m).dynamics(d).build();
        sim.setState(0, q, new double[3]);
        double[] got = sim.positionErrors();
        for (int i = 0; i < want.length; i++) {
            assertEquals(want[i], got[i], 1e-15, "phi[" + i + "]");
        }
        GenericDynamics declared = new GenericDynamics(m);
        ConstraintData plain = ConstraintSet.of(m).bind(new org.symdyn.constraints.GenericModel(m));
        double[] file = new double[plain.size()];
        plain.positionError(q, file);
        assertTrue(Math.abs(file[0] - got[0]) > 0.1, "the parameter moves the loop: " + file[0] + " " + got[0]);
        assertEquals(3, declared.nv());
    }

    @Test
    void runEndsExactlyAtTheEndTimeAndNotifiesEveryStep() throws Exception {
        Simulator sim = Simulator.builder(SimulationModels.pendulum()).build();
        sim.setState(0.25, new double[] {0.3}, new double[] {0});
        List<Double> times = new ArrayList<>();
        long n = sim.run(1.0, 0.07, s -> times.add(s.time()));
        assertEquals(11, n); // 10 steps of 0.07 and one of 0.05
        assertEquals(12, times.size());
        assertEquals(0.25, times.get(0));
        assertEquals(1.0, sim.time(), 1e-15);
        assertEquals(0.05, sim.lastStepSize(), 1e-12);
        assertEquals(11, sim.stepCount());
        // A final sliver within rounding of h is merged into the last step.
        sim.setState(0, new double[] {0.3}, new double[] {0});
        assertEquals(10, sim.run(1.0, 0.1, null));
        assertEquals(1.0, sim.time(), 1e-15);
    }

    @Test
    void adaptiveRunEndsAtTheEndTime() throws Exception {
        Simulator sim = Simulator.builder(SimulationModels.pendulum())
                .integrator(DormandPrince45.factory(1e-9, 1e-9)).build();
        sim.setState(0, new double[] {0.3}, new double[] {0});
        long n = sim.run(2.0, 0.5, null);
        assertEquals(2.0, sim.time(), 1e-12);
        assertTrue(sim.integrator().isAdaptive());
        assertEquals(n, ((DormandPrince45) sim.integrator()).acceptedSteps());
    }

    @Test
    void stateIsCheckedAndQuaternionsNormalised() throws Exception {
        Simulator sim = Simulator.builder(SimulationModels.freeBody()).build();
        assertThrows(IllegalStateException.class, () -> sim.step(0.01));
        assertThrows(IllegalArgumentException.class, () -> sim.setState(0, new double[6], new double[6]));
        // a zero quaternion has no rotation to renormalise to: refused, not turned into NaN
        IllegalArgumentException zero = assertThrows(IllegalArgumentException.class,
                () -> sim.setState(0, new double[7], new double[6]));
        assertTrue(zero.getMessage().contains("q[3..6] is zero"), zero.getMessage());
        sim.setState(0, new double[] {0, 0, 0, 0, 0, 0, 2}, new double[6]);
        assertThrows(IllegalArgumentException.class, () -> sim.run(Double.NaN, 0.01, null), "no end time");
        assertEquals(1, sim.q()[6]);
        assertEquals(0, sim.quaternionNormError());
        assertEquals(0, sim.positionErrorNorm());
        assertSame(null, sim.constraintData());
    }

    @Test
    void driftControlSetsTheGroupsBaumgarteSwitches() throws Exception {
        Model model = TestMechanisms.fourBar();
        ConstraintData set = ConstraintSet.of(model).bindGeneric();
        Simulator.builder(model).constraints(set).driftControl(DriftControl.BAUMGARTE).baumgarteTimeConstant(0.05)
                .build();
        assertTrue(set.isBaumgarteEnabled(0));
        double[] ab = new double[2];
        ab[0] = set.baumgarteAlpha(0);
        ab[1] = set.baumgarteBeta(0);
        assertEquals(20, ab[0], 1e-12);
        assertEquals(20, ab[1], 1e-12);
        Simulator.builder(model).constraints(set).driftControl(DriftControl.PROJECTION).build();
        assertFalse(set.isBaumgarteEnabled(0));
        assertTrue(DriftControl.BOTH.usesBaumgarte() && DriftControl.BOTH.usesProjection());
        assertFalse(DriftControl.NONE.usesBaumgarte() || DriftControl.NONE.usesProjection());
        // The model's constraints are bound automatically, or ignored on request.
        Simulator auto = Simulator.builder(model).build();
        assertEquals(2, auto.constraintData().size());
        assertSame(null, Simulator.builder(model).withoutModelConstraints().build().constraintData());
        // Dynamics given with a set must be the set's.
        assertThrows(IllegalArgumentException.class, () -> Simulator.builder(model).constraints(set)
                .dynamics(new GenericDynamics(model)).build());
        // Constraint data of another model are refused.
        ConstraintData otherModel = ConstraintSet.of(TestMechanisms.planarLeg()).bindGeneric();
        assertThrows(IllegalArgumentException.class,
                () -> Simulator.builder(model).constraints(otherModel).build());
    }

    /**
     * Applied forces enter: a constant torque τ on the pendulum does work τ Δq, so T + V - τ (q - q0) is conserved.
     */
    @Test
    void appliedForcesDoWork() throws Exception {
        double torque = 2.0;
        Simulator sim = Simulator.builder(SimulationModels.pendulum())
                .forces((t, q, v, tau) -> tau[0] = torque).build();
        double q0 = -1.0;
        sim.setState(0, new double[] {q0}, new double[] {0});
        double e0 = sim.totalEnergy();
        sim.run(1, 1e-3, null);
        double work = torque * (sim.q()[0] - q0);
        assertTrue(Math.abs(work) > 0.1);
        assertEquals(e0 + work, sim.totalEnergy(), 1e-9);
    }

    /** A custom right-hand side (here: viscous damping added to the ABA) replaces the built-in one. */
    @Test
    void customAccelerationFunction() throws Exception {
        Model model = SimulationModels.pendulum();
        GenericDynamics dyn = new GenericDynamics(model);
        double[] tau = new double[1];
        AccelerationFunction damped = (q, v, t, vdot) -> {
            tau[0] = -0.5 * v[0];
            dyn.forwardDynamics(q, v, tau, vdot);
        };
        Simulator sim = Simulator.builder(model).dynamics(dyn).accelerationFunction(damped).build();
        assertSame(damped, sim.accelerationFunction());
        sim.setState(0, new double[] {-1.0}, new double[] {0});
        double e0 = sim.totalEnergy();
        sim.run(5, 1e-3, null);
        assertTrue(sim.totalEnergy() < e0 - 0.1, "damping must dissipate");
    }

    @Test
    void solverMethodIsSelectable() throws Exception {
        Simulator sim = Simulator.builder(TestMechanisms.fourBar())
                .solverMethod(ConstraintSolverMethod.NULL_SPACE).build();
        ConstrainedAcceleration f = (ConstrainedAcceleration) sim.accelerationFunction();
        assertEquals(ConstraintSolverMethod.NULL_SPACE, f.method());
        f.method(ConstraintSolverMethod.RANGE_SPACE_SPARSE);
        assertEquals(ConstraintSolverMethod.RANGE_SPACE_SPARSE, f.method());
    }

    /** The log keeps evenly spaced records when full, tracks maxima over every step, and writes CSV. */
    @Test
    void logDecimatesAndWritesCsv() throws Exception {
        Simulator sim = Simulator.builder(SimulationModels.pendulum()).build();
        sim.setState(0, new double[] {0.3}, new double[] {0});
        SimulationLog log = new SimulationLog(10);
        sim.run(1, 0.01, log);
        assertEquals(101, log.stepsSeen());
        assertTrue(log.size() >= 5 && log.size() <= 10, "size " + log.size());
        double spacing = log.time(1) - log.time(0);
        for (int i = 1; i < log.size(); i++) {
            assertEquals(spacing, log.time(i) - log.time(i - 1), 1e-9);
        }
        assertEquals(0, log.time(0));
        assertTrue(log.maxEnergyDrift() < 1e-6);
        StringWriter w = new StringWriter();
        log.writeCsv(w);
        assertEquals(log.size() + 1, w.toString().split("\n").length);
        assertTrue(w.toString().startsWith("t,h,phi,phidot,kinetic,potential,total,quat_norm_error"));
    }
}
