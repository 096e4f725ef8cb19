package org.symdyn.io.mjcf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.symdyn.io.mjcf.MjcfTesting.describe;
import static org.symdyn.io.mjcf.MjcfTesting.read;
import static org.symdyn.io.mjcf.MjcfTesting.warning;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.symdyn.model.Diagnostic;
import org.symdyn.model.Model;
import org.symdyn.model.ModelException;
import org.symdyn.testing.SharedFiles;

/**
 * An attribute MuJoCo's schema does not have is a located warning: MuJoCo refuses such a file, and a reader that
 * skipped it would build, say, an undamped joint from {@code dampng="2"} without a word.
 */
class MjcfAttributesTest {
    private static List<Diagnostic> unknown(Model m) {
        return m.warnings().stream().filter(d -> d.message().contains("unknown attribute")).toList();
    }

    @Test
    void aMisspeltAttributeIsWarnedAboutAtItsElementWithTheNameMeant() {
        Model m = read("""
                <mujoco model="typo">
                  <worldbody>
                    <body name="a">
                      <joint name="a" dampng="2" axis="0 1 0"/>
                      <geom type="sphere" size="0.1" mass="1" colour="red"/>
                    </body>
                  </worldbody>
                </mujoco>
                """);
        Diagnostic d = warning(m, "<joint>: unknown attribute 'dampng'");
        assertEquals(4, d.location().line());
        assertTrue(d.message().contains("did you mean 'damping'?"), d.message());
        assertEquals(0.0, m.body(0).joint().damping(), "the misspelt damping is not read");
        Diagnostic far = warning(m, "<geom>: unknown attribute 'colour'");
        assertEquals(5, far.location().line());
        assertTrue(!far.message().contains("did you mean"), "no attribute of a geom is near 'colour': "
                + far.message());
        assertEquals(2, unknown(m).size());
    }

    /** One element name means different things under different parents; each is checked against its own list. */
    @Test
    void eachElementIsCheckedAgainstTheListOfItsPlace() {
        Model m = read("""
                <mujoco model="places">
                  <default>
                    <joint damping="0.1" frictionloss="0"/>
                    <default class="arm"><position kp="10" kv="1"/><geom contype="0"/></default>
                  </default>
                  <worldbody>
                    <frame pos="0 0 1">
                      <body name="a"><joint name="a" axis="0 1 0"/><geom size="0.1" pos="0.2 0 0" mass="1"/>
                        <site name="s" pos="0.2 0 0"/>
                        <body name="b" pos="0.4 0 0"><joint name="b" axis="0 1 0"/>
                          <geom size="0.1" pos="0.2 0 0" mass="1"/></body></body>
                    </frame>
                  </worldbody>
                  <contact><exclude body1="a" body2="b"/></contact>
                  <equality><joint joint1="a" joint2="b" polycoef="0 1 0 0 0"/></equality>
                  <actuator><position class="arm" joint="a" kp="5"/><motor joint="b" gear="2" ctrlrange="-1 1"/></actuator>
                  <sensor><jointpos joint="a" noise="0.01"/><contact body1="a" body2="b" num="2"/></sensor>
                  <keyframe><key name="home" qpos="0.1 0.2"/></keyframe>
                </mujoco>
                """);
        assertEquals(List.of(), unknown(m), "every attribute here is MuJoCo's");

        Model wrong = read("""
                <mujoco model="misplaced">
                  <worldbody>
                    <body name="a"><joint name="a" axis="0 1 0" joint1="a"/>
                      <geom size="0.1" pos="0.2 0 0" mass="1"/></body>
                  </worldbody>
                  <actuator><motor joint="a" kp="5"/></actuator>
                </mujoco>
                """);
        assertEquals(3, warning(wrong, "<joint>: unknown attribute 'joint1'").location().line());
        assertEquals(6, warning(wrong, "<motor>: unknown attribute 'kp'").location().line());
        assertEquals(2, unknown(wrong).size());
    }

    @Test
    void strictReadingRefusesTheFile() {
        String xml = """
                <mujoco model="typo">
                  <worldbody><body name="a"><joint name="a" armatur="0.1"/>
                    <geom size="0.1" pos="0.2 0 0" mass="1"/></body></worldbody>
                </mujoco>
                """;
        ModelException e = assertThrows(ModelException.class,
                () -> MjcfReader.parse(xml, "m.xml", new MjcfReader.Options(true, false)));
        assertTrue(describe(e).contains("m.xml:[2,29]"), describe(e));
        assertTrue(describe(e).contains("unknown attribute 'armatur'"), describe(e));
    }

    /** MuJoCo's own models, as published, have no attribute its schema lacks: none is warned about. */
    @Test
    void publishedMujocoModelsGiveNoWarning() throws Exception {
        Path dir = SharedFiles.require("reference-mjcf/original");
        List<Path> files;
        try (Stream<Path> s = Files.walk(dir)) {
            files = s.filter(p -> p.toString().endsWith(".xml")).sorted().toList();
        }
        assertTrue(files.size() >= 3, "models found: " + files);
        for (Path f : files) {
            Model m = MjcfReader.read(f);
            assertEquals(List.of(), unknown(m), f.toString());
        }
    }
}
