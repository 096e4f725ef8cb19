package org.symdyn.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import java.util.function.IntToDoubleFunction;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.constraints.ConstraintSet;
import org.symdyn.constraints.GenericModel;
import org.symdyn.contract.ModelFunctions;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.generator.symbolic.SymbolicLimbs;
import org.symdyn.model.Body;
import org.symdyn.model.BodySpec;
import org.symdyn.model.ConstraintModel;
import org.symdyn.model.JointType;

import org.symdyn.model.Model;
import org.symdyn.model.ModelBuilder;
import org.symdyn.solvers.ConstrainedDynamics;
import org.symdyn.solvers.ConstraintSolverMethod;
import org.symdyn.spatial.RigidBodyInertia;

/**
 * A joint's armature in generated classes against the generic runtime, which adds it to H_kk, to τ_k as a v̇_k and to
 * the articulated D_i: every joint type (floating, revolute, ball, planar, prismatic, continuous, with the model's
 * loop, contact and coupler rows), both forward-dynamics forms, the derivatives, twin limbs' shared code and a long
 * chain's looped CRBA, with the comparisons of {@link GeneratedVsGenericTest}; and a pendulum in closed form.
 */
class ArmatureGenerationTest {

    /** H = m l² + I_yy + a and v̇ = (τ - m g l sin θ) / H for the generated class too. */
    @Test
    void pendulumHasClosedFormInertiaAndAcceleration() throws Exception {
        double m = 1.7, l = 0.45, iyy = 0.02, a = 0.35;
        Model model = Model.builder("pendulum_armature")
                .addBody(BodySpec.builder("bob", "world", "hinge", JointType.CONTINUOUS).axis(0, 1, 0).armature(a)
                        .inertia(RigidBodyInertia.of(m, new double[] {0, 0, -l}, 0.03, 0, 0, iyy, 0, 0.01)).build())
                .build();
        ModelFunctions generated = GeneratedVsGenericTest.instance(new CodeGenerator().generate(model,
                GeneratorOptions.of("test.gen", "PendulumArmature")));
        double theta = 0.7;
        DMatrixRMaj h = new DMatrixRMaj(1, 1);
        generated.massMatrix(new double[] {theta}, h);
        double expected = m * l * l + iyy + a;
        assertEquals(expected, h.get(0, 0), 1e-14);
        double[] vdot = new double[1];
        generated.forwardDynamics(new double[] {theta}, new double[] {-1.3}, new double[] {0.9}, vdot);
        assertEquals((0.9 - m * 9.81 * l * Math.sin(theta)) / expected, vdot[0], 1e-13);
    }

    /**
     * An armature marked as a parameter ({@code field="armature"}): the generated class keeps it as a symbol. At the
     * model's value and after setting another, H, C, ID, FD and the derivatives agree with the interpreter of the
     * model with that armature, in both forward-dynamics forms and in the looped CRBA of a long chain; the parameter
     * regressor's column is v̇ on the joint's dofs, and τ moves by it exactly.
     */
    @Test
    void armatureAsAParameterFollowsTheValueSet() throws Exception {
        for (ForwardDynamicsForm form : new ForwardDynamicsForm[] {ForwardDynamicsForm.ARTICULATED_BODY,
            ForwardDynamicsForm.FACTORISED_MASS_MATRIX}) {
            Model model = armParameter(0.3);
            GeneratedClass gen = new CodeGenerator().generate(model, GeneratorOptions.of("test.gen",
                    "ArmatureParameter" + form.ordinal()).withForwardDynamics(form).withDerivatives(true));
            ModelFunctions generated = GeneratedVsGenericTest.instance(gen);
            org.symdyn.contract.ModelParameters params = (org.symdyn.contract.ModelParameters) generated;
            assertEquals(java.util.List.of("elbow_rotor"), params.parameterNames());
            assertEquals(0.3, params.parameter(0));
            GeneratedVsGenericTest.checkAll(model, generated, 40 + form.ordinal());
            params.setParameter(0, 0.75);
            Model changed = armParameter(0.75);
            GeneratedVsGenericTest.checkAll(changed, generated, 42 + form.ordinal());
            // the parameter regressor: column = v̇ on the elbow's dof, and τ(a + Δ) = τ(a) + Y_p Δ exactly
            org.symdyn.contract.DynamicsDerivatives d = (org.symdyn.contract.DynamicsDerivatives) generated;
            double[] q = {0.3, -0.4, 0.2};
            double[] v = {0.5, 0.1, -0.3};
            double[] vdot = {1.1, -0.7, 0.4};
            DMatrixRMaj yp = new DMatrixRMaj(3, 1);
            d.parameterRegressor(q, v, vdot, yp);
            assertEquals(0, yp.get(0, 0));
            assertEquals(vdot[1], yp.get(1, 0));
            assertEquals(0, yp.get(2, 0));
            double[] tau = new double[3];
            double[] tauMore = new double[3];
            generated.inverseDynamics(q, v, vdot, tau);
            params.setParameter(0, 0.75 + 0.5);
            generated.inverseDynamics(q, v, vdot, tauMore);
            for (int i = 0; i < 3; i++) {
                assertEquals(tau[i] + 0.5 * yp.get(i, 0), tauMore[i], 1e-12);
            }
            DMatrixRMaj ypGeneric = new DMatrixRMaj(3, 1);
            new GenericDynamics(changed).parameterRegressor(q, v, vdot, ypGeneric);
            assertEquals(yp.get(1, 0), ypGeneric.get(1, 0));
        }
    }

    /** A three-link arm whose elbow's armature is the parameter elbow_rotor, at the given value. */
    private static Model armParameter(double armature) throws Exception {
        RigidBodyInertia link = RigidBodyInertia.of(1.2, new double[] {0.1, 0, 0.02}, 0.01, 0.001, 0, 0.02, 0,
                0.015);
        return Model.builder("arm_armature")
                .addBody(BodySpec.builder("upper", "world", "shoulder", JointType.REVOLUTE).axis(0, 0, 1)
                        .armature(0.1).inertia(link).build())
                .addBody(BodySpec.builder("fore", "upper", "elbow", JointType.REVOLUTE).axis(0, 1, 0)
                        .placement(org.symdyn.spatial.Pose.translation(0.3, 0, 0)).armature(armature).inertia(link)
                        .build())
                .addBody(BodySpec.builder("hand", "fore", "wrist", JointType.REVOLUTE).axis(1, 0, 0)
                        .placement(org.symdyn.spatial.Pose.translation(0.25, 0, 0)).inertia(link).build())
                .addParameter("elbow_rotor", null, "elbow", "armature", org.symdyn.model.SourceLocation.UNKNOWN)
                .build();
    }

    /** Every joint type with a different armature each, both forward-dynamics forms, derivatives included. */
    @Test
    void everyJointTypeMatchesGeneric() throws Exception {
        Model model = withArmature(CodeGeneratorTest.everyJointType(), i -> 0.05 + 0.1 * i);
        assertNotEquals(CodeGeneratorTest.everyJointType().contentHash(), model.contentHash());
        for (ForwardDynamicsForm form : new ForwardDynamicsForm[] {ForwardDynamicsForm.ARTICULATED_BODY,
            ForwardDynamicsForm.FACTORISED_MASS_MATRIX}) {
            GeneratedClass gen = new CodeGenerator().generate(model,
                    GeneratorOptions.of("test.gen", "EveryJointArmature" + form.ordinal()).withForwardDynamics(form));
            ModelFunctions generated = GeneratedVsGenericTest.instance(gen);
            GeneratedVsGenericTest.checkAll(model, generated, 33 + form.ordinal());
            compareConstrained(model, generated, new Random(34 + form.ordinal()));
        }
        GeneratedDerivativesTest.check(model, "EveryJointArmatureDerivatives", 35);
    }

    /** Armature on some joints only: the zero ones fold as in a model without it. */
    @Test
    void armatureOnSomeJointsMatchesGeneric() throws Exception {
        Model model = withArmature(CodeGeneratorTest.everyJointType(), i -> i % 2 == 0 ? 0 : 0.2);
        GeneratedVsGenericTest.checkAll(model, GeneratedVsGenericTest.instance(new CodeGenerator().generate(model,
                GeneratorOptions.of("test.gen", "SomeArmature").withForwardDynamics(
                        ForwardDynamicsForm.ARTICULATED_BODY))), 36);
    }

    /** Twin limbs with armature: the shared code takes each limb's armature as one of its numbers. */
    @Test
    void twinLimbsWithArmatureMatchGeneric() throws Exception {
        Model model = withArmature(SharedLimbCodeTest.threeArms(true), i -> 0.01 * (1 + i % 4));
        List<List<Integer>> twins = SymbolicLimbs.twins(model);
        assertEquals(1, twins.size(), "one group: the arms with fingers");
        GeneratedClass gen = new CodeGenerator().generate(model,
                GeneratorOptions.of("org.symdyn.generated", "ThreeArmsArmature").withLimbs(LimbForm.SHARED)
                        .withForwardDynamics(ForwardDynamicsForm.ARTICULATED_BODY));
        assertTrue(gen.source().contains("inverseDynamics$limb"), "the limbs' shared code is called");
        GeneratedVsGenericTest.checkAll(model, GeneratedVsGenericTest.instance(gen), 37);
    }

    /** A 30-link chain gets the looped CRBA, whose armature statements follow the loop. */
    @Test
    void loopedMassMatrixAddsTheArmature() throws Exception {
        Model model = withArmature(SharedPassKinematicsTest.chain(30), i -> 0.02 * (i % 3));
        GeneratedClass gen = new CodeGenerator().generate(model, GeneratorOptions.of("test.gen", "Chain30Armature"));
        assertTrue(gen.source().contains("massMatrixPass(q);"), "looped CRBA");
        GeneratedVsGenericTest.checkAll(model, GeneratedVsGenericTest.instance(gen), 38);
    }

    /** The looped CRBA reads a marked armature from the instance's parameters. */
    @Test
    void loopedMassMatrixReadsAnArmatureParameter() throws Exception {
        Model base = withArmature(SharedPassKinematicsTest.chain(30), i -> 0.02 * (i % 3));
        String joint = base.body(17).joint().name();
        Model model = withParameter(base, joint);
        GeneratedClass gen = new CodeGenerator().generate(model, GeneratorOptions.of("test.gen", "Chain30ArmParam"));
        assertTrue(gen.source().contains("massMatrixPass(q);"), "looped CRBA");
        ModelFunctions generated = GeneratedVsGenericTest.instance(gen);
        GeneratedVsGenericTest.checkAll(model, generated, 44);
        ((org.symdyn.contract.ModelParameters) generated).setParameter(0, 0.9);
        GeneratedVsGenericTest.checkAll(withParameter(withArmature(base, i -> i == 17 ? 0.9 : 0.02 * (i % 3)), joint),
                generated, 45);
    }

    /** The model with the armature of {@code joint} marked as the parameter "rotor". */
    private static Model withParameter(Model model, String joint) throws Exception {
        double[] g = model.gravity();
        ModelBuilder b = Model.builder(model.name()).root(model.rootName()).gravity(g[0], g[1], g[2]);
        for (Body body : model.bodies()) {
            String parent = body.parentIndex() < 0 ? model.rootName() : model.body(body.parentIndex()).name();
            b.addBody(BodySpec.builder(body.name(), parent, body.joint().name(), body.joint().type())
                    .placement(body.joint().placement()).limits(body.joint().lower(), body.joint().upper())
                    .armature(body.joint().armature()).inertia(body.inertia()).axis(body.joint().axis()).build());
        }
        return b.addParameter("rotor", null, joint, "armature", org.symdyn.model.SourceLocation.UNKNOWN).build();
    }

    /**
     * The constrained forward dynamics of the generated class (its own factorisation of [H Gᵀ; G 0] where it has
     * one) against the generic model's.
     */
    private static void compareConstrained(Model model, ModelFunctions generated, Random rnd) {
        ConstraintData own = ConstraintSet.of(model).bind(generated);
        ConstraintData generic = ConstraintSet.of(model).bind(new GenericModel(model));
        assertNotNull(own.generatedFactorization(), "a set of exactly the model's rows, bound alone");
        ConstrainedDynamics fdOwn = new ConstrainedDynamics(own);
        ConstrainedDynamics fdGeneric = new ConstrainedDynamics(generic);
        int nv = model.nv();
        for (int n = 0; n < 50; n++) {
            double[] q = GeneratedVsGenericTest.randomConfiguration(model, rnd);
            double[] v = GeneratedVsGenericTest.random(rnd, nv, 2);
            double[] tau = GeneratedVsGenericTest.random(rnd, nv, 10);
            double[] expected = new double[nv];
            double[] actual = new double[nv];
            fdGeneric.forwardDynamics(ConstraintSolverMethod.DIRECT, q, v, tau, expected);
            fdOwn.forwardDynamics(ConstraintSolverMethod.DIRECT, q, v, tau, actual);
            GeneratedVsGenericTest.assertClose(expected, actual, 1e-9, "constrained vdot with armature",
                    "state " + n);
        }
    }

    /**
     * {@code model} rebuilt with armature {@code armature(i)} on body i's joint (its bodies, merged inertias and
     * constraint rows; frames and devices are not carried).
     */
    static Model withArmature(Model model, IntToDoubleFunction armature) throws Exception {
        double[] g = model.gravity();
        ModelBuilder b = Model.builder(model.name() + "_armature").root(model.rootName()).gravity(g[0], g[1], g[2]);
        for (Body body : model.bodies()) {
            String parent = body.parentIndex() < 0 ? model.rootName() : model.body(body.parentIndex()).name();
            JointType type = body.joint().type();
            BodySpec.Builder spec = BodySpec.builder(body.name(), parent, body.joint().name(), type)
                    .placement(body.joint().placement()).limits(body.joint().lower(), body.joint().upper())
                    .armature(armature.applyAsDouble(body.index())).inertia(body.inertia());
            if (type != JointType.FLOATING && type != JointType.BALL) {
                spec.axis(body.joint().axis());
            }
            b.addBody(spec.build());
        }
        for (ConstraintModel c : model.constraints()) {
            b.addConstraint(c);
        }
        return b.build();
    }
}
