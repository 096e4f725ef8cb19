package org.symdyn.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.symdyn.cli.SymDynCliTest.Result;

/** {@code simulate} warns at once, at the floating joint, about a model that would fall for the whole run. */
class FreeFallTest {
    @TempDir
    Path dir;

    private static final String GROUND_LINE = "  <symdyn:ground name=\"floor\" point=\"0 0 0\" normal=\"0 0 1\""
            + " friction=\"0.4\"/>\n";

    private Result simulate(String name, String urdf, String... more) throws IOException {
        Path model = dir.resolve(name);
        Files.writeString(model, urdf, StandardCharsets.UTF_8);
        Path initial = dir.resolve("initial.json");
        Files.writeString(initial, "{}\n", StandardCharsets.UTF_8);
        List<String> args = new java.util.ArrayList<>(List.of("simulate", model.toString(), "--initial",
                initial.toString(), "--duration", "0.01", "--step", "0.001"));
        args.addAll(List.of(more));
        return SymDynCliTest.run(args.toArray(String[]::new));
    }

    @Test
    void aFloatingBodyWithoutGroundIsWarnedAboutAtItsJoint() throws Exception {
        String noGround = SimulateCommandTest.BLOCK.replace(GROUND_LINE, "");
        assertTrue(!noGround.equals(SimulateCommandTest.BLOCK), "the block's ground line is as this test says");
        for (String quiet : new String[] {"", "--quiet"}) {
            Result r = quiet.isEmpty() ? simulate("falling.urdf", noGround) : simulate("falling.urdf", noGround, quiet);
            assertEquals(0, r.exitCode(), r.err());
            assertEquals(List.of(dir.resolve("falling.urdf") + ":[9,3] warning: robot 'block' has a floating base"
                    + " (box) and gravity but no ground (<symdyn:ground>, a plane) or collision shape fixed in the world"
                    + " to land on: it falls for the whole simulation"), r.errLines(), quiet);
        }
    }

    @Test
    void aGroundWithNothingToLandWithIsWarnedAboutToo() throws Exception {
        String noPoints = SimulateCommandTest.BLOCK.replaceAll("  <symdyn:contact_point [^\n]*\n", "");
        Result r = simulate("pointless.urdf", noPoints);
        assertEquals(0, r.exitCode(), r.err());
        assertEquals(1, r.errLines().size(), r.err());
        assertTrue(r.err().contains("warning: robot 'block' has a floating base (box) and gravity but no contact"
                + " point or collision shape on a moving link to land with: it falls"), r.err());
    }

    @Test
    void noWarningWithAGroundAndFeetWithoutGravityOrOnAFixedBase() throws Exception {
        assertEquals("", simulate("block.urdf", SimulateCommandTest.BLOCK).err());
        assertEquals("", simulate("arm.urdf", SimulateCommandTest.DOUBLE_PENDULUM).err(), "a fixed base");
        String weightless = SimulateCommandTest.BLOCK.replace(GROUND_LINE, "  <symdyn:gravity xyz=\"0 0 0\"/>\n");
        Result space = simulate("space.urdf", weightless);
        assertEquals(0, space.exitCode(), space.err());
        assertEquals("", space.err(), "no gravity");
    }
}
