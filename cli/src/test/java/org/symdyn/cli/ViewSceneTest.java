package org.symdyn.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.symdyn.cli.TrajectoryReader.Contact;
import org.symdyn.cli.TrajectoryReader.Trajectory;
import org.symdyn.cli.json.JsonReader;
import org.symdyn.cli.json.JsonValue;
import org.symdyn.cli.json.JsonValue.ArrayValue;
import org.symdyn.cli.json.JsonValue.BooleanValue;
import org.symdyn.cli.json.JsonValue.NumberValue;
import org.symdyn.cli.json.JsonValue.ObjectValue;
import org.symdyn.cli.json.JsonValue.StringValue;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.geometry.Box;
import org.symdyn.geometry.Capsule;
import org.symdyn.geometry.ConvexHull;
import org.symdyn.geometry.Cylinder;
import org.symdyn.geometry.HalfSpace;
import org.symdyn.geometry.Sphere;
import org.symdyn.geometry.TriangleMesh;
import org.symdyn.model.CollisionShapeModel;
import org.symdyn.model.ContactMaterial;
import org.symdyn.model.GroundModel;
import org.symdyn.model.JointType;
import org.symdyn.model.LidarModel;
import org.symdyn.model.Model;
import org.symdyn.model.SourceLocation;
import org.symdyn.spatial.Pose;
import org.symdyn.spatial.RigidBodyInertia;

/**
 * The shapes and Lidars of {@code symdyn view}'s page: the records the page gets for a model built in code (every
 * kind of shape, a mesh and its hull, a Lidar with and one without readings), the packed arrays read back as the
 * page reads them, the contacts' normals, and the inlined three.js.
 */
class ViewSceneTest extends FileWritingTest {
    /** A tetrahedron: the smallest closed mesh. */
    static final double[] TETRA = {0, 0, 0, 0.1, 0, 0, 0, 0.1, 0, 0, 0, 0.1};
    static final int[] TETRA_FACES = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};

    /**
     * A turntable on a revolute joint about z at height 0.5 above a floor, with a red box on its arm (from x = 0.1 to
     * 0.5), a grey sphere, a blue cylinder, a capsule and a tetrahedron mesh (and the same mesh again, green, on
     * the root), collision shapes (a capsule, the mesh:
     * its hull, a half-space under the root) and two Lidars on the arm (5 samples by 2 rows; 3 samples).
     */
    static Model turntable() throws Exception {
        SourceLocation at = SourceLocation.UNKNOWN;
        var b = Model.builder("turntable").addBody("arm", "world", "spin", JointType.REVOLUTE, new double[] {0, 0, 1},
                Pose.translation(0, 0, 0.5), RigidBodyInertia.of(1, new double[3], 0.01, 0, 0, 0.01, 0, 0.01));
        b.addGround(new GroundModel("floor", new double[3], new double[] {0, 0, 1}, 0.5, 0, at));
        b.addVisualShape("arm", Pose.translation(0.3, 0, 0), new Box(0.2, 0.12, 0.08), new double[] {1, 0, 0, 1}, at);
        b.addVisualShape("world", Pose.translation(0, 0, 0.1), new Sphere(0.1), null, at);
        b.addVisualShape("arm", Pose.fromXyzRpy(new double[] {-0.3, 0, 0}, new double[] {0, Math.PI / 2, 0}),
                new Cylinder(0.05, 0.3), new double[] {0.1, 0.2, 0.9, 0.5}, at);
        b.addVisualShape("arm", Pose.translation(0, 0.3, 0), new Capsule(0.04, 0.2), null, at);
        b.addVisualShape("arm", Pose.translation(0, -0.3, 0), TriangleMesh.of(TETRA, TETRA_FACES), null, at);
        b.addVisualShape("world", Pose.translation(0.6, 0, 0), TriangleMesh.of(TETRA, TETRA_FACES),
                new double[] {0.2, 0.8, 0.2, 1}, at);
        b.addCollisionShape("arm_capsule", "arm", Pose.translation(0, 0.3, 0), new Capsule(0.04, 0.2),
                ContactMaterial.DEFAULT, at);
        b.addCollisionShape(null, "arm", Pose.translation(0, -0.3, 0), TriangleMesh.of(TETRA, TETRA_FACES),
                ContactMaterial.DEFAULT, at);
        b.addCollisionShape("ground", "world", Pose.IDENTITY, HalfSpace.zUp(), ContactMaterial.DEFAULT, at);
        b.addLidar(new LidarModel("scanner", "arm", 0, Pose.translation(0, 0, 0.1), 5, -0.5, 0.5, 2, -0.2, 0.1,
                0.05, 4, 0, at));
        b.addLidar(new LidarModel("idle", "arm", 0, Pose.IDENTITY, 3, 0, 1, 1, 0, 0, 0.05, 2, 0, at));
        return b.build();
    }

    /** Three recorded states of the turntable: a contact with a normal, one without, the scanner's ranges. */
    static Trajectory turntableTrajectory() {
        double[] t = {0, 0.5, 1};
        double[][] q = {{0}, {0.5}, {1}};
        List<List<Contact>> contacts = List.of(
                List.of(new Contact("c", "floor", new double[] {0.1, 0.2, 0}, 2, new double[] {0, 0.6, 0.8})),
                List.of(new Contact("c", "floor", new double[] {0.1, 0.2, 0}, 1, null)), List.of());
        double[][] ranges = new double[3][10];
        for (int i = 0; i < 3; i++) {
            for (int k = 0; k < 10; k++) {
                ranges[i][k] = 1 + 0.1 * k + i;
            }
        }
        Map<String, double[][]> lidar = new LinkedHashMap<>();
        lidar.put("scanner", ranges);
        return new Trajectory(t, q, null, contacts, new LinkedHashMap<>(), lidar);
    }

    static String turntablePage() throws Exception {
        Model model = turntable();
        return MotionPage.html(model, new GenericDynamics(model), turntableTrajectory());
    }

    private static double number(JsonValue v) {
        return ((NumberValue) v).value();
    }

    private static String string(JsonValue v) {
        return ((StringValue) v).value();
    }

    /** A Float32 base64 array as the page reads it. */
    static float[] float32(String base64) {
        ByteBuffer b = ByteBuffer.wrap(Base64.getDecoder().decode(base64)).order(ByteOrder.LITTLE_ENDIAN);
        float[] f = new float[b.remaining() / 4];
        b.asFloatBuffer().get(f);
        return f;
    }

    /** A Uint32 base64 array as the page reads it. */
    static int[] uint32(String base64) {
        ByteBuffer b = ByteBuffer.wrap(Base64.getDecoder().decode(base64)).order(ByteOrder.LITTLE_ENDIAN);
        int[] i = new int[b.remaining() / 4];
        b.asIntBuffer().get(i);
        return i;
    }

    @Test
    void packedArraysReadBackExactly() {
        double[] values = {0, -1.5, 3.25e-7, 1e30, Math.PI, -0.0};
        float[] back = float32(SceneRecords.float32(values));
        assertEquals(values.length, back.length);
        for (int i = 0; i < values.length; i++) {
            assertEquals((float) values[i], back[i], 0f, "value " + i);
        }
        int[] indices = {0, 1, 65535, 65536, Integer.MAX_VALUE};
        assertArrayEquals(indices, uint32(SceneRecords.uint32(indices)));
        assertEquals("", SceneRecords.float32(new double[0]));
        // little-endian: 1.0f is 00 00 80 3f
        assertArrayEquals(new byte[] {0, 0, (byte) 0x80, 0x3f},
                Base64.getDecoder().decode(SceneRecords.float32(new double[] {1})));
    }

    @Test
    void everyShapeIsARecordInTheFrameOfItsBody() throws Exception {
        Model model = turntable();
        ObjectValue data = ViewCommandTest.data(turntablePage());
        List<String> frames = ((ArrayValue) data.get("frames")).elements().stream()
                .map(f -> string(((ObjectValue) f).get("name"))).toList();
        int arm = frames.indexOf("arm");
        int world = frames.indexOf("world");
        assertTrue(arm >= 0 && world >= 0, frames.toString());

        List<JsonValue> shapes = ((ArrayValue) data.get("shapes")).elements();
        assertEquals(6 + 3, shapes.size(), "6 visual and 3 collision shapes");
        List<String> kinds = shapes.stream().map(s -> string(((ObjectValue) s).get("kind"))).toList();
        assertEquals(List.of("box", "sphere", "cylinder", "capsule", "mesh", "mesh", "capsule", "mesh", "halfspace"),
                kinds);
        List<Boolean> collision = shapes.stream()
                .map(s -> ((BooleanValue) ((ObjectValue) s).get("collision")).value()).toList();
        assertEquals(List.of(false, false, false, false, false, false, true, true, true), collision);
        List<Double> frameOf = shapes.stream().map(s -> number(((ObjectValue) s).get("frame"))).toList();
        assertEquals(List.of((double) arm, (double) world, (double) arm, (double) arm, (double) arm, (double) world,
                (double) arm, (double) arm, (double) world), frameOf);

        ObjectValue box = (ObjectValue) shapes.get(0);
        assertArrayEquals(new double[] {0.2, 0.12, 0.08}, SimulateCommandTest.numbers(box.get("half")), 1e-7);
        assertArrayEquals(new double[] {1, 0, 0, 0, 1, 0, 0, 0, 1, 0.3, 0, 0},
                SimulateCommandTest.numbers(box.get("m")), 1e-7, "frame arm <- box");
        assertArrayEquals(new double[] {1, 0, 0, 1}, SimulateCommandTest.numbers(box.get("rgba")));
        assertEquals("arm", string(box.get("link")));
        ObjectValue sphere = (ObjectValue) shapes.get(1);
        assertEquals(JsonValue.NullValue.class, sphere.get("rgba").getClass(), "no colour given: null");
        assertEquals(0.1, number(sphere.get("radius")), 1e-7);
        ObjectValue cylinder = (ObjectValue) shapes.get(2);
        assertEquals(0.3, number(cylinder.get("length")), 1e-7);
        double[] m = SimulateCommandTest.numbers(cylinder.get("m"));
        // pitched by pi/2: its z axis (third column) along the arm's x
        assertArrayEquals(new double[] {1, 0, 0}, new double[] {m[2], m[5], m[8]}, 1e-7);
        assertArrayEquals(new double[] {0.1, 0.2, 0.9, 0.5}, SimulateCommandTest.numbers(cylinder.get("rgba")),
                1e-7);
        ObjectValue capsule = (ObjectValue) shapes.get(3);
        assertEquals(0.04, number(capsule.get("radius")), 1e-7);
        assertEquals(0.2, number(capsule.get("length")), 1e-7, "the cylindrical part");
        ObjectValue halfSpace = (ObjectValue) shapes.get(8);
        assertArrayEquals(new double[] {0, 0, 1}, SimulateCommandTest.numbers(halfSpace.get("normal")));
        assertEquals(0, number(halfSpace.get("offset")));

        // the mesh whole, and the collision hull by its faces, each once in the mesh table
        List<JsonValue> meshes = ((ArrayValue) data.get("meshes")).elements();
        assertEquals(2, meshes.size(), "the tetrahedron once, though two shapes use it; its hull");
        assertEquals(0, number(((ObjectValue) shapes.get(4)).get("mesh")));
        assertEquals(0, number(((ObjectValue) shapes.get(5)).get("mesh")));
        assertEquals(1, number(((ObjectValue) shapes.get(7)).get("mesh")));
        ObjectValue mesh = (ObjectValue) meshes.get(0);
        float[] vertices = float32(string(mesh.get("vertices")));
        assertEquals(TETRA.length, vertices.length);
        for (int i = 0; i < TETRA.length; i++) {
            assertEquals((float) TETRA[i], vertices[i], 0f);
        }
        assertArrayEquals(TETRA_FACES, uint32(string(mesh.get("triangles"))));
        CollisionShapeModel hullModel = model.scene().collisionShapes().get(1);
        ConvexHull hull = (ConvexHull) hullModel.shape();
        ObjectValue hullRecord = (ObjectValue) meshes.get(1);
        float[] hullVertices = float32(string(hullRecord.get("vertices")));
        int[] hullFaces = uint32(string(hullRecord.get("triangles")));
        assertEquals(3 * hull.vertexCount(), hullVertices.length);
        assertEquals(3 * hull.faceCount(), hullFaces.length);
        for (int f = 0; f < hull.faceCount(); f++) {
            for (int k = 0; k < 3; k++) {
                assertEquals(hull.faceVertex(f, k), hullFaces[3 * f + k]);
                for (int j = 0; j < 3; j++) {
                    assertEquals((float) hull.vertex(hull.faceVertex(f, k), j),
                            hullVertices[3 * hullFaces[3 * f + k] + j], 0f);
                }
            }
        }
        SceneRecords.Counts counts = SceneRecords.counts(model, turntableTrajectory().lidarRanges());
        assertEquals(new SceneRecords.Counts(6, 3, 2 * TETRA_FACES.length / 3 + hull.faceCount(), 1), counts);
    }

    @Test
    void lidarRaysAndRangesAreRecordedRowByRow() throws Exception {
        Model model = turntable();
        ObjectValue data = ViewCommandTest.data(turntablePage());
        List<JsonValue> lidars = ((ArrayValue) data.get("lidars")).elements();
        assertEquals(2, lidars.size());
        ObjectValue scanner = (ObjectValue) lidars.get(0);
        assertEquals("scanner", string(scanner.get("name")));
        assertArrayEquals(new double[] {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0.1},
                SimulateCommandTest.numbers(scanner.get("m")), 1e-7, "frame arm <- L");
        assertEquals(4, number(scanner.get("rangeMax")));
        float[] rays = float32(string(scanner.get("rays")));
        LidarModel lidar = model.scene().lidars().get(0);
        assertEquals(3 * 10, rays.length);
        for (int row = 0; row < 2; row++) {
            double phi = row == 0 ? -0.2 : 0.1;
            for (int k = 0; k < 5; k++) {
                double theta = -0.5 + 0.25 * k;
                int ray = row * 5 + k;
                assertEquals(Math.cos(phi) * Math.cos(theta), rays[3 * ray], 1e-6, "ray " + ray);
                assertEquals(Math.cos(phi) * Math.sin(theta), rays[3 * ray + 1], 1e-6, "ray " + ray);
                assertEquals(Math.sin(phi), rays[3 * ray + 2], 1e-6, "ray " + ray);
                assertEquals(lidar.azimuth(k), theta, 1e-12);
            }
        }
        float[] ranges = float32(string(scanner.get("ranges")));
        assertEquals(3 * 10, ranges.length);
        for (int i = 0; i < 3; i++) {
            for (int k = 0; k < 10; k++) {
                assertEquals((float) (1 + 0.1 * k + i), ranges[10 * i + k], 0f);
            }
        }
        assertEquals(JsonValue.NullValue.class, ((ObjectValue) lidars.get(1)).get("ranges").getClass(),
                "no readings recorded: no rays");
    }

    @Test
    void contactsCarryTheirNormalWhenGiven() throws Exception {
        ObjectValue data = ViewCommandTest.data(turntablePage());
        ArrayValue contacts = (ArrayValue) data.get("contacts");
        assertArrayEquals(new double[] {0.1, 0.2, 0, 2, 0, 0, 0.6, 0.8},
                SimulateCommandTest.numbers(((ArrayValue) contacts.get(0)).get(0)), 1e-7);
        assertArrayEquals(new double[] {0.1, 0.2, 0, 1, 0},
                SimulateCommandTest.numbers(((ArrayValue) contacts.get(1)).get(0)), 1e-7);
        assertEquals(0, ((ArrayValue) contacts.get(2)).size());
    }

    /** The reader keeps a Lidar's readings apart from the plot's signals, and checks their count against the rays. */
    @Test
    void theReaderTakesLidarReadingsAndContactNormals() throws Exception {
        Model model = turntable();
        StringBuilder scan = new StringBuilder();
        for (int k = 0; k < 10; k++) {
            scan.append(k == 0 ? "" : ", ").append(1 + k);
        }
        Path file = write("scan.json", "{\"t\": [0, 1], \"q\": [[0], [0.1]],"
                + " \"contacts\": [[{\"position\": [1, 2, 3], \"normal_impulse\": 0.5, \"normal\": [0, 0, 1]}], []],"
                + " \"sensors\": {\"scanner\": [[" + scan + "], [" + scan + "]], \"imu\": [[1, 2], [3, 4]]}}");
        Trajectory t = TrajectoryReader.read(file, model);
        assertEquals(List.of("scanner"), List.copyOf(t.lidarRanges().keySet()));
        assertArrayEquals(new double[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, t.lidarRanges().get("scanner")[1]);
        assertEquals(List.of("imu[0]", "imu[1]"), List.copyOf(t.sensorSignals().keySet()), "no Lidar channel plotted");
        assertArrayEquals(new double[] {0, 0, 1}, t.contacts().get(0).get(0).normal());
        assertNull(TrajectoryReader.read(write("plain.json", "{\"t\": [0], \"q\": [[0]], \"contacts\": [[{\"position\":"
                + " [1, 2, 3], \"normal_impulse\": 0.5}]]}"), model).contacts().get(0).get(0).normal());

        Path bad = write("bad.json", "{\"t\": [0], \"q\": [[0]], \"sensors\": {\"scanner\": [[1, 2, 3]]}}");
        CliException e = org.junit.jupiter.api.Assertions.assertThrows(CliException.class,
                () -> TrajectoryReader.read(bad, model));
        assertEquals(bad + ":[1,48] sensors.scanner[0] has 3 numbers, expected one range per ray of lidar scanner"
                + " (2 rows × 5 samples = 10)", e.getMessage());
        Path badNormal = write("badn.json", "{\"t\": [0], \"q\": [[0]], \"contacts\": [[{\"position\": [1, 2, 3],"
                + " \"normal_impulse\": 0.5, \"normal\": [0, 1]}]]}");
        e = org.junit.jupiter.api.Assertions.assertThrows(CliException.class,
                () -> TrajectoryReader.read(badNormal, model));
        assertEquals(badNormal + ":[1,95] contacts[0][0].normal has 2 numbers, expected 3 (x, y, z)", e.getMessage());
    }

    /** three.js is in the page whole: the two files of its module build, as the WebJar ships them. */
    @Test
    void thePageCarriesThreeJsAndItsLicence() throws Exception {
        String page = turntablePage();
        String start = "var SYMDYN_THREE = ";
        int from = page.indexOf(start) + start.length();
        ObjectValue library = (ObjectValue) JsonReader.parse("<library>", page.substring(from,
                page.indexOf(";\n</script>", from)));
        String version = MotionPage.libraryVersion();
        assertEquals(version, string(library.get("version")));
        String core = gunzip(string(library.get("core")));
        String module = gunzip(string(library.get("module")));
        String jar = "/META-INF/resources/webjars/three/" + version + "/build/";
        try (InputStream c = MotionPage.class.getResourceAsStream("view/three/three.core.min.js");
                InputStream m = MotionPage.class.getResourceAsStream("view/three/three.module.min.js")) {
            assertEquals(new String(c.readAllBytes(), StandardCharsets.UTF_8), core, jar + "three.core.min.js");
            assertEquals(new String(m.readAllBytes(), StandardCharsets.UTF_8), module, jar + "three.module.min.js");
        }
        assertTrue(module.contains(MotionPage.CORE_IMPORT));
        assertTrue(page.contains("Copyright © 2010-2025 three.js authors"), "the MIT notice travels with the copy");
        assertTrue(page.contains("Permission is hereby granted, free of charge"));
        assertFalse(page.contains("SYMDYN_THREE_LICENCE"));
    }

    private static String gunzip(String base64) throws IOException {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(Base64.getDecoder().decode(base64)))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Writes the turntable's page into {@code dir}; for the browser test. */
    static Path turntablePage(Path dir) throws Exception {
        Path page = dir.resolve("turntable.html");
        Files.writeString(page, turntablePage(), StandardCharsets.UTF_8);
        return page;
    }
}
