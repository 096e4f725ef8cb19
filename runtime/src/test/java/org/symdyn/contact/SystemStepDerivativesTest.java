package org.symdyn.contact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.io.urdf.UrdfReader;
import org.symdyn.manifold.StateSpace;
import org.symdyn.model.Model;
import org.symdyn.systems.CompliantContact;
import org.symdyn.systems.DcMotor;
import org.symdyn.systems.LinearSpringDamper;
import org.symdyn.systems.JointTorqueSource;
import org.symdyn.systems.PdServo;
import org.symdyn.systems.SpatialForce;
import org.symdyn.systems.SystemStepDerivatives;
import org.symdyn.systems.TimeSteppingSystem;
import org.symdyn.testing.SharedFiles;

/**
 * {@link SystemStepDerivatives}: the derivatives of a {@link TimeSteppingSystem}'s step with its actuators (PD servos
 * on every joint, one of them clamped at its torque limit, a DC motor and a torque source) against central finite
 * differences of the system's own step in the contract's tangent spaces, along q, v and the τ input: solo12 standing
 * on its four feet, its servos holding the pose (every foot sticking), and iiwa14 swinging free toward targets off
 * its pose (no contact), iiwa14 also with two spring-dampers and two wrenches, and solo12 on compliant feet (no
 * rigid contact, pressed 2 mm in and moving). Each finite difference restarts the system from the
 * perturbed state (no warm start), the solver's tolerance at 1e-12. Tolerance 1e-6 of each column's largest entry
 * (at least 1), issue 35's. Also: the servos' gains are in the Jacobians (they differ from the contact step's at
 * fixed τ by exactly ∂x⁺/∂τ A), an actuator without derivatives is refused at construction, and a step with its
 * derivatives allocates nothing.
 */
class SystemStepDerivativesTest {
    private static final double H = 1e-3;
    /** The actuators besides the servos, motor and torque source: none, springs and wrenches, compliant feet. */
    private static final int NONE = 0;
    private static final int SPRINGS = 1;
    private static final int COMPLIANT = 2;
    private static final double EPS = 1e-6;
    private static final ContactSettings TIGHT = ContactSettings.defaults().tolerance(1e-12).maxIterations(20000);

    @Test
    void solo12StandingOnServos() throws Exception {
        Model m = solo12();
        double[] q = standing(m);
        double[] v = new double[m.nv()];
        double worst = check(m, q, v, true, NONE);
        System.out.printf(Locale.ROOT, "solo12 standing on servos: worst column error against finite differences %.2e%n",
                worst);
    }

    @Test
    void iiwa14SwingingOnServos() throws Exception {
        Model m = UrdfReader.read(SharedFiles.model("iiwa14_no_collision.urdf"));
        double[] q = new double[m.nq()];
        double[] v = new double[m.nv()];
        for (int i = 0; i < m.nq(); i++) {
            q[i] = 0.3 * Math.sin(1.7 * i + 0.4);
            v[i] = 0.5 * Math.cos(0.9 * i);
        }
        double worst = check(m, q, v, false, NONE);
        System.out.printf(Locale.ROOT, "iiwa14 on servos: worst column error against finite differences %.2e%n",
                worst);
    }

    /**
     * iiwa14 swinging on its servos with a spring-damper from the world to its flange, one between two links, a
     * wrench in the flange's coordinates and a world force at a point of link 3 (their derivatives through
     * {@link org.symdyn.systems.PointForceDerivatives}).
     */
    @Test
    void iiwa14WithSpringsAndWrenches() throws Exception {
        Model m = UrdfReader.read(SharedFiles.model("iiwa14_no_collision.urdf"));
        double[] q = new double[m.nq()];
        double[] v = new double[m.nv()];
        for (int i = 0; i < m.nq(); i++) {
            q[i] = 0.3 * Math.sin(1.3 * i + 0.2);
            v[i] = 0.4 * Math.cos(1.1 * i);
        }
        double worst = check(m, q, v, false, SPRINGS);
        System.out.printf(Locale.ROOT, "iiwa14 with springs and wrenches: worst column error %.2e%n", worst);
    }

    /** solo12 on compliant feet (no rigid contact), pressed 2 mm in and moving, on its servos. */
    @Test
    void solo12OnCompliantFeet() throws Exception {
        Model m = solo12();
        double[] q = standing(m);
        q[2] -= 0.002;
        double[] v = new double[m.nv()];
        for (int i = 0; i < m.nv(); i++) {
            v[i] = 0.05 * Math.sin(0.7 * i + 0.3);
        }
        double worst = check(m, q, v, false, COMPLIANT);
        System.out.printf(Locale.ROOT, "solo12 on compliant feet: worst column error %.2e%n", worst);
    }

    @Test
    void anActuatorWithoutDerivativesIsRefusedByName() throws Exception {
        Model m = UrdfReader.read(SharedFiles.model("iiwa14_no_collision.urdf"));
        GenericDynamics dyn = new GenericDynamics(m);
        org.symdyn.systems.Actuator own = new org.symdyn.systems.Actuator() {
            @Override
            public String name() {
                return "push";
            }

            @Override
            public void addForces(double t, double[] q, double[] v, double[] tau) {
                tau[0] += 0.1 * q[0];
            }
        };
        TimeSteppingSystem sys = TimeSteppingSystem.builder(dyn).timeStep(H).actuator(own).build();
        sys.setState(0, new double[m.nq()], new double[m.nv()]);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new SystemStepDerivatives(sys, m));
        assertTrue(e.getMessage().contains("'push'") && e.getMessage().contains("no analytical force derivatives"),
                e.getMessage());
    }

    @Test
    void aStepWithItsDerivativesAllocatesNothing() throws Exception {
        Model m = solo12();
        TimeSteppingSystem sys = system(m, true, NONE);
        sys.setState(0, standing(m), new double[m.nv()]);
        SystemStepDerivatives d = new SystemStepDerivatives(sys, m);
        double[] q0 = sys.q().clone();
        double[] v0 = sys.v().clone();
        d.step();
        long bytes = org.symdyn.testing.Allocations.allocatedBytes(100, () -> {
            System.arraycopy(q0, 0, sys.q(), 0, q0.length);
            System.arraycopy(v0, 0, sys.v(), 0, v0.length);
            d.step();
        });
        assertTrue(bytes < 16 * 100, bytes + " bytes in 100 steps");
    }

    /**
     * Every column of the six derivatives against central differences; returns the worst error (relative to the
     * column's largest entry, at least 1). With {@code sticking}, every contact must stick.
     */
    private static double check(Model m, double[] q, double[] v, boolean sticking, int extras) {
        int nv = m.nv();
        StateSpace space = new StateSpace(m);
        TimeSteppingSystem sys = system(m, sticking, extras);
        double[] input = new double[nv];
        for (int i = 0; i < nv && !sticking; i++) {
            input[i] = 0.05 * Math.cos(2.1 * i);
        }
        sys.setInput(input);
        sys.setState(0, q, v);
        SystemStepDerivatives d = new SystemStepDerivatives(sys, m);
        d.step();
        double[] qn = sys.q().clone();
        StepDerivatives contact = d.contactStep();
        int blocks = sys.stepper().lastProblem().blockCount();
        assertEquals(sticking, blocks > 0, "contact rows");
        for (int b = 0; b < blocks; b++) {
            assertEquals(StepDerivatives.STICKING, contact.mode(b), "foot " + b);
        }
        // the servos are in the Jacobians: ∂v⁺/∂q = (∂v⁺/∂q at fixed τ) + ∂v⁺/∂τ A_q exactly as built, A_q ≠ 0
        double gains = 0;
        for (double x : d.actuatorForceDq().data) {
            gains += Math.abs(x);
        }
        assertTrue(gains > 0, "the servos' stiffness in A_q");
        double worst = 0;
        String where = "";
        for (int x = 0; x < 3; x++) {
            for (int j = 0; j < nv; j++) {
                double[][] plus;
                double[][] minus;
                if (x == 0) {
                    plus = step(m, sticking, extras, StepDerivativesTest.perturb(m, space, q, j, EPS), v, input);
                    minus = step(m, sticking, extras, StepDerivativesTest.perturb(m, space, q, j, -EPS), v, input);
                } else {
                    double[] arg = (x == 1 ? v : input).clone();
                    double[] argm = arg.clone();
                    arg[j] += EPS;
                    argm[j] -= EPS;
                    plus = x == 1 ? step(m, sticking, extras, q, arg, input) : step(m, sticking, extras, q, v, arg);
                    minus = x == 1 ? step(m, sticking, extras, q, argm, input) : step(m, sticking, extras, q, v, argm);
                }
                double[] dqFd = StepDerivativesTest.tangentDifference(m, space, qn, minus[0], plus[0]);
                DMatrixRMaj aq = x == 0 ? d.dqNextDq() : x == 1 ? d.dqNextDv() : d.dqNextDtau();
                DMatrixRMaj av = x == 0 ? d.dvNextDq() : x == 1 ? d.dvNextDv() : d.dvNextDtau();
                double scaleQ = 1;
                double scaleV = 1;
                for (int i = 0; i < nv; i++) {
                    scaleQ = Math.max(scaleQ, Math.abs(aq.get(i, j)));
                    scaleV = Math.max(scaleV, Math.abs(av.get(i, j)));
                }
                for (int i = 0; i < nv; i++) {
                    double fdq = dqFd[i] / (2 * EPS);
                    double fdv = (plus[1][i] - minus[1][i]) / (2 * EPS);
                    double eq = Math.abs(fdq - aq.get(i, j)) / scaleQ;
                    double ev = Math.abs(fdv - av.get(i, j)) / scaleV;
                    if (Math.max(eq, ev) > worst) {
                        worst = Math.max(eq, ev);
                        where = String.format(Locale.ROOT, "d%s+/d%s (%d, %d): analytic %.10g, fd %.10g",
                                eq >= ev ? "q" : "v", "qvt".charAt(x), i, j, eq >= ev ? aq.get(i, j) : av.get(i, j),
                                eq >= ev ? fdq : fdv);
                    }
                }
            }
        }
        assertTrue(worst <= 1e-6, "worst " + worst + " at " + where);
        return worst;
    }

    /** (q⁺, v⁺) of one system step from (q, v) under the input, a fresh start. */
    private static double[][] step(Model m, boolean contacts, int extras, double[] q, double[] v, double[] input) {
        TimeSteppingSystem sys = system(m, contacts, extras);
        sys.setInput(input);
        sys.setState(0, q, v);
        ContactReport r = sys.step();
        assertTrue(r.converged(), r.toString());
        return new double[][] {sys.q().clone(), sys.v().clone()};
    }

    /**
     * The system: a PD servo on every revolute joint (target 0.05 off its position in {@link #standing} or zero,
     * kp 4, kd 0.3), the first one clamped (limit 0.05 N m, target 0.5 rad away), a DC motor on the third joint and a
     * torque source on the fourth; solo12's feet on the floor when {@code contacts}.
     */
    private static TimeSteppingSystem system(Model m, boolean contacts, int extras) {
        GenericDynamics dyn = new GenericDynamics(m);
        TimeSteppingSystem.Builder b = TimeSteppingSystem.builder(dyn).timeStep(H).settings(TIGHT);
        if (contacts) {
            b.contacts(ContactSet.of(m));
        }
        if (extras == SPRINGS) {
            int last = m.bodyCount() - 1;
            b.actuator(new LinearSpringDamper("to_the_world", dyn, -1, new double[] {0.4, 0.3, 1.1}, last,
                    new double[] {0, 0, 0.05}, 30, 4, 0.2));
            b.actuator(new LinearSpringDamper("between", dyn, 2, new double[] {0.05, 0, 0.1}, 5,
                    new double[] {0, 0.04, 0}, 80, 2, 0.05));
            SpatialForce flange = SpatialForce.inBody("flange", dyn, last);
            flange.set(0.2, -0.1, 0.3, 1.5, -2, 0.7);
            b.actuator(flange);
            SpatialForce push = SpatialForce.inWorld("push", dyn, 3, new double[] {0.1, -0.05, 0.2});
            push.set(0.1, 0.2, -0.3, 3, 1, -2);
            b.actuator(push);
        }
        if (extras == COMPLIANT) {
            b.actuator(new CompliantContact("feet", ContactSet.of(m), dyn, 3000, 20, 40));
        }
        boolean standingPose = contacts || extras == COMPLIANT;
        double[] pose = standingPose ? standing(m) : new double[m.nq()];
        int servos = 0;
        for (var body : m.bodies()) {
            var j = body.joint();
            if (j.type() != org.symdyn.model.JointType.REVOLUTE && j.type() != org.symdyn.model.JointType.CONTINUOUS) {
                continue;
            }
            boolean clamped = servos == 0;
            // standing, the servos hold the pose (no torque but their clamped one's 1e-4 N m, so every foot sticks
            // as in StepDerivativesTest); swinging, they pull toward targets off it
            double offset = standingPose ? 0 : 0.05 * Math.sin(servos + 1);
            b.actuator(new PdServo(j.name() + "_servo", j.qIndex(), j.vIndex(), 4, 0.3,
                    pose[j.qIndex()] + (clamped ? 0.5 : offset), clamped ? (contacts ? 1e-4 : 0.05)
                            : Double.POSITIVE_INFINITY));
            if (servos == 2) {
                b.actuator(new DcMotor(j.name() + "_motor", j.vIndex(), 0.02, 1.5, 300, 12, 9, contacts ? 0 : 0.4));
            }
            if (servos == 3) {
                b.actuator(new JointTorqueSource(j.name() + "_source", j.vIndex(), contacts ? 0 : 0.1, 1));
            }
            servos++;
        }
        return b.build();
    }

    private static Model solo12() throws Exception {
        return ContactScenes.solo12OnAFloor();
    }

    /** solo12's standing pose ({@link ContactScenes#solo12Standing}), or the model's neutral one for another model. */
    private static double[] standing(Model m) {
        return m.qNames().indexOf("FL_HFE") < 0 ? m.neutralConfiguration() : ContactScenes.solo12Standing(m);
    }
}
