package org.symdyn.benchmarks;

import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.symdyn.contact.ContactSet;
import org.symdyn.contact.ContactSettings;
import org.symdyn.contact.ShapeContactDetection;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.geometry.Bounds;
import org.symdyn.geometry.Box;
import org.symdyn.geometry.Placement;
import org.symdyn.geometry.RayCast;
import org.symdyn.geometry.RayHit;
import org.symdyn.geometry.Shape;
import org.symdyn.geometry.Sphere;
import org.symdyn.geometry.TriangleBvh;
import org.symdyn.geometry.TriangleMesh;
import org.symdyn.model.BodySpec;
import org.symdyn.model.ContactMaterial;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;
import org.symdyn.model.SourceLocation;
import org.symdyn.spatial.Pose;
import org.symdyn.spatial.RigidBodyInertia;

/**
 * Contact with a static triangle mesh through its index ({@link TriangleBvh}, issue 31): a sphere and a box resting
 * on a terrain of about 2,000, 20,000 and 200,000 triangles ({@code triangles}), and a Lidar's rays over it. The
 * terrain is a heightfield on a square grid of 0.1 m cells (n × n cells, 2 n² triangles, n = 32, 100, 316), heights
 * 0.3 sin(0.9 x + φ₁) cos(0.7 y + φ₂) + 0.1 sin(2.3 x + 1.7 y + φ₃) plus a uniform ±2 cm per vertex (seeded), so the
 * cells, and the triangles a shape touches, are the same at every size:
 * <table>
 * <caption>benchmarks</caption>
 * <tr><th>benchmark</th><th>per call</th></tr>
 * <tr><td>{@code sphereOnTerrain}</td><td>{@link ShapeContactDetection#detect} of a sphere (r = 0.1 m) resting on
 * the terrain, 0.1 mm into it, at one of {@value #RING} places (static query, the settings' 1 mm margin): its
 * bounds, the mesh's triangles under them from the index, each triangle's manifold</td></tr>
 * <tr><td>{@code boxOnTerrain}</td><td>the same for a box (half extents 0.1, 0.15, 0.08 m) upright, turned about z
 * at random, its lowest corner or centre 0.1 mm into the terrain</td></tr>
 * <tr><td>{@code lidarRay}</td><td>one {@link RayCast#cast} of a Lidar's ray (at most 10 m) on the mesh, through
 * the mesh's own hierarchy ({@link TriangleMesh#bvh()}): a downward-looking scan of 16 rows from −75° to −30° by 64
 * directions round, from 0.5 m above {@value #RING} places at least 1 m inside the terrain's edge, one ray per call
 * (the rays meet the terrain within about a metre, so that the hits, and the triangles near them, are alike at every
 * size)</td></tr>
 * <tr><td>{@code sphereTrianglesByScan}</td><td>the choice of the sphere's triangles as it was before the index: every
 * triangle's box against the sphere's ({@link TriangleBvh#scanOverlapping}), for comparison</td></tr>
 * </table>
 * Set-up (not timed) builds each mesh's hierarchy, checks that every pose has contacts and that the index and the
 * scan choose the same triangles for each, and prints the contacts, the triangles chosen and the rays' hits. Reads no
 * file. {@code java -jar benchmarks/target/benchmarks.jar MeshContactBenchmark -prof gc}. Mode: average time, ns.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Fork(1)
public class MeshContactBenchmark {
    /** Places per ring (a power of two: the next index is masked). */
    static final int RING = 64;
    /** Cell side of the terrain grid (m). */
    static final double CELL = 0.1;
    /** Lidar rows and directions per row. */
    static final int ROWS = 16, SAMPLES = 64;

    /** Approximate triangle count: the grid's side is n = round(√(triangles / 2)) cells. */
    @Param({"2000", "20000", "200000"})
    public int triangles;

    private final double margin = ContactSettings.defaults().margin();
    private final double[][] sphereQ = new double[RING][];
    private final double[][] boxQ = new double[RING][];
    private final double[][] sphereBox = new double[RING][6];
    private final double[][] rayOrigin = new double[RING][];
    private final double[][] rayDirection = new double[ROWS * SAMPLES][];
    private final RayCast rays = new RayCast();
    private final RayHit hit = new RayHit();
    private final Placement identity = new Placement();
    private TriangleMesh terrain;
    private TriangleBvh index;
    private int[] candidates;
    private ShapeContactDetection sphere;
    private ShapeContactDetection box;
    private int cursor;
    private int rayCursor;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        int n = (int) Math.round(Math.sqrt(triangles / 2.0));
        terrain = heightfield(n, new Random(BenchmarkStates.SEED));
        index = terrain.bvh();
        candidates = new int[terrain.triangleCount()];
        Random rnd = new Random(BenchmarkStates.SEED + 1);
        double side = n * CELL;
        Sphere ball = new Sphere(0.1);
        Box brick = new Box(0.1, 0.15, 0.08);
        sphere = detection(ball);
        box = detection(brick);
        Bounds bounds = new Bounds();
        int sphereContacts = 0, boxContacts = 0;
        long chosen = 0;
        int[] byScan = new int[terrain.triangleCount()];
        int[] stack = new int[index.stackSize()];
        for (int k = 0; k < RING; k++) {
            double x = 0.5 + (side - 1) * rnd.nextDouble(), y = 0.5 + (side - 1) * rnd.nextDouble();
            sphereQ[k] = new double[] {x, y, height(x, y) + 0.1 - 1e-4, 0, 0, 0, 1};
            double yaw = Math.PI * (2 * rnd.nextDouble() - 1);
            double bx = 0.5 + (side - 1) * rnd.nextDouble(), by = 0.5 + (side - 1) * rnd.nextDouble();
            double top = height(bx, by);
            double c = Math.cos(yaw), s = Math.sin(yaw);
            for (int corner = 0; corner < 4; corner++) {
                double u = corner % 2 == 0 ? 0.1 : -0.1, w = corner / 2 == 0 ? 0.15 : -0.15;
                top = Math.max(top, height(bx + c * u - s * w, by + s * u + c * w));
            }
            boxQ[k] = new double[] {bx, by, top + 0.08 - 1e-4, 0, 0, Math.sin(yaw / 2), Math.cos(yaw / 2)};
            sphere.detect(sphereQ[k], null, 0, margin);
            box.detect(boxQ[k], null, 0, margin);
            if (sphere.count() == 0 || box.count() == 0) {
                throw new IllegalStateException("pose " + k + ": " + sphere.count() + " sphere and " + box.count()
                        + " box contacts");
            }
            sphereContacts += sphere.count();
            boxContacts += box.count();
            bounds.of(ball, new Placement().setTranslation(sphereQ[k][0], sphereQ[k][1], sphereQ[k][2]), margin,
                    sphereBox[k]);
            int found = index.overlapping(sphereBox[k], candidates, stack);
            if (found != index.scanOverlapping(sphereBox[k], byScan)
                    || !java.util.Arrays.equals(candidates, 0, found, byScan, 0, found)) {
                throw new IllegalStateException("pose " + k + ": the index and the scan choose different triangles");
            }
            chosen += found;
            double lx = 1 + (side - 2) * rnd.nextDouble(), ly = 1 + (side - 2) * rnd.nextDouble();
            rayOrigin[k] = new double[] {lx, ly, height(lx, ly) + 0.5};
        }
        for (int row = 0; row < ROWS; row++) {
            double phi = Math.toRadians(-75 + 3 * row);
            for (int j = 0; j < SAMPLES; j++) {
                double theta = 2 * Math.PI * j / SAMPLES;
                rayDirection[row * SAMPLES + j] = new double[] {Math.cos(phi) * Math.cos(theta),
                    Math.cos(phi) * Math.sin(theta), Math.sin(phi)};
            }
        }
        int hits = 0;
        for (int r = 0; r < RING * ROWS * SAMPLES; r++) {
            hits += lidarRay() ? 1 : 0;
        }
        long idle = BenchmarkStates.awaitIdleJit(DynamicsBenchmark.IDLE_JIT_MILLIS,
                DynamicsBenchmark.MAX_JIT_WAIT_MILLIS);
        System.out.printf("# terrain of %d triangles (%d x %d cells of %.1f m), hierarchy of %d nodes, depth %d; %.2f"
                + " sphere and %.2f box contacts per pose, %.1f triangles under the sphere's box; Lidar rays %.1f %%"
                + " hits; waited %d ms for an idle JIT%n", terrain.triangleCount(), n, n, CELL, index.nodeCount(),
                index.depth(), (double) sphereContacts / RING, (double) boxContacts / RING, (double) chosen / RING,
                100.0 * hits / (RING * ROWS * SAMPLES), idle);
        cursor = 0;
        rayCursor = 0;
    }

    /** A detection of the terrain and one free body carrying {@code shape}. */
    private ShapeContactDetection detection(Shape shape) {
        Model model;
        try {
            model = Model.builder("terrain_" + shape.getClass().getSimpleName().toLowerCase(java.util.Locale.ROOT))
                    .addCollisionShape("terrain", "world", Pose.IDENTITY, terrain, new ContactMaterial(0.8, 0),
                            SourceLocation.UNKNOWN)
                    .addBody(BodySpec.builder("body", "world", "free", JointType.FLOATING)
                            .inertia(RigidBodyInertia.of(1, new double[3], 0.01, 0, 0, 0.01, 0, 0.01)).build())
                    .addCollisionShape("shape", "body", Pose.IDENTITY, shape, new ContactMaterial(0.8, 0),
                            SourceLocation.UNKNOWN)
                    .build();
        } catch (org.symdyn.model.ModelException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
        return new ShapeContactDetection(ContactSet.of(model), new GenericDynamics(model));
    }

    /** The terrain's height under (x, y) (a ray straight down). */
    private double height(double x, double y) {
        if (!rays.cast(terrain, identity, new double[] {x, y, 10}, new double[] {0, 0, -1}, 20, hit)) {
            throw new IllegalStateException("no terrain under (" + x + ", " + y + ")");
        }
        return hit.point(2);
    }

    /** The terrain of 2 n² triangles (see the class comment). */
    static TriangleMesh heightfield(int n, Random rnd) {
        double p1 = 2 * Math.PI * rnd.nextDouble(), p2 = 2 * Math.PI * rnd.nextDouble();
        double p3 = 2 * Math.PI * rnd.nextDouble();
        double[] v = new double[3 * (n + 1) * (n + 1)];
        for (int i = 0; i <= n; i++) {
            for (int j = 0; j <= n; j++) {
                int k = 3 * (i * (n + 1) + j);
                double x = i * CELL, y = j * CELL;
                v[k] = x;
                v[k + 1] = y;
                v[k + 2] = 0.3 * Math.sin(0.9 * x + p1) * Math.cos(0.7 * y + p2) + 0.1 * Math.sin(2.3 * x + 1.7 * y + p3)
                        + 0.02 * (2 * rnd.nextDouble() - 1);
            }
        }
        int[] t = new int[6 * n * n];
        int m = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                int a = i * (n + 1) + j, b = (i + 1) * (n + 1) + j;
                int[] corners = {a, b, b + 1, a, b + 1, a + 1}; // counter-clockwise seen from above
                System.arraycopy(corners, 0, t, m, 6);
                m += 6;
            }
        }
        return TriangleMesh.of(v, t);
    }

    private int next() {
        cursor = (cursor + 1) & (RING - 1);
        return cursor;
    }

    /** The contacts of the sphere resting on the terrain. */
    @Benchmark
    public int sphereOnTerrain() {
        sphere.detect(sphereQ[next()], null, 0, margin);
        return sphere.count();
    }

    /** The contacts of the box resting on the terrain. */
    @Benchmark
    public int boxOnTerrain() {
        box.detect(boxQ[next()], null, 0, margin);
        return box.count();
    }

    /** One Lidar ray on the terrain. */
    @Benchmark
    public boolean lidarRay() {
        int r = rayCursor;
        rayCursor = (r + 1) & (RING * ROWS * SAMPLES - 1);
        return rays.cast(terrain, identity, rayOrigin[r / (ROWS * SAMPLES)], rayDirection[r % (ROWS * SAMPLES)], 10,
                hit);
    }

    /** The sphere's triangles chosen by testing every triangle's box, as before the index. */
    @Benchmark
    public int sphereTrianglesByScan() {
        return index.scanOverlapping(sphereBox[next()], candidates);
    }
}
