package org.symdyn.samples;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.symdyn.contact.ContactKinematics;
import org.symdyn.contact.TimeStepper;
import org.symdyn.systems.TimeSteppingSystem;

/**
 * A trajectory in the form of {@code symdyn simulate}'s output, as {@code symdyn view} reads it: "t", "q", "v"
 * and per time the contacts of the step that ended there with their world position (m), gap (m) and normal
 * impulse (N s): a candidate's contact names its "ground", a contact between collision shapes names shape B and
 * "other" (shape A or the ground) and gives the unit "normal" (world, from A towards B), recorded from a
 * {@link TimeSteppingSystem}
 * (samples of the demos; viewed with {@code java -jar cli/target/symdyn.jar view TRAJ.json MODEL.urdf -o page.html}).
 */
final class TrajectoryFile {
    private final StringBuilder t = new StringBuilder();
    private final StringBuilder q = new StringBuilder();
    private final StringBuilder v = new StringBuilder();
    private final StringBuilder contacts = new StringBuilder();
    private int samples;

    TrajectoryFile() {
    }

    void record(TimeSteppingSystem sys) {
        String sep = samples == 0 ? "" : ",\n  ";
        t.append(sep.isEmpty() ? "" : ", ").append(num(sys.time()));
        q.append(sep).append(array(sys.q()));
        v.append(sep).append(array(sys.v()));
        contacts.append(sep).append('[');
        TimeStepper st = sys.stepper();
        int n = sys.stepCount() == 0 ? 0 : st.contactCount();
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
        samples++;
    }

    int samples() {
        return samples;
    }

    String json() {
        return "{\"t\": [" + t + "],\n \"q\": [\n  " + q + "],\n \"v\": [\n  " + v + "],\n \"contacts\": [\n  "
                + contacts + "]}\n";
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
