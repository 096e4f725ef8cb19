package org.symdyn.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.symdyn.cli.TrajectoryReader.Contact;
import org.symdyn.cli.TrajectoryReader.Trajectory;
import org.symdyn.contract.FrameKinematics;
import org.symdyn.model.Body;
import org.symdyn.model.Frame;
import org.symdyn.model.GroundModel;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;

/**
 * The page of {@code symdyn view}: one self-contained HTML file (inline CSS and JavaScript, no network) from the
 * template {@code view/motion.html}, the 3-D library three.js inlined ({@link #library()}), and the data computed
 * here in Java.
 *
 * <p>Data (a JavaScript object literal in the page): the model's frames (every link, in model order) with the frame
 * each is drawn from (the parent link's frame for a moving link, its body's frame for a link fixed to it, none for
 * the root and for a body on a floating joint); per recorded time the world position and the rotation (world &lt;-
 * frame) of every frame, from the model's {@link FrameKinematics}; the contacts ([x, y, z, normal impulse, ground
 * index], followed by the unit normal [nx, ny, nz] when the trajectory gives one); the grounds (name, point,
 * normal); the visual and collision shapes (their meshes in a table) and the Lidars, each placed in a frame
 * ({@link SceneRecords}); and the
 * signals of the plot panel (each q, each v, the contacts' normal impulses summed, each sensor channel but the
 * Lidars') with the one shown first ({@link #defaultSignal}). Numbers are written with a float's precision (about 7 digits): the page shows them, it does not compute
 * with them.
 */
final class MotionPage {
    /** Where the template's data goes. */
    static final String DATA_MARK = "/*SYMDYN_DATA*/null";
    /** Where the template's title goes. */
    static final String TITLE_MARK = "SYMDYN_TITLE";
    /** Where the template's three.js goes. */
    static final String LIBRARY_MARK = "/*SYMDYN_THREE*/null";
    /** Where the template's three.js licence notice goes. */
    static final String LICENCE_MARK = "SYMDYN_THREE_LICENCE";
    /** The one relative import of three.js's module build, which the page points at its core once loaded. */
    static final String CORE_IMPORT = "from\"./three.core.min.js\"";

    /** The inlined library, made once: it is the same for every page. */
    private static String library;

    private MotionPage() {
    }

    /** The page for a trajectory of a model. */
    static String html(Model model, FrameKinematics kinematics, Trajectory trajectory) {
        String template = text("view/motion.html");
        for (String mark : List.of(DATA_MARK, TITLE_MARK, LIBRARY_MARK, LICENCE_MARK)) {
            if (!template.contains(mark)) {
                throw new IllegalStateException("the page template has no mark " + mark);
            }
        }
        template = template.replace(TITLE_MARK, htmlText("SymDyn: " + model.name()));
        template = template.replace(LICENCE_MARK, licence());
        template = insert(template, LIBRARY_MARK, library());
        return insert(template, DATA_MARK, data(model, kinematics, trajectory));
    }

    private static String insert(String template, String mark, String text) {
        int at = template.indexOf(mark);
        return template.substring(0, at) + text + template.substring(at + mark.length());
    }

    /** A UTF-8 text resource beside this class (the pages' templates). */
    static String text(String name) {
        try (InputStream in = MotionPage.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(name + " is missing from the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + name + ": " + e.getMessage(), e);
        }
    }

    /** The release of three.js in the pages (the build writes it into view/three.properties). */
    static String libraryVersion() {
        java.util.Properties p = new java.util.Properties();
        try (java.io.StringReader r = new java.io.StringReader(text("view/three.properties"))) {
            p.load(r);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read view/three.properties: " + e.getMessage(), e);
        }
        return p.getProperty("version");
    }

    /** three.js's copyright and licence, as the page carries them (inside an HTML comment). */
    private static String licence() {
        String v = libraryVersion();
        String text = text("/META-INF/licenses/three-" + v + "/META-INF/resources/webjars/three/" + v + "/LICENSE");
        return "The page carries three.js " + v + " (build/three.core.min.js and build/three.module.min.js, gzip"
                + " and base64 encoded), under this licence:\n\n" + text.replace("--", "- -");
    }

    /**
     * three.js as a JavaScript object literal: {@code {"version", "core", "module"}}, the two files of its ES module
     * build gzip-compressed and base64-encoded; the page decompresses them and imports them from data: URLs, the
     * module's relative import of the core ({@link #CORE_IMPORT}) pointed at the core's URL.
     */
    static synchronized String library() {
        if (library == null) {
            String core = text("view/three/three.core.min.js");
            String module = text("view/three/three.module.min.js");
            if (!module.contains(CORE_IMPORT)) {
                throw new IllegalStateException("three.module.min.js does not import ./three.core.min.js: the page"
                        + " cannot load this release of three.js");
            }
            library = "{\"version\": " + jsString(libraryVersion()) + ", \"core\": \"" + gzipBase64(core)
                    + "\", \"module\": \"" + gzipBase64(module) + "\"}";
        }
        return library;
    }

    /** The text's UTF-8 bytes, gzip-compressed (no file name, time 0: the same bytes every time), in base64. */
    static String gzipBase64(String text) {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.util.zip.GZIPOutputStream gzip = new java.util.zip.GZIPOutputStream(bytes) {
            {
                def.setLevel(java.util.zip.Deflater.BEST_COMPRESSION);
            }
        }) {
            gzip.write(text.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return java.util.Base64.getEncoder().encodeToString(bytes.toByteArray());
    }

    /** The frame each frame is drawn from (-1: none), in model order. */
    static int[] frameParents(Model model) {
        List<Frame> frames = model.frames();
        int root = -1;
        int[] bodyFrame = new int[model.bodyCount()];
        java.util.Arrays.fill(bodyFrame, -1);
        for (int f = 0; f < frames.size(); f++) {
            Frame frame = frames.get(f);
            if (frame.bodyIndex() < 0 && frame.name().equals(model.rootName())) {
                root = f;
            } else if (frame.bodyIndex() >= 0 && frame.name().equals(model.body(frame.bodyIndex()).name())) {
                bodyFrame[frame.bodyIndex()] = f;
            }
        }
        int[] parents = new int[frames.size()];
        for (int f = 0; f < frames.size(); f++) {
            Frame frame = frames.get(f);
            int b = frame.bodyIndex();
            if (f == root) {
                parents[f] = -1;
            } else if (b < 0) {
                parents[f] = root;
            } else if (bodyFrame[b] == f) {
                Body body = model.body(b);
                if (body.joint().type() == JointType.FLOATING) {
                    parents[f] = -1; // a free body: no segment from its parent
                } else {
                    parents[f] = body.parentIndex() < 0 ? root : bodyFrame[body.parentIndex()];
                }
            } else {
                parents[f] = bodyFrame[b];
            }
        }
        return parents;
    }

    static String data(Model model, FrameKinematics kinematics, Trajectory trajectory) {
        List<Frame> frames = model.frames();
        int nf = frames.size();
        int[] parents = frameParents(model);
        StringBuilder sb = new StringBuilder(1 << 16);
        sb.append("{\n\"model\": ").append(jsString(model.name()));
        sb.append(",\n\"frames\": [");
        for (int f = 0; f < nf; f++) {
            sb.append(f == 0 ? "" : ", ").append("{\"name\": ").append(jsString(frames.get(f).name()))
                    .append(", \"parent\": ").append(parents[f]).append(", \"moving\": ")
                    .append(frames.get(f).bodyIndex() >= 0).append(", \"body\": ").append(frames.get(f).bodyIndex())
                    .append('}');
        }
        sb.append("],\n\"grounds\": [");
        List<GroundModel> grounds = model.grounds();
        for (int g = 0; g < grounds.size(); g++) {
            GroundModel ground = grounds.get(g);
            sb.append(g == 0 ? "" : ", ").append("{\"name\": ").append(jsString(ground.name())).append(", \"point\": ");
            numbers(sb, ground.point());
            sb.append(", \"normal\": ");
            numbers(sb, ground.normal());
            sb.append('}');
        }
        sb.append("],\n\"shapes\": ");
        StringBuilder meshes = new StringBuilder();
        SceneRecords.shapes(sb, meshes, model);
        sb.append(",\n\"meshes\": ").append(meshes);
        sb.append(",\n\"lidars\": ");
        SceneRecords.lidars(sb, model, trajectory.lidarRanges());
        sb.append(",\n\"t\": ");
        numbers(sb, trajectory.t());
        // per time: frame positions (3 per frame) and rotations (9 per frame, row-major world <- frame)
        double[] rotation = new double[9];
        double[] position = new double[3];
        double[] pos = new double[3 * nf];
        double[] rot = new double[9 * nf];
        StringBuilder rots = new StringBuilder(1 << 16);
        sb.append(",\n\"pos\": [");
        rots.append(",\n\"rot\": [");
        for (int i = 0; i < trajectory.t().length; i++) {
            double[] q = trajectory.q()[i];
            for (int f = 0; f < nf; f++) {
                kinematics.framePose(q, f, rotation, position);
                System.arraycopy(position, 0, pos, 3 * f, 3);
                System.arraycopy(rotation, 0, rot, 9 * f, 9);
            }
            sb.append(i == 0 ? "\n" : ",\n");
            numbers(sb, pos);
            rots.append(i == 0 ? "\n" : ",\n");
            numbers(rots, rot);
        }
        sb.append("]");
        sb.append(rots).append("]");
        sb.append(",\n\"contacts\": [");
        double[] impulseSum = new double[trajectory.t().length];
        for (int i = 0; i < trajectory.t().length; i++) {
            sb.append(i == 0 ? "\n[" : ",\n[");
            List<Contact> contacts = trajectory.contacts().get(i);
            for (int k = 0; k < contacts.size(); k++) {
                Contact c = contacts.get(k);
                impulseSum[i] += c.normalImpulse();
                sb.append(k == 0 ? "" : ", ");
                int ground = -1;
                for (int g = 0; g < grounds.size(); g++) {
                    if (grounds.get(g).name().equals(c.ground())) {
                        ground = g;
                    }
                }
                double[] p = c.position();
                double[] n = c.normal();
                numbers(sb, n == null ? new double[] {p[0], p[1], p[2], c.normalImpulse(), ground}
                        : new double[] {p[0], p[1], p[2], c.normalImpulse(), ground, n[0], n[1], n[2]});
            }
            sb.append(']');
        }
        sb.append("],\n\"signals\": [");
        boolean first = true;
        for (int j = 0; j < model.nq(); j++) {
            first = signal(sb, first, "q " + model.qNames().get(j), column(trajectory.q(), j));
        }
        if (trajectory.v() != null) {
            for (int j = 0; j < model.nv(); j++) {
                first = signal(sb, first, "v " + model.vNames().get(j), column(trajectory.v(), j));
            }
        }
        if (!model.grounds().isEmpty()) {
            first = signal(sb, first, "contact normal impulses, summed (N s)", impulseSum);
        }
        for (java.util.Map.Entry<String, double[]> e : trajectory.sensorSignals().entrySet()) {
            first = signal(sb, first, "sensor " + e.getKey(), e.getValue());
        }
        sb.append("],\n\"signal\": ").append(defaultSignal(model)).append("\n}");
        return sb.toString();
    }

    /**
     * The signal the plot shows first (an index into the signals, which start with q): for a model with a floating
     * base, the base's height, its coordinate along gravity (z unless gravity says otherwise) of the first body on a
     * floating joint, since its x and y are often constant (drawn as motion at the scale of their rounding); else
     * the first coordinate, the first joint's.
     */
    static int defaultSignal(Model model) {
        for (Body b : model.bodies()) {
            if (b.joint().type() == JointType.FLOATING) {
                int axis = 2;
                for (int i = 0; i < 3; i++) {
                    if (Math.abs(model.gravity(i)) > Math.abs(model.gravity(axis))) {
                        axis = i;
                    }
                }
                return b.joint().qIndex() + axis;
            }
        }
        return 0;
    }

    private static boolean signal(StringBuilder sb, boolean first, String name, double[] values) {
        sb.append(first ? "\n" : ",\n").append("{\"name\": ").append(jsString(name)).append(", \"values\": ");
        numbers(sb, values);
        sb.append('}');
        return false;
    }

    private static double[] column(double[][] rows, int j) {
        double[] c = new double[rows.length];
        for (int i = 0; i < rows.length; i++) {
            c[i] = rows[i][j];
        }
        return c;
    }

    static void numbers(StringBuilder sb, double[] values) {
        sb.append('[');
        for (int i = 0; i < values.length; i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(number(values[i]));
        }
        sb.append(']');
    }

    /** A finite number with a float's precision, as short as JavaScript reads it back; 0 for anything else. */
    static String number(double x) {
        if (!Double.isFinite(x) || x == 0) {
            return "0";
        }
        float f = (float) x;
        if (!Float.isFinite(f)) {
            return x > 0 ? "3.4e38" : "-3.4e38";
        }
        if (f == 0) {
            return "0";
        }
        String s = Float.toString(f);
        if (s.endsWith(".0")) {
            s = s.substring(0, s.length() - 2);
        }
        return s.replace(".0E", "E");
    }

    /** A JavaScript string literal that is safe inside a script element (no "&lt;/script", only ASCII). */
    static String jsString(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c < 0x20 || c > 0x7e || c == '<' || c == '>' || c == '&') {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.append('"').toString();
    }

    /** Text for an HTML element. */
    static String htmlText(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
