package org.symdyn.systems;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.symdyn.contact.ContactSet;
import org.symdyn.contact.ScenePlacements;
import org.symdyn.contract.Kinematics;
import org.symdyn.contract.ModelInfo;
import org.symdyn.geometry.ConvexShape;
import org.symdyn.geometry.HalfSpace;
import org.symdyn.geometry.Placement;
import org.symdyn.geometry.RayCast;
import org.symdyn.geometry.RayHit;
import org.symdyn.geometry.TriangleMesh;
import org.symdyn.model.GroundModel;
import org.symdyn.model.LidarModel;

/**
 * A scanning range sensor ({@link LidarModel}: rows of rays in its frame L, mounted on a body): one channel per ray,
 * "name.r0" … in the order ray = row · samples + k, each the distance (m) along the ray from L's origin to the first
 * collision shape or ground of a {@link ContactSet} hit beyond range_min, range_max when nothing is hit. The shapes
 * of the Lidar's own link are not seen. Each ray is cast ({@link RayCast}) from o + range_min d over
 * range_max − range_min against every shape whose bounding sphere it passes (meshes and half-spaces always; a mesh
 * through its bounding-volume hierarchy, built here at construction: about log n node tests per ray rather than n
 * triangles), and the least distance is kept; a ray that starts inside a solid reads range_min. With noise σ &gt; 0, each reading gets
 * σ n (n standard normal, from a generator seeded with the seed: the same sequence on every JVM) and is clamped to
 * [range_min, range_max].
 *
 * <p>Reads the configuration only (poses from {@link Kinematics#bodyPose}), so any backend serves. Allocation-free
 * after construction; not thread-safe.
 */
public final class Lidar extends NamedSensor {
    private final Kinematics kinematics;
    private final LidarModel spec;
    private final ScenePlacements scene;
    private final boolean[] seen;
    private final HalfSpace[] grounds;
    private final Placement world = new Placement();
    private final double[] directions; // 3 per ray, L coordinates
    private final double[] rotation = new double[9];
    private final double[] origin = new double[3];
    private final double[] lr; // body ← L rotation (9), row-major
    private final double[] lp; // body ← L position (3)
    private final double[] o = new double[3];
    private final double[] d = new double[3];
    private final double[] start = new double[3];
    private final RayCast caster = new RayCast();
    private final RayHit hit = new RayHit();
    private final GaussianNoise noise;

    /**
     * @param spec       the Lidar (body and pose resolved, as {@link org.symdyn.model.Model#scene()} gives it)
     * @param set        the scene it sees: its collision shapes and grounds
     * @param kinematics any backend's kinematics of the set's model
     * @param seed       the noise generator's seed
     */
    public Lidar(LidarModel spec, ContactSet set, Kinematics kinematics, long seed) {
        super(Checks.name(spec.name()), channels(spec));
        this.spec = spec;
        this.kinematics = Objects.requireNonNull(kinematics, "kinematics");
        if (!set.modelName().equals(kinematics.modelName())) {
            throw new IllegalArgumentException(spec.name() + ": the contact set is for model " + set.modelName()
                    + ", not " + kinematics.modelName());
        }
        if (spec.body() >= kinematics.bodyNames().size()) {
            throw new IllegalArgumentException(spec.name() + ": body " + spec.body() + " is beyond the "
                    + kinematics.bodyNames().size() + " bodies of " + kinematics.modelName());
        }
        this.scene = new ScenePlacements(set, kinematics);
        seen = new boolean[scene.count()];
        for (int i = 0; i < seen.length; i++) {
            seen[i] = !scene.link(i).equals(spec.link());
            if (seen[i] && scene.shape(i) instanceof TriangleMesh mesh) {
                mesh.bvh(); // built here, at set-up, rather than at the first reading
            }
        }
        grounds = new HalfSpace[set.groundCount()];
        for (int g = 0; g < grounds.length; g++) {
            GroundModel gm = set.grounds().get(g);
            double[] n = gm.normal();
            double[] p = gm.point();
            grounds[g] = new HalfSpace(n[0], n[1], n[2], n[0] * p[0] + n[1] * p[1] + n[2] * p[2]);
        }
        directions = new double[3 * spec.rayCount()];
        for (int r = 0; r < spec.rows(); r++) {
            double phi = spec.elevation(r);
            for (int k = 0; k < spec.samples(); k++) {
                double theta = spec.azimuth(k);
                int o3 = 3 * (r * spec.samples() + k);
                directions[o3] = StrictMath.cos(phi) * StrictMath.cos(theta);
                directions[o3 + 1] = StrictMath.cos(phi) * StrictMath.sin(theta);
                directions[o3 + 2] = StrictMath.sin(phi);
            }
        }
        lr = spec.pose().rotationArray();
        lp = spec.pose().translationArray();
        noise = new GaussianNoise(seed);
    }

    private static List<String> channels(LidarModel spec) {
        List<String> c = new ArrayList<>(spec.rayCount());
        for (int i = 0; i < spec.rayCount(); i++) {
            c.add(spec.name() + ".r" + i);
        }
        return c;
    }

    /** The Lidar as declared. */
    public LidarModel spec() {
        return spec;
    }

    /** Restarts the noise sequence from the seed. */
    public void resetNoise() {
        noise.reset();
    }

    /** Restarts the noise sequence from a new seed. */
    @Override
    public void seed(long seed) {
        noise.reseed(seed);
    }

    @Override
    public void read(double t, double[] q, double[] v, double[] vdot, double[] out) {
        scene.place(q);
        if (spec.body() >= 0) {
            kinematics.bodyPose(q, spec.body(), rotation, origin);
        } else {
            java.util.Arrays.fill(rotation, 0);
            rotation[0] = rotation[4] = rotation[8] = 1;
            java.util.Arrays.fill(origin, 0);
        }
        for (int i = 0; i < 3; i++) {
            o[i] = rotation[3 * i] * lp[0] + rotation[3 * i + 1] * lp[1] + rotation[3 * i + 2] * lp[2] + origin[i];
        }
        double poseSum = o[0] + o[1] + o[2];
        for (double r : rotation) {
            poseSum += r;
        }
        if (!Double.isFinite(poseSum)) {
            // a state that is not finite reads NaN, as the dynamics answer it (the rays would be refused)
            java.util.Arrays.fill(out, 0, spec.rayCount(), Double.NaN);
            return;
        }
        double min = spec.rangeMin(), max = spec.rangeMax();
        for (int ray = 0; ray < spec.rayCount(); ray++) {
            double dx = directions[3 * ray], dy = directions[3 * ray + 1], dz = directions[3 * ray + 2];
            // d_W = R_WB (R_BL d_L)
            double bx = lr[0] * dx + lr[1] * dy + lr[2] * dz;
            double by = lr[3] * dx + lr[4] * dy + lr[5] * dz;
            double bz = lr[6] * dx + lr[7] * dy + lr[8] * dz;
            for (int i = 0; i < 3; i++) {
                d[i] = rotation[3 * i] * bx + rotation[3 * i + 1] * by + rotation[3 * i + 2] * bz;
                start[i] = o[i] + min * d[i];
            }
            double best = max - min;
            for (int s = 0; s < seen.length; s++) {
                if (!seen[s] || !mayHit(s, best)) {
                    continue;
                }
                if (caster.cast(scene.shape(s), scene.placement(s), start, d, best, hit)) {
                    best = Math.min(best, hit.distance());
                }
            }
            for (HalfSpace g : grounds) {
                if (caster.cast(g, world, start, d, best, hit)) {
                    best = Math.min(best, hit.distance());
                }
            }
            double reading = min + best;
            if (spec.noise() > 0) {
                reading = Math.max(min, Math.min(max, reading + spec.noise() * noise.next()));
            }
            out[ray] = reading;
        }
    }

    /** False when the ray from start along d over length passes outside shape s's bounding sphere. */
    private boolean mayHit(int s, double length) {
        if (!(scene.shape(s) instanceof ConvexShape c)) {
            return true;
        }
        Placement p = scene.placement(s);
        double cx = p.translation(0) - start[0], cy = p.translation(1) - start[1], cz = p.translation(2) - start[2];
        double along = Math.max(0, Math.min(length, cx * d[0] + cy * d[1] + cz * d[2]));
        double px = cx - along * d[0], py = cy - along * d[1], pz = cz - along * d[2];
        double r = c.boundingRadius();
        return px * px + py * py + pz * pz <= r * r;
    }

    @Override
    public void checkFits(ModelInfo model) {
        Checks.sameModel(name(), kinematics, model);
    }
}
