package org.symdyn.cli;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.symdyn.geometry.Box;
import org.symdyn.geometry.Capsule;
import org.symdyn.geometry.ConvexHull;
import org.symdyn.geometry.Cylinder;
import org.symdyn.geometry.HalfSpace;
import org.symdyn.geometry.Shape;
import org.symdyn.geometry.Sphere;
import org.symdyn.geometry.TriangleMesh;
import org.symdyn.model.CollisionShapeModel;
import org.symdyn.model.Frame;
import org.symdyn.model.LidarModel;
import org.symdyn.model.Model;
import org.symdyn.model.VisualShapeModel;
import org.symdyn.spatial.Pose;

/**
 * The shapes and Lidars of a model as the page of {@code symdyn view} draws them: records in the page's data, each
 * placed in one of the model's frames (the frame named as its body, or the root frame for a shape fixed in the
 * world), so that the page moves it with that frame's recorded world pose and computes no kinematics.
 *
 * <p>A shape record: {@code {"frame": f, "link": name, "collision": bool, "m": [R (9, row-major), p (3)],
 * "rgba": [r, g, b, a] or null, "kind": ...}} with {@code m} the shape's frame S in frame f (f ← S: x_f = R x_S + p,
 * metres) and, by kind: {@code "sphere"} {@code "radius"}; {@code "capsule"} {@code "radius"} and {@code "length"}
 * (the cylindrical part, along z; the whole spans length + 2 radius); {@code "box"} {@code "half"} (half extents);
 * {@code "cylinder"} {@code "radius"} and {@code "length"} (full, along z); {@code "halfspace"} {@code "normal"}
 * and {@code "offset"} (the solid n · x ≤ c of S); {@code "mesh"} (a triangle mesh, or a convex hull by its faces)
 * {@code "mesh": k}, an index into the page's mesh table. A mesh record: {@code {"vertices"} (x, y, z per vertex)
 * as {@linkplain #float32 Float32 base64}, {@code "triangles"} (three vertex indices each) as
 * {@linkplain #uint32 Uint32 base64}}; meshes of equal vertices and triangles (a foot used on four legs) are
 * written once. Nothing is simplified: every vertex and triangle of the model's shape is written, with a float's
 * precision.
 *
 * <p>A Lidar record: {@code {"name", "frame": f, "m": f ← L as above, "rays": Float32 base64 of the unit direction
 * (3 per ray, frame L, ray index row × samples + k as {@link LidarModel} orders them), "rangeMax",
 * "ranges": Float32 base64 of the readings (rays per recorded time, metres) or null when the trajectory has none}}.
 */
final class SceneRecords {
    private SceneRecords() {
    }

    /** How many shapes of each list the page gets: for the line that {@code symdyn view} prints. */
    record Counts(int visual, int collision, int meshTriangles, int lidars) {
    }

    /** The counts of what {@link #shapes} and {@link #lidars} write for {@code model}. */
    static Counts counts(Model model, Map<String, double[][]> lidarRanges) {
        int triangles = 0;
        for (VisualShapeModel v : model.scene().visualShapes()) {
            triangles += triangleCount(v.shape());
        }
        for (CollisionShapeModel c : model.scene().collisionShapes()) {
            triangles += triangleCount(c.shape());
        }
        int withReadings = 0;
        for (LidarModel l : model.scene().lidars()) {
            withReadings += lidarRanges.containsKey(l.name()) ? 1 : 0;
        }
        return new Counts(model.scene().visualShapes().size(), model.scene().collisionShapes().size(), triangles,
                withReadings);
    }

    private static int triangleCount(Shape shape) {
        if (shape instanceof TriangleMesh mesh) {
            return mesh.triangleCount();
        }
        return shape instanceof ConvexHull hull ? hull.faceCount() : 0;
    }

    /** The frame index a body's shapes are placed in: the frame named as the body, the root frame for −1. */
    static int[] bodyFrames(Model model) {
        List<Frame> frames = model.frames();
        int[] bodyFrame = new int[model.bodyCount() + 1];
        java.util.Arrays.fill(bodyFrame, -1);
        for (int f = 0; f < frames.size(); f++) {
            Frame frame = frames.get(f);
            int b = frame.bodyIndex();
            String own = b < 0 ? model.rootName() : model.body(b).name();
            if (frame.name().equals(own)) {
                bodyFrame[b + 1] = f;
            }
        }
        return bodyFrame;
    }

    /**
     * The visual shapes, then the collision shapes, as a JSON array of shape records into {@code sb}, their meshes
     * into {@code meshes} as a JSON array of mesh records.
     */
    static void shapes(StringBuilder sb, StringBuilder meshes, Model model) {
        int[] bodyFrame = bodyFrames(model);
        Map<String, Integer> table = new java.util.LinkedHashMap<>();
        sb.append('[');
        boolean first = true;
        for (VisualShapeModel v : model.scene().visualShapes()) {
            first = shape(sb, table, first, model, bodyFrame, v.body(), v.link(), false, v.pose(), v.shape(),
                    v.rgba());
        }
        for (CollisionShapeModel c : model.scene().collisionShapes()) {
            first = shape(sb, table, first, model, bodyFrame, c.body(), c.link(), true, c.pose(), c.shape(), null);
        }
        sb.append(']');
        meshes.append('[');
        int k = 0;
        for (String mesh : table.keySet()) {
            meshes.append(k++ == 0 ? "\n" : ",\n").append(mesh);
        }
        meshes.append(']');
    }

    private static boolean shape(StringBuilder sb, Map<String, Integer> meshes, boolean first, Model model,
            int[] bodyFrame, int body, String link, boolean collision, Pose inBody, Shape shape, double[] rgba) {
        int f = bodyFrame[body + 1];
        sb.append(first ? "\n" : ",\n").append("{\"frame\": ").append(f).append(", \"link\": ")
                .append(MotionPage.jsString(link)).append(", \"collision\": ").append(collision).append(", \"m\": ");
        placement(sb, inFrame(model, f, inBody));
        sb.append(", \"rgba\": ");
        if (rgba == null) {
            sb.append("null");
        } else {
            MotionPage.numbers(sb, rgba);
        }
        if (shape instanceof Sphere s) {
            sb.append(", \"kind\": \"sphere\", \"radius\": ").append(MotionPage.number(s.radius()));
        } else if (shape instanceof Capsule c) {
            alongZ(sb, "capsule", c.radius(), c.length());
        } else if (shape instanceof Box b) {
            sb.append(", \"kind\": \"box\", \"half\": ");
            MotionPage.numbers(sb, new double[] {b.halfExtent(0), b.halfExtent(1), b.halfExtent(2)});
        } else if (shape instanceof Cylinder c) {
            alongZ(sb, "cylinder", c.radius(), c.length());
        } else if (shape instanceof HalfSpace h) {
            sb.append(", \"kind\": \"halfspace\", \"normal\": ");
            MotionPage.numbers(sb, new double[] {h.normal(0), h.normal(1), h.normal(2)});
            sb.append(", \"offset\": ").append(MotionPage.number(h.offset()));
        } else if (shape instanceof ConvexHull h) {
            mesh(sb, meshes, h.vertexCount(), h::vertex, h.faceCount(), h::faceVertex);
        } else if (shape instanceof TriangleMesh m) {
            mesh(sb, meshes, m.vertexCount(), m::vertex, m.triangleCount(), m::triangleVertex);
        } else {
            throw new IllegalArgumentException("no page record for a shape of " + shape.getClass());
        }
        sb.append('}');
        return false;
    }

    /** The fields of a round shape along z: its kind, radius and length (metres). */
    private static void alongZ(StringBuilder sb, String kind, double radius, double length) {
        sb.append(", \"kind\": \"").append(kind).append("\", \"radius\": ").append(MotionPage.number(radius))
                .append(", \"length\": ").append(MotionPage.number(length));
    }

    /** Coordinate k of vertex i (metres). */
    private interface Vertices {
        double coordinate(int i, int k);
    }

    /** Writes a mesh reference, adding the mesh to the table unless an equal one is there. */
    private static void mesh(StringBuilder sb, Map<String, Integer> meshes, int vertexCount, Vertices vertex,
            int triangleCount, java.util.function.IntBinaryOperator corner) {
        double[] vertices = new double[3 * vertexCount];
        for (int i = 0; i < vertices.length; i++) {
            vertices[i] = vertex.coordinate(i / 3, i % 3);
        }
        int[] triangles = new int[3 * triangleCount];
        for (int i = 0; i < triangles.length; i++) {
            triangles[i] = corner.applyAsInt(i / 3, i % 3);
        }
        String record = "{\"vertices\": \"" + float32(vertices) + "\", \"triangles\": \"" + uint32(triangles) + "\"}";
        Integer k = meshes.putIfAbsent(record, meshes.size());
        sb.append(", \"kind\": \"mesh\", \"mesh\": ").append(k == null ? meshes.size() - 1 : k);
    }

    /**
     * The Lidars as a JSON array of Lidar records; {@code ranges} holds the readings of those the trajectory
     * recorded (per recorded time, rayCount numbers).
     */
    static void lidars(StringBuilder sb, Model model, Map<String, double[][]> ranges) {
        int[] bodyFrame = bodyFrames(model);
        sb.append('[');
        List<LidarModel> lidars = model.scene().lidars();
        for (int l = 0; l < lidars.size(); l++) {
            LidarModel lidar = lidars.get(l);
            int f = bodyFrame[lidar.body() + 1];
            sb.append(l == 0 ? "\n" : ",\n").append("{\"name\": ").append(MotionPage.jsString(lidar.name()))
                    .append(", \"frame\": ").append(f).append(", \"m\": ");
            placement(sb, inFrame(model, f, lidar.pose()));
            sb.append(", \"rays\": \"").append(float32(rayDirections(lidar))).append("\", \"rangeMax\": ")
                    .append(MotionPage.number(lidar.rangeMax())).append(", \"ranges\": ");
            double[][] readings = ranges.get(lidar.name());
            if (readings == null) {
                sb.append("null");
            } else {
                int n = lidar.rayCount();
                double[] flat = new double[readings.length * n];
                for (int i = 0; i < readings.length; i++) {
                    System.arraycopy(readings[i], 0, flat, i * n, n);
                }
                sb.append('"').append(float32(flat)).append('"');
            }
            sb.append('}');
        }
        sb.append(']');
    }

    /**
     * The unit direction of every ray in the Lidar's frame L, 3 per ray, ray index row × samples + k:
     * (cos φ_row cos θ_k, cos φ_row sin θ_k, sin φ_row).
     */
    static double[] rayDirections(LidarModel lidar) {
        double[] d = new double[3 * lidar.rayCount()];
        for (int row = 0; row < lidar.rows(); row++) {
            double phi = lidar.elevation(row);
            for (int k = 0; k < lidar.samples(); k++) {
                double theta = lidar.azimuth(k);
                int at = 3 * (row * lidar.samples() + k);
                d[at] = Math.cos(phi) * Math.cos(theta);
                d[at + 1] = Math.cos(phi) * Math.sin(theta);
                d[at + 2] = Math.sin(phi);
            }
        }
        return d;
    }

    /** frame f ← S from body ← S, with frame f's own placement in its body (body ← f). */
    private static Pose inFrame(Model model, int f, Pose inBody) {
        return model.frames().get(f).pose().inverse().compose(inBody);
    }

    private static void placement(StringBuilder sb, Pose pose) {
        double[] m = new double[12];
        System.arraycopy(pose.rotationArray(), 0, m, 0, 9);
        System.arraycopy(pose.translationArray(), 0, m, 9, 3);
        MotionPage.numbers(sb, m);
    }

    /** The values as IEEE 754 single-precision floats, little-endian, in base64 (JavaScript: a Float32Array). */
    static String float32(double[] values) {
        ByteBuffer buffer = ByteBuffer.allocate(4 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        for (double v : values) {
            buffer.putFloat((float) v);
        }
        return Base64.getEncoder().encodeToString(buffer.array());
    }

    /** The values as unsigned 32-bit integers, little-endian, in base64 (JavaScript: a Uint32Array). */
    static String uint32(int[] values) {
        ByteBuffer buffer = ByteBuffer.allocate(4 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        for (int v : values) {
            buffer.putInt(v);
        }
        return Base64.getEncoder().encodeToString(buffer.array());
    }
}
