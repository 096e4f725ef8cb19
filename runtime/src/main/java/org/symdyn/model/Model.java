package org.symdyn.model;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.symdyn.contract.DeviceSpec;
import org.symdyn.contract.DofTree;
import org.symdyn.contract.ModelInfo;
import org.symdyn.contract.ParameterRules;
import org.symdyn.spatial.Pose;
import org.symdyn.spatial.RigidBodyInertia;

/**
 * An immutable description of one mechanism: moving bodies in topological order (parents first; from a URDF file,
 * depth first in document order), their joints and inertias, named frames, constraints and gravity.
 *
 * <p>Coordinates: q stacks each body's joint positions in body order and v its velocities, so
 * {@code q = [q_0, q_1, ...]} with {@link Joint#qIndex()} and {@link Joint#vIndex()}; a floating base or ball joint
 * makes nq exceed nv (see {@link JointType}). Build one with {@link #builder(String)} or read one with
 * {@link org.symdyn.io.urdf.UrdfReader}.
 */
public final class Model {
    /** Gravity when the model does not state it: (0, 0, -9.81) m/s². */
    public static final double[] DEFAULT_GRAVITY = {0, 0, -9.81};

    private final String name;
    private final String rootName;
    private final String sourcePath;
    private final String sourceSha256;
    private final double[] gravity;
    private final List<Body> bodies;
    private final List<Frame> frames;
    private final List<ConstraintModel> constraints;
    private final List<GroundModel> grounds;
    private final List<ContactCandidateModel> contactCandidates;
    private final List<DeviceSpec> devices;
    private final List<SourceLocation> deviceLocations;
    private final SceneModel scene;
    private final List<Diagnostic> warnings;
    private final List<ParameterModel> parameters;
    private final List<RigidBodyInertia> ownInertias;
    private final List<String> qNames;
    private final List<InitialState> initialStates;
    /** The file's own starting configuration, or null for the neutral one. */
    private final double[] referenceConfiguration;
    private final List<String> vNames;
    private final int nq;
    private final int nv;
    private final Map<String, Integer> bodyIndexByName = new HashMap<>();
    private final Map<String, Frame> frameByName = new HashMap<>();
    private final Map<String, Integer> bodyIndexByJointName = new HashMap<>();
    private volatile String contentHash;
    private volatile String sceneHash;
    private volatile ModelInfo info;

    Model(String name, String rootName, String sourcePath, String sourceSha256, double[] gravity,
            List<Body> bodies, List<Frame> frames, List<ConstraintModel> constraints, List<Diagnostic> warnings,
            List<String> qNames, List<String> vNames, List<ParameterModel> parameters,
            List<RigidBodyInertia> ownInertias, List<GroundModel> grounds,
            List<ContactCandidateModel> contactCandidates, List<DeviceSpec> devices,
            List<SourceLocation> deviceLocations, SceneModel scene, List<InitialState> initialStates,
            double[] referenceConfiguration) {
        this.name = name;
        this.rootName = rootName;
        this.sourcePath = sourcePath;
        this.sourceSha256 = sourceSha256;
        this.gravity = gravity.clone();
        this.bodies = List.copyOf(bodies);
        this.frames = List.copyOf(frames);
        this.constraints = List.copyOf(constraints);
        this.grounds = List.copyOf(grounds);
        this.contactCandidates = List.copyOf(contactCandidates);
        this.devices = List.copyOf(devices);
        this.deviceLocations = List.copyOf(deviceLocations);
        this.scene = scene;
        this.warnings = List.copyOf(warnings);
        this.parameters = List.copyOf(parameters);
        this.ownInertias = List.copyOf(ownInertias);
        this.qNames = List.copyOf(qNames);
        this.initialStates = List.copyOf(initialStates);
        this.referenceConfiguration = referenceConfiguration == null ? null : referenceConfiguration.clone();
        this.vNames = List.copyOf(vNames);
        this.nq = qNames.size();
        this.nv = vNames.size();
        for (Body b : bodies) {
            bodyIndexByName.put(b.name(), b.index());
            bodyIndexByJointName.put(b.joint().name(), b.index());
        }
        for (Frame f : frames) {
            frameByName.put(f.name(), f);
        }
    }

    /** A builder for a model of the given name, for models made in code. */
    public static ModelBuilder builder(String name) {
        return new ModelBuilder(name);
    }

    /** The model's name (URDF {@code <robot name>}). */
    public String name() {
        return name;
    }

    /** The name of the root (world) link: the fixed frame bodies with parent -1 hang from. */
    public String rootName() {
        return rootName;
    }

    /** The file the model was read from, or null for a model built in code. */
    public String sourcePath() {
        return sourcePath;
    }

    /** SHA-256 (hex) of the model file's bytes, or null for a model built in code. */
    public String sourceSha256() {
        return sourceSha256;
    }

    /**
     * The model's content hash ({@link ModelHash}): equal for models that compute the same numbers under the same
     * names, whether read from a file or built in code. Computed once.
     */
    public String contentHash() {
        String h = contentHash;
        if (h == null) {
            h = ModelHash.of(this);
            contentHash = h;
        }
        return h;
    }

    /**
     * The hash of what changes contact but no quantity a generated class computes ({@link ModelHash#ofScene}): the
     * grounds, the contact candidates, the collision shapes with their materials and the no-contact pairs; not the
     * visual shapes. With {@link #contentHash()} it identifies everything a simulation with contact depends on.
     */
    public String sceneHash() {
        String h = sceneHash;
        if (h == null) {
            h = ModelHash.ofScene(this);
            sceneHash = h;
        }
        return h;
    }

    /**
     * The links' collision and visual shapes, the no-contact pairs and the Lidars ({@link SceneModel}). Like
     * {@link #grounds()}, they do not enter {@link #contentHash()}; the collision shapes enter {@link #sceneHash()}.
     */
    public SceneModel scene() {
        return scene;
    }

    /** The collision shapes, in declaration order (see {@link #scene()}). */
    public List<CollisionShapeModel> collisionShapes() {
        return scene.collisionShapes();
    }

    /**
     * Whether collision shapes {@code a} and {@code b} of this model may touch: they lie on different bodies (shapes
     * of one rigid body, or two static shapes, never move relative to each other), their links are not the parent
     * and child links of a moving joint (unless the parent is the root: the world is never excluded, so a free
     * object touches the scenery fixed to the world), and no {@link NoContactPair} names their links. Self-collision
     * between non-adjacent links is therefore on by default.
     */
    public boolean mayTouch(CollisionShapeModel a, CollisionShapeModel b) {
        if (a.body() == b.body()) {
            return false;
        }
        CollisionShapeModel child = a.body() > b.body() ? a : b;
        CollisionShapeModel parent = child == a ? b : a;
        Body c = bodies.get(child.body());
        if (c.parentIndex() >= 0 && c.parentIndex() == parent.body() && c.name().equals(child.link())
                && c.joint().parentLink().equals(parent.link())) {
            return false;
        }
        return !scene.excluded(a.link(), b.link());
    }

    /** Gravity in world coordinates (m/s²), a copy. */
    public double[] gravity() {
        return gravity.clone();
    }

    /** Component i of gravity in world coordinates. */
    public double gravity(int i) {
        return gravity[i];
    }

    /** The moving bodies, parents before children. */
    public List<Body> bodies() {
        return bodies;
    }

    public int bodyCount() {
        return bodies.size();
    }

    public Body body(int index) {
        return bodies.get(index);
    }

    /**
     * The index of the moving body of that name; -1 for the root link.
     *
     * @throws IllegalArgumentException if no moving body has that name
     */
    public int bodyIndex(String bodyName) {
        if (bodyName.equals(rootName)) {
            return -1;
        }
        Integer i = bodyIndexByName.get(bodyName);
        if (i == null) {
            throw new IllegalArgumentException("model " + name + " has no moving body named '" + bodyName + "'");
        }
        return i;
    }

    /**
     * The index of the body whose joint has that name.
     *
     * @throws IllegalArgumentException if no joint has that name
     */
    public int bodyIndexOfJoint(String jointName) {
        Integer i = bodyIndexByJointName.get(jointName);
        if (i == null) {
            throw new IllegalArgumentException("model " + name + " has no movable joint named '" + jointName + "'");
        }
        return i;
    }

    /** Every named frame: each link of the model file, in document order. */
    public List<Frame> frames() {
        return frames;
    }

    /**
     * The frame of that name.
     *
     * @throws IllegalArgumentException if there is none
     */
    public Frame frame(String frameName) {
        Frame f = frameByName.get(frameName);
        if (f == null) {
            throw new IllegalArgumentException("model " + name + " has no frame named '" + frameName + "'");
        }
        return f;
    }

    /** True if a frame of that name exists. */
    public boolean hasFrame(String frameName) {
        return frameByName.containsKey(frameName);
    }

    /** The constraints, in declaration order. */
    public List<ConstraintModel> constraints() {
        return constraints;
    }

    /**
     * The grounds (half-spaces fixed in the world) unilateral contacts may touch, in declaration order. They do not
     * enter {@link #contentHash()}: they change no quantity a generated class computes.
     */
    public List<GroundModel> grounds() {
        return grounds;
    }

    /** The unilateral contact candidates (points and spheres on bodies), in declaration order; see {@link #grounds()}. */
    public List<ContactCandidateModel> contactCandidates() {
        return contactCandidates;
    }

    /**
     * The declared actuators and sensors ({@code <symdyn:servo>}, {@code motor}, {@code torque_source},
     * {@code spring}, {@code imu}, {@code encoder}), in declaration order (unmodifiable), resolved against the model:
     * joints to their q and v indices, links to body indices with a fixed link's placement folded into the IMU's
     * pose or the spring's points (body −1, the root link, with points in world coordinates). Like
     * {@link #grounds()}, they do not enter {@link #contentHash()}: they change no quantity a generated class
     * computes from q and v.
     */
    public List<DeviceSpec> devices() {
        return devices;
    }

    /**
     * Where the device of that name was declared ({@link SourceLocation#UNKNOWN} when built in code without one).
     *
     * @throws IllegalArgumentException if the model declares no device of that name
     */
    public SourceLocation deviceLocation(String deviceName) {
        for (int k = 0; k < devices.size(); k++) {
            if (devices.get(k).name().equals(deviceName)) {
                return deviceLocations.get(k);
            }
        }
        throw new IllegalArgumentException("model " + name + " declares no device named '" + deviceName + "'");
    }

    /** Total number of constraint rows. */
    public int constraintRowCount() {
        int n = 0;
        for (ConstraintModel c : constraints) {
            n += c.rowCount();
        }
        return n;
    }

    /**
     * The named initial states (MJCF keyframes), in declaration order. Like {@link #grounds()}, they do not enter
     * {@link #contentHash()}: they change no quantity a generated class computes.
     */
    public List<InitialState> initialStates() {
        return initialStates;
    }

    /**
     * The initial state of that name.
     *
     * @throws IllegalArgumentException if there is none
     */
    public InitialState initialState(String stateName) {
        for (InitialState s : initialStates) {
            if (s.name().equals(stateName)) {
                return s;
            }
        }
        throw new IllegalArgumentException("model " + name + " has no initial state named '" + stateName + "'"
                + (initialStates.isEmpty() ? "" : " (it has " + String.join(", ", initialStates.stream()
                        .map(InitialState::name).toList()) + ")"));
    }

    /** The numbers generated code keeps as settable parameters, in declaration order. */
    public List<ParameterModel> parameters() {
        return parameters;
    }

    /**
     * This model with its parameters ({@link #parameters()}) at other values: what a class generated from it
     * computes after {@code setParameter(k, values[k])} for every k, and what the interpreter evaluates then. A link
     * field replaces that number of the body's own link (its merged body inertia is the other merged links' plus the
     * new own one, added about the body's origin, where m, m c and the rotational inertia add); an origin field moves
     * the joint along its direction by the change; an armature field sets the joint's armature. Everything else
     * (names, frames, shapes, constraints, devices, source) is this model's; the content hash counts the new values.
     * Values equal to the current ones give this model itself.
     *
     * @param values one value per parameter, in declaration order (SI units)
     * @throws IllegalArgumentException for a wrong count or a value that is not finite, naming the parameter, or
     *                                  values that make a link's inertia no physical body (a negative mass or
     *                                  principal moment), naming the link, or a negative armature
     *                                  ({@link #parameterRules()})
     */
    public Model withParameters(double[] values) {
        if (values.length != parameters.size()) {
            throw new IllegalArgumentException("model " + name + " has " + parameters.size() + " parameters, "
                    + values.length + " values given");
        }
        boolean same = true;
        for (int k = 0; k < values.length; k++) {
            same &= Double.compare(values[k], parameters.get(k).value()) == 0;
        }
        if (same) {
            return this;
        }
        parameterRules().checkAll(values); // the rules a generated class's setParameter applies
        List<Body> newBodies = new java.util.ArrayList<>(bodies);
        List<RigidBodyInertia> newOwn = new java.util.ArrayList<>(ownInertias);
        List<ParameterModel> newParameters = new java.util.ArrayList<>();
        // link fields first, body by body: (m, c, I_c) of the own link with every field of that body replaced
        java.util.Map<Integer, double[]> ownNumbers = new java.util.TreeMap<>();
        for (int k = 0; k < values.length; k++) {
            ParameterModel p = parameters.get(k);
            newParameters.add(new ParameterModel(p.name(), p.field(), p.body(), values[k], p.direction(),
                    p.location()));
            if (!p.field().isLinkField()) {
                continue;
            }
            double[] n = ownNumbers.computeIfAbsent(p.body(), b -> ownInertias.get(b).numbers());
            for (int slot : p.field().inertiaSlots()) {
                n[slot] = values[k];
            }
        }
        for (java.util.Map.Entry<Integer, double[]> e : ownNumbers.entrySet()) {
            int b = e.getKey();
            double[] n = e.getValue();
            RigidBodyInertia own = RigidBodyInertia.of(n[0], java.util.Arrays.copyOfRange(n, 1, 4),
                    java.util.Arrays.copyOfRange(n, 4, 13));
            Body body = newBodies.get(b);
            RigidBodyInertia merged = RigidBodyInertia.replacing(body.inertia(), ownInertias.get(b), own);
            newOwn.set(b, own);
            newBodies.set(b, new Body(body.index(), body.name(), body.parentIndex(), body.joint(), merged,
                    body.location()));
        }
        for (int k = 0; k < values.length; k++) {
            ParameterModel p = parameters.get(k);
            if (p.field().isLinkField()) {
                continue;
            }
            Body body = newBodies.get(p.body());
            Joint j = body.joint();
            Joint changed;
            if (p.field() == ParameterModel.Field.ARMATURE) {
                changed = new Joint(j.name(), j.type(), j.axis(), j.placement(), j.lower(), j.upper(), j.qIndex(),
                        j.vIndex(), values[k], j.damping(), j.parentLink(), j.location());
            } else {
                double[] t = j.placement().translationArray();
                double[] d = p.direction();
                double delta = values[k] - p.value();
                for (int r = 0; r < 3; r++) {
                    t[r] += d[r] * delta;
                }
                changed = new Joint(j.name(), j.type(), j.axis(), Pose.of(j.placement().rotationArray(), t),
                        j.lower(), j.upper(), j.qIndex(), j.vIndex(), j.armature(), j.damping(), j.parentLink(),
                        j.location());
            }
            newBodies.set(p.body(), new Body(body.index(), body.name(), body.parentIndex(), changed, body.inertia(),
                    body.location()));
        }
        return new Model(name, rootName, sourcePath, sourceSha256, gravity, newBodies, frames, constraints, warnings,
                qNames, vNames, newParameters, newOwn, grounds, contactCandidates, devices, deviceLocations, scene,
                initialStates, referenceConfiguration);
    }

    /**
     * The physical rules new values of this model's parameters must keep, as {@link #withParameters} and a generated
     * class's {@code setParameter} apply them: each link's own inertial as declared, with the places of its
     * parameters; the armatures.
     */
    public ParameterRules parameterRules() {
        int n = parameters.size();
        String[] names = new String[n];
        String[] links = new String[n];
        int[][] slots = new int[n][];
        boolean[] armature = new boolean[n];
        double[][] numbers = new double[n][];
        for (int k = 0; k < n; k++) {
            ParameterModel p = parameters.get(k);
            names[k] = p.name();
            slots[k] = p.field().inertiaSlots();
            armature[k] = p.field() == ParameterModel.Field.ARMATURE;
            if (p.field().isLinkField()) {
                links[k] = bodies.get(p.body()).name();
                numbers[k] = ownInertias.get(p.body()).numbers();
            }
        }
        return new ParameterRules(names, links, slots, armature, numbers);
    }

    /**
     * This model without its bilateral constraints ({@link #constraints()}: loops, {@code symdyn:contact} rows,
     * couplings): the same bodies, frames, parameters, scene, grounds, contact points, devices and initial states; the
     * content hash counts the change. For a run that leaves out rows meant for another use, such as a standing demo's
     * foot rows where a simulation's floor pushes the feet ({@code symdyn simulate --no-constraints}). A model without
     * constraints gives itself.
     */
    public Model withoutConstraints() {
        if (constraints.isEmpty()) {
            return this;
        }
        return new Model(name, rootName, sourcePath, sourceSha256, gravity, bodies, frames, List.of(), warnings,
                qNames, vNames, parameters, ownInertias, grounds, contactCandidates, devices, deviceLocations, scene,
                initialStates, referenceConfiguration);
    }

    /**
     * The inertia of a body's own link in the body frame, without the links merged into it by fixed joints
     * ({@link Body#inertia()} includes them).
     */
    public RigidBodyInertia ownInertia(int body) {
        return ownInertias.get(body);
    }

    /** Warnings found while reading or building (accepted problems, such as a violated triangle inequality). */
    public List<Diagnostic> warnings() {
        return warnings;
    }

    /**
     * What the contract's {@link ModelInfo} says about this model (names, sizes, tree and coordinate layout, content
     * hash), as a generated class or {@code GenericDynamics} would answer it, without building either: for code that
     * takes a {@code ModelInfo} (actuation maps, state spaces) and is given the model.
     */
    public ModelInfo info() {
        ModelInfo i = info;
        if (i == null) {
            i = new ModelInfoView(this);
            info = i;
        }
        return i;
    }

    /** Number of position coordinates. */
    public int nq() {
        return nq;
    }

    /** Number of velocity coordinates (degrees of freedom). */
    public int nv() {
        return nv;
    }

    /** The name of each position coordinate (see the naming rules in {@link ModelBuilder}). */
    public List<String> qNames() {
        return qNames;
    }

    /** The name of each velocity coordinate. */
    public List<String> vNames() {
        return vNames;
    }

    /** True if some body moves on a {@link JointType#FLOATING} joint. */
    public boolean hasFloatingBase() {
        for (Body b : bodies) {
            if (b.joint().type() == JointType.FLOATING) {
                return true;
            }
        }
        return false;
    }

    /** Parent index of each body (-1 for the root), a fresh array. */
    public int[] parents() {
        int[] p = new int[bodies.size()];
        for (Body b : bodies) {
            p[b.index()] = b.parentIndex();
        }
        return p;
    }

    /**
     * The configuration a simulation starts from when none is given: the pose the model file
     * itself places the bodies in. For an MJCF file MuJoCo's qpos0 (free bodies at their XML pose, hinges and
     * slides at their {@code ref}, ball joints at the identity), for an SDFormat file its floating links at their
     * poses and every joint at zero: what the neutral configuration is not (a free body at the world's origin,
     * inside the floor of most scenes); for others (URDF, code) the {@link #neutralConfiguration()}.
     * Like {@link #initialStates()} it does not enter {@link #contentHash()}. A fresh array.
     */
    public double[] referenceConfiguration() {
        return referenceConfiguration == null ? neutralConfiguration() : referenceConfiguration.clone();
    }

    /** The neutral configuration: zero joint positions and identity quaternions. */
    public double[] neutralConfiguration() {
        double[] q = new double[nq];
        for (Body b : bodies) {
            Joint j = b.joint();
            if (j.type().hasQuaternion()) {
                q[j.quaternionIndex() + 3] = 1; // w
            }
        }
        return q;
    }

    /** The dof tree λ of the velocity coordinates ({@link DofTree}). A fresh array. */
    public int[] dofParents() {
        int n = bodies.size();
        int[] parent = new int[n];
        int[] vIndex = new int[n];
        int[] jointNv = new int[n];
        for (int b = 0; b < n; b++) {
            parent[b] = bodies.get(b).parentIndex();
            vIndex[b] = bodies.get(b).joint().vIndex();
            jointNv[b] = bodies.get(b).joint().nv();
        }
        return DofTree.parents(nv, parent, vIndex, jointNv);
    }

    @Override
    public String toString() {
        return "Model{" + name + ", bodies=" + bodies.size() + ", nq=" + nq + ", nv=" + nv + ", constraints="
                + constraints.size() + "}";
    }

}
