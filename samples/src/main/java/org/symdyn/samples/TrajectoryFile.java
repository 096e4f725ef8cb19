package org.symdyn.samples;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.symdyn.contact.ContactKinematics;
import org.symdyn.contact.TimeStepper;
import org.symdyn.systems.Sensor;
import org.symdyn.systems.TimeSteppingSystem;

/**
 * A trajectory in the form of {@code symdyn simulate}'s output, as {@code symdyn view} reads it: "t", "q", "v"
 * and per time the contacts of the step that ended there with their world position (m), gap (m) and normal
 * impulse (N s): a candidate's contact names its "ground", a contact between collision shapes names shape B and
 * "other" (shape A or the ground) and gives the unit "normal" (world, from A towards B), and the readings of the
 * system's sensors per time ("sensors", an IMU's ωx, ωy, ωz, fx, fy, fz in its frame; at t = 0 read with v̇ = 0)
 * with their channel names ("sensor_channels"), so that the viewer can plot them; recorded from a
 * {@link TimeSteppingSystem}
 * (samples of the demos; viewed with {@code java -jar cli/target/symdyn.jar view TRAJ.json MODEL.urdf -o page.html}).
 */
final class TrajectoryFile {
    private final StringBuilder t = new StringBuilder();
    private final StringBuilder q = new StringBuilder();
    private final StringBuilder v = new StringBuilder();
    private final StringBuilder contacts = new StringBuilder();
    private final Map<String, StringBuilder> sensors = new LinkedHashMap<>();
    private final Map<String, List<String>> channels = new LinkedHashMap<>();
    private int samples;

    TrajectoryFile() {
    }

    void record(TimeSteppingSystem sys) {
        String sep = samples == 0 ? "" : ",\n  ";
        appendState(sys.time(), sys.q(), sys.v(), sys.stepper(), sys.stepCount() > 0);
        for (Sensor sensor : sys.sensors()) {
            double[] reading = sys.reading(sensor.name());
            if (sys.stepCount() == 0) {
                // before the first step the system has no reading: take it as simulate does, at rest (v̇ = 0)
                reading = new double[sensor.size()];
                sensor.read(sys.time(), sys.q(), sys.v(), new double[sys.v().length], reading);
            }
            channels.putIfAbsent(sensor.name(), sensor.channels());
            sensors.computeIfAbsent(sensor.name(), k -> new StringBuilder()).append(sep).append(array(reading));
        }
        samples++;
    }

    /**
     * A state (q, v) at {@code time} without sensors, with the contacts of the step that ended there ({@code stepper}
     * has just taken it; {@code stepped} false for an initial state, which has none).
     */
    void record(double time, double[] qs, double[] vs, TimeStepper stepper, boolean stepped) {
        appendState(time, qs, vs, stepper, stepped);
        samples++;
    }

    private void appendState(double time, double[] qs, double[] vs, TimeStepper st, boolean stepped) {
        String sep = samples == 0 ? "" : ",\n  ";
        t.append(sep.isEmpty() ? "" : ", ").append(num(time));
        q.append(sep).append(array(qs));
        v.append(sep).append(array(vs));
        contacts.append(sep).append('[');
        int n = stepped ? st.contactCount() : 0;
        ContactKinematics ck = st.contacts();
        for (int k = 0; k < n; k++) {
            contacts.append(k == 0 ? "" : ", ").append("{\"name\": \"").append(json(ck.ownName(k)));
            if (ck.isShapeContact(k)) {
                contacts.append("\", \"other\": \"").append(json(ck.otherName(k))).append("\", \"normal\": [")
                        .append(num(ck.frame(k, 0, 0))).append(", ").append(num(ck.frame(k, 0, 1))).append(", ")
                        .append(num(ck.frame(k, 0, 2))).append(']');
            } else {
                contacts.append("\", \"ground\": \"").append(json(ck.otherName(k))).append('"');
            }
            contacts.append(", \"position\": [").append(num(ck.worldPoint(k, 0))).append(", ")
                    .append(num(ck.worldPoint(k, 1))).append(", ").append(num(ck.worldPoint(k, 2)))
                    .append("], \"gap\": ").append(num(ck.gap(k))).append(", \"normal_impulse\": ")
                    .append(num(st.contactImpulse(k, 0))).append('}');
        }
        contacts.append(']');
    }

    int samples() {
        return samples;
    }

    String json() {
        StringBuilder readings = new StringBuilder();
        StringBuilder names = new StringBuilder();
        for (Map.Entry<String, StringBuilder> e : sensors.entrySet()) {
            String sep = readings.length() == 0 ? "\n  " : ",\n  ";
            readings.append(sep).append('"').append(json(e.getKey())).append("\": [\n   ").append(e.getValue())
                    .append(']');
            names.append(sep).append('"').append(json(e.getKey())).append("\": [");
            List<String> list = channels.get(e.getKey());
            for (int i = 0; i < list.size(); i++) {
                names.append(i == 0 ? "\"" : ", \"").append(json(list.get(i))).append('"');
            }
            names.append(']');
        }
        return "{\"t\": [" + t + "],\n \"q\": [\n  " + q + "],\n \"v\": [\n  " + v + "],\n \"contacts\": [\n  "
                + contacts + "],\n \"sensors\": {" + readings + "},\n \"sensor_channels\": {" + names + "}}\n";
    }

    void write(Path file) throws IOException {
        Files.writeString(file, json());
    }

    private static String array(double[] x) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < x.length; i++) {
            sb.append(i == 0 ? "" : ", ").append(num(x[i]));
        }
        return sb.append(']').toString();
    }

    /** A name as a JSON string's content (names hold no control characters; quotes and backslashes escaped). */
    private static String json(String name) {
        return name.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    private static String num(double x) {
        return Double.toString(x);
    }
}
