package org.symdyn.contact;

import java.util.List;
import org.symdyn.contract.Kinematics;
import org.symdyn.geometry.Bounds;
import org.symdyn.geometry.ContactManifold;
import org.symdyn.geometry.HalfSpace;
import org.symdyn.geometry.Narrowphase;
import org.symdyn.geometry.Placement;
import org.symdyn.geometry.Shape;
import org.symdyn.geometry.SweepAndPrune;
import org.symdyn.geometry.TriangleBvh;
import org.symdyn.geometry.TriangleMesh;
import org.symdyn.model.CollisionShapeModel;
import org.symdyn.model.ContactMaterial;
import org.symdyn.model.GroundModel;

/**
 * The contacts between the collision shapes of a {@link ContactSet} at one configuration: which shapes are within a
 * margin of touching, with up to four points per touching pair ({@link ContactManifold}).
 *
 * <p><b>Pipeline.</b> Each moving shape is placed from its body's pose ({@link Kinematics#bodyPose}) composed with
 * its fixed pose in the body; scenery (body −1) is placed once. The broadphase ({@link SweepAndPrune} over world
 * bounding boxes, a body's shapes in one group, the scenery in another) proposes pairs; pairs the set does not allow
 * ({@link ContactSet#mayTouch}) are skipped; the narrowphase ({@link Narrowphase#manifold}) gives each remaining
 * pair its points. Half-spaces (the set's grounds, and half-space shapes of the scenery) are not in the broadphase:
 * every moving shape meets every one. A static triangle mesh meets a moving shape triangle by triangle, each triangle
 * whose bounds overlap the shape's giving its points ({@link Narrowphase#triangleManifold}: the closest pair, an
 * edge's part over a face of the shape or along its round side, or up to four over the triangle's face), kept only
 * when the normal points to the triangle's front (terrain is one-sided); a point that a neighbouring triangle already gave (a shared vertex or edge) is not repeated, and the
 * pair keeps at most {@link #MESH_PAIR_POINTS} of one normal: the deepest and those spanning the largest area. The
 * triangles are taken in increasing index order (the order decides which of two neighbours keeps a shared point),
 * found in the mesh's bounding-volume hierarchy of their world boxes ({@link TriangleMesh#bvh(Placement)}, built once
 * per mesh and placement and kept with the mesh): about log n box tests and a sort of the k triangles found, instead
 * of n box tests, for a mesh of n triangles; the same triangles in the same order as testing every box, so the same
 * contacts bit for bit. The mesh's own bounds for the broadphase are computed once, not from its vertices each step.
 *
 * <p><b>Margin.</b> A pair's points are kept within m + h (s_A + s_B), m the settings' margin and s a bound on the
 * speed of any point of the shape, |v_O| + |ω| (|c| + r) for a body moving with origin velocity v_O and angular
 * velocity ω, c the shape's origin in the body and r its bounding radius: a fast approach is caught in the step
 * that would pass through (the time stepper's offset φ / h lets a gap close within the step, never more).
 *
 * <p><b>Conventions</b> (of {@link ContactManifold}): contact k joins shape A ({@link #shapeA}) and B, normal n from
 * A towards B, witnesses a_k on A and b_k on B (world), signed distance d_k = n · (b_k − a_k) (negative:
 * penetration). Grounds are numbered after the shapes: index {@code shapeCount + g} is ground g, always A. Materials
 * combine by {@link ContactMaterial#combine}.
 *
 * <p>Everything is allocated at construction; {@link #detect} allocates nothing. More contacts than
 * {@link ContactSet#maxShapeContacts()} (or more broadphase pairs than its bound) are dropped and counted
 * ({@link #dropped()}), never silently. Not thread-safe.
 */
public final class ShapeContactDetection {
    private final Kinematics kinematics;
    private final ScenePlacements scene;
    private final int shapeCount;
    private final int bodies;
    private final Shape[] shape;
    private final int[] body;
    private final Placement[] place;
    private final ContactMaterial[] material;
    private final boolean[] touching;
    private final int[] sapShape; // broadphase entry -> shape
    private final TriangleBvh[] meshIndex; // per static mesh shape: its triangles' world boxes
    private final double[][] meshBounds; // per static mesh shape: its world box (Bounds, no margin)
    private final boolean scanMeshes; // true: every triangle's box tested (the tests' reference)
    private final int[] candidates; // triangles of one mesh query
    private final int[] stack; // the hierarchy walk's
    private final int[] planes; // shapes that are half-spaces, then grounds as -1 - g
    private final HalfSpace[] groundShape;
    private final ContactMaterial[] groundMaterial;
    private final Placement identity = new Placement();
    private final SweepAndPrune broadphase;
    private final Bounds bounds = new Bounds();
    private final Narrowphase narrowphase = new Narrowphase();
    private final ContactManifold manifold = new ContactManifold();
    private final double[] box = new double[6];
    private final double[] normalScratch = new double[3];
    private final double[] velocity = new double[6];
    /** A static mesh and a shape keep at most this many contacts of one normal: a quadrilateral, {@link #spread}'s. */
    static final int MESH_PAIR_POINTS = 4;
    /** Depths closer than this (metres) are one depth when a mesh pair's points are chosen ({@link #replaced}). */
    static final double DEPTH_TIE = 1e-9;
    private final double[] quad = new double[3 * MESH_PAIR_POINTS]; // four contact points on B, while they are chosen
    private final int[] group = new int[MESH_PAIR_POINTS]; // a mesh pair's contacts of one normal
    private final double[] bodySpeed; // per body: |v_O|, |ω| (2 each), NaN when not computed this update
    private final double[] speed; // per shape this update

    private final int capacity;
    private int count;
    private int dropped;
    private final int[] shapeA;
    private final int[] shapeB;
    private final int[] slot;
    private final double[] normal;
    private final double[] pointA;
    private final double[] pointB;
    private final double[] gap;
    private final double[] friction;
    private final double[] restitution;
    private final int[] face; // per contact: its manifold's ContactManifold.face()
    private final int[] featureA; // per contact: its manifold's featureA(), featureB() and edges (single points)
    private final int[] featureB;
    private final boolean[] single; // per contact: its manifold holds this one point
    private final double[] edgeA;
    private final double[] edgeB;

    /**
     * @param set        the shapes, grounds and rules
     * @param kinematics any backend's kinematics of the set's model
     */
    public ShapeContactDetection(ContactSet set, Kinematics kinematics) {
        this(set, kinematics, false);
    }

    /** With {@code scanMeshes}, a mesh's triangles are chosen by testing every box (the tests' reference). */
    ShapeContactDetection(ContactSet set, Kinematics kinematics, boolean scanMeshes) {
        this.kinematics = kinematics;
        this.scanMeshes = scanMeshes;
        this.scene = new ScenePlacements(set, kinematics);
        List<CollisionShapeModel> shapes = set.shapes();
        shapeCount = shapes.size();
        bodies = kinematics.bodyNames().size();
        shape = new Shape[shapeCount];
        body = new int[shapeCount];
        place = new Placement[shapeCount];
        material = new ContactMaterial[shapeCount];
        meshIndex = new TriangleBvh[shapeCount];
        meshBounds = new double[shapeCount][];
        int mostTriangles = 0;
        int deepest = 1;
        speed = new double[shapeCount];
        bodySpeed = new double[2 * Math.max(1, bodies)];
        int bounded = 0;
        int halfSpaces = 0;
        for (int i = 0; i < shapeCount; i++) {
            CollisionShapeModel c = shapes.get(i);
            shape[i] = scene.shape(i);
            body[i] = scene.body(i);
            place[i] = scene.placement(i);
            material[i] = c.material();
            if (shape[i] instanceof HalfSpace) {
                if (!c.isStatic()) {
                    throw new IllegalArgumentException("collision shape '" + c.name() + "': a half-space must be"
                            + " fixed in the world");
                }
                halfSpaces++;
            } else {
                bounded++;
            }
            if (shape[i] instanceof TriangleMesh mesh) {
                meshIndex[i] = mesh.bvh(place[i]); // built once per mesh and placement, kept by the mesh
                mostTriangles = Math.max(mostTriangles, mesh.triangleCount());
                deepest = Math.max(deepest, meshIndex[i].stackSize());
                if (body[i] < 0) {
                    meshBounds[i] = new double[6];
                    bounds.of(mesh, place[i], 0, meshBounds[i]);
                }
            }
        }
        candidates = new int[mostTriangles];
        stack = new int[deepest];
        touching = new boolean[shapeCount * shapeCount];
        long allowed = 0;
        for (int i = 0; i < shapeCount; i++) {
            for (int j = 0; j < shapeCount; j++) {
                touching[i * shapeCount + j] = i != j && set.mayTouch(i, j);
                allowed += j > i && touching[i * shapeCount + j] ? 1 : 0;
            }
        }
        sapShape = new int[bounded];
        List<GroundModel> grounds = set.grounds();
        planes = new int[halfSpaces + grounds.size()];
        for (int i = 0, s = 0, h = 0; i < shapeCount; i++) {
            if (shape[i] instanceof HalfSpace) {
                planes[h++] = i;
            } else {
                sapShape[s++] = i;
            }
        }
        groundShape = new HalfSpace[grounds.size()];
        groundMaterial = new ContactMaterial[grounds.size()];
        for (int g = 0; g < grounds.size(); g++) {
            GroundModel gm = grounds.get(g);
            double[] n = gm.normal();
            double[] p = gm.point();
            groundShape[g] = new HalfSpace(n[0], n[1], n[2], n[0] * p[0] + n[1] * p[1] + n[2] * p[2]);
            groundMaterial[g] = new ContactMaterial(gm.friction(), gm.restitution());
            planes[halfSpaces + g] = -1 - g;
        }
        // The broadphase reports every overlapping pair of two groups, the pairs the set excludes (no_contact,
        // adjacent links) among them: its buffer holds all such pairs, so that excluded pairs never fill it and
        // never count as dropped (it held only the allowed pairs' number, and a robot whose links overlap with
        // contact off between them warned of hundreds of dropped contacts).
        int[] perGroup = new int[bodies + 1];
        for (int i = 0; i < shapeCount; i++) {
            if (!(shape[i] instanceof HalfSpace)) {
                perGroup[body[i] >= 0 ? body[i] : bodies]++;
            }
        }
        long crossGroup = (long) bounded * (bounded - 1) / 2;
        for (int n : perGroup) {
            crossGroup -= (long) n * (n - 1) / 2;
        }
        broadphase = new SweepAndPrune(bounded, (int) Math.min(Math.max(allowed, crossGroup), 1 << 16));
        broadphase.setShapeCount(bounded);
        for (int s = 0; s < bounded; s++) {
            int i = sapShape[s];
            broadphase.setGroup(s, body[i] >= 0 ? body[i] : bodies); // the scenery is one group
        }
        capacity = set.maxShapeContacts();
        shapeA = new int[capacity];
        shapeB = new int[capacity];
        slot = new int[capacity];
        normal = new double[3 * capacity];
        pointA = new double[3 * capacity];
        pointB = new double[3 * capacity];
        gap = new double[capacity];
        friction = new double[capacity];
        restitution = new double[capacity];
        face = new int[capacity];
        featureA = new int[capacity];
        featureB = new int[capacity];
        single = new boolean[capacity];
        edgeA = new double[3 * capacity];
        edgeB = new double[3 * capacity];
    }

    /** The shapes' placements at the last {@link #detect}. */
    public ScenePlacements placements() {
        return scene;
    }

    /** The number of collision shapes; grounds are numbered from here. */
    public int shapeCount() {
        return shapeCount;
    }

    /**
     * Finds the contacts at q: those within {@code margin} (m), or, with v given and h &gt; 0, within the margin
     * widened by h times the pair's speed bound (see the class comment).
     *
     * @param v null for a static query
     */
    public void detect(double[] q, double[] v, double h, double margin) {
        count = 0;
        dropped = 0;
        boolean moving = v != null && h > 0;
        java.util.Arrays.fill(bodySpeed, Double.NaN);
        scene.place(q);
        for (int i = 0; i < shapeCount; i++) {
            int b = body[i];
            if (b >= 0 && moving) {
                measureBodySpeed(q, v, b);
                speed[i] = bodySpeed[2 * b] + bodySpeed[2 * b + 1] * scene.reach(i);
            } else {
                speed[i] = 0;
            }
        }
        for (int s = 0; s < sapShape.length; s++) {
            int i = sapShape[s];
            if (meshBounds[i] != null) {
                // the mesh's box moved out by the margin: the same numbers as Bounds (rounding is monotone, so
                // min over vertices of (x − m) is (min over vertices of x) − m), without a pass over the vertices
                double[] mb = meshBounds[i];
                broadphase.setBounds(s, mb[0] - margin, mb[1] - margin, mb[2] - margin, mb[3] + margin,
                        mb[4] + margin, mb[5] + margin);
            } else {
                broadphase.update(s, shape[i], place[i], margin + h * speed[i]);
            }
        }
        broadphase.findPairs();
        if (broadphase.overflowed()) {
            dropped += broadphase.overlappingPairs() - broadphase.pairCount();
        }
        for (int k = 0; k < broadphase.pairCount(); k++) {
            int i = sapShape[broadphase.first(k)];
            int j = sapShape[broadphase.second(k)];
            if (!touching[i * shapeCount + j]) {
                continue;
            }
            double pairMargin = margin + (moving ? h * (speed[i] + speed[j]) : 0);
            if (shape[i] instanceof TriangleMesh) {
                meshContacts(i, j, pairMargin);
            } else if (shape[j] instanceof TriangleMesh) {
                meshContacts(j, i, pairMargin);
            } else {
                int a = body[j] < 0 && body[i] >= 0 ? j : i; // scenery first, so that n points out of it
                int b = a == i ? j : i;
                narrowphase.manifold(shape[a], place[a], shape[b], place[b], pairMargin, manifold);
                addManifold(a, b, material[a], material[b]);
            }
        }
        for (int plane : planes) {
            HalfSpace hs = plane >= 0 ? (HalfSpace) shape[plane] : groundShape[-1 - plane];
            Placement hp = plane >= 0 ? place[plane] : identity;
            ContactMaterial hm = plane >= 0 ? material[plane] : groundMaterial[-1 - plane];
            int id = plane >= 0 ? plane : shapeCount - 1 - plane;
            for (int i = 0; i < shapeCount; i++) {
                if (body[i] < 0 || shape[i] instanceof HalfSpace
                        || (plane >= 0 && !touching[plane * shapeCount + i])) {
                    continue;
                }
                narrowphase.manifold(hs, hp, shape[i], place[i], margin + (moving ? h * speed[i] : 0), manifold);
                addManifold(id, i, hm, material[i]);
            }
        }
    }

    /** Places every moving shape at q, for {@link #pairGap} (as {@link #detect} does first). */
    public void place(double[] q) {
        scene.place(q);
    }

    /**
     * The gap of one pair of shapes at the placements of the last {@link #place} or {@link #detect}: the least signed
     * distance (m) over the points of their manifold within {@code margin}, as {@link #detect} would find them (a mesh
     * triangle by triangle, front faces only), or {@code margin} itself when there are none (the pair is farther apart
     * than the margin). Whether the set lets them touch is not asked. Allocation-free.
     *
     * @param a shape A as {@link #shapeA} numbers it (a ground is shapeCount + g): the scenery's or ground's side when
     *          one side is, as the detection orders a pair
     * @param b shape B, on a moving body
     */
    public double pairGap(int a, int b, double margin) {
        if (b < 0 || b >= shapeCount || a < 0 || a >= shapeCount + groundShape.length) {
            throw new IndexOutOfBoundsException("shapes " + a + " and " + b + " (" + shapeCount + " shapes, "
                    + groundShape.length + " grounds)");
        }
        double least = margin;
        if (a < shapeCount && shape[a] instanceof TriangleMesh m) {
            TriangleBvh index = meshIndex[a];
            bounds.of(shape[b], place[b], margin, box);
            int found = scanMeshes ? index.scanOverlapping(box, candidates) : index.overlapping(box, candidates, stack);
            for (int c = 0; c < found; c++) {
                int t = candidates[c];
                narrowphase.triangleManifold(m, t, place[a], shape[b], place[b], margin, manifold);
                if (manifold.count() > 0 && frontFacing(m, t, place[a])) {
                    least = Math.min(least, leastDistance());
                }
            }
            return least;
        }
        if (a >= shapeCount) {
            narrowphase.manifold(groundShape[a - shapeCount], identity, shape[b], place[b], margin, manifold);
        } else {
            narrowphase.manifold(shape[a], place[a], shape[b], place[b], margin, manifold);
        }
        return manifold.count() == 0 ? least : Math.min(least, leastDistance());
    }

    private double leastDistance() {
        double d = Double.POSITIVE_INFINITY;
        for (int p = 0; p < manifold.count(); p++) {
            d = Math.min(d, manifold.distance(p));
        }
        return d;
    }

    /** Stores |v_O| and |ω| of body b in bodySpeed, computed once per body per update. */
    private void measureBodySpeed(double[] q, double[] v, int b) {
        if (Double.isNaN(bodySpeed[2 * b])) {
            kinematics.bodyVelocity(q, v, b, velocity);
            double w = Math.sqrt(velocity[0] * velocity[0] + velocity[1] * velocity[1] + velocity[2] * velocity[2]);
            double u = Math.sqrt(velocity[3] * velocity[3] + velocity[4] * velocity[4] + velocity[5] * velocity[5]);
            bodySpeed[2 * b] = u;
            bodySpeed[2 * b + 1] = w;
        }
    }

    /**
     * The contacts of static mesh {@code mesh} and shape {@code other}: each candidate triangle's manifold points,
     * repeats left out, at most {@link #MESH_PAIR_POINTS} of one normal (a face of the mesh's, or of its parallel
     * faces) and {@link ContactSet#MESH_PAIR_CONTACTS} in all (then its shallowest gives way to a deeper one).
     * Past four of one normal, a point replaces one of them when the four then spread over a larger area
     * ({@link #spread}), the deepest kept always (as a persistent manifold keeps its points): a box on a fine
     * terrain grid meets a point over every triangle under it, and the first four met (the pair's share of the
     * bound) were interior ones, so the box tipped over its edge and, tilted, fell through. Points of other normals
     * (a bin's floor and wall) do not compete.
     */
    private void meshContacts(int mesh, int other, double pairMargin) {
        TriangleMesh m = (TriangleMesh) shape[mesh];
        TriangleBvh index = meshIndex[mesh];
        bounds.of(shape[other], place[other], pairMargin, box);
        int found = scanMeshes ? index.scanOverlapping(box, candidates) : index.overlapping(box, candidates, stack);
        double mu = ContactMaterial.combinedFriction(material[mesh], material[other]);
        double e = Math.max(material[mesh].restitution(), material[other].restitution());
        int first = count;
        for (int c = 0; c < found; c++) {
            int t = candidates[c];
            narrowphase.triangleManifold(m, t, place[mesh], shape[other], place[other], pairMargin, manifold);
            if (manifold.count() == 0 || !frontFacing(m, t, place[mesh])) {
                continue;
            }
            for (int p = 0; p < manifold.count(); p++) {
                if (repeats(first, p)) {
                    continue;
                }
                int k;
                int inPair = count - first;
                if (sameNormal(first) == MESH_PAIR_POINTS) {
                    k = replaced(p);
                    if (k < 0) {
                        continue;
                    }
                } else if (inPair < ContactSet.MESH_PAIR_CONTACTS && count < capacity) {
                    k = count++;
                } else {
                    // the pair's share or the bound is full: its shallowest point gives way to a deeper one (the
                    // bound's loss counted); a pair may not fill the bound and leave a later one nothing
                    if (inPair < ContactSet.MESH_PAIR_CONTACTS) {
                        dropped++;
                    }
                    k = shallowest(first);
                    if (k < 0 || !(manifold.distance(p) < gap[k] - DEPTH_TIE)) {
                        continue;
                    }
                }
                shapeA[k] = mesh;
                shapeB[k] = other;
                slot[k] = k - first;
                face[k] = manifold.face();
                features(k);
                for (int i = 0; i < 3; i++) {
                    normal[3 * k + i] = manifold.normal(i);
                    pointA[3 * k + i] = manifold.pointA(p, i);
                    pointB[3 * k + i] = manifold.pointB(p, i);
                }
                gap[k] = manifold.distance(p);
                friction[k] = mu;
                restitution[k] = e;
            }
        }
    }

    /** The pair's contact from {@code first} of the largest gap, or -1 when it has none. */
    private int shallowest(int first) {
        int k = -1;
        for (int j = first; j < count; j++) {
            if (k < 0 || gap[j] > gap[k]) {
                k = j;
            }
        }
        return k;
    }

    /**
     * The pair's contacts from {@code first} whose normal is the manifold's (within 1e-9 in cosine) into
     * {@link #group}, up to {@link #MESH_PAIR_POINTS}; their count.
     */
    private int sameNormal(int first) {
        int n = 0;
        for (int k = first; k < count && n < MESH_PAIR_POINTS; k++) {
            double c = normal[3 * k] * manifold.normal(0) + normal[3 * k + 1] * manifold.normal(1)
                    + normal[3 * k + 2] * manifold.normal(2);
            if (c >= 1 - 1e-9) {
                group[n++] = k;
            }
        }
        return n;
    }

    /**
     * Which of the four contacts of {@link #group} manifold point p replaces, or -1 to keep them: the deepest of the
     * five stays when it is deeper than each other by more than {@link #DEPTH_TIE}; of the sets that keep it and p,
     * the one of largest {@link #spread} if it exceeds the kept four's. Points of one depth within the tie (a face
     * resting flat) are all free to go: keeping the first met as "the deepest" kept an interior point of a box
     * resting on a grid instead of its fourth corner.
     */
    private int replaced(int p) {
        double gp = manifold.distance(p);
        double least = gp;
        for (int j = 0; j < MESH_PAIR_POINTS; j++) {
            least = Math.min(least, gap[group[j]]);
        }
        int tied = gp <= least + DEPTH_TIE ? 1 : 0;
        int deepest = tied == 1 ? -2 : -1; // -2: p
        for (int j = 0; j < MESH_PAIR_POINTS; j++) {
            if (gap[group[j]] <= least + DEPTH_TIE) {
                tied++;
                deepest = group[j];
            }
        }
        if (tied > 1) {
            deepest = -1;
        }
        double best = deepest == -2 ? Double.NEGATIVE_INFINITY : spread(-1, p);
        int choice = -1;
        for (int j = 0; j < MESH_PAIR_POINTS; j++) {
            int k = group[j];
            if (k == deepest) {
                continue;
            }
            double s = spread(k, p);
            if (s > best) {
                best = s;
                choice = k;
            }
        }
        return choice;
    }

    /**
     * The area the four contacts of {@link #group} span on B, with contact {@code without} (-1: none) taken by
     * manifold point p, measured without ordering them: the largest |d₁ × d₂|² over the three ways of pairing them
     * into two diagonals d₁, d₂ (four times the squared area of the quadrilateral they are the diagonals of).
     */
    private double spread(int without, int p) {
        for (int j = 0; j < MESH_PAIR_POINTS; j++) {
            int k = group[j];
            for (int i = 0; i < 3; i++) {
                quad[3 * j + i] = k == without ? manifold.pointB(p, i) : pointB[3 * k + i];
            }
        }
        return Math.max(diagonals(0, 1, 2, 3), Math.max(diagonals(0, 2, 1, 3), diagonals(0, 3, 1, 2)));
    }

    /** |(q_a − q_b) × (q_c − q_d)|² over the points of {@link #quad}. */
    private double diagonals(int a, int b, int c, int d) {
        double ux = quad[3 * a] - quad[3 * b], uy = quad[3 * a + 1] - quad[3 * b + 1];
        double uz = quad[3 * a + 2] - quad[3 * b + 2];
        double wx = quad[3 * c] - quad[3 * d], wy = quad[3 * c + 1] - quad[3 * d + 1];
        double wz = quad[3 * c + 2] - quad[3 * d + 2];
        double x = uy * wz - uz * wy, y = uz * wx - ux * wz, z = ux * wy - uy * wx;
        return x * x + y * y + z * z;
    }

    /**
     * True when manifold point p repeats a contact of this pair found since index {@code first}: the same witness
     * on B and normal (within 1e-12 m and 1e-12), as at a vertex or an edge that neighbouring triangles share; one
     * of them is enough (the others would be redundant rows).
     */
    private boolean repeats(int first, int p) {
        for (int k = first; k < count; k++) {
            double dp = 0, dn = 0;
            for (int i = 0; i < 3; i++) {
                dp = Math.max(dp, Math.abs(pointB[3 * k + i] - manifold.pointB(p, i)));
                dn = Math.max(dn, Math.abs(normal[3 * k + i] - manifold.normal(i)));
            }
            if (dp <= 1e-12 && dn <= 1e-12) {
                return true;
            }
        }
        return false;
    }

    /** True when the manifold's normal points to triangle t's front ((v1 − v0) × (v2 − v0), world). */
    private boolean frontFacing(TriangleMesh m, int t, Placement pl) {
        int i0 = m.triangleVertex(t, 0), i1 = m.triangleVertex(t, 1), i2 = m.triangleVertex(t, 2);
        double ax = m.vertex(i1, 0) - m.vertex(i0, 0), ay = m.vertex(i1, 1) - m.vertex(i0, 1);
        double az = m.vertex(i1, 2) - m.vertex(i0, 2);
        double bx = m.vertex(i2, 0) - m.vertex(i0, 0), by = m.vertex(i2, 1) - m.vertex(i0, 1);
        double bz = m.vertex(i2, 2) - m.vertex(i0, 2);
        double[] n = normalScratch;
        n[0] = ay * bz - az * by;
        n[1] = az * bx - ax * bz;
        n[2] = ax * by - ay * bx;
        pl.rotateToWorld(n, n);
        return n[0] * manifold.normal(0) + n[1] * manifold.normal(1) + n[2] * manifold.normal(2) >= 0;
    }

    /** Appends the manifold's points as contacts of shapes a and b (materials combined without allocating). */
    private void addManifold(int a, int b, ContactMaterial ma, ContactMaterial mb) {
        double mu = ContactMaterial.combinedFriction(ma, mb);
        double e = Math.max(ma.restitution(), mb.restitution());
        for (int p = 0; p < manifold.count(); p++) {
            if (count == capacity) {
                dropped++;
                continue;
            }
            int k = count++;
            shapeA[k] = a;
            shapeB[k] = b;
            slot[k] = p;
            face[k] = manifold.face();
            features(k);
            for (int i = 0; i < 3; i++) {
                normal[3 * k + i] = manifold.normal(i);
                pointA[3 * k + i] = manifold.pointA(p, i);
                pointB[3 * k + i] = manifold.pointB(p, i);
            }
            gap[k] = manifold.distance(p);
            friction[k] = mu;
            restitution[k] = e;
        }
    }

    /** Contacts found by the last {@link #detect}. */
    public int count() {
        return count;
    }

    /** Contacts (and broadphase pairs) the last {@link #detect} found beyond the bounds and dropped. */
    public int dropped() {
        return dropped;
    }

    /** Shape A of contact k (an index ≥ {@link #shapeCount()} is ground index − shapeCount). */
    public int shapeA(int k) {
        return shapeA[k];
    }

    /** Shape B of contact k (always a collision shape on a moving body). */
    public int shapeB(int k) {
        return shapeB[k];
    }

    /** The point's index within its pair's manifold (0..3), or the triangle's order for a mesh. */
    public int slot(int k) {
        return slot[k];
    }

    /** The body of shape A of contact k (−1: the world). */
    public int bodyA(int k) {
        return shapeA[k] >= shapeCount ? -1 : body[shapeA[k]];
    }

    /** The body of shape B of contact k. */
    public int bodyB(int k) {
        return body[shapeB[k]];
    }

    /** Copies the manifold's features (single points: a ball against a box) to contact k. */
    private void features(int k) {
        single[k] = manifold.count() == 1;
        int a = manifold.featureA(), b = manifold.featureB();
        featureA[k] = a;
        featureB[k] = b;
        for (int i = 0; a == ContactManifold.EDGE && i < 3; i++) {
            edgeA[3 * k + i] = manifold.edgeA(i);
        }
        for (int i = 0; b == ContactManifold.EDGE && i < 3; i++) {
            edgeB[3 * k + i] = manifold.edgeB(i);
        }
    }

    /**
     * Whether contact k is its manifold's only point: a closest pair, whose normal is the line between the closest
     * points (the points of a manifold of several share one normal, each a little off its own).
     */
    public boolean singlePoint(int k) {
        return single[k];
    }

    /**
     * The feature of shape A's (or B's) witness of contact k: {@link org.symdyn.geometry.ContactManifold#VERTEX}, EDGE,
     * or 0 not known.
     */
    public int feature(int k, boolean sideA) {
        return sideA ? featureA[k] : featureB[k];
    }

    /** Component i of the world direction of that side's edge where {@link #feature} is EDGE. */
    public double edge(int k, boolean sideA, int i) {
        return (sideA ? edgeA : edgeB)[3 * k + i];
    }

    /**
     * Contact k's face side ({@link org.symdyn.geometry.ContactManifold#face}): +1 when its normal is a face normal of
     * A and its point B's feature over that face, −1 the reverse, 0 neither or not known.
     */
    public int face(int k) {
        return face[k];
    }

    /** Component i of contact k's unit normal, from A towards B (world). */
    public double normal(int k, int i) {
        return normal[3 * k + i];
    }

    /** Component i of contact k's witness on A (world, m). */
    public double pointA(int k, int i) {
        return pointA[3 * k + i];
    }

    /** Component i of contact k's witness on B (world, m). */
    public double pointB(int k, int i) {
        return pointB[3 * k + i];
    }

    /** The signed distance of contact k (m; negative: penetration). */
    public double gap(int k) {
        return gap[k];
    }

    /** The combined Coulomb μ of contact k. */
    public double friction(int k) {
        return friction[k];
    }

    /** The combined restitution e of contact k. */
    public double restitution(int k) {
        return restitution[k];
    }

    /** The most contacts one detection keeps. */
    public int capacity() {
        return capacity;
    }
}
