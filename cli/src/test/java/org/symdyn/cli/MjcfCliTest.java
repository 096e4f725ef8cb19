package org.symdyn.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.symdyn.cli.json.JsonValue;
import org.symdyn.cli.json.JsonValue.ObjectValue;
import org.symdyn.cli.json.JsonValue.StringValue;

/** The command line on MJCF files: read by extension, reported as MJCF, problems located. */
class MjcfCliTest extends FileWritingTest {
    private static final String ARM = """
            <mujoco model="arm">
              <compiler angle="radian"/>
              <worldbody>
                <body name="upper" pos="0 0 1">
                  <joint name="shoulder" axis="0 1 0"/>
                  <geom type="capsule" fromto="0 0 0 0 0 -0.5" size="0.05"/>
                  <body name="lower" pos="0 0 -0.5">
                    <joint name="elbow" axis="0 1 0" range="-2 2"/>
                    <inertial pos="0 0 -0.25" mass="1" diaginertia="0.02 0.02 0.001"/>
                  </body>
                </body>
              </worldbody>
            </mujoco>
            """;

    @Test
    void inspectReadsAnMjcfFile() throws Exception {
        Path model = write("arm.xml", ARM);
        SymDynCliTest.Result r = SymDynCliTest.run("inspect", model.toString());
        assertEquals(0, r.exitCode(), r.err());
        ObjectValue json = (ObjectValue) r.json();
        assertEquals("arm", ((StringValue) json.members().get("name")).value());
        assertEquals("MJCF", ((StringValue) json.members().get("format")).value());
        JsonValue names = json.members().get("q_names");
        assertEquals(JsonValue.strings(List.of("shoulder", "elbow")), names);
    }

    @Test
    void aBrokenMjcfFileExitsTwoWithItsLocation() throws Exception {
        Path model = write("broken.mjcf", ARM.replace("range=\"-2 2\"", "range=\"-2 x\""));
        SymDynCliTest.Result r = SymDynCliTest.run("inspect", model.toString());
        assertEquals(2, r.exitCode(), r.err());
        assertEquals("", r.out());
        assertTrue(r.err().contains(model + ":[8,9] joint 'elbow': range '-2 x': 'x' is not a number"),
                r.err());
        assertFalse(r.err().contains("Exception"), r.err());
    }

    @Test
    void tendonCouplingsAreRefusedUnlessIgnored() throws Exception {
        String withTendon = ARM.replace("</worldbody>", """
                </worldbody>
                  <tendon><fixed name="t"><joint joint="shoulder" coef="1"/><joint joint="elbow" coef="-1"/></fixed></tendon>
                  <equality><tendon tendon1="t"/></equality>
                """);
        Path model = write("tendon.xml", withTendon);
        SymDynCliTest.Result refused = SymDynCliTest.run("inspect", model.toString());
        assertEquals(2, refused.exitCode(), refused.err());
        assertTrue(refused.err().contains("acts on tendon 't'"), refused.err());
        SymDynCliTest.Result read = SymDynCliTest.run("inspect", model.toString(), "--ignore-tendons");
        assertEquals(0, read.exitCode(), read.err());
        assertTrue(read.out().contains("left out, as the option to ignore tendons says"), read.out());
    }

    private static final String ARM_WITH_KEYFRAMES = ARM.replace("</worldbody>", """
            </worldbody>
              <keyframe>
                <key name="raised" qpos="1.5 -0.5" qvel="0.25 0"/>
                <key name="short" qpos="1"/>
              </keyframe>
            """);

    @Test
    void inspectListsTheKeyframes() throws Exception {
        Path model = write("keyed.xml", ARM_WITH_KEYFRAMES.replace("<key name=\"short\" qpos=\"1\"/>", ""));
        SymDynCliTest.Result r = SymDynCliTest.run("inspect", model.toString());
        assertEquals(0, r.exitCode(), r.err());
        ObjectValue json = (ObjectValue) r.json();
        assertEquals(JsonValue.array(List.of(JsonValue.objectBuilder().put("name", "raised")
                .put("q", JsonValue.array(1.5, -0.5)).put("v", JsonValue.array(0.25, 0)).build())),
                json.members().get("keyframes"));
        ObjectValue plain = (ObjectValue) SymDynCliTest.run("inspect", write("plain.xml", ARM).toString()).json();
        assertFalse(plain.members().containsKey("keyframes"), "no keyframes key without keyframes");
    }

    @Test
    void aKeyframeOfTheWrongLengthIsALocatedError() throws Exception {
        Path model = write("short.xml", ARM_WITH_KEYFRAMES);
        SymDynCliTest.Result r = SymDynCliTest.run("inspect", model.toString());
        assertEquals(2, r.exitCode(), r.err());
        assertTrue(r.err().contains(model + ":[15,5] keyframe 'short': qpos (MuJoCo's nq = 2) '1' needs 2 numbers"),
                r.err());
    }

    @Test
    void simulateStartsFromAKeyframe() throws Exception {
        Path model = write("keyed.xml", ARM_WITH_KEYFRAMES.replace("<key name=\"short\" qpos=\"1\"/>", ""));
        SymDynCliTest.Result r = SymDynCliTest.run("simulate", model.toString(), "--keyframe", "raised",
                "--duration", "0.01", "--step", "0.01");
        assertEquals(0, r.exitCode(), r.err());
        ObjectValue json = (ObjectValue) r.json();
        assertEquals(JsonValue.array(1.5, -0.5), ((JsonValue.ArrayValue) json.members().get("q")).elements().get(0));
        assertEquals(JsonValue.array(0.25, 0), ((JsonValue.ArrayValue) json.members().get("v")).elements().get(0));

        Path tau = write("tau.json", "{\"tau\": [1, 0]}");
        SymDynCliTest.Result withTau = SymDynCliTest.run("simulate", model.toString(), "--keyframe", "raised",
                "--initial", tau.toString(), "--duration", "0.01", "--step", "0.01");
        assertEquals(0, withTau.exitCode(), withTau.err());
        assertFalse(withTau.json().equals(r.json()), "tau from the file moves the arm differently");

        Path both = write("both.json", "{\"q\": [0, 0], \"tau\": [1, 0]}");
        SymDynCliTest.Result conflict = SymDynCliTest.run("simulate", model.toString(), "--keyframe", "raised",
                "--initial", both.toString(), "--duration", "0.01", "--step", "0.01");
        assertEquals(2, conflict.exitCode(), conflict.err());
        assertTrue(conflict.err().contains(both + ":[1,7] \"q\" is given by --keyframe raised"), conflict.err());

        SymDynCliTest.Result unknown = SymDynCliTest.run("simulate", model.toString(), "--keyframe", "home",
                "--duration", "0.01", "--step", "0.01");
        assertEquals(2, unknown.exitCode(), unknown.err());
        assertTrue(unknown.err().contains("has no initial state named 'home' (it has raised)"), unknown.err());

        SymDynCliTest.Result neither = SymDynCliTest.run("simulate", model.toString(), "--duration", "0.01",
                "--step", "0.01");
        assertEquals(2, neither.exitCode(), neither.err());
        assertTrue(neither.err().contains("--initial STATE.json or --keyframe NAME"), neither.err());
    }

    /** rollouts start from a keyframe as simulate --keyframe does, and end where simulate ends, bit for bit. */
    @Test
    void rolloutsStartFromAKeyframeAndEndWhereSimulateEnds() throws Exception {
        Path model = write("keyed.xml", ARM_WITH_KEYFRAMES.replace("<key name=\"short\" qpos=\"1\"/>", ""));
        SymDynCliTest.Result simulated = SymDynCliTest.run("simulate", model.toString(), "--keyframe", "raised",
                "--duration", "0.05", "--step", "0.001");
        assertEquals(0, simulated.exitCode(), simulated.err());
        ObjectValue json = (ObjectValue) simulated.json();
        List<JsonValue> qs = ((JsonValue.ArrayValue) json.members().get("q")).elements();
        List<JsonValue> vs = ((JsonValue.ArrayValue) json.members().get("v")).elements();

        Path specs = write("specs.json", "[{\"keyframe\": \"raised\", \"duration\": 0.05, \"step\": 0.001}]");
        SymDynCliTest.Result r = SymDynCliTest.run("rollouts", model.toString(), "--specs", specs.toString(),
                "--format", "jsonl", "-q");
        assertEquals(0, r.exitCode(), r.err());
        ObjectValue line = (ObjectValue) org.symdyn.cli.json.JsonReader.parse("out", r.out().trim());
        assertEquals(qs.get(qs.size() - 1), line.get("q"), "q: " + r.out());
        assertEquals(vs.get(vs.size() - 1), line.get("v"), "v: " + r.out());

        Path both = write("both.json", "[{\"keyframe\": \"raised\", \"q0\": [0, 0]}]");
        SymDynCliTest.Result conflict = SymDynCliTest.run("rollouts", model.toString(), "--specs", both.toString());
        assertEquals(2, conflict.exitCode(), conflict.err());
        assertEquals(both + ":[1,31] specification 0: \"q0\" is given by \"keyframe\"; give one or the other\n",
                conflict.err());
        Path unknown = write("unknown.json", "{\"keyframe\": \"home\"}");
        SymDynCliTest.Result missing = SymDynCliTest.run("rollouts", model.toString(), "--sweep", unknown.toString());
        assertEquals(2, missing.exitCode(), missing.err());
        assertTrue(missing.err().startsWith(unknown + ":[1,14] keyframe: "), missing.err());
        assertTrue(missing.err().contains("has no initial state named 'home' (it has raised)"), missing.err());
    }

    @Test
    void theReadmesMjcfExampleReadsAndSimulatesFromItsKeyframe() throws Exception {
        String readme = java.nio.file.Files.readString(ReadmeUsageTest.readme());
        int start = readme.indexOf("<mujoco model=\"leg\">");
        assertTrue(start >= 0, "the README's MJCF example is missing");
        Path model = write("leg.xml", readme.substring(start, readme.indexOf("</mujoco>", start) + 9));
        SymDynCliTest.Result r = SymDynCliTest.run("inspect", model.toString());
        assertEquals(0, r.exitCode(), r.err());
        ObjectValue json = (ObjectValue) r.json();
        assertEquals("MJCF", ((StringValue) json.members().get("format")).value());
        assertTrue(json.members().containsKey("keyframes"), r.out());
        SymDynCliTest.Result sim = SymDynCliTest.run("simulate", model.toString(), "--keyframe", "home",
                "--duration", "0.001", "--step", "0.001");
        assertEquals(0, sim.exitCode(), sim.err());
        assertEquals(JsonValue.array(0, 0, 1, 0, 0, 0, 1, 0.3),
                ((JsonValue.ArrayValue) ((ObjectValue) sim.json()).members().get("q")).elements().get(0));
    }
}
