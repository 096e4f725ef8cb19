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
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.symdyn.contact.ContactSettings;
import org.symdyn.geometry.Box;
import org.symdyn.geometry.ContactManifold;
import org.symdyn.geometry.ConvexHull;
import org.symdyn.geometry.DistanceResult;
import org.symdyn.geometry.Narrowphase;
import org.symdyn.geometry.Placement;
import org.symdyn.geometry.RayCast;
import org.symdyn.geometry.RayHit;
import org.symdyn.geometry.Shape;
import org.symdyn.geometry.Sphere;
import org.symdyn.geometry.SweepAndPrune;
import org.symdyn.spatial.Pose;

/**
 * Collision detection (issue 31's speed figures), one query per call through the public entries contact uses
 * ({@link Narrowphase}, {@link RayCast}, {@link SweepAndPrune}), into outputs allocated at set-up:
 * <table>
 * <caption>benchmarks</caption>
 * <tr><th>benchmark</th><th>query</th><th>issue's bar</th></tr>
 * <tr><td>{@code sphereSphere}</td><td>{@link Narrowphase#distance} of spheres of radii 0.1 and 0.15 m (closed
 * form)</td><td>20 ns</td></tr>
 * <tr><td>{@code boxBoxManifold}</td><td>{@link Narrowphase#manifold} of boxes of half extents (0.2, 0.15, 0.1) and
 * (0.25, 0.1, 0.12) m with the contact settings' default margin (1 mm): separating axes, then up to four clipped
 * points</td><td>300 ns</td></tr>
 * <tr><td>{@code hullBox}</td><td>{@link Narrowphase#distance} of a 100-vertex {@link ConvexHull} (points on the
 * ellipsoid of semi-axes 0.15, 0.12, 0.1 m) and the first box: GJK, and EPA when they overlap</td><td>2 µs</td></tr>
 * <tr><td>{@code rayBox}</td><td>{@link RayCast#cast} of one ray (at most 3 m) against the first box</td><td></td></tr>
 * <tr><td>{@code sweepAndPrune}</td><td>one broadphase step over 100 moving cubes (half extent 0.05 m): each cube's
 * bounds from its placement with the 1 mm margin ({@link SweepAndPrune#update}), then
 * {@link SweepAndPrune#findPairs()}</td><td></td></tr>
 * </table>
 *
 * <p>Each pair benchmark cycles through a ring of {@value #RING} poses precomputed from a seeded random generator (seed
 * {@link BenchmarkStates#SEED}), so that branch prediction does not learn one pose. A ring's signed distances, set by
 * moving B along a direction from A's origin until the pair's exact distance meets a drawn gap, are in shuffled order:
 * half penetrating (gap uniform in [−10, −0.1] mm), a quarter touching within the margin ([0, 1] mm) and a quarter
 * separated ([10, 100] mm). A's pose is random (orientation from roll, pitch and yaw uniform in [−π, π], position in a
 * 1 m cube); B is turned at random and moved along a random direction, except, for the boxes, in half of the touching
 * and penetrating poses, where it rests on A's top face (A's axes turned by a yaw within ±0.2 rad, offset up to 5 cm
 * along the face): the box ring's manifolds have 0, 1, 2 and 4 points on 16, 27, 2 and 19 poses. The hull ring takes
 * 8.6 GJK and EPA iterations per pose on average (EPA on its 32 penetrating poses). The ray ring is half hits (from
 * 0.5-1.5 m away towards a random point inside the box) and half misses (random directions that miss). The broadphase
 * ring is {@value #FRAMES} frames of one periodic motion of 100 cubes packed like a pile in a bin (a 5 × 5 × 4 lattice
 * of spacing 0.15 m, random orientations): each cube circles 1 cm about its place and rocks by up to 0.1 rad, so
 * consecutive frames are as near as a simulation's steps, the last frame leads smoothly to the first, and the bounds of
 * turned neighbours overlap: about 230 pairs per frame (2.3 per cube, 5 % of the 4950 pairs). Set-up checks every ring
 * (gaps within 1e-9 m of those drawn, GJK/EPA converged on every pose, a manifold point on every touching and
 * penetrating box pose and none on separated ones, hits and misses as drawn, no broadphase overflow) and prints the
 * mix, the manifolds' sizes, the iterations and the broadphase's pairs per frame.
 *
 * <p>Defaults (1 fork, 5 × 1 s warm-up, 5 × 1 s measurement) keep a run of the five near one minute:
 * {@code java -jar benchmarks/target/benchmarks.jar GeometryBenchmark -prof gc}. Mode: average time, ns per call.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Fork(1)
public class GeometryBenchmark {
    /** Poses per ring (a power of two: the next index is masked). */
    static final int RING = 64;
    /** Frames of the broadphase's periodic motion: one ring. */
    static final int FRAMES = RING;
    /** Cubes of the broadphase scene. */
    static final int CUBES = 100;
    /** The distance of neighbouring cubes' centres in the broadphase scene (metres). */
    static final double SPACING = 0.15;
    /** The longest ray (metres). */
    static final double RAY_LENGTH = 3;

    private final double margin = ContactSettings.defaults().margin();
    private final Narrowphase narrowphase = new Narrowphase();
    private final RayCast rays = new RayCast();
    private final DistanceResult distance = new DistanceResult();
    private final ContactManifold manifold = new ContactManifold();
    private final RayHit hit = new RayHit();

    private final Sphere sphereA = new Sphere(0.1);
    private final Sphere sphereB = new Sphere(0.15);
    private final Box boxA = new Box(0.2, 0.15, 0.1);
    private final Box boxB = new Box(0.25, 0.1, 0.12);
    private final Box cube = new Box(0.05, 0.05, 0.05);
    private ConvexHull hull;

    private final Placement[] sphereAt = new Placement[2 * RING];
    private final Placement[] boxAt = new Placement[2 * RING];
    private final Placement[] hullAt = new Placement[2 * RING];
    private final Placement[] rayBoxAt = new Placement[RING];
    private final double[][] rayOrigin = new double[RING][];
    private final double[][] rayDirection = new double[RING][];
    private final Placement[][] cubeAt = new Placement[FRAMES][CUBES];
    private final SweepAndPrune broadphase = new SweepAndPrune(CUBES, CUBES * (CUBES - 1) / 2);
    private int cursor;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        Random rnd = new Random(BenchmarkStates.SEED);
        hull = ConvexHull.of(ellipsoidPoints(rnd, 100, 0.15, 0.12, 0.1));
        if (hull.vertexCount() != 100) {
            throw new IllegalStateException("the hull has " + hull.vertexCount() + " vertices, not 100");
        }
        double[] gaps = gaps(rnd);
        String spheres = ring(sphereA, sphereB, sphereAt, gaps, false, rnd);
        String boxes = ring(boxA, boxB, boxAt, gaps, true, rnd);
        String hulls = ring(hull, boxA, hullAt, gaps, false, rnd);
        int[] points = new int[ContactManifold.CAPACITY + 1];
        int iterations = 0;
        for (int k = 0; k < RING; k++) {
            points[checkManifold(k, gaps[k])]++;
            narrowphase.distance(hull, hullAt[2 * k], boxA, hullAt[2 * k + 1], distance);
            if (!distance.converged()) {
                throw new IllegalStateException("GJK/EPA did not converge on hull pose " + k + ": " + distance);
            }
            iterations += distance.iterations();
        }
        int hits = rayRing(rnd);
        double pairs = cubeFrames(rnd);
        long idle = BenchmarkStates.awaitIdleJit(DynamicsBenchmark.IDLE_JIT_MILLIS,
                DynamicsBenchmark.MAX_JIT_WAIT_MILLIS);
        System.out.printf("# rings of %d poses (penetrating/touching/separated): spheres %s, boxes %s (manifolds of"
                + " 0/1/2/3/4 points: %s), hull-box %s (GJK+EPA iterations %.1f per pose); rays %d hits, %d misses;"
                + " broadphase %.1f pairs per frame of %d cubes; waited %d ms for an idle JIT%n", RING, spheres, boxes,
                java.util.Arrays.toString(points).replace(", ", "/"), hulls, (double) iterations / RING, hits,
                RING - hits, pairs, CUBES, idle);
    }

    /** The drawn gaps in shuffled order: half penetrating, a quarter touching within the margin, a quarter apart. */
    private double[] gaps(Random rnd) {
        double[] gaps = new double[RING];
        for (int k = 0; k < RING; k++) {
            double u = rnd.nextDouble();
            gaps[k] = k < RING / 2 ? -0.0001 - 0.0099 * u : k < 3 * RING / 4 ? margin * u : 0.01 + 0.09 * u;
        }
        for (int k = RING - 1; k > 0; k--) {
            int j = rnd.nextInt(k + 1);
            double t = gaps[k];
            gaps[k] = gaps[j];
            gaps[j] = t;
        }
        return gaps;
    }

    /**
     * Fills {@code at} with RING pairs (A's placement at 2k, B's at 2k + 1) whose signed distance is gaps[k]; with
     * {@code stack}, half of the touching and penetrating B rest on A's top face. Returns the mix, as "p/t/s".
     */
    private String ring(Shape a, Shape b, Placement[] at, double[] gaps, boolean stack, Random rnd) {
        int[] mix = new int[3];
        for (int k = 0; k < RING; k++) {
            Pose poseA = Pose.fromXyzRpy(uniform(rnd, 0.5), uniform(rnd, Math.PI));
            boolean onTop = stack && gaps[k] <= margin && rnd.nextBoolean();
            double[] offset = onTop ? new double[] {0.05 * (2 * rnd.nextDouble() - 1),
                0.05 * (2 * rnd.nextDouble() - 1), 0} : new double[3];
            double[] along = onTop ? new double[] {0, 0, 1} : unit(rnd);
            double[] rpy = onTop ? new double[] {0, 0, 0.2 * (2 * rnd.nextDouble() - 1)} : uniform(rnd, Math.PI);
            at[2 * k] = Placement.of(poseA);
            at[2 * k + 1] = new Placement();
            // d(s) runs from an overlap at s = 0 (B's origin inside A) to apart beyond the bounding radii.
            double lo = 0;
            double hi = 2;
            for (int step = 0; step < 100; step++) {
                double s = 0.5 * (lo + hi);
                if (gapAt(a, b, at, k, poseA, offset, along, rpy, s) < gaps[k]) {
                    lo = s;
                } else {
                    hi = s;
                }
            }
            double d = gapAt(a, b, at, k, poseA, offset, along, rpy, 0.5 * (lo + hi));
            if (!(Math.abs(d - gaps[k]) <= 1e-9)) {
                throw new IllegalStateException(a + " and " + b + ", pose " + k + ": gap " + d + " instead of "
                        + gaps[k]);
            }
            mix[d < 0 ? 0 : d <= margin ? 1 : 2]++;
        }
        return mix[0] + "/" + mix[1] + "/" + mix[2];
    }

    /** The signed distance of A and B with B's origin at A's point offset + s along (A's frame), turned by rpy. */
    private double gapAt(Shape a, Shape b, Placement[] at, int k, Pose poseA, double[] offset, double[] along,
            double[] rpy, double s) {
        double[] xyz = {offset[0] + s * along[0], offset[1] + s * along[1], offset[2] + s * along[2]};
        at[2 * k + 1].set(poseA.compose(Pose.fromXyzRpy(xyz, rpy)));
        narrowphase.distance(a, at[2 * k], b, at[2 * k + 1], distance);
        return distance.distance();
    }

    /** The box pair's manifold at pose k, checked against its gap; returns its points. */
    private int checkManifold(int k, double gap) {
        narrowphase.manifold(boxA, boxAt[2 * k], boxB, boxAt[2 * k + 1], margin, manifold);
        if ((manifold.count() > 0) != (gap <= margin)) {
            throw new IllegalStateException("box pose " + k + " with gap " + gap + ": " + manifold.count()
                    + " manifold points");
        }
        return manifold.count();
    }

    /** Fills the ray ring (half hits, half misses, in shuffled order); returns the hits. */
    private int rayRing(Random rnd) {
        boolean[] aims = new boolean[RING];
        for (int k = 0; k < RING; k++) {
            aims[k] = k < RING / 2;
        }
        for (int k = RING - 1; k > 0; k--) {
            int j = rnd.nextInt(k + 1);
            boolean t = aims[k];
            aims[k] = aims[j];
            aims[j] = t;
        }
        int hits = 0;
        for (int k = 0; k < RING; k++) {
            Pose pose = Pose.fromXyzRpy(uniform(rnd, 0.5), uniform(rnd, Math.PI));
            rayBoxAt[k] = Placement.of(pose);
            double[] from = unit(rnd);
            double r = 0.5 + rnd.nextDouble();
            double[] origin = new double[3];
            pose.transformPoint(new double[] {r * from[0], r * from[1], r * from[2]}, origin);
            boolean aim = aims[k];
            double[] direction;
            do {
                if (aim) {
                    double[] inside = new double[3];
                    pose.transformPoint(new double[] {boxA.halfExtent(0) * (2 * rnd.nextDouble() - 1),
                        boxA.halfExtent(1) * (2 * rnd.nextDouble() - 1),
                        boxA.halfExtent(2) * (2 * rnd.nextDouble() - 1)}, inside);
                    direction = new double[] {inside[0] - origin[0], inside[1] - origin[1], inside[2] - origin[2]};
                } else {
                    direction = unit(rnd);
                }
            } while (rays.cast(boxA, rayBoxAt[k], origin, direction, RAY_LENGTH, hit) != aim);
            rayOrigin[k] = origin;
            rayDirection[k] = direction;
            hits += aim ? 1 : 0;
        }
        return hits;
    }

    /** Fills the broadphase's frames; returns the mean number of pairs per frame. */
    private double cubeFrames(Random rnd) {
        broadphase.setShapeCount(CUBES);
        double[][] place = new double[CUBES][];
        double[][] attitude = new double[CUBES][];
        double[] phase = new double[CUBES];
        for (int i = 0; i < CUBES; i++) {
            place[i] = new double[] {SPACING * (i % 5), SPACING * (i / 5 % 5), SPACING * (i / 25)};
            attitude[i] = uniform(rnd, Math.PI);
            phase[i] = 2 * Math.PI * rnd.nextDouble();
        }
        long pairs = 0;
        for (int f = 0; f < FRAMES; f++) {
            for (int i = 0; i < CUBES; i++) {
                double angle = 2 * Math.PI * f / FRAMES + phase[i];
                double c = Math.cos(angle), s = Math.sin(angle);
                double[] xyz = {place[i][0] + 0.01 * c, place[i][1] + 0.01 * s, place[i][2] + 0.005 * s};
                double[] rpy = {attitude[i][0] + 0.1 * s, attitude[i][1] + 0.1 * c, attitude[i][2] + 0.1 * s};
                cubeAt[f][i] = Placement.of(Pose.fromXyzRpy(xyz, rpy));
            }
            cursor = f - 1;
            pairs += sweepAndPrune();
            if (broadphase.overflowed()) {
                throw new IllegalStateException("broadphase overflow at frame " + f);
            }
        }
        cursor = 0;
        return (double) pairs / FRAMES;
    }

    private static double[] ellipsoidPoints(Random rnd, int n, double a, double b, double c) {
        double[] p = new double[3 * n];
        for (int i = 0; i < n; i++) {
            double[] u = unit(rnd);
            p[3 * i] = a * u[0];
            p[3 * i + 1] = b * u[1];
            p[3 * i + 2] = c * u[2];
        }
        return p;
    }

    private static double[] unit(Random rnd) {
        double x, y, z, n;
        do {
            x = rnd.nextGaussian();
            y = rnd.nextGaussian();
            z = rnd.nextGaussian();
            n = Math.sqrt(x * x + y * y + z * z);
        } while (n < 1e-6);
        return new double[] {x / n, y / n, z / n};
    }

    private static double[] uniform(Random rnd, double half) {
        return BenchmarkStates.uniform(rnd, 3, half);
    }

    private int next() {
        cursor = (cursor + 1) & (RING - 1);
        return cursor;
    }

    /** Signed distance, normal and witnesses of two spheres. */
    @Benchmark
    public DistanceResult sphereSphere() {
        int k = next();
        narrowphase.distance(sphereA, sphereAt[2 * k], sphereB, sphereAt[2 * k + 1], distance);
        return distance;
    }

    /** The contact manifold of two boxes (up to four points within the margin). */
    @Benchmark
    public ContactManifold boxBoxManifold() {
        int k = next();
        narrowphase.manifold(boxA, boxAt[2 * k], boxB, boxAt[2 * k + 1], margin, manifold);
        return manifold;
    }

    /** Signed distance of the 100-vertex hull and a box by GJK/EPA. */
    @Benchmark
    public DistanceResult hullBox() {
        int k = next();
        narrowphase.distance(hull, hullAt[2 * k], boxA, hullAt[2 * k + 1], distance);
        return distance;
    }

    /** The first hit of a ray on a box. */
    @Benchmark
    public RayHit rayBox() {
        int k = next();
        rays.cast(boxA, rayBoxAt[k], rayOrigin[k], rayDirection[k], RAY_LENGTH, hit);
        return hit;
    }

    /** One broadphase step: the bounds of 100 moving cubes, then their overlapping pairs; returns the pair count. */
    @Benchmark
    public int sweepAndPrune() {
        Placement[] frame = cubeAt[next()];
        for (int i = 0; i < CUBES; i++) {
            broadphase.update(i, cube, frame[i], margin);
        }
        return broadphase.findPairs();
    }
}
