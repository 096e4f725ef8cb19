package org.symdyn.samples;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.symdyn.contact.ContactSet;
import org.symdyn.contact.TimeStepper;
import org.symdyn.systems.TimeSteppingSystem;

/**
 * A trajectory in the form of {@code symdyn simulate}'s output, as {@code symdyn view} reads it: "t", "q", "v"
 * and per time the contacts with their world position and normal impulse, recorded from a {@link TimeSteppingSystem}
 * (samples of the demos; viewed with {@code java -jar cli/target/symdyn.jar view TRAJ.json MODEL.urdf -o page.html}).
 */
final class TrajectoryFile {
    private final ContactSet set;
    private final StringBuilder t = new StringBuilder();
    private final StringBuilder q = new StringBuilder();
    private final StringBuilder v = new StringBuilder();
    private final StringBuilder contacts = new StringBuilder();
    private int samples;

    TrajectoryFile(ContactSet set) {
        this.set = set;
    }

    void record(TimeSteppingSystem sys) {
        String sep = samples == 0 ? "" : ",\n  ";
        t.append(sep.isEmpty() ? "" : ", ").append(num(sys.time()));
        q.append(sep).append(array(sys.q()));
        v.append(sep).append(array(sys.v()));
        contacts.append(sep).append('[');
        TimeStepper st = sys.stepper();
        int n = sys.stepCount() == 0 ? 0 : st.contactCount();
        for (int k = 0; k < n; k++) {
            int pair = st.contacts().pair(k);
            contacts.append(k == 0 ? "" : ", ").append("{\"name\": \"")
                    .append(set.candidates().get(set.candidateOf(pair)).name()).append("\", \"ground\": \"")
                    .append(set.grounds().get(set.groundOf(pair)).name()).append("\", \"position\": [")
                    .append(num(st.contacts().worldPoint(k, 0))).append(", ")
                    .append(num(st.contacts().worldPoint(k, 1))).append(", ")
                    .append(num(st.contacts().worldPoint(k, 2))).append("], \"normal_impulse\": ")
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

    private static String num(double x) {
        return Double.toString(x);
    }
}
