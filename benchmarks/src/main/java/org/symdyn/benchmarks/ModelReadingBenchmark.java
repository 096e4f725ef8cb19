package org.symdyn.benchmarks;

import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.symdyn.io.mjcf.MjcfReader;
import org.symdyn.io.urdf.UrdfReader;
import org.symdyn.model.Model;
import org.symdyn.model.ModelException;

/**
 * Reading a model file (issue 33's speed bar: a 100-body MJCF reads at most as slowly as the URDF of the same
 * robot): one robot written in both formats at set-up, from text (no file system), each call a whole reading into
 * a {@link Model} (parsing, checks, the builder).
 * <table>
 * <caption>benchmarks</caption>
 * <tr><th>benchmark</th><th>reads</th></tr>
 * <tr><td>{@code readMjcf}</td><td>{@link MjcfReader#parse} of the MJCF text</td></tr>
 * <tr><td>{@code readUrdf}</td><td>{@link UrdfReader#parse} of the URDF text (meshes skipped; there are none)</td></tr>
 * </table>
 *
 * <p>The robot ({@link #mjcf(int)}, {@link #urdf(int)}): a chain of {@value #BODIES} bodies, each 0.1 m below its
 * parent on a hinge about x, y or z in turn (limits ±2 rad, armature 0.01 kg m², damping 0.1 N m s/rad), with an
 * inertial (mass 1 + k/100 kg, centre 0.05 m down, diagonal inertia 0.01, 0.02, 0.03 kg m²), a collision box
 * (0.04 × 0.06 × 0.1 m) and a visual sphere (radius 0.03 m). The two texts give the same bodies, joints and inertias
 * (the module's tests check H at a state agrees to 1e-12).
 *
 * <p>{@code java -jar benchmarks/target/benchmarks.jar ModelReadingBenchmark}. Mode: average time, µs per reading.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Fork(1)
public class ModelReadingBenchmark {
    /** Moving bodies of the robot. */
    static final int BODIES = 100;

    String mjcfText;
    String urdfText;

    @Setup(Level.Trial)
    public void setUp() throws ModelException {
        mjcfText = mjcf(BODIES);
        urdfText = urdf(BODIES);
        int a = readMjcf().bodyCount();
        int b = readUrdf().bodyCount();
        if (a != BODIES || b != BODIES) {
            throw new IllegalStateException("the robot has " + a + " bodies as MJCF and " + b + " as URDF, not "
                    + BODIES);
        }
    }

    @Benchmark
    public Model readMjcf() throws ModelException {
        return MjcfReader.parse(mjcfText, "chain.xml", MjcfReader.Options.DEFAULT);
    }

    @Benchmark
    public Model readUrdf() throws ModelException {
        return UrdfReader.parse(urdfText, "chain.urdf", UrdfReader.Options.DEFAULT);
    }

    private static final String[] AXES = {"1 0 0", "0 1 0", "0 0 1"};

    /** The chain as MJCF: nested bodies, angles in radians. */
    static String mjcf(int n) {
        StringBuilder sb = new StringBuilder("<mujoco model=\"chain\">\n  <compiler angle=\"radian\"/>\n"
                + "  <worldbody>\n");
        for (int k = 0; k < n; k++) {
            sb.append(String.format(Locale.ROOT, "<body name=\"link%d\" pos=\"0 0 %s\">\n", k, k == 0 ? "0" : "-0.1"));
            sb.append(String.format(Locale.ROOT, "  <joint name=\"joint%d\" type=\"hinge\" axis=\"%s\" limited=\"true\""
                    + " range=\"-2 2\" armature=\"0.01\" damping=\"0.1\"/>\n", k, AXES[k % 3]));
            sb.append(String.format(Locale.ROOT, "  <inertial pos=\"0 0 -0.05\" mass=\"%s\""
                    + " diaginertia=\"0.01 0.02 0.03\"/>\n", mass(k)));
            sb.append("  <geom name=\"box").append(k).append("\" type=\"box\" size=\"0.02 0.03 0.05\""
                    + " pos=\"0 0 -0.05\"/>\n");
            sb.append("  <geom name=\"ball").append(k).append("\" type=\"sphere\" size=\"0.03\" contype=\"0\""
                    + " conaffinity=\"0\" group=\"1\" pos=\"0 0 -0.1\"/>\n");
        }
        for (int k = 0; k < n; k++) {
            sb.append("</body>\n");
        }
        return sb.append("  </worldbody>\n</mujoco>\n").toString();
    }

    /** The same chain as URDF: a world link, a fixed-free chain of revolute joints. */
    static String urdf(int n) {
        StringBuilder sb = new StringBuilder("<robot name=\"chain\" xmlns:symdyn=\"" + UrdfReader.NAMESPACE
                + "\">\n  <link name=\"world\"/>\n");
        for (int k = 0; k < n; k++) {
            sb.append(String.format(Locale.ROOT, "<link name=\"link%d\">\n  <inertial><origin xyz=\"0 0 -0.05\"/>"
                    + "<mass value=\"%s\"/><inertia ixx=\"0.01\" iyy=\"0.02\" izz=\"0.03\" ixy=\"0\" ixz=\"0\""
                    + " iyz=\"0\"/></inertial>\n", k, mass(k)));
            sb.append("  <collision><origin xyz=\"0 0 -0.05\"/><geometry><box size=\"0.04 0.06 0.1\"/></geometry>"
                    + "</collision>\n");
            sb.append("  <visual><origin xyz=\"0 0 -0.1\"/><geometry><sphere radius=\"0.03\"/></geometry>"
                    + "</visual>\n</link>\n");
            sb.append(String.format(Locale.ROOT, "<joint name=\"joint%d\" type=\"revolute\">\n  <parent link=\"%s\"/>"
                    + "<child link=\"link%d\"/><origin xyz=\"0 0 %s\"/><axis xyz=\"%s\"/>\n"
                    + "  <limit lower=\"-2\" upper=\"2\" effort=\"100\" velocity=\"10\"/>"
                    + "<dynamics damping=\"0.1\" symdyn:armature=\"0.01\"/>\n</joint>\n", k,
                    k == 0 ? "world" : "link" + (k - 1), k, k == 0 ? "0" : "-0.1", AXES[k % 3]));
        }
        return sb.append("</robot>\n").toString();
    }

    private static String mass(int k) {
        return String.format(Locale.ROOT, "%.2f", 1 + k / 100.0);
    }
}
