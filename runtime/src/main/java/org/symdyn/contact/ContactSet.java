package org.symdyn.contact;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.symdyn.contract.ModelInfo;
import org.symdyn.geometry.Shape;
import org.symdyn.geometry.TriangleMesh;
import org.symdyn.model.CollisionShapeModel;
import org.symdyn.model.ContactCandidateModel;
import org.symdyn.model.ContactMaterial;
import org.symdyn.model.GroundModel;
import org.symdyn.model.Model;
import org.symdyn.model.SourceLocation;
import org.symdyn.spatial.Pose;

/**
 * The unilateral contacts of one model, immutable: the grounds (half-spaces fixed in the world), the candidates
 * (body points and spheres) that may touch them, and the collision shapes of the bodies and of the scenery.
 *
 * <p><b>Candidates.</b> Every candidate may touch every ground: pair p couples candidate {@code p / groundCount()}
 * with ground {@code p % groundCount()}; a pair is a contact when its gap is within the settings' margin
 * ({@link ContactKinematics}).
 *
 * <p><b>Shapes.</b> Collision shapes ({@link CollisionShapeModel}) touch each other where {@link #mayTouch} allows
 * (from a model: {@link Model#mayTouch}), and every moving shape touches every ground. Their contacts are found each
 * step by {@link ShapeContactDetection} (broadphase, then the exact narrowphase of {@link org.symdyn.geometry}), at
 * most {@link #maxShapeContacts()} per step: more are reported as dropped, never silently.
 *
 * <p>From a model file ({@link #of(Model)}: its {@code <symdyn:ground>}, {@code <symdyn:contact_point>},
 * {@code <symdyn:contact_sphere>} and {@code <collision>} elements) or in code ({@link #builder(ModelInfo)}), for
 * example beside a generated class when no model file is read at run time. The set holds no state;
 * {@link ContactKinematics} and {@link TimeStepper} hold the per-state data.
 */
public final class ContactSet {
    private final List<GroundModel> grounds;
    private final List<ContactCandidateModel> candidates;
    private final List<CollisionShapeModel> shapes;
    private final boolean[] touching; // shapes × shapes, row-major
    private final int maxShapeContacts;
    /** The bound asked for (≥ 0), or −1 for the default, which depends on the pairs and the grounds. */
    private final int requestedMaxShapeContacts;
    private final String modelName;
    /**
     * Per body, its mechanism ({@link #withoutOverlapsAt}, {@link #mechanisms}); {@code bodyCount} for the scenery's.
     * A set built in code has no constraints to join bodies: its mechanisms follow the tree alone.
     */
    private final int[] mechanisms;

    /**
     * The default bound on shape contacts per step: four per pair that may touch ({@link #MESH_PAIR_CONTACTS} for a
     * static mesh and a shape), at most this many.
     */
    public static final int DEFAULT_MAX_SHAPE_CONTACTS = 256;
    /**
     * A static mesh and a shape count this many in the default bound: on bumpy terrain every triangle leans its own
     * way, and a 0.2 m box on a grid of 5 cm cells whose every other vertex is raised 0.1 mm rests exactly on 16
     * (it jittered on 4 and 8, dropping points every step).
     */
    public static final int MESH_PAIR_CONTACTS = 16;

    private ContactSet(String modelName, List<GroundModel> grounds, List<ContactCandidateModel> candidates,
            List<CollisionShapeModel> shapes, boolean[] touching, int maxShapeContacts,
            int requestedMaxShapeContacts, int[] mechanisms) {
        this.modelName = modelName;
        this.mechanisms = mechanisms;
        this.grounds = List.copyOf(grounds);
        this.candidates = List.copyOf(candidates);
        this.shapes = List.copyOf(shapes);
        this.touching = touching;
        this.maxShapeContacts = maxShapeContacts;
        this.requestedMaxShapeContacts = requestedMaxShapeContacts;
    }

    /**
     * The grounds, candidates and collision shapes a model file declares (possibly none), with the model's rule for
     * which shapes may touch ({@link Model#mayTouch}) and the default bound on shape contacts.
     */
    public static ContactSet of(Model model) {
        return of(model, -1);
    }

    /**
     * As {@link #of(Model)}, with at most {@code maxShapeContacts} shape contacts per step (≥ 0; −1: the default,
     * four per pair that may touch, {@link #MESH_PAIR_CONTACTS} for a static mesh and a shape, and at most
     * {@link #DEFAULT_MAX_SHAPE_CONTACTS}).
     */
    public static ContactSet of(Model model, int maxShapeContacts) {
        List<CollisionShapeModel> shapes = model.collisionShapes();
        int n = shapes.size();
        boolean[] touching = new boolean[n * n];
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                boolean may = model.mayTouch(shapes.get(i), shapes.get(j));
                touching[i * n + j] = may;
                touching[j * n + i] = may;
            }
        }
        return new ContactSet(model.name(), model.grounds(), model.contactCandidates(), shapes, touching,
                shapeContactBound(shapes, touching, model.grounds().size(), maxShapeContacts), maxShapeContacts,
                mechanisms(model.bodyCount(), b -> model.body(b).parentIndex(),
                        b -> model.body(b).joint().type() == org.symdyn.model.JointType.FLOATING, model.constraints()));
    }

    private static int shapeContactBound(List<CollisionShapeModel> shapes, boolean[] touching, int grounds,
            int requested) {
        if (requested < -1) {
            throw new IllegalArgumentException("the most shape contacts per step must be >= 0 (or -1: default), got "
                    + requested);
        }
        if (requested >= 0) {
            return requested;
        }
        long contacts = 0;
        int n = shapes.size();
        for (int i = 0; i < n; i++) {
            if (!shapes.get(i).isStatic()) {
                contacts += 4L * grounds;
            }
            for (int j = i + 1; j < n; j++) {
                if (touching[i * n + j]) {
                    contacts += shapes.get(i).shape() instanceof TriangleMesh
                            || shapes.get(j).shape() instanceof TriangleMesh ? MESH_PAIR_CONTACTS : 4;
                }
            }
        }
        return (int) Math.min(contacts, DEFAULT_MAX_SHAPE_CONTACTS);
    }

    /** A set made in code for a model (checked against its body count and names). */
    public static Builder builder(ModelInfo model) {
        return new Builder(model);
    }

    /** The model's name, for messages. */
    public String modelName() {
        return modelName;
    }

    public List<GroundModel> grounds() {
        return grounds;
    }

    public List<ContactCandidateModel> candidates() {
        return candidates;
    }

    public int groundCount() {
        return grounds.size();
    }

    public int candidateCount() {
        return candidates.size();
    }

    /** The collision shapes, bodies' and scenery's (body −1). */
    public List<CollisionShapeModel> shapes() {
        return shapes;
    }

    /** The number of collision shapes. */
    public int shapeCount() {
        return shapes.size();
    }

    /** Whether collision shapes i and j may touch (false for i = j). */
    public boolean mayTouch(int i, int j) {
        return touching[i * shapes.size() + j];
    }

    /**
     * This set without the shape pairs of one mechanism that overlap (signed distance &lt; −{@code tolerance} m) at
     * configuration q: the pairs a model's convex hulls of neighbouring links put in contact from the start, which a
     * simulation would otherwise push apart (the idea of the "default" disabled collisions of an SRDF). Two shapes
     * are of one mechanism when the tree's path between their bodies crosses no floating joint (the scenery counts
     * as the root), or the model's loops, couplers or line-on-line rows join them: two links of a robot, a
     * fixed-base arm's link and its base, a tool welded to an arm (a set built in code follows the tree alone). Free
     * bodies, and a free body and the scenery, keep their contact however deep they start (a box started 0.1 mm into
     * a floor box fixed to the world fell through it, and a settled stack resumed from its own state fell apart);
     * static meshes and half-spaces always keep theirs. {@code excluded}, when not null, receives each pair left out,
     * for the caller to report.
     */
    public ContactSet withoutOverlapsAt(org.symdyn.contract.Kinematics kinematics, double[] q, double tolerance,
            List<ShapePair> excluded) {
        int n = shapes.size();
        ScenePlacements scene = new ScenePlacements(this, kinematics);
        scene.place(q);
        org.symdyn.geometry.Narrowphase narrow = new org.symdyn.geometry.Narrowphase();
        org.symdyn.geometry.DistanceResult d = new org.symdyn.geometry.DistanceResult();
        boolean[] kept = touching.clone();
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                if (!touching[i * n + j] || mechanism(shapes.get(i).body()) != mechanism(shapes.get(j).body())
                        || shapes.get(i).shape() instanceof TriangleMesh
                        || shapes.get(j).shape() instanceof TriangleMesh
                        || shapes.get(i).shape() instanceof org.symdyn.geometry.HalfSpace
                        || shapes.get(j).shape() instanceof org.symdyn.geometry.HalfSpace) {
                    continue;
                }
                narrow.distance(scene.shape(i), scene.placement(i), scene.shape(j), scene.placement(j), d);
                if (d.distance() < -tolerance) {
                    kept[i * n + j] = false;
                    kept[j * n + i] = false;
                    if (excluded != null) {
                        excluded.add(new ShapePair(shapes.get(i), shapes.get(j)));
                    }
                }
            }
        }
        return new ContactSet(modelName, grounds, candidates, shapes, kept, maxShapeContacts,
                requestedMaxShapeContacts, mechanisms);
    }

    /** The mechanism of {@code body} ({@link #mechanisms}); the scenery's for body −1. */
    private int mechanism(int body) {
        return body < 0 ? mechanisms.length : mechanisms[body];
    }

    /**
     * Each of the n bodies' mechanism: the bodies joined by paths without a floating joint, and joined further by the
     * model's loops (welds and connects too), couplers and line-on-line rows, which hold their bodies together as
     * joints do (a tool welded to an arm, their hulls overlapping, is one mechanism). n stands for the scenery.
     */
    private static int[] mechanisms(int n, java.util.function.IntUnaryOperator parent,
            java.util.function.IntPredicate floating, List<org.symdyn.model.ConstraintModel> constraints) {
        int[] set = new int[n + 1];
        for (int b = 0; b <= n; b++) {
            set[b] = b;
        }
        for (int b = 0; b < n; b++) {
            if (!floating.test(b)) {
                union(set, b, at(parent.applyAsInt(b), n));
            }
        }
        for (org.symdyn.model.ConstraintModel c : constraints) {
            if (c instanceof org.symdyn.model.LoopConstraintModel l) {
                union(set, at(l.predecessorBody(), n), at(l.successorBody(), n));
            } else if (c instanceof org.symdyn.model.CouplerConstraintModel k) {
                union(set, at(k.joint(), n), at(k.referenceJoint(), n));
            } else if (c instanceof org.symdyn.model.LineOnLineConstraintModel e) {
                union(set, at(e.bodyF(), n), at(e.bodyB(), n));
            }
        }
        int[] out = new int[n];
        for (int b = 0; b < n; b++) {
            out[b] = find(set, b);
        }
        // the scenery is asked for as index n: make its set's representative n itself
        int scenery = find(set, n);
        for (int b = 0; b < n; b++) {
            if (out[b] == scenery) {
                out[b] = n;
            }
        }
        return out;
    }

    private static int at(int body, int scenery) {
        return body < 0 ? scenery : body;
    }

    private static int find(int[] set, int x) {
        while (set[x] != x) {
            set[x] = set[set[x]];
            x = set[x];
        }
        return x;
    }

    private static void union(int[] set, int a, int b) {
        set[find(set, a)] = find(set, b);
    }

    /**
     * This set with one more ground: the half-space through {@code point} (world, m) with outward {@code normal}
     * (world, any length, normalised here), Coulomb friction μ ≥ 0 and restitution e in [0, 1]; every candidate and
     * every moving shape may touch it. For a floor under a model read from a file that declares none (a robot's
     * description). The default bound on shape contacts ({@link #of(Model, int)} with −1) counts the new ground's
     * pairs; a bound given explicitly stays. The candidate-ground pairs are renumbered, since pair p couples
     * candidate p / groundCount() with ground p % groundCount().
     *
     * @throws IllegalArgumentException a name a ground of the set already has, or a point, normal, friction or
     *                                  restitution the builder's {@link Builder#ground} refuses
     */
    public ContactSet withGround(String name, double[] point, double[] normal, double friction, double restitution) {
        List<GroundModel> more = new ArrayList<>(grounds);
        more.add(Builder.groundModel(name, point, normal, friction, restitution, grounds));
        int bound = requestedMaxShapeContacts >= 0 ? requestedMaxShapeContacts
                : shapeContactBound(shapes, touching, more.size(), -1);
        return new ContactSet(modelName, more, candidates, shapes, touching, bound, requestedMaxShapeContacts,
                mechanisms);
    }

    /** The most shape contacts found per step; more are dropped and counted ({@link ContactKinematics#dropped()}). */
    public int maxShapeContacts() {
        return maxShapeContacts;
    }

    /** Candidates × grounds. */
    public int pairCount() {
        return grounds.size() * candidates.size();
    }

    /** The candidate of pair p. */
    public int candidateOf(int pair) {
        return pair / grounds.size();
    }

    /** The ground of pair p. */
    public int groundOf(int pair) {
        return pair % grounds.size();
    }

    /** "candidate@ground", the name reports use. */
    public String pairName(int pair) {
        return candidates.get(candidateOf(pair)).name() + "@" + grounds.get(groundOf(pair)).name();
    }

    @Override
    public String toString() {
        return "ContactSet{" + modelName + ", grounds=" + grounds.size() + ", candidates=" + candidates.size()
                + ", shapes=" + shapes.size() + "}";
    }

    /** Builds a {@link ContactSet} in code; every argument is checked when given. */
    public static final class Builder {
        private final ModelInfo model;
        private final List<GroundModel> grounds = new ArrayList<>();
        private final List<ContactCandidateModel> candidates = new ArrayList<>();
        private final List<CollisionShapeModel> shapes = new ArrayList<>();
        private final List<String[]> excluded = new ArrayList<>();
        private int maxShapeContacts = -1;

        private Builder(ModelInfo model) {
            this.model = Objects.requireNonNull(model, "model");
        }

        /**
         * A ground through {@code point} with outward {@code normal} (any length, normalised here), Coulomb
         * friction μ ≥ 0 and restitution e in [0, 1].
         */
        public Builder ground(String name, double[] point, double[] normal, double friction, double restitution) {
            grounds.add(groundModel(name, point, normal, friction, restitution, grounds));
            return this;
        }

        /** A checked ground whose name none of {@code taken} has. */
        static GroundModel groundModel(String name, double[] point, double[] normal, double friction,
                double restitution, List<GroundModel> taken) {
            requireUnique(name, taken.stream().map(GroundModel::name).toList(), "ground");
            requireVector(point, "ground '" + name + "': point");
            requireVector(normal, "ground '" + name + "': normal");
            double[] n = org.symdyn.spatial.Directions.unit(normal);
            if (n == null) {
                throw new IllegalArgumentException("ground '" + name + "': normal is zero");
            }
            if (!(friction >= 0) || Double.isInfinite(friction)) {
                throw new IllegalArgumentException("ground '" + name + "': friction " + friction
                        + " must be a finite number >= 0");
            }
            if (!(restitution >= 0 && restitution <= 1)) {
                throw new IllegalArgumentException("ground '" + name + "': restitution " + restitution
                        + " must be in [0, 1]");
            }
            return new GroundModel(name, point, n, friction, restitution, SourceLocation.UNKNOWN);
        }

        /** A point of a body (body coordinates) that may touch every ground. */
        public Builder point(String name, String body, double[] point) {
            return candidate(name, body, point, 0);
        }

        /** A sphere of a body (center in body coordinates, radius &gt; 0) that may roll on every ground. */
        public Builder sphere(String name, String body, double[] center, double radius) {
            if (!(radius > 0) || Double.isInfinite(radius)) {
                throw new IllegalArgumentException("sphere '" + name + "': radius " + radius + " must be positive");
            }
            return candidate(name, body, center, radius);
        }

        private Builder candidate(String name, String body, double[] point, double radius) {
            requireUnique(name, candidates.stream().map(ContactCandidateModel::name).toList(), "contact candidate");
            requireVector(point, "contact candidate '" + name + "': point");
            int index = model.bodyNames().indexOf(body);
            if (index < 0) {
                throw new IllegalArgumentException("contact candidate '" + name + "': model " + model.modelName()
                        + " has no moving body '" + body + "' (bodies: " + model.bodyNames() + ")");
            }
            candidates.add(new ContactCandidateModel(name, index, point, radius, SourceLocation.UNKNOWN));
            return this;
        }

        /**
         * A collision shape on a moving body, or on the world when {@code body} is the empty string: its frame placed
         * at {@code pose} in the body's frame (body ← shape), with its contact material. Shapes on different bodies
         * may touch, except those of a parent and child body (joined by a joint, as a model file's adjacent links)
         * and the pairs of bodies given to {@link #noContact}; world shapes touch every moving one.
         */
        public Builder shape(String name, String body, Pose pose, Shape shape, ContactMaterial material) {
            requireUnique(name, shapes.stream().map(CollisionShapeModel::name).toList(), "collision shape");
            Objects.requireNonNull(pose, "pose");
            Objects.requireNonNull(shape, "shape");
            Objects.requireNonNull(material, "material");
            int index = body.isEmpty() ? -1 : model.bodyNames().indexOf(body);
            if (index < 0 && !body.isEmpty()) {
                throw new IllegalArgumentException("collision shape '" + name + "': model " + model.modelName()
                        + " has no moving body '" + body + "' (bodies: " + model.bodyNames() + ")");
            }
            if (shape instanceof TriangleMesh && index >= 0) {
                throw new IllegalArgumentException("collision shape '" + name + "': a triangle mesh collides only"
                        + " when fixed in the world; on a moving body use its convex hull (TriangleMesh.convexHull())");
            }
            shapes.add(new CollisionShapeModel(name, body.isEmpty() ? "" : body, index, pose, shape, material,
                    SourceLocation.UNKNOWN));
            return this;
        }

        /** The shapes of bodies {@code a} and {@code b} never touch each other. */
        public Builder noContact(String a, String b) {
            excluded.add(new String[] {a, b});
            return this;
        }

        /** At most this many shape contacts per step (≥ 0); default as {@link ContactSet#of(Model, int)}. */
        public Builder maxShapeContacts(int n) {
            if (n < 0) {
                throw new IllegalArgumentException("the most shape contacts per step must be >= 0, got " + n);
            }
            maxShapeContacts = n;
            return this;
        }

        public ContactSet build() {
            int n = shapes.size();
            boolean[] touching = new boolean[n * n];
            for (int i = 0; i < n; i++) {
                for (int j = i + 1; j < n; j++) {
                    int a = shapes.get(i).body(), b = shapes.get(j).body();
                    boolean may = a != b && !(a >= 0 && b >= 0 && (model.parent(a) == b || model.parent(b) == a));
                    for (String[] x : excluded) {
                        String na = a < 0 ? "" : model.bodyNames().get(a);
                        String nb = b < 0 ? "" : model.bodyNames().get(b);
                        if ((x[0].equals(na) && x[1].equals(nb)) || (x[0].equals(nb) && x[1].equals(na))) {
                            may = false;
                        }
                    }
                    touching[i * n + j] = may;
                    touching[j * n + i] = may;
                }
            }
            return new ContactSet(model.modelName(), grounds, candidates, shapes, touching,
                    shapeContactBound(shapes, touching, grounds.size(), maxShapeContacts), maxShapeContacts,
                    mechanisms(model.bodyCount(), model::parent, model::isFloating, List.of()));
        }

        private static void requireUnique(String name, List<String> taken, String what) {
            Objects.requireNonNull(name, what + " name");
            if (taken.contains(name)) {
                throw new IllegalArgumentException("duplicate " + what + " name '" + name + "'");
            }
        }

        private static void requireVector(double[] v, String what) {
            if (v == null || v.length != 3) {
                throw new IllegalArgumentException(what + " needs 3 numbers");
            }
            for (double x : v) {
                if (!Double.isFinite(x)) {
                    throw new IllegalArgumentException(what + " has a non-finite entry");
                }
            }
        }
    }
}
