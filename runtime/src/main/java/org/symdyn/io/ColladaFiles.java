package org.symdyn.io;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.symdyn.geometry.LoadedMesh;
import org.symdyn.geometry.MeshFileException;
import org.symdyn.geometry.MeshFiles;
import org.symdyn.geometry.TriangleSoup;
import org.symdyn.model.Diagnostic;
import org.symdyn.model.ModelException;

/**
 * Reads the triangles of a Collada ({@code .dae}) file, as URDF visual meshes use it.
 *
 * <p>What is read: every {@code <geometry>}'s {@code <mesh>}, its {@code <triangles>}, and its {@code <polylist>},
 * {@code <polygons>} (the outer boundary of a {@code <ph>}; holes ignored with a warning) and {@code <trifans>}
 * fanned from each polygon's first vertex, {@code <tristrips>} as strips; the positions are the {@code POSITION}
 * input of the primitive's {@code VERTEX} input (or a {@code POSITION} input of its own), through the source's
 * {@code <accessor>} (count, stride, offset; the first three parameters are x, y, z). Lines are not surfaces and
 * are skipped. The geometries are placed as the scene's node hierarchy instantiates them: the
 * {@code <instance_visual_scene>} of {@code <scene>} (else the first {@code <visual_scene>}), each {@code <node>}'s
 * {@code <matrix>} (16 numbers, row-major, as Collada writes it), {@code <translate>}, {@code <rotate>} (axis and
 * angle in degrees) and {@code <scale>} composed in document order (x_parent = M_1 M_2 ... x_node), its
 * {@code <instance_geometry>} and its {@code <instance_node>} (a node found by id in the same file); a file without
 * a visual scene gives every geometry once, untransformed. A geometry instanced twice gives its triangles twice. A
 * node transform with a negative determinant mirrors its triangles, whose corners are then reversed so that the
 * normals keep pointing out. Finally every position is multiplied by {@code <asset><unit meter>} (default 1) and by
 * the per-axis scale of the URDF {@code <mesh scale>} ({@link TriangleSoup}).
 *
 * <p>{@code <up_axis>} is read but not applied: the mesh keeps the file's own axes. This is what RViz does (it
 * drops the root transform by which Assimp turns a file to Y up, and applies only {@code <unit>}; rviz issue 1045,
 * MoveIt's geometric_shapes does the same), and Gazebo's Collada loader does not read {@code <up_axis>} at all
 * (gazebo-classic issue 1305); ROS robot descriptions are drawn for that reading, whatever {@code up_axis} their
 * exporter wrote (Z_UP or Y_UP).
 *
 * <p>Security and bounds: the file is read by the model files' hardened XML parser ({@link XmlDocument}: no DTD,
 * no external entity, bounded expansion) within {@link XmlDocument#MAX_FILE_BYTES} bytes; at most
 * {@link MeshFiles#MAX_TRIANGLES} triangles are kept, node nesting (with instanced nodes) is at most
 * {@value #MAX_DEPTH} deep, and references outside the file ({@code url="other.dae#id"}) are refused. A file that
 * cannot be read is a {@link MeshFileException} naming the file, the line and what is wrong: malformed XML, a
 * missing or dangling reference, a count that does not match its array, an index out of range, a NaN or infinite
 * number, a polygon of fewer than three vertices, no triangles.
 */
public final class ColladaFiles {
    /** The deepest node nesting followed, counting instanced nodes (which also bounds instancing cycles). */
    public static final int MAX_DEPTH = 256;

    private final String file;
    private final TriangleSoup soup;
    private final Map<String, XmlElement> byId = new HashMap<>();
    private final Map<XmlElement, Geometry> geometries = new IdentityHashMap<>();
    private final List<String> ignoredTransforms = new ArrayList<>();
    private double unit = 1;

    /** A geometry's positions (x, y, z per vertex, file units) and triangles (three position indices each). */
    private record Geometry(double[] positions, int[] triangles) {
    }

    private ColladaFiles(String file, TriangleSoup soup) {
        this.file = file;
        this.soup = soup;
    }

    /**
     * Reads a Collada file with the per-axis scale (sx, sy, sz) of a URDF {@code <mesh scale>} (finite, non-zero).
     *
     * @throws MeshFileException if it cannot be read (see the class comment)
     */
    public static LoadedMesh read(Path file, double sx, double sy, double sz) throws MeshFileException {
        String name = String.valueOf(file);
        TriangleSoup soup = new TriangleSoup(name, sx, sy, sz);
        XmlDocument document;
        try {
            if (Files.isRegularFile(file) && Files.size(file) > XmlDocument.MAX_FILE_BYTES) {
                throw new MeshFileException(name + ": " + Files.size(file) + " bytes, more than the limit "
                        + XmlDocument.MAX_FILE_BYTES + " of a Collada file");
            }
            document = XmlDocument.readWithText(file, name);
        } catch (ModelException e) {
            Diagnostic d = e.diagnostics().isEmpty() ? null : e.diagnostics().get(0);
            throw new MeshFileException(d == null ? name + ": " + e.getMessage()
                    : name + ":" + d.location().line() + ": " + d.message());
        } catch (IOException e) {
            throw new MeshFileException(name + ": cannot read file: " + e.getMessage());
        }
        for (Diagnostic d : document.diagnostics()) {
            if (d.isError()) {
                throw new MeshFileException(name + ":" + d.location().line() + ": " + d.message());
            }
        }
        ColladaFiles reader = new ColladaFiles(name, soup);
        try {
            reader.readDocument(document.root());
        } catch (RuntimeException e) {
            throw new MeshFileException(name + ": internal error while reading: " + e);
        }
        return soup.build();
    }

    private void readDocument(XmlElement root) throws MeshFileException {
        if (!root.name().equals("COLLADA")) {
            throw error(root, "the document element is <" + Messages.cut(root.name()) + ">, expected <COLLADA>");
        }
        Deque<XmlElement> stack = new ArrayDeque<>();
        stack.push(root);
        while (!stack.isEmpty()) {
            XmlElement e = stack.pop();
            String id = e.attribute("id");
            if (id != null) {
                byId.putIfAbsent(id, e);
            }
            for (XmlElement c : e.children()) {
                stack.push(c);
            }
        }
        XmlElement asset = child(root, "asset");
        XmlElement unitElement = asset == null ? null : child(asset, "unit");
        if (unitElement != null && unitElement.has("meter")) {
            unit = number(unitElement, unitElement.attribute("meter"), "unit meter");
            if (!(unit > 0)) {
                throw error(unitElement, "unit meter " + unit + " must be > 0");
            }
        }
        XmlElement scene = visualScene(root);
        if (scene == null) {
            for (XmlElement library : children(root, "library_geometries")) {
                for (XmlElement g : children(library, "geometry")) {
                    emit(geometry(g), IDENTITY, g);
                }
            }
        } else {
            for (XmlElement node : children(scene, "node")) {
                node(node, IDENTITY, 1);
            }
        }
        if (!ignoredTransforms.isEmpty()) {
            soup.warn(file + ": node transforms " + String.join(", ", ignoredTransforms) + " ignored");
        }
    }

    private static final double[] IDENTITY = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

    private XmlElement visualScene(XmlElement root) throws MeshFileException {
        XmlElement scene = child(root, "scene");
        XmlElement instance = scene == null ? null : child(scene, "instance_visual_scene");
        if (instance != null) {
            return reference(instance, "url", "visual_scene");
        }
        for (XmlElement library : children(root, "library_visual_scenes")) {
            for (XmlElement s : children(library, "visual_scene")) {
                return s;
            }
        }
        return null;
    }

    /** A node at depth {@code depth} under the parent transform (4x4, row-major). */
    private void node(XmlElement node, double[] parent, int depth) throws MeshFileException {
        if (depth > MAX_DEPTH) {
            throw error(node, "nodes nested deeper than " + MAX_DEPTH + " (an instance_node cycle?)");
        }
        double[] m = parent;
        for (XmlElement c : node.children()) {
            switch (c.name()) {
                case "matrix" -> m = multiply(m, numbers(c, 16, "matrix"));
                case "translate" -> {
                    double[] t = numbers(c, 3, "translate");
                    m = multiply(m, new double[] {1, 0, 0, t[0], 0, 1, 0, t[1], 0, 0, 1, t[2], 0, 0, 0, 1});
                }
                case "scale" -> {
                    double[] s = numbers(c, 3, "scale");
                    m = multiply(m, new double[] {s[0], 0, 0, 0, 0, s[1], 0, 0, 0, 0, s[2], 0, 0, 0, 0, 1});
                }
                case "rotate" -> m = multiply(m, rotation(c, numbers(c, 4, "rotate")));
                case "lookat", "skew" -> {
                    if (!ignoredTransforms.contains(c.name())) {
                        ignoredTransforms.add(c.name());
                    }
                }
                default -> {
                }
            }
        }
        for (XmlElement c : node.children()) {
            switch (c.name()) {
                case "instance_geometry" -> {
                    XmlElement g = reference(c, "url", "geometry");
                    emit(geometry(g), m, c);
                }
                case "instance_node" -> node(reference(c, "url", "node"), m, depth + 1);
                case "node" -> node(c, m, depth + 1);
                default -> {
                }
            }
        }
    }

    /** The triangles of a geometry under transform m, then scaled by the unit, into the soup. */
    private void emit(Geometry g, double[] m, XmlElement at) throws MeshFileException {
        if (g == null) {
            return;
        }
        boolean mirror = m[0] * (m[5] * m[10] - m[6] * m[9]) - m[1] * (m[4] * m[10] - m[6] * m[8])
                + m[2] * (m[4] * m[9] - m[5] * m[8]) < 0;
        double[] v = new double[9];
        String where = "line " + at.line();
        int[] t = g.triangles();
        double[] p = g.positions();
        for (int k = 0; k < t.length; k += 3) {
            for (int c = 0; c < 3; c++) {
                int i = 3 * t[k + (mirror && c > 0 ? 3 - c : c)];
                for (int r = 0; r < 3; r++) {
                    v[3 * c + r] = unit * (m[4 * r] * p[i] + m[4 * r + 1] * p[i + 1] + m[4 * r + 2] * p[i + 2]
                            + m[4 * r + 3]);
                }
            }
            soup.triangle(v, where);
        }
    }

    /** A geometry's triangles, read once; null for a geometry without a mesh (a spline, a convex_mesh). */
    private Geometry geometry(XmlElement g) throws MeshFileException {
        if (geometries.containsKey(g)) {
            return geometries.get(g);
        }
        XmlElement mesh = child(g, "mesh");
        Geometry out = null;
        if (mesh != null) {
            Indices triangles = new Indices();
            double[] positions = null;
            XmlElement positionSource = null;
            for (XmlElement primitive : mesh.children()) {
                String kind = primitive.name();
                if (!List.of("triangles", "polylist", "polygons", "trifans", "tristrips").contains(kind)) {
                    continue;
                }
                XmlElement source = positionSource(primitive);
                if (positionSource == null) {
                    positionSource = source;
                    positions = positions(source);
                } else if (source != positionSource) {
                    throw error(primitive, "<" + kind + "> takes its positions from another source than the mesh's"
                            + " first primitive (one <vertices> per mesh)");
                }
                primitive(primitive, kind, positions.length / 3, triangles);
            }
            if (positions != null) {
                out = new Geometry(positions, triangles.toArray());
            }
        }
        geometries.put(g, out);
        return out;
    }

    /** The {@code <source>} holding the positions of a primitive (through its VERTEX input's {@code <vertices>}). */
    private XmlElement positionSource(XmlElement primitive) throws MeshFileException {
        for (XmlElement input : children(primitive, "input")) {
            String semantic = input.attribute("semantic");
            if ("VERTEX".equals(semantic)) {
                XmlElement vertices = reference(input, "source", "vertices");
                for (XmlElement vi : children(vertices, "input")) {
                    if ("POSITION".equals(vi.attribute("semantic"))) {
                        return reference(vi, "source", "source");
                    }
                }
                throw error(vertices, "<vertices> has no POSITION input");
            }
            if ("POSITION".equals(semantic)) {
                return reference(input, "source", "source");
            }
        }
        throw error(primitive, "<" + primitive.name() + "> has no VERTEX input");
    }

    /** The x, y, z of every position of a {@code <source>}, through its accessor. */
    private double[] positions(XmlElement source) throws MeshFileException {
        XmlElement array = child(source, "float_array");
        if (array == null) {
            throw error(source, "position source '" + Messages.cut(source.attribute("id")) + "' has no <float_array>");
        }
        double[] values = floats(array);
        if (array.has("count") && integer(array, array.attribute("count"), "float_array count") != values.length) {
            throw error(array, "float_array count " + array.attribute("count") + " but " + values.length
                    + " numbers");
        }
        XmlElement technique = child(source, "technique_common");
        XmlElement accessor = technique == null ? null : child(technique, "accessor");
        int count = values.length / 3;
        int stride = 3;
        int offset = 0;
        if (accessor != null) {
            count = integer(accessor, accessor.attribute("count"), "accessor count");
            stride = accessor.has("stride") ? integer(accessor, accessor.attribute("stride"), "accessor stride") : 1;
            offset = accessor.has("offset") ? integer(accessor, accessor.attribute("offset"), "accessor offset") : 0;
            if (stride < 3) {
                throw error(accessor, "position accessor stride " + stride + ": x, y, z need 3");
            }
            if ((long) offset + (long) (count - 1) * stride + 3 > values.length && count > 0) {
                throw error(accessor, "accessor of " + count + " positions (stride " + stride + ", offset " + offset
                        + ") needs more than the " + values.length + " numbers of its array");
            }
        }
        double[] out = new double[3 * count];
        for (int i = 0; i < count; i++) {
            System.arraycopy(values, offset + i * stride, out, 3 * i, 3);
        }
        return out;
    }

    /** Appends the position indices of a primitive's triangles. */
    private void primitive(XmlElement e, String kind, int positions, Indices out) throws MeshFileException {
        int stride = 0;
        int vertexOffset = -1;
        for (XmlElement input : children(e, "input")) {
            int offset = input.has("offset") ? integer(input, input.attribute("offset"), "input offset") : 0;
            stride = Math.max(stride, offset + 1);
            String semantic = input.attribute("semantic");
            if (vertexOffset < 0 && ("VERTEX".equals(semantic) || "POSITION".equals(semantic))) {
                vertexOffset = offset;
            }
        }
        List<XmlElement> ps = new ArrayList<>(children(e, "p"));
        if (kind.equals("polygons")) {
            for (XmlElement ph : children(e, "ph")) {
                XmlElement outer = child(ph, "p");
                if (outer != null) {
                    ps.add(outer);
                }
                if (!children(ph, "h").isEmpty()) {
                    soup.warn(file + ":" + ph.line() + ": the holes (<h>) of a polygon are ignored");
                }
            }
        }
        int expected = e.has("count") ? integer(e, e.attribute("count"), kind + " count") : -1;
        switch (kind) {
            case "triangles" -> {
                int[] idx = vertexIndices(single(e, ps), stride, vertexOffset, positions);
                if (idx.length % 3 != 0 || (expected >= 0 && idx.length != 3 * expected)) {
                    throw error(e, "<triangles count=\"" + expected + "\"> but its <p> holds " + idx.length
                            + " vertices");
                }
                for (int i : idx) {
                    out.add(i);
                }
            }
            case "polylist" -> {
                int[] idx = vertexIndices(single(e, ps), stride, vertexOffset, positions);
                XmlElement vcountElement = child(e, "vcount");
                int[] vcount = vcountElement == null ? new int[0] : ints(vcountElement);
                if (expected >= 0 && vcount.length != expected) {
                    throw error(e, "<polylist count=\"" + expected + "\"> but " + vcount.length + " vcount entries");
                }
                int at = 0;
                for (int n : vcount) {
                    if (n < 3) {
                        throw error(vcountElement, "a polygon of " + n + " vertices (3 or more needed)");
                    }
                    if (at + n > idx.length) {
                        throw error(e, "the vcounts add up to more than the " + idx.length + " vertices of <p>");
                    }
                    fan(idx, at, n, out);
                    at += n;
                }
                if (at != idx.length) {
                    throw error(e, "the vcounts add up to " + at + " but <p> holds " + idx.length + " vertices");
                }
            }
            default -> {
                if (expected >= 0 && ps.size() != expected) {
                    throw error(e, "<" + kind + " count=\"" + expected + "\"> but " + ps.size() + " <p> elements");
                }
                for (XmlElement p : ps) {
                    int[] idx = vertexIndices(p, stride, vertexOffset, positions);
                    if (idx.length < 3) {
                        throw error(p, "a " + (kind.equals("tristrips") ? "strip" : "polygon") + " of " + idx.length
                                + " vertices (3 or more needed)");
                    }
                    if (kind.equals("tristrips")) {
                        for (int k = 0; k + 2 < idx.length; k++) {
                            boolean odd = k % 2 == 1; // every other triangle of a strip is wound the other way
                            out.add(idx[k]);
                            out.add(idx[odd ? k + 2 : k + 1]);
                            out.add(idx[odd ? k + 1 : k + 2]);
                        }
                    } else {
                        fan(idx, 0, idx.length, out);
                    }
                }
            }
        }
        if (out.size() > 3L * MeshFiles.MAX_TRIANGLES) {
            throw error(e, "more than " + MeshFiles.MAX_TRIANGLES + " triangles");
        }
    }

    /** A growing list of vertex indices, three per triangle. */
    private static final class Indices {
        private int[] values = new int[3 * 256];
        private int size;

        void add(int i) {
            if (size == values.length) {
                values = Arrays.copyOf(values, 2 * size);
            }
            values[size++] = i;
        }

        int size() {
            return size;
        }

        int[] toArray() {
            return Arrays.copyOf(values, size);
        }
    }

    private static void fan(int[] idx, int from, int n, Indices out) {
        for (int k = 1; k + 1 < n; k++) {
            out.add(idx[from]);
            out.add(idx[from + k]);
            out.add(idx[from + k + 1]);
        }
    }

    private XmlElement single(XmlElement e, List<XmlElement> ps) throws MeshFileException {
        if (ps.size() != 1) {
            throw error(e, "<" + e.name() + "> needs one <p>, has " + ps.size());
        }
        return ps.get(0);
    }

    /** The position index of each vertex of a {@code <p>} with {@code stride} indices per vertex. */
    private int[] vertexIndices(XmlElement p, int stride, int vertexOffset, int positions) throws MeshFileException {
        int[] all = ints(p);
        if (stride == 0 || all.length % stride != 0) {
            throw error(p, "<p> holds " + all.length + " indices, not a multiple of the " + stride
                    + " inputs per vertex");
        }
        int[] out = new int[all.length / stride];
        for (int i = 0; i < out.length; i++) {
            int index = all[i * stride + vertexOffset];
            if (index < 0 || index >= positions) {
                throw error(p, "vertex index " + index + " out of range (" + positions + " positions)");
            }
            out[i] = index;
        }
        return out;
    }

    /** The element named by a {@code #id} reference of the same file. */
    private XmlElement reference(XmlElement e, String attribute, String what) throws MeshFileException {
        String url = e.attribute(attribute);
        if (url == null || url.isBlank()) {
            throw error(e, "<" + e.name() + "> has no '" + attribute + "'");
        }
        if (!url.startsWith("#")) {
            throw error(e, "<" + e.name() + " " + attribute + "=\"" + Messages.cut(url) + "\">: only references"
                    + " within the file (#id) are read");
        }
        XmlElement target = byId.get(url.substring(1));
        if (target == null || !target.name().equals(what)) {
            throw error(e, "<" + e.name() + " " + attribute + "=\"" + Messages.cut(url) + "\">: no <" + what
                    + "> with that id");
        }
        return target;
    }

    private static double[] multiply(double[] a, double[] b) {
        double[] c = new double[16];
        for (int i = 0; i < 4; i++) {
            for (int j = 0; j < 4; j++) {
                double s = 0;
                for (int k = 0; k < 4; k++) {
                    s += a[4 * i + k] * b[4 * k + j];
                }
                c[4 * i + j] = s;
            }
        }
        return c;
    }

    /** Rodrigues' rotation by angle (degrees) about the unit axis. */
    private double[] rotation(XmlElement e, double[] r) throws MeshFileException {
        double n = Math.sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
        if (n == 0) {
            if (r[3] == 0) {
                return IDENTITY;
            }
            throw error(e, "rotate about a zero axis");
        }
        double x = r[0] / n, y = r[1] / n, z = r[2] / n;
        double a = Math.toRadians(r[3]), c = StrictMath.cos(a), s = StrictMath.sin(a), t = 1 - c;
        return new double[] {
            t * x * x + c, t * x * y - s * z, t * x * z + s * y, 0,
            t * x * y + s * z, t * y * y + c, t * y * z - s * x, 0,
            t * x * z - s * y, t * y * z + s * x, t * z * z + c, 0,
            0, 0, 0, 1};
    }

    private double[] numbers(XmlElement e, int n, String what) throws MeshFileException {
        double[] v = floats(e);
        if (v.length != n) {
            throw error(e, "<" + what + "> needs " + n + " numbers, has " + v.length);
        }
        return v;
    }

    private double[] floats(XmlElement e) throws MeshFileException {
        List<String> tokens = tokens(e.text());
        double[] out = new double[tokens.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = number(e, tokens.get(i), "<" + e.name() + "> number " + i);
        }
        return out;
    }

    private int[] ints(XmlElement e) throws MeshFileException {
        List<String> tokens = tokens(e.text());
        int[] out = new int[tokens.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = integer(e, tokens.get(i), "<" + e.name() + "> entry " + i);
        }
        return out;
    }

    private static List<String> tokens(String text) {
        List<String> out = new ArrayList<>();
        int n = text.length();
        int i = 0;
        while (i < n) {
            while (i < n && Character.isWhitespace(text.charAt(i))) {
                i++;
            }
            int start = i;
            while (i < n && !Character.isWhitespace(text.charAt(i))) {
                i++;
            }
            if (i > start) {
                out.add(text.substring(start, i));
            }
        }
        return out;
    }

    private double number(XmlElement e, String token, String what) throws MeshFileException {
        double x;
        try {
            x = Double.parseDouble(token);
        } catch (NumberFormatException | NullPointerException ex) {
            throw error(e, what + " '" + Messages.cut(String.valueOf(token)) + "' is not a number");
        }
        if (!Double.isFinite(x)) {
            throw error(e, what + " is " + Messages.cut(token));
        }
        return x;
    }

    private int integer(XmlElement e, String token, String what) throws MeshFileException {
        try {
            int i = Integer.parseInt(String.valueOf(token).trim());
            if (i < 0) {
                throw error(e, what + " " + i + " is negative");
            }
            return i;
        } catch (NumberFormatException ex) {
            throw error(e, what + " '" + Messages.cut(String.valueOf(token)) + "' is not a non-negative integer");
        }
    }

    private static XmlElement child(XmlElement e, String name) {
        for (XmlElement c : e.children()) {
            if (c.name().equals(name)) {
                return c;
            }
        }
        return null;
    }

    private static List<XmlElement> children(XmlElement e, String name) {
        List<XmlElement> out = new ArrayList<>();
        for (XmlElement c : e.children()) {
            if (c.name().equals(name)) {
                out.add(c);
            }
        }
        return out;
    }

    private MeshFileException error(XmlElement e, String message) {
        return new MeshFileException(file + ":" + e.line() + ": " + message);
    }
}
