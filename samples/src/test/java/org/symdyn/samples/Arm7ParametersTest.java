package org.symdyn.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.opentest4j.AssertionFailedError;
import org.symdyn.contract.ModelParameters;
import org.symdyn.model.Model;
import org.symdyn.samples.Comparison.Quantity;
import org.symdyn.samples.generated.Arm7Dynamics;

/**
 * The arm's parameters (wristMass = link7's mass, forearmLength = joint5's origin z) stay symbols in the generated
 * class: with other values set through {@link ModelParameters}, every quantity must agree with the generic runtime
 * on the model file edited to carry those values (same tolerance and states as {@link GeneratedVsGenericTest}).
 */
class Arm7ParametersTest {
    /** Other values: heavier and lighter wrists, longer and shorter (and zero) forearms. */
    static final double[][] VALUES = {{1.7, 0.52}, {0.05, 0.2}, {4.0, 0.0}};

    @Test
    void parametersAreDeclaredWithTheFileValues() {
        Arm7Dynamics arm = new Arm7Dynamics();
        assertEquals(List.of("wristMass", "forearmLength"), arm.parameterNames());
        assertEquals(0, arm.parameterIndex("wristMass"));
        assertEquals(1, arm.parameterIndex("forearmLength"));
        assertEquals(0.3, arm.parameter(0));
        assertEquals(0.35, arm.parameter(1));
    }

    @TestFactory
    Stream<DynamicTest> otherValuesMatchTheEditedModelFile() {
        return Stream.of(VALUES).flatMap(values -> Stream.of(Quantity.values())
                .filter(q -> !q.isConstraint())
                .map(quantity -> DynamicTest.dynamicTest(String.format(Locale.ROOT,
                        "wristMass %s, forearmLength %s: %s", values[0], values[1], quantity.label), () -> {
                            Arm7Dynamics arm = new Arm7Dynamics();
                            arm.setParameter(arm.parameterIndex("wristMass"), values[0]);
                            arm.setParameter(arm.parameterIndex("forearmLength"), values[1]);
                            Model edited = editedModel(values[0], values[1]);
                            double worst = Comparison.check(quantity, edited, arm,
                                    new Random(quantity.name().hashCode() + 7919L * Double.hashCode(values[0])),
                                    Comparison.STATES);
                            System.out.printf(Locale.ROOT, "arm7 (%s, %s) %-17s worst relative difference %.2e%n",
                                    values[0], values[1], quantity.label, worst);
                        })));
    }

    /** copy() carries the values; the file's values restore the original model's results. */
    @Test
    void copiesCarryTheValuesAndTheDefaultsRestoreTheModel() throws Exception {
        Arm7Dynamics arm = new Arm7Dynamics();
        arm.setParameter(0, 1.7);
        arm.setParameter(1, 0.52);
        Arm7Dynamics copy = arm.copy();
        assertEquals(1.7, copy.parameter(0));
        assertEquals(0.52, copy.parameter(1));
        Comparison.check(Quantity.BIAS_FORCES, editedModel(1.7, 0.52), copy, new Random(5), 20);
        // Changing the copy leaves the original alone.
        copy.setParameter(0, 0.3);
        assertEquals(1.7, arm.parameter(0));
        copy.setParameter(1, 0.35);
        Comparison.check(Quantity.MASS_MATRIX, SampleModels.load("arm7.urdf"), copy, new Random(6), 20);
        Comparison.check(Quantity.FRAME_POSES, SampleModels.load("arm7.urdf"), copy, new Random(7), 20);
    }

    /**
     * The comparison is sharp enough to see a parameter: the class left at the file's values disagrees with the
     * edited model in every quantity the parameter enters (and the poses see the forearm length).
     */
    @Test
    void theComparisonSeesAParameterThatWasNotSet() throws Exception {
        Model heavierWrist = editedModel(0.31, 0.35);
        for (Quantity quantity : List.of(Quantity.MASS_MATRIX, Quantity.GRAVITY_FORCES, Quantity.INVERSE_DYNAMICS)) {
            assertThrows(AssertionFailedError.class, () -> Comparison.check(quantity, heavierWrist,
                    new Arm7Dynamics(), new Random(8), 5), quantity.label);
        }
        Model longerForearm = editedModel(0.3, 0.351);
        assertThrows(AssertionFailedError.class,
                () -> Comparison.check(Quantity.FRAME_POSES, longerForearm, new Arm7Dynamics(), new Random(9), 5));
    }

    /** arm7.urdf with link7's mass and joint5's origin z replaced (each exactly once, checked). */
    static Model editedModel(double wristMass, double forearmLength) throws Exception {
        String urdf = new String(SampleModels.bytes("arm7.urdf"), StandardCharsets.UTF_8);
        String edited = replaceOnce(urdf,
                "(<link name=\"link7\">\\s*<inertial>\\s*<origin[^>]*/>\\s*<mass value=\")([^\"]+)(\")",
                Double.toString(wristMass));
        edited = replaceOnce(edited, "(<joint name=\"joint5\"[^>]*>(?:(?!</joint>).)*?<origin xyz=\"0 0 )([^\"]+)(\")",
                Double.toString(forearmLength));
        assertNotEquals(urdf, edited);
        Model model = SampleModels.parse(edited, "arm7-edited.urdf");
        assertEquals(wristMass, model.parameters().get(0).value());
        assertEquals(forearmLength, model.parameters().get(1).value());
        return model;
    }

    private static String replaceOnce(String text, String regex, String value) {
        Matcher m = Pattern.compile(regex, Pattern.DOTALL).matcher(text);
        if (!m.find()) {
            throw new AssertionError("pattern not found in arm7.urdf: " + regex);
        }
        String result = text.substring(0, m.start()) + m.group(1) + value + m.group(3) + text.substring(m.end());
        if (m.find()) {
            throw new AssertionError("pattern found twice in arm7.urdf: " + regex);
        }
        return result;
    }
}
