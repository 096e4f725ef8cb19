package org.symdyn.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.symdyn.cli.json.JsonReader;
import org.symdyn.cli.json.JsonValue;
import org.symdyn.cli.json.JsonValue.ArrayValue;
import org.symdyn.cli.json.JsonValue.NumberValue;
import org.symdyn.cli.json.JsonValue.ObjectValue;
import org.symdyn.cli.json.JsonValue.StringValue;

/**
 * The quadruped drop demo's scenario (issue 12): dropped 3 cm onto the floor under its 12 declared servos, h = 1 ms,
 * 4 s. Every contact solve converges; it settles within a few seconds; over the last second it stands on four feet,
 * the normal impulses of every step sum to m g h within 1e-6 relative and the base height stays within 1e-6 m; the
 * IMU at rest reads the specific force of gravity, +9.81 m/s² up, along the trunk's z as far as the trunk is level.
 */
class QuadrupedDropDemoTest {
    @TempDir
    Path dir;

    @Test
    void landsSettlesAndStandsOnItsServos() throws Exception {
        QuadrupedDropDemo.Result r = QuadrupedDropDemo.drop(QuadrupedDropDemo.T_END);
        double tEnd = r.time()[r.time().length - 1];
        assertEquals(4.0, tEnd, 1e-9);
        assertTrue(r.summary().allConverged(), r.summary()::toString);

        double settle = r.settlingTime(1e-6, 1e-6);
        assertTrue(settle <= 3.0, "settles within 3 s, not " + settle);
        assertEquals(4, r.fewestContacts(tEnd - 1), "four feet on the floor over the last second");
        assertEquals(4, r.fewestContacts(settle), "four feet on the floor once settled");
        assertTrue(r.impulseError(settle) <= 1e-6, "normal impulses vs m g h once settled: " + r.impulseError(settle));
        assertTrue(r.impulseError(tEnd - 1) <= 1e-6, "normal impulses vs m g h: " + r.impulseError(tEnd - 1));
        assertTrue(r.heightVariation(tEnd - 1) <= 1e-6, "base height over the last second varies by "
                + r.heightVariation(tEnd - 1));
        assertEquals(19.6, r.mass(), 1e-12);
        // It stands: the trunk at about its standing height (the knees sag a little under the weight), level.
        assertEquals(0.333, r.finalQ()[2], 0.01, "standing height");

        // IMU at rest: no rotation; specific force −R_WBᵀ g, of norm 9.81, along the trunk's up axis.
        double[] imu = r.imu();
        for (int i = 0; i < 3; i++) {
            assertEquals(0, imu[i], 1e-9, "gyro " + i);
        }
        double[] q = r.finalQ();
        double qx = q[3];
        double qy = q[4];
        double zz = 1 - 2 * (qx * qx + qy * qy); // R_WB[2][2]: the trunk z's vertical component
        assertEquals(9.81, Math.sqrt(imu[3] * imu[3] + imu[4] * imu[4] + imu[5] * imu[5]), 1e-6, "|f|");
        assertEquals(9.81 * zz, imu[5], 1e-6, "f_z = g cos(tilt)");
        assertEquals(9.81, imu[5], 1e-3, "trunk nearly level: f_z");
        assertTrue(zz > 0.9999, "trunk tilt " + Math.acos(zz) + " rad");

        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        QuadrupedDropDemo.report(new PrintStream(bytes, true, StandardCharsets.UTF_8), r);
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains("all solves converged"), out);
        assertFalse(out.contains("NaN"), out);
        String json = r.trajectory().json();
        assertEquals(401, r.trajectory().samples());
        assertTrue(json.startsWith("{\"t\": [0.0, ") && json.contains("\"normal_impulse\"")
                && json.contains("\"name\": \"lf_toe\", \"ground\": \"floor\""), json.substring(0, 200));
        assertFalse(json.contains("NaN") || json.contains("Infinity"));

        // the IMU is in the trajectory file as simulate writes sensors, one reading per recorded time, the last
        // the demo's; and the viewer plots its channels
        Path file = dir.resolve("quadruped-drop.json");
        r.trajectory().write(file);
        ObjectValue traj = (ObjectValue) JsonReader.read(file);
        List<String> channels = ((ArrayValue) ((ObjectValue) traj.get("sensor_channels")).get("base_imu")).elements()
                .stream().map(c -> ((StringValue) c).value()).toList();
        assertEquals(List.of("base_imu.wx", "base_imu.wy", "base_imu.wz", "base_imu.fx", "base_imu.fy",
                "base_imu.fz"), channels);
        ArrayValue readings = (ArrayValue) ((ObjectValue) traj.get("sensors")).get("base_imu");
        assertEquals(401, readings.size());
        ArrayValue last = (ArrayValue) readings.get(400);
        for (int i = 0; i < 6; i++) {
            assertEquals(imu[i], ((NumberValue) last.get(i)).value(), 0.0, "last reading " + channels.get(i));
        }
        ArrayValue first = (ArrayValue) readings.get(0);
        assertEquals(9.81, ((NumberValue) first.get(5)).value(), 1e-9, "at rest in the air, level: f_z = g");
        Path page = dir.resolve("quadruped-drop.html");
        ViewPages.write(file, Path.of("src/main/symdyn/quadruped.urdf"), page);
        String html = Files.readString(page, StandardCharsets.UTF_8);
        for (String channel : channels) {
            assertTrue(html.contains("\"sensor " + channel + "\""), "the page plots " + channel);
        }
    }
}
