package org.symdyn.io.urdf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import org.symdyn.model.CouplerConstraintModel;
import org.symdyn.model.Diagnostic;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;
import org.symdyn.model.ModelException;
import org.symdyn.testing.SharedFiles;

/**
 * The public robot files in {@code ../shared/models} (skipped when absent): each reads without errors with the
 * number of degrees of freedom RBDL gives it (see SOURCES.md there), legged robots with the floating-base option.
 */
class UrdfSharedModelsTest {

    private static Model load(String file, UrdfReader.Options options) {
        Path path = SharedFiles.model(file);
        try {
            return UrdfReader.read(path, options);
        } catch (ModelException e) {
            return fail(file + " should read without errors:\n" + e.getMessage());
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "double_pendulum_simple.urdf, false, 2, 2",
        "ur5_robot.urdf,              false, 6, 6",
        "kinova.urdf,                 false, 6, 6",
        "iiwa14_no_collision.urdf,    false, 7, 7",
        "panda.urdf,                  false, 9, 9",
        "hyq_no_sensors.urdf,         true, 18, 19",
        "solo12.urdf,                 true, 18, 19",
        "anymal.urdf,                 true, 18, 19",
        "romeo_small.urdf,            true, 37, 38",
    })
    void readsWithTheExpectedDegreesOfFreedom(String file, boolean floating, int nv, int nq) {
        Model m = load(file, new UrdfReader.Options(floating, false));
        assertEquals(nv, m.nv(), file);
        assertEquals(nq, m.nq(), file);
        assertEquals(floating, m.hasFloatingBase(), file);
        if (floating) {
            assertEquals(JointType.FLOATING, m.body(0).joint().type());
            assertEquals("world", m.rootName());
        }
        assertTrue(m.sourcePath().endsWith(file));
        assertEquals(64, m.sourceSha256().length());
        for (int i = 0; i < m.bodyCount(); i++) {
            assertTrue(m.body(i).inertia().mass() > 0, file + " body " + m.body(i).name());
            assertTrue(m.body(i).parentIndex() < i, "parents come first");
        }
    }

    @Test
    void pandaFingerMimicIsACoupler() {
        Model m = load("panda.urdf", UrdfReader.Options.DEFAULT);
        assertEquals(1, m.constraints().size());
        CouplerConstraintModel c = (CouplerConstraintModel) m.constraints().get(0);
        assertEquals("panda_finger_joint2_mimic", c.name());
        assertEquals(m.bodyIndexOfJoint("panda_finger_joint2"), c.joint());
        assertEquals(m.bodyIndexOfJoint("panda_finger_joint1"), c.referenceJoint());
        assertEquals(1.0, c.ratio());
        assertEquals(0.0, c.offset());
    }

    @Test
    void fixedBaseArmsHaveNoWarnings() {
        for (String f : List.of("double_pendulum_simple.urdf", "ur5_robot.urdf", "kinova.urdf",
                "iiwa14_no_collision.urdf", "panda.urdf")) {
            assertEquals(List.of(), load(f, UrdfReader.Options.DEFAULT).warnings(), f);
        }
        // issue 10, item 12: a quadruped without a world link read without a floating base is warned about
        List<org.symdyn.model.Diagnostic> solo = load("solo12.urdf", UrdfReader.Options.DEFAULT).warnings();
        assertEquals(1, solo.size(), solo.toString());
        assertTrue(solo.get(0).message().startsWith("root link 'base_link' carries 1.16115091 kg and 4 limbs but is"
                + " fixed to the world"), solo.toString());
        assertEquals(List.of(), load("solo12.urdf", new UrdfReader.Options(true, false)).warnings());
    }

    @Test
    void hyqAndAnymalHavePlaceholderInertiaWarnings() {
        // SOURCES.md: HyQ's base_link and 4 feet, ANYmal's base: mass 1e-6 kg and every entry 1e-6 (rank 1)
        Model hyq = load("hyq_no_sensors.urdf", UrdfTesting.FLOATING);
        assertEquals(List.of("base_link", "lf_foot", "rf_foot", "lh_foot", "rh_foot"), placeholderLinks(hyq));
        Model anymal = load("anymal.urdf", UrdfTesting.FLOATING);
        assertEquals(List.of("base"), placeholderLinks(anymal));
        assertEquals(1, anymal.warnings().size());
    }

    @Test
    void romeoViolatesTheTriangleInequalityTwice() {
        Model romeo = load("romeo_small.urdf", UrdfTesting.FLOATING);
        List<String> links = romeo.warnings().stream().filter(d -> d.message().contains("triangle inequality"))
                .map(d -> linkOf(d)).toList();
        assertEquals(List.of("RShoulderYawLink", "RElbowYawLink"), links);
        assertEquals(2, romeo.warnings().size());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"hyq_no_sensors.urdf, 5", "anymal.urdf, 1", "romeo_small.urdf, 2"})
    void strictTurnsTheirWarningsIntoErrors(String file, int count) {
        Path path = SharedFiles.model(file);
        ModelException e = assertThrows(ModelException.class,
                () -> UrdfReader.read(path, new UrdfReader.Options(true, true)));
        assertEquals(count, e.diagnostics().size(), e.getMessage());
        for (Diagnostic d : e.diagnostics()) {
            assertTrue(d.isError());
            assertTrue(d.location().line() > 0);
        }
    }

    private static List<String> placeholderLinks(Model m) {
        return m.warnings().stream().filter(d -> d.message().contains("placeholder")).map(d -> linkOf(d)).toList();
    }

    private static String linkOf(Diagnostic d) {
        String s = d.message();
        int a = s.indexOf('\'');
        return s.substring(a + 1, s.indexOf('\'', a + 1));
    }
}
