package org.symdyn.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.symdyn.contract.DeviceSpec;
import org.symdyn.geometry.ConvexHull;
import org.symdyn.geometry.HalfSpace;
import org.symdyn.geometry.Shape;
import org.symdyn.geometry.TriangleMesh;
import org.symdyn.spatial.Pose;
import org.symdyn.spatial.RigidBodyInertia;

/**
 * Builds an immutable {@link Model} in code; the readers use it too, so a model from a file and one from code
 * are checked by the same rules.
 *
 * <p>Links are added parents first. A moving link gets a joint ({@link #addBody}); a link attached by a fixed
 * joint ({@link #addFixedLink}) becomes a frame of its moving ancestor, into which its inertia is merged (dropped
 * when the ancestor is the root, which does not move). A parent may be named by any link or frame name.
 *
 * <p>Coordinate names: a single-dof joint's coordinate is the joint's name; a floating joint contributes q names
 * {@code body:x, :y, :z, :qx, :qy, :qz, :qw} and v names {@code body:wx, :wy, :wz, :vx, :vy, :vz} (body = the
 * floating link); a ball joint {@code joint:qx|qy|qz|qw} and {@code joint:wx|wy|wz}; a planar joint
 * {@code joint:x|y|theta} for both.
 *
 * <p>Inertia rules: a moving body must have positive mass (its own plus that of the links fixed to it, so a
 * massless link is fine when that sum is positive); every declared inertia about the centre of mass must be
 * positive definite, except that a link on a fixed joint may be a point mass (zero inertia about its centre).
 * Both are errors, except for links under {@link #DUMMY_MASS} kg (placeholders common in public URDF files),
 * where an inertia problem is a warning. A violated triangle inequality of the principal moments is a warning.
 * {@link #strict(boolean)} makes warnings errors. {@link #build()} reports every problem at once.
 */
public final class ModelBuilder {
    /** Links lighter than this (kg) are treated as placeholders: inertia problems are warnings. */
    public static final double DUMMY_MASS = org.symdyn.spatial.InertiaValidity.DUMMY_MASS;
    /**
     * The longest name, in UTF-8 bytes: generated code carries names as string constants, which a class file holds
     * to 65,535 bytes (a 70,000-character name gave a class that did not compile); no model needs more than a few
     * dozen. The readers refuse longer names at their element ({@code io.Names}), this builder longer parameter names.
     */
    public static final int MAX_NAME_BYTES = 1_000;

    /**
     * A closed mesh on a moving link whose convex hull has more than this many times the mesh's own volume is warned
     * about: it collides as its hull, and so touches where the mesh is concave (1.5: half as much again as the
     * part itself, far beyond what faceting or small fillets add to a convex part).
     */
    public static final double HULL_VOLUME_RATIO_WARNING = 1.5;

    private final String name;
    private String rootName = "world";
    private SourceLocation rootLocation = SourceLocation.UNKNOWN;
    private String sourcePath;
    private String sourceSha256;
    private double[] gravity = Model.DEFAULT_GRAVITY.clone();
    private boolean strict;
    /** The most rays a Lidar may cast per reading (a 4K depth image has 8.3 million). */
    public static final int MAX_LIDAR_RAYS = 10_000_000;
    private boolean overlapWarnings = true;

    private final List<BodyDraft> bodies = new ArrayList<>();
    private final Map<String, Frame> frames = new LinkedHashMap<>();
    private final Map<String, Integer> jointNames = new HashMap<>();
    private final List<ConstraintModel> constraints = new ArrayList<>();
    private final List<GroundModel> grounds = new ArrayList<>();
    private final List<ContactCandidateModel> contactCandidates = new ArrayList<>();
    private final List<PendingParameter> parameters = new ArrayList<>();
    private final List<DeviceSpec> devices = new ArrayList<>();
    private final List<SourceLocation> deviceLocations = new ArrayList<>();

    private final List<PendingShape> collisionShapes = new ArrayList<>();
    private final List<SourceLocation> leftOutCollisionMeshes = new ArrayList<>();
    private final List<PendingShape> visualShapes = new ArrayList<>();
    private final List<NoContactPair> noContactPairs = new ArrayList<>();
    private final List<LidarModel> lidars = new ArrayList<>();
    private final List<InitialState> initialStates = new ArrayList<>();
    private double[] referenceConfiguration;
    private SourceLocation referenceLocation = SourceLocation.UNKNOWN;

    /** A shape as a reader gives it: on a link, placed in the link's frame; resolved to a body at build. */
    private record PendingShape(String name, String link, Pose inLink, Shape shape, ContactMaterial material,
            double[] rgba, SourceLocation location) {
    }

    private record PendingParameter(String name, String link, String joint, String field, SourceLocation location) {
    }
    private final List<Diagnostic> diagnostics = new ArrayList<>();

    /** A body added so far: its description, and what the builder derives from it and merges into it. */
    private static final class BodyDraft {
        final String name;
        final String jointName;
        final JointType type;
        final SourceLocation location;
        final BodySpec spec;
        final int parent;
        final double[] axis;
        /** The joint frame in the parent body's frame (the placement composed with the parent frame's pose). */
        final Pose placement;
        /** The parent link or frame's pose in the parent body's frame. */
        final Pose parentFrame;
        final List<String> merged = new ArrayList<>();
        RigidBodyInertia inertia;

        BodyDraft(BodySpec spec, int parent, double[] axis, Pose parentFrame) {
            this.name = spec.link();
            this.jointName = spec.joint();
            this.type = spec.type();
            this.location = spec.linkLocation();
            this.spec = spec;
            this.parent = parent;
            this.axis = axis;
            this.parentFrame = parentFrame;
            this.placement = parentFrame.compose(spec.placement());
            this.inertia = spec.inertia();
        }
    }

    ModelBuilder(String name) {
        this.name = name;
        frames.put(rootName, new Frame(rootName, -1, Pose.IDENTITY, rootLocation));
    }

    /** Names the root (world) link; default "world". Call before adding links. */
    public ModelBuilder root(String linkName, SourceLocation location) {
        frames.remove(rootName);
        rootName = linkName;
        rootLocation = location;
        frames.put(rootName, new Frame(rootName, -1, Pose.IDENTITY, location));
        return this;
    }

    /** Names the root (world) link; default "world". Call before adding links. */
    public ModelBuilder root(String linkName) {
        return root(linkName, SourceLocation.UNKNOWN);
    }

    /** Gravity in world coordinates (m/s²); default (0, 0, -9.81). */
    public ModelBuilder gravity(double x, double y, double z) {
        gravity = new double[] {x, y, z};
        return this;
    }

    /** Records the file the model came from and the SHA-256 of its bytes. */
    public ModelBuilder source(String path, String sha256) {
        this.sourcePath = path;
        this.sourceSha256 = sha256;
        return this;
    }

    /** When true, warnings are errors. */
    public ModelBuilder strict(boolean strict) {
        this.strict = strict;
        return this;
    }

    /**
     * When true (the default), {@link #build()} warns about each pair of links whose collision shapes may touch
     * ({@link Model#mayTouch}) and overlap at the zero configuration ({@link ShapeOverlaps}). A reader that leaves
     * meshes out turns it off, since its scene is incomplete.
     */
    public ModelBuilder overlapWarnings(boolean on) {
        this.overlapWarnings = on;
        return this;
    }

    /** Adds a problem found by a reader, to be reported with the builder's own at {@link #build()}. */
    public ModelBuilder report(Diagnostic diagnostic) {
        diagnostics.add(diagnostic);
        return this;
    }

    /** A moving link on a joint, with no position limits and no source location (see {@link BodySpec}). */
    public ModelBuilder addBody(String linkName, String parent, String jointName, JointType type, double[] axis,
            Pose placement, RigidBodyInertia inertia) {
        return addBody(BodySpec.builder(linkName, parent, jointName, type).axis(axis).placement(placement)
                .inertia(inertia).build());
    }

    /** A moving link on its joint. */
    public ModelBuilder addBody(BodySpec body) {
        String jointName = body.joint();
        SourceLocation jointLocation = body.jointLocation();
        Frame parentFrame = frames.get(body.parent());
        boolean ok = true;
        if (parentFrame == null) {
            diagnostics.add(Diagnostic.error(jointLocation, "joint '" + jointName + "': parent link '"
                    + body.parent() + "' is not defined (or not yet added)"));
            ok = false;
        }
        if (frames.containsKey(body.link())) {
            diagnostics.add(Diagnostic.error(body.linkLocation(), "duplicate link name '" + body.link() + "'"));
            ok = false;
        }
        if (jointNames.containsKey(jointName)) {
            diagnostics.add(Diagnostic.error(jointLocation, "duplicate joint name '" + jointName + "'"));
            ok = false;
        }
        double[] unitAxis = new double[] {1, 0, 0};
        JointType type = body.type();
        if (type == JointType.REVOLUTE || type == JointType.CONTINUOUS || type == JointType.PRISMATIC
                || type == JointType.PLANAR) {
            double[] axis = body.axis();
            double[] unit = axis == null || axis.length != 3 ? null : org.symdyn.spatial.Directions.unit(axis);
            if (unit == null) {
                diagnostics.add(Diagnostic.error(jointLocation, "joint '" + jointName + "': axis "
                        + Arrays.toString(axis) + " is zero or not finite"));
                ok = false;
            } else {
                unitAxis = unit;
            }
        }
        if (!finite(body.placement())) {
            diagnostics.add(Diagnostic.error(jointLocation, "joint '" + jointName + "': placement " + body.placement()
                    + " is not finite"));
            ok = false;
        }
        InertiaRules.checkDeclared(body.link(), body.inertia(), true, body.linkLocation(), diagnostics);
        ok &= checkJointCoefficient(jointName, "armature", body.armature(), jointLocation);
        ok &= checkJointCoefficient(jointName, "damping", body.damping(), jointLocation);
        if (!ok) {
            return this;
        }
        int index = bodies.size();
        bodies.add(new BodyDraft(body, parentFrame.bodyIndex(), unitAxis, parentFrame.pose()));
        jointNames.put(jointName, index);
        frames.put(body.link(), new Frame(body.link(), index, Pose.IDENTITY, body.linkLocation()));
        return this;
    }

    /** A joint's armature or damping must be finite and ≥ 0: an error at the joint otherwise. */
    private boolean checkJointCoefficient(String jointName, String what, double value, SourceLocation location) {
        if (value >= 0 && value < Double.POSITIVE_INFINITY) {
            return true;
        }
        diagnostics.add(Diagnostic.error(location, "joint '" + jointName + "': " + what + " " + value
                + " must be finite and ≥ 0"));
        return false;
    }

    /**
     * A link (or a massless frame, with {@code inertia} null) rigidly attached to {@code parent} at
     * {@code placement}. Its inertia is merged into the moving ancestor.
     */
    public ModelBuilder addFixedLink(String linkName, String parent, Pose placement, RigidBodyInertia inertia,
            SourceLocation jointLocation, SourceLocation linkLocation) {
        Frame parentFrame = frames.get(parent);
        if (parentFrame == null) {
            diagnostics.add(Diagnostic.error(jointLocation,
                    "link '" + linkName + "': parent link '" + parent + "' is not defined (or not yet added)"));
            return this;
        }
        if (frames.containsKey(linkName)) {
            diagnostics.add(Diagnostic.error(linkLocation, "duplicate link or frame name '" + linkName + "'"));
            return this;
        }
        if (!finite(placement)) {
            diagnostics.add(Diagnostic.error(jointLocation, "link or frame '" + linkName + "': placement "
                    + placement + " is not finite"));
            return this;
        }
        Pose pose = parentFrame.pose().compose(placement);
        frames.put(linkName, new Frame(linkName, parentFrame.bodyIndex(), pose, linkLocation));
        if (inertia != null) {
            InertiaRules.checkDeclared(linkName, inertia, false, linkLocation, diagnostics);
            if (parentFrame.bodyIndex() >= 0) {
                BodyDraft body = bodies.get(parentFrame.bodyIndex());
                body.inertia = body.inertia.plus(inertia.expressedIn(pose));
                body.merged.add(linkName);
            }
        }
        return this;
    }

    /**
     * Checks the inertia declared on the root link, which does not move (its inertia is dropped unless the root
     * is made a floating body): a negative mass or a non-physical inertia is reported like any other link's.
     */
    public ModelBuilder rootInertia(String linkName, RigidBodyInertia inertia, SourceLocation location) {
        if (inertia != null) {
            InertiaRules.checkDeclared(linkName, inertia, false, location, diagnostics);
        }
        return this;
    }

    /** A massless named frame attached to a link or frame. */
    public ModelBuilder addFrame(String frameName, String attachedTo, Pose pose) {
        return addFixedLink(frameName, attachedTo, pose, null, SourceLocation.UNKNOWN, SourceLocation.UNKNOWN);
    }

    /**
     * Adds a constraint; its name must be unique among the model's constraints, and a coupler's two joints must
     * differ (q = r q + o holds no joint, or none but one position: reported here, at the constraint, for every
     * reader's couplers: URDF mimic, MJCF joint equality, SymDyn's coupler element).
     */
    public ModelBuilder addConstraint(ConstraintModel constraint) {
        if (constraint instanceof CouplerConstraintModel c && c.joint() == c.referenceJoint()) {
            String joint = c.joint() >= 0 && c.joint() < bodies.size() ? bodies.get(c.joint()).jointName
                    : String.valueOf(c.joint());
            diagnostics.add(Diagnostic.error(constraint.location(), "coupler '" + constraint.name()
                    + "': joint '" + joint + "' is coupled to itself (a coupler needs two different joints)"));
            return this;
        }
        for (ConstraintModel c : constraints) {
            if (c.name().equals(constraint.name())) {
                diagnostics.add(Diagnostic.error(constraint.location(),
                        "duplicate constraint name '" + constraint.name() + "'"));
                return this;
            }
        }
        // the readers check their own numbers; a model built in code is held to the same (a NaN point was taken)
        String notFinite = null;
        if (constraint instanceof ContactConstraintModel c) {
            notFinite = !finite(c.point()) ? "point" : !finite(c.normal()) ? "normal" : null;
        } else if (constraint instanceof LoopConstraintModel l) {
            notFinite = !finite(l.predecessorFrame()) ? "predecessor frame"
                    : !finite(l.successorFrame()) ? "successor frame"
                    : l.axes().stream().allMatch(ModelBuilder::finite) ? null : "axis";
        }
        if (notFinite != null) {
            diagnostics.add(Diagnostic.error(constraint.location(), constraint.typeName() + " '" + constraint.name()
                    + "': its " + notFinite + " is not finite"));
            return this;
        }
        constraints.add(constraint);
        return this;
    }

    /**
     * Adds a ground for unilateral contact; its name must be unique among the grounds. The normal must be a unit
     * vector, friction finite and non-negative, restitution in [0, 1] (checked here, reported at {@link #build()}).
     */
    public ModelBuilder addGround(GroundModel ground) {
        String label = "ground '" + ground.name() + "'";
        for (GroundModel g : grounds) {
            if (g.name().equals(ground.name())) {
                diagnostics.add(Diagnostic.error(ground.location(), "duplicate ground name '" + ground.name()
                        + "' (the first is at " + g.location() + ")"));
                return this;
            }
        }
        double[] n = ground.normal();
        double norm = Math.sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        if (!finite(ground.point()) || !finite(n)) {
            diagnostics.add(Diagnostic.error(ground.location(), label + ": point and normal must be finite"));
        } else if (!(Math.abs(norm - 1) < 1e-9)) {
            diagnostics.add(Diagnostic.error(ground.location(), label + ": normal must be a unit vector (|n| = "
                    + norm + ")"));
        }
        if (!(ground.friction() >= 0) || Double.isInfinite(ground.friction())) {
            diagnostics.add(Diagnostic.error(ground.location(), label + ": friction " + ground.friction()
                    + " must be a finite number >= 0"));
        }
        if (!(ground.restitution() >= 0 && ground.restitution() <= 1)) {
            diagnostics.add(Diagnostic.error(ground.location(), label + ": restitution " + ground.restitution()
                    + " must be in [0, 1]"));
        }
        grounds.add(ground);
        return this;
    }

    /**
     * Adds a unilateral contact candidate (a point or sphere of a moving body); its name must be unique among the
     * candidates, its radius finite and non-negative (checked here, reported at {@link #build()}).
     */
    public ModelBuilder addContactCandidate(ContactCandidateModel candidate) {
        String label = candidate.elementName() + " '" + candidate.name() + "'";
        for (ContactCandidateModel c : contactCandidates) {
            if (c.name().equals(candidate.name())) {
                diagnostics.add(Diagnostic.error(candidate.location(), "duplicate contact candidate name '"
                        + candidate.name() + "' (the first is at " + c.location() + ")"));
                return this;
            }
        }
        if (candidate.body() < 0 || candidate.body() >= bodies.size()) {
            diagnostics.add(Diagnostic.error(candidate.location(), label + ": body " + candidate.body()
                    + " is not a moving body"));
        }
        if (!finite(candidate.center()) || !(candidate.radius() >= 0) || Double.isInfinite(candidate.radius())) {
            diagnostics.add(Diagnostic.error(candidate.location(), label
                    + ": point and radius must be finite, the radius >= 0"));
        }
        contactCandidates.add(candidate);
        return this;
    }

    /**
     * Adds a collision shape of a link, placed in the link's frame ({@code inLink}: link ← shape). A
     * {@link TriangleMesh} on a link that moves collides as its convex hull, on the root or a link fixed to it
     * triangle by triangle ({@link CollisionShapeModel}). A {@link HalfSpace} must be fixed in the world: on a link
     * that moves it is left out with a warning (an error under strict reading). A null name becomes
     * {@code link/collisionK}. Problems (an unknown link, a duplicate name) are reported at {@link #build()}.
     */
    public ModelBuilder addCollisionShape(String shapeName, String link, Pose inLink, Shape shape,
            ContactMaterial material, SourceLocation location) {
        collisionShapes.add(new PendingShape(shapeName, link, inLink, shape, material, null, location));
        return this;
    }

    /**
     * Records a collision mesh the reader did not load because it skips meshes ({@link SceneModel#leftOutCollisionMeshes}).
     */
    public ModelBuilder leftOutCollisionMesh(SourceLocation location) {
        leftOutCollisionMeshes.add(location);
        return this;
    }

    /** Adds a visual shape of a link, placed in the link's frame; {@code rgba} may be null (no colour given). */
    public ModelBuilder addVisualShape(String link, Pose inLink, Shape shape, double[] rgba,
            SourceLocation location) {
        visualShapes.add(new PendingShape(null, link, inLink, shape, null, rgba == null ? null : rgba.clone(),
                location));
        return this;
    }

    /** Declares that the collision shapes of links {@code link1} and {@code link2} never touch each other. */
    public ModelBuilder addNoContact(String link1, String link2, SourceLocation location) {
        noContactPairs.add(new NoContactPair(link1, link2, location));
        return this;
    }

    /**
     * Adds a Lidar mounted on {@code lidar.link()} with {@code lidar.pose()} given in that link's frame (link ← L);
     * its {@code body} is ignored: the model's {@link LidarModel} carries the body and the pose in the body's frame.
     * Checked here (reported at {@link #build()}): samples and rows ≥ 1, at most {@link #MAX_LIDAR_RAYS} rays, every
     * number finite, maxAngle ≥ minAngle,
     * maxElevation ≥ minElevation, 0 ≤ rangeMin &lt; rangeMax, noise ≥ 0; at {@link #build()}: the link exists and
     * the name is unique among the devices and Lidars.
     */
    public ModelBuilder addLidar(LidarModel lidar) {
        String label = "lidar '" + lidar.name() + "'";
        List<String> problems = new ArrayList<>();
        if (lidar.name() == null || lidar.name().isEmpty()) {
            problems.add("a lidar has no name");
        }
        if (lidar.samples() < 1) {
            problems.add(label + ": samples " + lidar.samples() + " must be >= 1");
        }
        if (lidar.rows() < 1) {
            problems.add(label + ": rows " + lidar.rows() + " must be >= 1");
        }
        if (lidar.samples() >= 1 && lidar.rows() >= 1 && (long) lidar.samples() * lidar.rows() > MAX_LIDAR_RAYS) {
            // the product overflowed an int (46,341 x 46,341) or filled the heap before this bound
            problems.add(label + ": samples x rows = " + (long) lidar.samples() * lidar.rows() + " rays, more than "
                    + MAX_LIDAR_RAYS);
        }
        double[] numbers = {lidar.minAngle(), lidar.maxAngle(), lidar.minElevation(), lidar.maxElevation(),
            lidar.rangeMin(), lidar.rangeMax(), lidar.noise()};
        if (!finite(numbers)) {
            problems.add(label + ": angles, elevations, ranges and noise must be finite");
        } else {
            if (!(lidar.maxAngle() >= lidar.minAngle())) {
                problems.add(label + ": max_angle " + lidar.maxAngle() + " is below min_angle " + lidar.minAngle());
            }
            if (!(lidar.maxElevation() >= lidar.minElevation())) {
                problems.add(label + ": max_elevation " + lidar.maxElevation() + " is below min_elevation "
                        + lidar.minElevation());
            }
            if (!(lidar.rangeMin() >= 0 && lidar.rangeMin() < lidar.rangeMax())) {
                problems.add(label + ": ranges must satisfy 0 <= range_min < range_max, got range_min "
                        + lidar.rangeMin() + ", range_max " + lidar.rangeMax());
            }
            if (!(lidar.noise() >= 0)) {
                problems.add(label + ": noise " + lidar.noise() + " must be >= 0");
            }
        }
        for (String p : problems) {
            diagnostics.add(Diagnostic.error(lidar.location(), p));
        }
        if (problems.isEmpty()) {
            lidars.add(lidar);
        }
        return this;
    }

    /**
     * Adds a declared actuator or sensor ({@link DeviceSpec}); its name must be unique among the devices. Its
     * numbers are checked here by {@link DeviceChecks}; at {@link #build()}, a joint device's joint must be a
     * movable single-coordinate joint with the q and v indices given, and a link device's link must be a link or
     * frame of the model on the body given (−1: the root). Problems are reported at {@link #build()}.
     */
    public ModelBuilder addDevice(DeviceSpec device, SourceLocation location) {
        if (device.name() == null || device.name().isEmpty()) {
            diagnostics.add(Diagnostic.error(location, DeviceChecks.elementName(device) + " has no name"));
            return this;
        }
        String label = DeviceChecks.elementName(device) + " '" + device.name() + "'";
        for (int k = 0; k < devices.size(); k++) {
            if (devices.get(k).name().equals(device.name())) {
                diagnostics.add(Diagnostic.error(location, "duplicate device name '" + device.name()
                        + "' (the first is at " + deviceLocations.get(k) + ")"));
                return this;
            }
        }
        for (String problem : DeviceChecks.problems(device)) {
            diagnostics.add(Diagnostic.error(location, label + ": " + problem));
        }
        devices.add(device);
        deviceLocations.add(location);
        return this;
    }

    /** {@link #addDevice(DeviceSpec, SourceLocation)} without a source location. */
    public ModelBuilder addDevice(DeviceSpec device) {
        return addDevice(device, SourceLocation.UNKNOWN);
    }

    /** The first position coordinate of a body added so far (bodies before it, in order, take theirs first). */
    public int qIndexOfBody(int bodyIndex) {
        int n = 0;
        for (int i = 0; i < bodyIndex; i++) {
            n += bodies.get(i).type.nq();
        }
        return n;
    }

    /** The first velocity coordinate of a body added so far. */
    public int vIndexOfBody(int bodyIndex) {
        int n = 0;
        for (int i = 0; i < bodyIndex; i++) {
            n += bodies.get(i).type.nv();
        }
        return n;
    }

    /** True if a pose's rotation and translation are finite (null, the identity, is). */
    private static boolean finite(Pose pose) {
        return pose == null || pose.isFinite();
    }

    private static boolean finite(double[] v) {
        for (double x : v) {
            if (!Double.isFinite(x)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Marks a model number as a named parameter of generated code (see {@link ParameterModel}): exactly one of
     * {@code link} (a moving link, for fields mass, com_x|y|z, ixx|ixy|ixz|iyy|iyz|izz) and {@code joint} (a
     * movable joint, for fields origin_x|y|z) is given. Checked at {@link #build()}.
     */
    public ModelBuilder addParameter(String name, String link, String joint, String field, SourceLocation location) {
        parameters.add(new PendingParameter(name, link, joint, field, location));
        return this;
    }

    /**
     * Adds a named initial state ({@link InitialState}). Checked at {@link #build()}: a non-empty name unique among
     * the states, nq positions and nv velocities, all finite, each quaternion of a floating or ball joint of unit
     * norm (within 1e-9).
     */
    public ModelBuilder addInitialState(InitialState state) {
        initialStates.add(state);
        return this;
    }

    /**
     * The configuration the file places the bodies in ({@link Model#referenceConfiguration()}; without one, the
     * neutral configuration). Checked at {@link #build()} as an initial state's q is: nq finite numbers, unit
     * quaternions.
     */
    public ModelBuilder referenceConfiguration(double[] q, SourceLocation location) {
        referenceConfiguration = q == null ? null : q.clone();
        referenceLocation = location == null ? SourceLocation.UNKNOWN : location;
        return this;
    }

    /** The frame of a link or frame added so far (body index and placement in that body), or null. */
    public Frame frame(String linkOrFrameName) {
        return frames.get(linkOrFrameName);
    }

    /** The number of bodies added so far. */
    public int bodyCount() {
        return bodies.size();
    }

    /** The body index of the joint of that name added so far, or -1. */
    public int bodyIndexOfJoint(String jointName) {
        Integer i = jointNames.get(jointName);
        return i == null ? -1 : i;
    }

    /** The joint type of a body added so far. */
    public JointType jointType(int bodyIndex) {
        return bodies.get(bodyIndex).type;
    }


    /**
     * The model, or every problem found.
     *
     * @throws ModelException listing every error (and every warning when strict), each with its location
     */
    public Model build() throws ModelException {
        List<Diagnostic> errors = new ArrayList<>();
        List<Diagnostic> warnings = new ArrayList<>();
        boolean[] massBeyond = new boolean[bodies.size()]; // a body of the subtree below has mass
        for (int i = bodies.size() - 1; i >= 0; i--) {
            BodyDraft d = bodies.get(i);
            if (d.parent >= 0 && (massBeyond[i] || d.inertia.mass() > 0)) {
                massBeyond[d.parent] = true;
            }
        }
        for (int i = 0; i < bodies.size(); i++) {
            BodyDraft d = bodies.get(i);
            if (d.inertia.mass() == 0 && !massBeyond[i]) {
                errors.add(Diagnostic.error(d.location, "link '" + d.name
                        + "': mass 0 kg (with the links fixed to it), and no link it carries has mass; a moving"
                        + " link needs a positive mass"));
            } else if (d.inertia.mass() == 0) {
                diagnostics.add(Diagnostic.warning(d.location, "link '" + d.name + "' has no mass of its own (nor"
                        + " fixed to it): its joint moves only the links it carries, which is accepted while the"
                        + " joint-space inertia stays positive definite"));
            } else if (!d.merged.isEmpty()) {
                InertiaRules.checkMerged(d.name, d.inertia, d.merged, d.location, errors);
            }
        }
        for (Diagnostic d : diagnostics) {
            if (d.isError()) {
                errors.add(d);
            } else if (strict) {
                errors.add(Diagnostic.error(d.location(), d.message() + " (an error under strict reading)"));
            } else {
                warnings.add(d);
            }
        }
        List<ParameterModel> resolved = resolveParameters(errors);
        for (int k = 0; k < devices.size(); k++) {
            DeviceAttachments.check(this, devices.get(k), deviceLocations.get(k), errors);
        }
        SceneModel scene = resolveScene(errors, warnings);
        checkInitialStates(errors);
        if (!errors.isEmpty()) {
            throw new ModelException(errors);
        }
        List<Body> built = new ArrayList<>();
        List<String> qNames = new ArrayList<>();
        List<String> vNames = new ArrayList<>();
        for (int i = 0; i < bodies.size(); i++) {
            BodyDraft d = bodies.get(i);
            Joint joint = new Joint(d.jointName, d.type, d.axis, d.placement, d.spec.lower(), d.spec.upper(),
                    qNames.size(), vNames.size(), d.spec.armature(), d.spec.damping(), d.spec.parent(), d.spec.jointLocation());
            switch (d.type) {
                case FLOATING -> {
                    for (String s : new String[] {"x", "y", "z", "qx", "qy", "qz", "qw"}) {
                        qNames.add(d.name + ":" + s);
                    }
                    for (String s : new String[] {"wx", "wy", "wz", "vx", "vy", "vz"}) {
                        vNames.add(d.name + ":" + s);
                    }
                }
                case BALL -> {
                    for (String s : new String[] {"qx", "qy", "qz", "qw"}) {
                        qNames.add(d.jointName + ":" + s);
                    }
                    for (String s : new String[] {"wx", "wy", "wz"}) {
                        vNames.add(d.jointName + ":" + s);
                    }
                }
                case PLANAR -> {
                    for (String s : new String[] {"x", "y", "theta"}) {
                        qNames.add(d.jointName + ":" + s);
                        vNames.add(d.jointName + ":" + s);
                    }
                }
                default -> {
                    qNames.add(d.jointName);
                    vNames.add(d.jointName);
                }
            }
            built.add(new Body(i, d.name, d.parent, joint, d.inertia, d.location));
        }
        List<RigidBodyInertia> own = new ArrayList<>();
        for (BodyDraft d : bodies) {
            own.add(d.spec.inertia());
        }
        Model model = new Model(name, rootName, sourcePath, sourceSha256, gravity, built,
                new ArrayList<>(frames.values()), constraints, warnings, qNames, vNames, resolved, own, grounds,
                contactCandidates, devices, deviceLocations, scene, initialStates, referenceConfiguration);
        if (!overlapWarnings || scene.collisionShapes().size() < 2) {
            return model;
        }
        List<Diagnostic> overlaps = ShapeOverlaps.find(model);
        if (overlaps.isEmpty()) {
            return model;
        }
        for (Diagnostic d : overlaps) {
            warn(d, errors, warnings);
        }
        if (!errors.isEmpty()) {
            throw new ModelException(errors);
        }
        return new Model(name, rootName, sourcePath, sourceSha256, gravity, built,
                new ArrayList<>(frames.values()), constraints, warnings, qNames, vNames, resolved, own, grounds,
                contactCandidates, devices, deviceLocations, scene, initialStates, referenceConfiguration);
    }

    private void checkInitialStates(List<Diagnostic> errors) {
        int nq = qIndexOfBody(bodies.size());
        int nv = vIndexOfBody(bodies.size());
        // a reader sizes it from the joints it read; when the builder refused one of them, that error is the news
        if (referenceConfiguration != null && (referenceConfiguration.length == nq || errors.isEmpty())) {
            checkConfiguration("the reference configuration", referenceLocation, referenceConfiguration,
                    new double[nv], nq, nv, errors);
        }
        Map<String, SourceLocation> seen = new HashMap<>();
        for (InitialState s : initialStates) {
            String label = "initial state '" + s.name() + "'";
            if (s.name() == null || s.name().isEmpty()) {
                errors.add(Diagnostic.error(s.location(), "an initial state has no name"));
                continue;
            }
            SourceLocation first = seen.putIfAbsent(s.name(), s.location());
            if (first != null) {
                errors.add(Diagnostic.error(s.location(), "duplicate initial state name '" + s.name()
                        + "' (the first is at " + first + ")"));
                continue;
            }
            checkConfiguration(label, s.location(), s.q(), s.v(), nq, nv, errors);
        }
    }

    /** nq and nv finite numbers (the model's sizes), unit quaternions. */
    private void checkConfiguration(String label, SourceLocation location, double[] q, double[] v, int nq, int nv,
            List<Diagnostic> errors) {
        if (q.length != nq || v.length != nv) {
            errors.add(Diagnostic.error(location, label + ": " + q.length + " positions and " + v.length
                    + " velocities, the model has nq = " + nq + " and nv = " + nv));
            return;
        }
        if (!finite(q) || !finite(v)) {
            errors.add(Diagnostic.error(location, label + ": positions and velocities must be finite"));
            return;
        }
        for (int b = 0; b < bodies.size(); b++) {
            BodyDraft d = bodies.get(b);
            if (!d.type.hasQuaternion()) {
                continue;
            }
            int at = qIndexOfBody(b) + (d.type == JointType.FLOATING ? 3 : 0);
            double norm = Math.sqrt(q[at] * q[at] + q[at + 1] * q[at + 1] + q[at + 2] * q[at + 2]
                    + q[at + 3] * q[at + 3]);
            if (Math.abs(norm - 1) > 1e-9) {
                errors.add(Diagnostic.error(location, label + ": the quaternion of joint '" + d.jointName
                        + "' has norm " + norm + ", not 1"));
            }
        }
    }

    /** A warning, or an error under strict reading. */
    private void warn(Diagnostic d, List<Diagnostic> errors, List<Diagnostic> warnings) {
        if (strict) {
            errors.add(Diagnostic.error(d.location(), d.message() + " (an error under strict reading)"));
        } else {
            warnings.add(d);
        }
    }

    private SceneModel resolveScene(List<Diagnostic> errors, List<Diagnostic> warnings) {
        List<CollisionShapeModel> collision = new ArrayList<>();
        Map<String, SourceLocation> names = new HashMap<>();
        Map<String, Integer> perLink = new HashMap<>();
        for (PendingShape p : collisionShapes) {
            int k = perLink.merge(p.link(), 1, Integer::sum) - 1;
            String shapeName = p.name() != null && !p.name().isEmpty() ? p.name() : p.link() + "/collision" + k;
            Frame f = frames.get(p.link());
            if (f == null) {
                errors.add(Diagnostic.error(p.location(), "collision shape '" + shapeName + "': no link named '"
                        + p.link() + "'"));
                continue;
            }
            if (!finite(p.inLink())) {
                errors.add(Diagnostic.error(p.location(), "collision shape '" + shapeName + "': placement "
                        + p.inLink() + " is not finite"));
                continue;
            }
            SourceLocation first = names.putIfAbsent(shapeName, p.location());
            if (first != null) {
                errors.add(Diagnostic.error(p.location(), "duplicate collision shape name '" + shapeName
                        + "' (the first is at " + first + ")"));
                continue;
            }
            Shape shape = p.shape();
            if (shape instanceof HalfSpace && f.bodyIndex() >= 0) {
                warn(Diagnostic.warning(p.location(), "collision shape '" + shapeName + "' of moving link '"
                        + p.link() + "': a plane is an unbounded half-space and must be fixed to the world (on the"
                        + " root link, or a link fixed to it); left out"), errors, warnings);
                continue;
            }
            if (shape instanceof TriangleMesh mesh && f.bodyIndex() >= 0) {
                try {
                    ConvexHull hull = mesh.convexHull();
                    double own = Math.abs(mesh.enclosedVolume());
                    if (own > 0 && hull.volume() > HULL_VOLUME_RATIO_WARNING * own) {
                        warn(Diagnostic.warning(p.location(), "collision shape '" + shapeName + "' of moving link '"
                                + p.link() + "': the mesh collides as its convex hull, whose volume is "
                                + String.format(java.util.Locale.ROOT, "%.3g", hull.volume() / own)
                                + " times the mesh's own (a concave mesh: split it into convex parts, or use"
                                + " primitive shapes, for contact where the hull is empty)"), errors, warnings);
                    }
                    shape = hull;
                } catch (IllegalArgumentException e) {
                    errors.add(Diagnostic.error(p.location(), "collision shape '" + shapeName + "' of moving link '"
                            + p.link() + "': a mesh on a moving link collides as its convex hull, and this mesh"
                            + " has none (" + e.getMessage() + ")"));
                    continue;
                }
            }
            collision.add(new CollisionShapeModel(shapeName, p.link(), f.bodyIndex(), f.pose().compose(p.inLink()),
                    shape, p.material() == null ? ContactMaterial.DEFAULT : p.material(), p.location()));
        }
        List<VisualShapeModel> visual = new ArrayList<>();
        for (PendingShape p : visualShapes) {
            Frame f = frames.get(p.link());
            if (f == null) {
                errors.add(Diagnostic.error(p.location(), "visual shape: no link named '" + p.link() + "'"));
                continue;
            }
            if (!finite(p.inLink())) {
                errors.add(Diagnostic.error(p.location(), "visual shape of link '" + p.link() + "': placement "
                        + p.inLink() + " is not finite"));
                continue;
            }
            visual.add(new VisualShapeModel(p.link(), f.bodyIndex(), f.pose().compose(p.inLink()), p.shape(),
                    p.rgba(), p.location()));
        }
        for (NoContactPair p : noContactPairs) {
            for (String link : new String[] {p.link1(), p.link2()}) {
                if (!frames.containsKey(link)) {
                    errors.add(Diagnostic.error(p.location(), "no_contact: no link named '" + link + "'"));
                }
            }
        }
        List<LidarModel> resolvedLidars = new ArrayList<>();
        Map<String, SourceLocation> deviceNames = new HashMap<>();
        for (int k = 0; k < devices.size(); k++) {
            deviceNames.putIfAbsent(devices.get(k).name(), deviceLocations.get(k));
        }
        for (LidarModel l : lidars) {
            SourceLocation other = deviceNames.putIfAbsent(l.name(), l.location());
            if (other != null) {
                // the later of the two in the file is the duplicate (devices are checked before Lidars)
                boolean lidarFirst = other.path() != null && other.path().equals(l.location().path())
                        && (l.location().line() < other.line() || l.location().line() == other.line()
                                && l.location().column() < other.column());
                errors.add(Diagnostic.error(lidarFirst ? other : l.location(), "duplicate device name '" + l.name()
                        + "' (the first is at " + (lidarFirst ? l.location() : other) + ")"));
                continue;
            }
            Frame f = frames.get(l.link());
            if (f == null) {
                errors.add(Diagnostic.error(l.location(), "lidar '" + l.name() + "': no link named '" + l.link()
                        + "'"));
                continue;
            }
            resolvedLidars.add(new LidarModel(l.name(), l.link(), f.bodyIndex(), f.pose().compose(l.pose()),
                    l.samples(), l.minAngle(), l.maxAngle(), l.rows(), l.minElevation(), l.maxElevation(),
                    l.rangeMin(), l.rangeMax(), l.noise(), l.location()));
        }
        return new SceneModel(collision, visual, noContactPairs, resolvedLidars, leftOutCollisionMeshes);
    }


    private List<ParameterModel> resolveParameters(List<Diagnostic> errors) {
        List<ParameterModel> out = new ArrayList<>();
        java.util.Set<String> names = new java.util.HashSet<>();
        // a generated class's accessors get<Name>/set<Name> capitalise the first character: two names that differ
        // only there share them (a helper's finding: 'Mass' and 'mass' made a class that does not compile)
        java.util.Map<String, String> accessors = new java.util.HashMap<>();
        for (PendingParameter p : parameters) {
            String label = "parameter '" + p.name() + "'";
            if (p.name() == null || !javax.lang.model.SourceVersion.isIdentifier(p.name())
                    || javax.lang.model.SourceVersion.isKeyword(p.name())) {
                errors.add(Diagnostic.error(p.location(), label + ": the name must be a Java identifier"));
                continue;
            }
            if (p.name().getBytes(java.nio.charset.StandardCharsets.UTF_8).length > MAX_NAME_BYTES) {
                errors.add(Diagnostic.error(p.location(), "parameter '" + p.name().substring(0, 40) + "...': the name is"
                        + " over the " + MAX_NAME_BYTES + " bytes (UTF-8) a name may have"));
                continue;
            }
            if (!names.add(p.name())) {
                errors.add(Diagnostic.error(p.location(), "duplicate parameter name '" + p.name() + "'"));
                continue;
            }
            String accessor = ParameterModel.accessorSuffix(p.name());
            if (accessor.equals("Class")) {
                errors.add(Diagnostic.error(p.location(), label + ": its generated getter would be getClass(),"
                        + " java.lang.Object's; choose another name"));
                continue;
            }
            String other = accessors.putIfAbsent(accessor, p.name());
            if (other != null) {
                errors.add(Diagnostic.error(p.location(), label + ": its generated accessors get" + accessor
                        + "/set" + accessor + " are those of parameter '" + other + "' (the names differ only in"
                        + " their first letter's case)"));
                continue;
            }
            ParameterModel.Field field = ParameterModel.Field.of(p.field());
            if (field == null) {
                errors.add(Diagnostic.error(p.location(), label + ": unknown field '" + p.field() + "' (one of "
                        + java.util.Arrays.stream(ParameterModel.Field.values()).map(ParameterModel.Field::fileName)
                                .toList() + ")"));
                continue;
            }
            if ((p.link() == null) == (p.joint() == null)) {
                errors.add(Diagnostic.error(p.location(), label + ": give exactly one of 'link' and 'joint'"));
                continue;
            }
            if (field.isLinkField() != (p.link() != null)) {
                errors.add(Diagnostic.error(p.location(), label + ": field '" + p.field() + "' belongs to a "
                        + (field.isLinkField() ? "link" : "joint")));
                continue;
            }
            if (field.isLinkField()) {
                Frame f = frames.get(p.link());
                if (f == null || f.bodyIndex() < 0 || !bodies.get(f.bodyIndex()).name.equals(p.link())) {
                    errors.add(Diagnostic.error(p.location(), label + ": link '" + p.link()
                            + "' is not a moving link (a parameter needs a link on its own movable joint)"));
                    continue;
                }
                RigidBodyInertia in = bodies.get(f.bodyIndex()).spec.inertia();
                double value = switch (field) {
                    case MASS -> in.mass();
                    case COM_X -> in.com(0);
                    case COM_Y -> in.com(1);
                    case COM_Z -> in.com(2);
                    case IXX -> in.inertiaAboutCom(0, 0);
                    case IXY -> in.inertiaAboutCom(0, 1);
                    case IXZ -> in.inertiaAboutCom(0, 2);
                    case IYY -> in.inertiaAboutCom(1, 1);
                    case IYZ -> in.inertiaAboutCom(1, 2);
                    default -> in.inertiaAboutCom(2, 2);
                };
                out.add(new ParameterModel(p.name(), field, f.bodyIndex(), value, null, p.location()));
            } else {
                Integer body = jointNames.get(p.joint());
                if (body == null) {
                    errors.add(Diagnostic.error(p.location(), label + ": joint '" + p.joint()
                            + "' is not a movable joint of the model"));
                    continue;
                }
                BodyDraft d = bodies.get(body);
                if (field == ParameterModel.Field.ARMATURE) {
                    out.add(new ParameterModel(p.name(), field, body, d.spec.armature(), null, p.location()));
                    continue;
                }
                int axis = field.ordinal() - ParameterModel.Field.ORIGIN_X.ordinal();
                double[] direction = {d.parentFrame.rotation(0, axis), d.parentFrame.rotation(1, axis),
                    d.parentFrame.rotation(2, axis)};
                out.add(new ParameterModel(p.name(), field, body, d.spec.placement().translation(axis), direction,
                        p.location()));
            }
        }
        // one number, one parameter: of two on the same number, the first silently did nothing (a helper's finding)
        java.util.Map<String, ParameterModel> numbers = new java.util.HashMap<>();
        List<ParameterModel> kept = new ArrayList<>();
        for (ParameterModel p : out) {
            ParameterModel first = numbers.putIfAbsent(p.body() + ":" + p.field(), p);
            if (first == null) {
                kept.add(p);
                continue;
            }
            String what = p.field().isLinkField() ? "link '" + bodies.get(p.body()).name + "'"
                    : "joint '" + bodies.get(p.body()).jointName + "'";
            errors.add(Diagnostic.error(p.location(), "parameter '" + p.name() + "': the " + p.field().fileName()
                    + " of " + what + " is already parameter '" + first.name() + "'"
                    + (first.location() == null ? "" : " (" + first.location() + ")")));
        }
        return kept;
    }
}
