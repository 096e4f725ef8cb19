package org.symdyn.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.Set;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.symdyn.constraints.ConstraintSet;
import org.symdyn.constraints.GenericModel;
import org.symdyn.contract.ModelFunctions;
import org.symdyn.contract.ModelPart;
import org.symdyn.model.Model;

/**
 * A class generated without some parts ({@link GeneratorOptions#parts()}): the methods of a part left out throw an
 * {@link UnsupportedOperationException} naming the method, the part and the option; {@code parts()} says what the
 * class carries, and binding refuses it before the first step; the parts it carries match the generic runtime.
 */
class OmittedPartsTest {

    @Test
    void aClassWithoutKinematicsAndConstraintsThrowsNamingThePart() throws Exception {
        Model model = CodeGeneratorTest.everyJointType();
        GeneratedClass gen = new CodeGenerator().generate(model, GeneratorOptions.of("test.gen", "DynamicsOnly")
                .withParts(EnumSet.of(ModelPart.DYNAMICS)));
        ModelFunctions f = GeneratedVsGenericTest.instance(gen);
        assertEquals(Set.of(ModelPart.DYNAMICS), f.parts());
        double[] q = GeneratedVsGenericTest.randomConfiguration(model, new java.util.Random(7));
        double[] v = new double[model.nv()];
        UnsupportedOperationException k = assertThrows(UnsupportedOperationException.class,
                () -> f.pointJacobian(q, 0, new double[3], new DMatrixRMaj(3, model.nv())));
        assertTrue(k.getMessage().startsWith("pointJacobian: this class was generated without the kinematics part"),
                k.getMessage());
        assertTrue(k.getMessage().contains("--parts ...,kinematics") && k.getMessage().contains("<parts>"),
                k.getMessage());
        UnsupportedOperationException c = assertThrows(UnsupportedOperationException.class,
                () -> f.gamma(q, v, new double[f.constraintRows()]));
        assertTrue(c.getMessage().contains("without the constraints part"), c.getMessage());
        assertThrows(UnsupportedOperationException.class, () -> f.impulseSystem(q,
                new DMatrixRMaj(model.nv(), model.nv()), new DMatrixRMaj(f.constraintRows(), model.nv())));
        IllegalArgumentException bind = assertThrows(IllegalArgumentException.class,
                () -> ConstraintSet.of(model).bind(f));
        assertTrue(bind.getMessage().contains("needs the constraints part"), bind.getMessage());
        // The dynamics it carries are the generic runtime's.
        DMatrixRMaj h = new DMatrixRMaj(model.nv(), model.nv());
        DMatrixRMaj expected = new DMatrixRMaj(model.nv(), model.nv());
        f.massMatrix(q, h);
        new GenericModel(model).massMatrix(q, expected);
        for (int i = 0; i < h.data.length; i++) {
            assertEquals(expected.data[i], h.data[i], 1e-10 * Math.max(1, Math.abs(expected.data[i])));
        }
        assertFalse(gen.source().contains("kinematicsPoses"), "no kinematics code");
    }

    @Test
    void theDefaultPartsAreEveryPartButTheDerivativesAndTheRecursion() throws Exception {
        Model model = CodeGeneratorTest.everyJointType();
        GeneratedClass gen = new CodeGenerator().generate(model, GeneratorOptions.of("test.gen", "Default"));
        assertFalse(gen.source().contains("parts()"), "the interface's default says it");
        assertEquals(ModelPart.defaults(), GeneratedVsGenericTest.instance(gen).parts());
        // The interpreter carries the derivatives too (it implements DynamicsDerivatives); the recursive method runs on
        // it through the runtime's own articulated-body algorithm, not through ArticulatedConstraintSystem.
        assertEquals(EnumSet.complementOf(EnumSet.of(ModelPart.RECURSIVE_CONSTRAINTS)),
                new GenericModel(model).parts());
    }

    @Test
    void dynamicsCannotBeLeftOut() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> GeneratorOptions.of("test.gen", "X").withParts(EnumSet.of(ModelPart.KINEMATICS)));
        assertTrue(e.getMessage().contains("dynamics part cannot be left out"), e.getMessage());
        assertTrue(GeneratorOptions.of("test.gen", "X").withDerivatives(true).parts()
                .contains(ModelPart.DERIVATIVES));
    }
}
