package org.symdyn.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.symdyn.contact.ContactReport;
import org.symdyn.contact.ContactSet;
import org.symdyn.contact.StepDerivatives;
import org.symdyn.contact.TimeStepper;
import org.symdyn.contract.DynamicsDerivatives;
import org.symdyn.contract.ModelFunctions;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.io.urdf.UrdfReader;
import org.symdyn.model.JointDamping;
import org.symdyn.model.Model;

/**
 * {@link StepDerivatives} of a step on the generated class (generated with derivatives: its own ∂τ/∂q and ∂τ/∂v, its
 * H, C and contact Jacobians) against the same step on {@link GenericDynamics}, which the runtime's
 * StepDerivativesTest checks against finite differences: the sample quadruped standing on its four feet (sticking)
 * and sliding on a slippery floor (μ = 0.05), with its joint damping. Each of the six matrices within 1e-9 of its
 * largest entry (at least 1), the bar of the other generated derivatives.
 */
class GeneratedStepDerivativesTest {
    private static final double H = 1e-3;

    @Test
    void quadrupedStandingAndSliding() throws Exception {
        Path file = GeneratedVsGenericTest.sampleModels()
                .filter(p -> p.getFileName().toString().equals("quadruped.urdf")).findFirst().orElseThrow();
        Model model = UrdfReader.read(file);
        ModelFunctions generated = GeneratedVsGenericTest.instance(new CodeGenerator().generate(model,
                GeneratorOptions.of("org.symdyn.generated", "QuadrupedStepDeriv").withDerivatives(true)));
        assertTrue(generated instanceof DynamicsDerivatives);
        GenericDynamics generic = new GenericDynamics(model);
        double[] q = standing(model, 0.6, -1.2, 1e-6);
        double[] tau = new double[model.nv()];
        for (int i = 6; i < tau.length; i++) {
            tau[i] = 0.3 * Math.sin(i);
        }
        double[] standing = new double[model.nv()];
        double[] sliding = new double[model.nv()];
        sliding[3] = 0.4;
        sliding[4] = 0.1;
        int[] modes = {StepDerivatives.STICKING, StepDerivatives.SLIDING};
        double[][] velocities = {standing, sliding};
        double[] friction = {Double.NaN, 0.05};
        for (int c = 0; c < 2; c++) {
            StepDerivatives a = derivatives(model, generated, q, velocities[c], tau, friction[c], modes[c]);
            StepDerivatives b = derivatives(model, generic, q, velocities[c], tau, friction[c], modes[c]);
            for (int f = 0; f < 4; f++) {
                assertEquals(b.mode(f), a.mode(f), "foot " + f + "'s mode on both backends");
            }
            assertSame(a, b, "case " + c);
        }
    }

    @Test
    void fourBarWithItsLoopRowsFromTheGeneratedClass() throws Exception {
        Path file = GeneratedVsGenericTest.sampleModels()
                .filter(p -> p.getFileName().toString().equals("fourbar.urdf")).findFirst().orElseThrow();
        Model model = UrdfReader.read(file);
        ModelFunctions generated = GeneratedVsGenericTest.instance(new CodeGenerator().generate(model,
                GeneratorOptions.of("org.symdyn.generated", "FourbarStepDeriv").withDerivatives(true)));
        org.symdyn.constraints.ConstraintSet set = org.symdyn.constraints.ConstraintSet.of(model);
        double[] q = new double[model.nq()];
        org.junit.jupiter.api.Assertions.assertTrue(new org.symdyn.solvers.Assembly(set.bindGeneric())
                .assembleQ(new double[] {0.5, -0.5, 0.5}, new double[] {1, 1, 1}, q));
        double[] v = new double[model.nv()];
        new org.symdyn.solvers.Assembly(set.bindGeneric()).assembleV(q, new double[] {1, 0, 0}, new double[] {1, 1, 1},
                v);
        double[] tau = {0.3, 0, 0};
        StepDerivatives[] d = new StepDerivatives[2];
        Object[] backends = {generated, new GenericDynamics(model)};
        for (int k = 0; k < 2; k++) {
            TimeStepper stepper = build(backends[k], model, k == 0 ? set.bind(generated)
                    : set.bindGeneric());
            double[] qn = new double[model.nq()];
            double[] vn = new double[model.nv()];
            assertTrue(stepper.step(q, v, tau, H, qn, vn).converged());
            d[k] = new StepDerivatives(stepper, model);
            d[k].compute(q, v, tau, H);
        }
        assertSame(d[0], d[1], "four-bar");
    }

    /** The six matrices of a and b within 1e-9 of each matrix's largest entry in b (at least 1). */
    private static void assertSame(StepDerivatives a, StepDerivatives b, String what) {
        DMatrixRMaj[] ga = {a.dqNextDq(), a.dqNextDv(), a.dqNextDtau(), a.dvNextDq(), a.dvNextDv(), a.dvNextDtau()};
        DMatrixRMaj[] gb = {b.dqNextDq(), b.dqNextDv(), b.dqNextDtau(), b.dvNextDq(), b.dvNextDv(), b.dvNextDtau()};
        for (int k = 0; k < 6; k++) {
            double scale = 1;
            double worst = 0;
            for (int i = 0; i < ga[k].data.length; i++) {
                scale = Math.max(scale, Math.abs(gb[k].data[i]));
                worst = Math.max(worst, Math.abs(ga[k].data[i] - gb[k].data[i]));
            }
            assertTrue(worst <= 1e-9 * scale, what + " matrix " + k + ": " + worst + " of " + scale);
        }
    }

    @SuppressWarnings("unchecked")
    private static <T extends DynamicsDerivatives & org.symdyn.contract.Kinematics> TimeStepper build(Object backend,
            Model model, org.symdyn.constraints.ConstraintData data) {
        return TimeStepper.builder((T) backend).contacts(ContactSet.of(model)).constraints(data).build();
    }

    /**
     * The sample quadruped's system with its twelve declared PD servos ({@link org.symdyn.systems.SystemStepDerivatives}:
     * the servos' gains chained into the step's Jacobians), standing, on the generated class and on the generic model:
     * the six matrices within 1e-9, and the servos' stiffness present (A_q ≠ 0).
     */
    @Test
    void quadrupedSystemOnItsDeclaredServos() throws Exception {
        Path file = GeneratedVsGenericTest.sampleModels()
                .filter(p -> p.getFileName().toString().equals("quadruped.urdf")).findFirst().orElseThrow();
        Model model = UrdfReader.read(file);
        ModelFunctions generated = GeneratedVsGenericTest.instance(new CodeGenerator().generate(model,
                GeneratorOptions.of("org.symdyn.generated", "QuadrupedSystemDeriv").withDerivatives(true)));
        double[] q = standing(model, 0.62, -1.18, 1e-6);
        double[] v = new double[model.nv()];
        v[7] = 0.1;
        org.symdyn.systems.SystemStepDerivatives[] d = new org.symdyn.systems.SystemStepDerivatives[2];
        Object[] backends = {generated, new org.symdyn.constraints.GenericModel(model)};
        for (int k = 0; k < 2; k++) {
            org.symdyn.systems.TimeSteppingSystem sys = system(backends[k], model);
            sys.setState(0, q, v);
            d[k] = new org.symdyn.systems.SystemStepDerivatives(sys, model);
            assertTrue(d[k].step().converged());
        }
        double stiffness = 0;
        for (double x : d[1].actuatorForceDq().data) {
            stiffness += Math.abs(x);
        }
        assertTrue(stiffness > 0, "the servos' kp in A_q");
        assertSame(d[0].contactStep(), d[1].contactStep(), "quadruped system's contact step");
        DMatrixRMaj[] ga = {d[0].dqNextDq(), d[0].dqNextDv(), d[0].dvNextDq(), d[0].dvNextDv()};
        DMatrixRMaj[] gb = {d[1].dqNextDq(), d[1].dqNextDv(), d[1].dvNextDq(), d[1].dvNextDv()};
        for (int k = 0; k < 4; k++) {
            double scale = 1;
            double worst = 0;
            for (int i = 0; i < ga[k].data.length; i++) {
                scale = Math.max(scale, Math.abs(gb[k].data[i]));
                worst = Math.max(worst, Math.abs(ga[k].data[i] - gb[k].data[i]));
            }
            assertTrue(worst <= 1e-9 * scale, "system matrix " + k + ": " + worst + " of " + scale);
        }
    }

    @SuppressWarnings("unchecked")
    private static <T extends DynamicsDerivatives & org.symdyn.contract.Kinematics
            & org.symdyn.contract.DeclaredDevices> org.symdyn.systems.TimeSteppingSystem system(Object backend,
            Model model) {
        T dyn = (T) backend;
        return org.symdyn.systems.TimeSteppingSystem.builder(dyn).contacts(ContactSet.of(model)).jointLimits(model)
                .devices(org.symdyn.systems.Devices.declared(dyn, model.gravity())).build();
    }

    /**
     * The derivatives of the actuators that push on bodies ({@link org.symdyn.systems.PointForceDerivatives}: wrenches
     * in body and world coordinates, spring-dampers between two legs and from the world to the base, compliant feet
     * pressed into the floor and moving) read only the kinematics contract: on the sample quadruped's generated class
     * they equal the interpreter's within 1e-11 of each matrix's largest entry (the kinematics agree to about 1e-15).
     */
    @Test
    void actuatorDerivativesOnTheGeneratedKinematics() throws Exception {
        Path file = GeneratedVsGenericTest.sampleModels()
                .filter(p -> p.getFileName().toString().equals("quadruped.urdf")).findFirst().orElseThrow();
        Model model = UrdfReader.read(file);
        org.symdyn.contract.Kinematics generated = (org.symdyn.contract.Kinematics) GeneratedVsGenericTest.instance(
                new CodeGenerator().generate(model, GeneratorOptions.of("org.symdyn.generated", "QuadrupedPushed")));
        GenericDynamics generic = new GenericDynamics(model);
        double[] q = standing(model, 0.6, -1.2, 0.002);
        q[3] = 0.05; // a tilted base: the quaternion (x, y, z, w) renormalised
        double n = Math.sqrt(q[3] * q[3] + q[6] * q[6]);
        q[3] /= n;
        q[6] /= n;
        double[] v = new double[model.nv()];
        for (int i = 0; i < v.length; i++) {
            v[i] = 0.3 * Math.sin(1.9 * i + 0.5);
        }
        int shank = model.bodyIndex("lf_shank");
        int otherShank = model.bodyIndex("rh_shank");
        for (int kind = 0; kind < 5; kind++) {
            org.symdyn.systems.Actuator[] pair = new org.symdyn.systems.Actuator[2];
            for (int side = 0; side < 2; side++) {
                org.symdyn.contract.Kinematics k = side == 0 ? generated : generic;
                pair[side] = switch (kind) {
                    case 0 -> {
                        org.symdyn.systems.SpatialForce f = org.symdyn.systems.SpatialForce.inBody("b", k, shank);
                        f.set(0.3, -0.2, 0.1, 2, -1, 4);
                        yield f;
                    }
                    case 1 -> {
                        org.symdyn.systems.SpatialForce f = org.symdyn.systems.SpatialForce.inWorld("w", k, 0,
                                new double[] {0.2, 0.1, -0.05});
                        f.set(0.3, -0.2, 0.1, 2, -1, 4);
                        yield f;
                    }
                    case 2 -> new org.symdyn.systems.LinearSpringDamper("legs", k, shank, new double[] {0, 0, -0.1},
                            otherShank, new double[] {0.02, 0, -0.05}, 60, 3, 0.3);
                    case 3 -> new org.symdyn.systems.LinearSpringDamper("hoist", k, -1, new double[] {0.1, 0.2, 1.5},
                            0, new double[] {0.1, 0, 0.05}, 40, 5, 0.5);
                    default -> new org.symdyn.systems.CompliantContact("feet", ContactSet.of(model), k, 3000, 20, 40);
                };
            }
            DMatrixRMaj[] dq = {new DMatrixRMaj(v.length, v.length), new DMatrixRMaj(v.length, v.length)};
            DMatrixRMaj[] dv = {new DMatrixRMaj(v.length, v.length), new DMatrixRMaj(v.length, v.length)};
            for (int side = 0; side < 2; side++) {
                pair[side].addForceDerivatives(0, q, v, dq[side], dv[side]);
            }
            double scale = 1;
            double worst = 0;
            for (int e = 0; e < dq[0].data.length; e++) {
                scale = Math.max(scale, Math.max(Math.abs(dq[1].data[e]), Math.abs(dv[1].data[e])));
                worst = Math.max(worst, Math.max(Math.abs(dq[0].data[e] - dq[1].data[e]),
                        Math.abs(dv[0].data[e] - dv[1].data[e])));
            }
            System.out.printf(java.util.Locale.ROOT, "# actuator derivatives, generated against generic, %s: %.2e%n",
                    pair[0].name(), worst / scale);
            assertTrue(scale > 1, pair[0].name() + ": derivatives all small");
            assertTrue(worst <= 1e-11 * scale, pair[0].name() + ": " + worst + " of " + scale);
        }
    }

    /**
     * The sample quadruped with every hip flexion at hfe and knee at kfe (rad), its base lowered until the feet are
     * {@code depth} m in the floor.
     */
    private static double[] standing(Model model, double hfe, double kfe, double depth) {
        double[] q = model.neutralConfiguration();
        for (String leg : new String[] {"lf", "rf", "lh", "rh"}) {
            q[model.qNames().indexOf(leg + "_hfe")] = hfe;
            q[model.qNames().indexOf(leg + "_kfe")] = kfe;
        }
        double[] foot = new double[3];
        new GenericDynamics(model).pointPosition(q, model.frame("lf_foot").bodyIndex(),
                model.frame("lf_foot").pose().translationArray(), foot);
        q[2] -= foot[2] + depth;
        return q;
    }

    @Test
    void aClassWithoutDerivativesIsRefusedWithTheOptionToUse() throws Exception {
        Path file = GeneratedVsGenericTest.sampleModels()
                .filter(p -> p.getFileName().toString().equals("quadruped.urdf")).findFirst().orElseThrow();
        Model model = UrdfReader.read(file);
        ModelFunctions plain = GeneratedVsGenericTest.instance(new CodeGenerator().generate(model,
                GeneratorOptions.of("org.symdyn.generated", "QuadrupedNoDeriv")));
        TimeStepper stepper = TimeStepper.builder(plain).contacts(ContactSet.of(model)).build();
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new StepDerivatives(stepper, model));
        assertTrue(e.getMessage().contains("--derivatives"), e.getMessage());
    }

    private static <T extends DynamicsDerivatives & org.symdyn.contract.Kinematics> StepDerivatives derivatives(
            Model model, Object backend, double[] q, double[] v, double[] tau, double friction, int mode) {
        @SuppressWarnings("unchecked")
        T dyn = (T) backend;
        TimeStepper stepper = TimeStepper.builder(dyn).contacts(ContactSet.of(model)).jointLimits(model)
                .jointDamping(JointDamping.of(model)).build();
        if (!Double.isNaN(friction)) {
            stepper.contacts().setFriction(friction);
        }
        double[] qn = new double[model.nq()];
        double[] vn = new double[model.nv()];
        ContactReport r = stepper.step(q, v, tau, H, qn, vn);
        assertTrue(r.converged(), r.toString());
        assertEquals(4, stepper.contactCount(), "four feet on the floor");
        StepDerivatives d = new StepDerivatives(stepper, model);
        d.compute(q, v, tau, H);
        boolean seen = false;
        for (int b = 0; b < 4; b++) {
            seen |= d.mode(b) == mode;
        }
        assertTrue(seen, "a foot " + (mode == StepDerivatives.STICKING ? "sticking" : "sliding"));
        return d;
    }
}
