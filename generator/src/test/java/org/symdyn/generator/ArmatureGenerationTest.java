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
