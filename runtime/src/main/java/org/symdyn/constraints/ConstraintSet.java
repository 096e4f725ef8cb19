package org.symdyn.constraints;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.contract.ConstraintFunctions;
import org.symdyn.contract.Dynamics;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.contract.Kinematics;
import org.symdyn.model.ConstraintModel;
import org.symdyn.model.ContactConstraintModel;
import org.symdyn.model.CouplerConstraintModel;
import org.symdyn.model.LineOnLineConstraintModel;
import org.symdyn.model.LoopConstraintModel;
import org.symdyn.model.Model;
import org.symdyn.spatial.Pose;

/**
 * The constraints of one mechanism and the workspaces of the constrained solvers (RBDL's ConstraintSet). Rows are
 * organised in {@link ConstraintGroup groups}: one per constraint of the {@link Model} (evaluated by the model's
 * {@link ConstraintFunctions}, generic or generated), then the groups added in code (contacts, loops, couplers and
 * custom rows, evaluated through {@link Kinematics}). Contacts on the same body point, and loops between the same
 * frames with the same Baumgarte settings, share a group, as in RBDL.
 *
 * <p>The stacked rows define φ(q) (position error), φ̇(q, v) (velocity error), G(q) (m x nv) and γ(q, v), with
 * G v̇ = γ, γ = -Ġ v plus -2α φ̇ - β² φ on the rows of groups with Baumgarte stabilisation enabled. The equations of
 * motion are H v̇ + C = τ + Gᵀ λ (λ the generalised constraint forces along the rows of G, stored in
 * {@link #force()}), solved as [H Gᵀ; G 0][v̇; -λ] = [τ - C; γ]; impulses solve [H Gᵀ; G 0][v⁺; Λ] = [H v⁻; v⁺_target]
 * (Λ in {@link #impulse()}, so H (v⁺ - v⁻) = -Gᵀ Λ). The solvers are in {@code org.symdyn.solvers}.
 *
 * <p>Life cycle: build with {@link #of(Model)} or {@link #empty(Model)}, add constraints, then {@link #bind} once
 * to a dynamics and kinematics implementation of the same model: every workspace is allocated there and nothing
 * allocates afterwards (name and id lookups aside). Adding after binding is an error. An instance is not
 * thread-safe: build one set (and its solvers) per thread.
 */
public final class ConstraintSet {
    /** The user-defined id of a constraint added without one. */
    public static final int NO_ID = -1;

    private final Model model;
    private final int nq;
    private final int nv;
    private final List<ConstraintGroup> groups = new ArrayList<>();
    private final Map<String, Integer> groupByName = new HashMap<>();
    private final Map<Integer, Integer> groupByUserId = new HashMap<>();
    private final Map<Integer, Integer> groupByAssignedId = new HashMap<>();
    private final Set<String> rowNameSet = new HashSet<>();
    private final ModelFunctionRows modelRows;
    private final int modelGroupCount;
    private final SolverSettings settings = new SolverSettings();
    private int nextAssignedId;

    private boolean bound;
    private Dynamics dynamics;
    private Kinematics kinematics;
    private int m;
    private ConstraintGroup[] groupArray;
    private String[] rowNames;
    private DMatrixRMaj h;
    private double[] c;
    private DMatrixRMaj g;
    private double[] gamma;
    private double[] force;
    private double[] impulse;
    private double[] impulseTarget;
    private double[] stabPhi;
    private double[] stabPhidot;
    private double[] scratchRows;

    private ConstraintSet(Model model, boolean withModelConstraints) {
        this.model = model;
        this.nq = model.nq();
        this.nv = model.nv();
        int rows = 0;
        if (withModelConstraints) {
            for (ConstraintModel cm : model.constraints()) {
                ConstraintGroup group = newGroup(cm.name(), typeOf(cm), NO_ID, null, cm);
                registerRows(group, cm.name(), cm.rowCount());
                if (!Double.isNaN(cm.baumgarteTimeConstant())) {
                    group.setBaumgarteTimeConstant(cm.baumgarteTimeConstant());
                    group.enableBaumgarte();
                }
                rows += cm.rowCount();
            }
        }
        modelGroupCount = groups.size();
        modelRows = modelGroupCount > 0 ? new ModelFunctionRows(rows) : null;
    }

    /** A set with one group per constraint of {@code model} (names, types and Baumgarte settings from it). */
    public static ConstraintSet of(Model model) {
        return new ConstraintSet(model, true);
    }

    /** A set without the model's constraints, for constraints added in code only. */
    public static ConstraintSet empty(Model model) {
        return new ConstraintSet(model, false);
    }

    private static ConstraintType typeOf(ConstraintModel cm) {
        if (cm instanceof LoopConstraintModel) {
            return ConstraintType.LOOP;
        } else if (cm instanceof ContactConstraintModel) {
            return ConstraintType.CONTACT;
        } else if (cm instanceof CouplerConstraintModel) {
            return ConstraintType.COUPLER;
        } else if (cm instanceof LineOnLineConstraintModel) {
            return ConstraintType.LINE_ON_LINE;
        }
        throw new IllegalArgumentException("unknown constraint kind " + cm.getClass().getName());
    }

    // ---------------------------------------------------------------- adding constraints

    /** {@link #addContact(int, double[], double[], String, int)} without a name or id. */
    public int addContact(int body, double[] bodyPoint, double[] worldNormal) {
        return addContact(body, bodyPoint, worldNormal, null, NO_ID);
    }

    /**
     * Holds a body point along a world direction: one row with φ = 0, G = nᵀ J_p, γ = -n · p̈(v̇ = 0); λ is the
     * force (N) along n on the body (see {@link ContactRows}). Joins the group of an earlier contact on the same
     * body at exactly the same point.
     *
     * @param body        a moving body's index
     * @param bodyPoint   the point in body coordinates
     * @param worldNormal a unit vector in world coordinates
     * @param name        a name unique in the set, or null for {@code contact#<assigned id>}
     * @param userId      an id unique in the set, or {@link #NO_ID}
     * @return the assigned id: the number of rows added to the set before this one (a handle for
     *         {@link #getGroupIndexByAssignedId}, not a row index)
     */
    public int addContact(int body, double[] bodyPoint, double[] worldNormal, String name, int userId) {
        checkNotBound();
        checkBody(body, false, "contact");
        if (worldNormal == null || worldNormal.length != 3) {
            throw new IllegalArgumentException("contact normal must have 3 coordinates");
        }
        double n = Math.sqrt(worldNormal[0] * worldNormal[0] + worldNormal[1] * worldNormal[1]
                + worldNormal[2] * worldNormal[2]);
        if (!(Math.abs(n - 1) <= 1e-9)) {
            throw new IllegalArgumentException("contact normal must be a unit vector, |n| = " + n);
        }
        checkNameAndId(name, userId);
        for (ConstraintGroup group : groups) {
            if (group.rows() instanceof ContactRows cr && cr.isAt(body, bodyPoint)) {
                cr.addNormal(worldNormal);
                return addRowsToGroup(group, name, userId, 1);
            }
        }
        ContactRows rows = new ContactRows(body, bodyPoint, worldNormal);
        return addGroup(rows, name, userId);
    }

    /** {@link #addLoop(int, Pose, int, Pose, List, boolean, double, String, int)} for one axis, no stabilisation. */
    public int addLoop(int predecessorBody, Pose predecessorFrame, int successorBody, Pose successorFrame,
            double[] axis) {
        return addLoop(predecessorBody, predecessorFrame, successorBody, successorFrame, List.of(axis), false,
                ConstraintGroup.DEFAULT_TIME_CONSTANT, null, NO_ID);
    }

    /**
     * Holds frame S of the successor on frame P of the predecessor along spatial axes [angular; linear] in P, one
     * row each (see {@link LoopRows} for φ, G and γ; λ_k is the generalised force along axis k, applied as a wrench
     * on the successor at S and its opposite on the predecessor at P). Joins an existing loop group between the
     * same bodies and frames with the same Baumgarte settings.
     *
     * @param predecessorBody  body index, -1 for the world
     * @param predecessorFrame P in the predecessor's frame
     * @param successorBody    body index, -1 for the world
     * @param successorFrame   S in the successor's frame
     * @param axes             one or more 6-vectors [angular; linear] in P
     * @param baumgarte        whether the group starts with Baumgarte stabilisation on
     * @param timeConstant     T_stab (s), α = β = 1/T_stab
     * @param name             a name unique in the set (rows named name[k] when several axes are given), or null
     * @param userId           an id unique in the set, or {@link #NO_ID}
     * @return the assigned id of the first added row
     */
    public int addLoop(int predecessorBody, Pose predecessorFrame, int successorBody, Pose successorFrame,
            List<double[]> axes, boolean baumgarte, double timeConstant, String name, int userId) {
        checkNotBound();
        checkBody(predecessorBody, true, "loop predecessor");
        checkBody(successorBody, true, "loop successor");
        if (axes == null || axes.isEmpty()) {
            throw new IllegalArgumentException("a loop needs at least one axis");
        }
        if (!(timeConstant > 0) || Double.isInfinite(timeConstant)) {
            throw new IllegalArgumentException("Baumgarte time constant must be positive, got " + timeConstant);
        }
        checkNameAndId(name, userId);
        for (ConstraintGroup group : groups) {
            if (group.rows() instanceof LoopRows lr
                    && lr.joins(predecessorBody, predecessorFrame, successorBody, successorFrame)
                    && group.isBaumgarteEnabled() == baumgarte && group.baumgarteTimeConstant() == timeConstant) {
                for (double[] a : axes) {
                    lr.addAxis(a);
                }
                return addRowsToGroup(group, name, userId, axes.size());
            }
        }
        LoopRows rows = new LoopRows(predecessorBody, predecessorFrame, successorBody, successorFrame, axes.get(0));
        for (int k = 1; k < axes.size(); k++) {
            rows.addAxis(axes.get(k));
        }
        int id = addGroup(rows, name, userId);
        ConstraintGroup group = groups.get(groups.size() - 1);
        group.setBaumgarteTimeConstant(timeConstant);
        if (baumgarte) {
            group.enableBaumgarte();
        }
        return id;
    }

    /**
     * Couples two single-dof joints, q_j = ratio q_r + offset (see {@link CouplerRows}); its own group.
     *
     * @param jointBody     the body whose joint is driven
     * @param referenceBody the body whose joint drives it
     * @return the assigned id
     */
    public int addCoupler(int jointBody, int referenceBody, double ratio, double offset, String name, int userId) {
        checkNotBound();
        checkNameAndId(name, userId);
        return addGroup(new CouplerRows(model, jointBody, referenceBody, ratio, offset), name, userId);
    }

    /** Adds a user constraint as its own group (RBDL's AddCustomConstraint); Baumgarte off. */
    public int addCustom(CustomConstraint constraint, String name, int userId) {
        return addRows(constraint, name, userId);
    }

    /**
     * Adds any row provider as its own group of type {@link ConstraintRows#type()} (the way new constraint kinds,
     * such as line-on-line contact, join a set). Its row count must not change until {@link #bind}.
     *
     * @return the assigned id of its first row
     */
    public int addRows(ConstraintRows rows, String name, int userId) {
        checkNotBound();
        if (rows.rowCount() <= 0) {
            throw new IllegalArgumentException("a constraint group needs at least one row");
        }
        for (ConstraintGroup group : groups) {
            if (group.rows() == rows) {
                throw new IllegalArgumentException("these rows were already added as group '" + group.name() + "'");
            }
        }
        checkNameAndId(name, userId);
        return addGroup(rows, name, userId);
    }

    private int addGroup(ConstraintRows rows, String name, int userId) {
        int assigned = nextAssignedId;
        String groupName = name != null ? name : defaultName(rows.type(), assigned);
        ConstraintGroup group = newGroup(groupName, rows.type(), userId, rows, null);
        if (userId != NO_ID) {
            groupByUserId.put(userId, group.index());
        }
        registerRows(group, name, rows.rowCount());
        return assigned;
    }

    private ConstraintGroup newGroup(String name, ConstraintType type, int userId, ConstraintRows rows,
            ConstraintModel cm) {
        if (groupByName.containsKey(name)) {
            throw new IllegalArgumentException("duplicate constraint name '" + name + "'");
        }
        ConstraintGroup group = new ConstraintGroup(groups.size(), name, type, userId, nextAssignedId, rows, cm);
        groups.add(group);
        groupByName.put(name, group.index());
        return group;
    }

    private int addRowsToGroup(ConstraintGroup group, String name, int userId, int count) {
        int assigned = nextAssignedId;
        if (name != null) {
            groupByName.put(name, group.index());
        }
        if (userId != NO_ID) {
            groupByUserId.put(userId, group.index());
        }
        registerRows(group, name, count);
        return assigned;
    }

    /** Names the rows of one add call and consumes their assigned ids. */
    private void registerRows(ConstraintGroup group, String name, int count) {
        for (int k = 0; k < count; k++) {
            int assigned = nextAssignedId++;
            String rowName;
            if (name == null) {
                rowName = defaultName(group.type(), assigned);
            } else {
                rowName = count == 1 ? name : name + "[" + k + "]";
            }
            if (!rowNameSet.add(rowName)) {
                throw new IllegalArgumentException("duplicate constraint row name '" + rowName + "'");
            }
            group.addRowName(rowName);
            groupByAssignedId.put(assigned, group.index());
        }
    }

    private static String defaultName(ConstraintType type, int assigned) {
        return type.name().toLowerCase(java.util.Locale.ROOT) + "#" + assigned;
    }

    private void checkNameAndId(String name, int userId) {
        if (name != null && (groupByName.containsKey(name) || rowNameSet.contains(name))) {
            throw new IllegalArgumentException("duplicate constraint name '" + name + "'");
        }
        if (userId != NO_ID && groupByUserId.containsKey(userId)) {
            throw new IllegalArgumentException("duplicate constraint id " + userId);
        }
    }

    private void checkBody(int body, boolean worldAllowed, String what) {
        if (body < (worldAllowed ? -1 : 0) || body >= model.bodyCount()) {
            throw new IllegalArgumentException(what + ": body index " + body + " is not a "
                    + (worldAllowed ? "body or the world (-1)" : "moving body") + " of model '" + model.name() + "'");
        }
    }

    private void checkNotBound() {
        if (bound) {
            throw new IllegalStateException("the constraint set is bound: constraints can no longer be added");
        }
    }

    // ---------------------------------------------------------------- binding

    /**
     * Binds the set to implementations of its model and allocates every workspace. {@code functions} evaluates the
     * model's own constraints and may be null only when the set has none.
     *
     * @throws IllegalArgumentException if an implementation does not match the model
     * @throws IllegalStateException    if already bound
     */
    public void bind(Dynamics dyn, Kinematics kin, ConstraintFunctions functions) {
        if (bound) {
            throw new IllegalStateException("the constraint set is already bound");
        }
        checkSameModel(dyn.nq(), dyn.nv(), dyn.bodyCount(), "dynamics");
        checkSameModel(kin.nq(), kin.nv(), kin.bodyCount(), "kinematics");
        if (modelRows != null) {
            if (functions == null) {
                throw new IllegalArgumentException("the set has the model's constraints: give their functions");
            }
            checkSameModel(functions.nq(), functions.nv(), functions.bodyCount(), "constraint functions");
        }
        int offset = 0;
        for (ConstraintGroup group : groups) {
            group.setRowOffset(offset);
            offset += group.size();
        }
        for (ConstraintGroup group : groups) {
            if (group.rows() != null) {
                group.rows().bind(kin);
                if (group.rows().rowCount() != group.size()) {
                    throw new IllegalStateException("group '" + group.name() + "' was added with " + group.size()
                            + " rows and has " + group.rows().rowCount() + " now");
                }
            } else {
                group.resolver = resolverFor(group.modelConstraint());
                if (group.resolver != null) {
                    group.resolver.bind(kin);
                }
            }
        }
        if (modelRows != null) {
            modelRows.bind(functions, nv);
        }
        m = offset;
        groupArray = groups.toArray(new ConstraintGroup[0]);
        rowNames = new String[m];
        for (ConstraintGroup group : groups) {
            for (int k = 0; k < group.size(); k++) {
                rowNames[group.rowOffset() + k] = group.rowNames().get(k);
            }
        }
        h = new DMatrixRMaj(nv, nv);
        c = new double[nv];
        g = new DMatrixRMaj(m, nv);
        gamma = new double[m];
        force = new double[m];
        impulse = new double[m];
        impulseTarget = new double[m];
        stabPhi = new double[m];
        stabPhidot = new double[m];
        scratchRows = new double[m];
        dynamics = dyn;
        kinematics = kin;
        bound = true;
    }

    /** Binds without model constraint functions (the set must have no model groups). */
    public void bind(Dynamics dyn, Kinematics kin) {
        bind(dyn, kin, null);
    }

    /**
     * Binds to the generic interpreter of the model ({@link GenericDynamics}, {@link GenericConstraints}) and
     * returns this set.
     */
    public ConstraintSet bindGeneric() {
        GenericDynamics generic = new GenericDynamics(model);
        bind(generic, generic, modelRows != null ? new GenericConstraints(model) : null);
        return this;
    }

    private ConstraintRows resolverFor(ConstraintModel cm) {
        if (cm instanceof LoopConstraintModel loop) {
            return LoopRows.of(loop);
        } else if (cm instanceof ContactConstraintModel contact) {
            return ContactRows.of(contact);
        } else if (cm instanceof CouplerConstraintModel coupler) {
            return CouplerRows.of(model, coupler);
        } else if (cm instanceof LineOnLineConstraintModel lineOnLine) {
            return LineOnLineRows.of(lineOnLine);
        }
        return null;
    }

    private void checkSameModel(int otherNq, int otherNv, int otherBodies, String what) {
        if (otherNq != nq || otherNv != nv || otherBodies != model.bodyCount()) {
            throw new IllegalArgumentException("the " + what + " (nq " + otherNq + ", nv " + otherNv + ", "
                    + otherBodies + " bodies) do not match model '" + model.name() + "' (nq " + nq + ", nv " + nv
                    + ", " + model.bodyCount() + " bodies)");
        }
    }

    /** True once {@link #bind} has run. */
    public boolean isBound() {
        return bound;
    }

    private void checkBound() {
        if (!bound) {
            throw new IllegalStateException("bind the constraint set first");
        }
    }

    // ---------------------------------------------------------------- sizes and metadata

    /** The model. */
    public Model model() {
        return model;
    }

    /** The bound dynamics. */
    public Dynamics dynamics() {
        checkBound();
        return dynamics;
    }

    /** The bound kinematics. */
    public Kinematics kinematics() {
        checkBound();
        return kinematics;
    }

    /** The solver settings of this set (factorisations, rank policy). */
    public SolverSettings settings() {
        return settings;
    }

    /** Number of constraint rows m (all groups). */
    public int size() {
        if (bound) {
            return m;
        }
        int n = 0;
        for (ConstraintGroup group : groups) {
            n += group.size();
        }
        return n;
    }

    /** Number of position coordinates of the model. */
    public int nq() {
        return nq;
    }

    /** Number of velocity coordinates of the model. */
    public int nv() {
        return nv;
    }

    /** Name of row i (bound sets only). */
    public String rowName(int row) {
        checkBound();
        return rowNames[row];
    }

    /** Names of all rows in row order (bound sets only). */
    public List<String> rowNames() {
        checkBound();
        return Collections.unmodifiableList(Arrays.asList(rowNames));
    }

    // ---------------------------------------------------------------- groups

    /** Number of groups. */
    public int groupCount() {
        return groups.size();
    }

    /** The largest valid group index (groupCount - 1), as RBDL's getGroupIndexMax. */
    public int getGroupIndexMax() {
        return groups.size() - 1;
    }

    /** The group at an index. */
    public ConstraintGroup group(int groupIndex) {
        if (groupIndex < 0 || groupIndex >= groups.size()) {
            throw new IndexOutOfBoundsException("constraint group " + groupIndex + " of " + groups.size());
        }
        return groups.get(groupIndex);
    }

    /**
     * The group that a constraint of this name (a model constraint's name, or a name given when adding) belongs
     * to.
     *
     * @throws IllegalArgumentException if there is none
     */
    public int getGroupIndexByName(String name) {
        Integer i = groupByName.get(name);
        if (i == null) {
            throw new IllegalArgumentException("no constraint named '" + name + "'; groups: " + groupByName.keySet());
        }
        return i;
    }

    /**
     * The group of the constraint added with this user-defined id.
     *
     * @throws IllegalArgumentException if there is none
     */
    public int getGroupIndexById(int userId) {
        Integer i = groupByUserId.get(userId);
        if (i == null) {
            throw new IllegalArgumentException("no constraint with user id " + userId);
        }
        return i;
    }

    /**
     * The group of the row with this assigned id (the value an add method returned, or any later row of the same
     * call).
     *
     * @throws IllegalArgumentException if there is none
     */
    public int getGroupIndexByAssignedId(int assignedId) {
        Integer i = groupByAssignedId.get(assignedId);
        if (i == null) {
            throw new IllegalArgumentException("no constraint with assigned id " + assignedId);
        }
        return i;
    }

    /** The group's name (its first constraint's). */
    public String getGroupName(int groupIndex) {
        return group(groupIndex).name();
    }

    /** Number of rows of the group. */
    public int getGroupSize(int groupIndex) {
        return group(groupIndex).size();
    }

    /** The group's type. */
    public ConstraintType getGroupType(int groupIndex) {
        return group(groupIndex).type();
    }

    /** The user-defined id of the group's first constraint ({@link #NO_ID} if none). */
    public int getGroupId(int groupIndex) {
        return group(groupIndex).userId();
    }

    /** The assigned id of the group's first row. */
    public int getGroupAssignedId(int groupIndex) {
        return group(groupIndex).assignedId();
    }

    /** Index of the group's first row in G, γ, φ, λ (bound sets only). */
    public int getGroupRowOffset(int groupIndex) {
        checkBound();
        return group(groupIndex).rowOffset();
    }

    // ---------------------------------------------------------------- Baumgarte per group

    /** True if the group's γ carries -2α φ̇ - β² φ. */
    public boolean isBaumgarteStabilizationEnabled(int groupIndex) {
        return group(groupIndex).isBaumgarteEnabled();
    }

    /** Turns the group's stabilisation on. */
    public void enableBaumgarteStabilization(int groupIndex) {
        group(groupIndex).enableBaumgarte();
    }

    /** Turns the group's stabilisation off. */
    public void disableBaumgarteStabilization(int groupIndex) {
        group(groupIndex).disableBaumgarte();
    }

    /** Sets the group's α = β = 1/T (s). */
    public void setBaumgarteTimeConstant(int groupIndex, double timeConstant) {
        group(groupIndex).setBaumgarteTimeConstant(timeConstant);
    }

    /** Sets the group's α and β directly. */
    public void setBaumgarteStabilizationCoefficients(int groupIndex, double alpha, double beta) {
        group(groupIndex).setBaumgarteCoefficients(alpha, beta);
    }

    /** out[0] = α (velocity coefficient), out[1] = β (position coefficient). */
    public void getBaumgarteStabilizationCoefficients(int groupIndex, double[] out) {
        ConstraintGroup group = group(groupIndex);
        out[0] = group.baumgarteAlpha();
        out[1] = group.baumgarteBeta();
    }

    /** The group's term -2α φ̇ - β² φ for its errors φ, φ̇ (group-sized arrays) into {@code out}. */
    public void calcBaumgarteStabilizationForces(int groupIndex, double[] phi, double[] phidot, double[] out) {
        group(groupIndex).baumgarteTerm(phi, phidot, out);
    }

    // ---------------------------------------------------------------- evaluation

    /** φ(q) of every row into {@code phi} (m entries). Contact rows are 0. */
    public void calcPositionError(double[] q, double[] phi) {
        checkBound();
        if (modelRows != null) {
            modelRows.positionError(q, phi);
        }
        for (int i = modelGroupCount; i < groupArray.length; i++) {
            groupArray[i].rows().positionError(q, phi, groupArray[i].rowOffset());
        }
    }

    /** φ̇(q, v) of every row (G v for holonomic rows) into {@code phidot} (m entries). */
    public void calcVelocityError(double[] q, double[] v, double[] phidot) {
        checkBound();
        if (modelRows != null) {
            modelRows.velocityError(q, v, phidot);
        }
        for (int i = modelGroupCount; i < groupArray.length; i++) {
            groupArray[i].rows().velocityError(q, v, phidot, groupArray[i].rowOffset());
        }
    }

    /** G(q) (m x nv) into {@code out}. */
    public void calcJacobian(double[] q, DMatrixRMaj out) {
        checkBound();
        if (out.numRows != m || out.numCols != nv) {
            throw new IllegalArgumentException("G must be " + m + "x" + nv + ", got " + out.numRows + "x"
                    + out.numCols);
        }
        if (modelRows != null) {
            modelRows.jacobian(q, out);
        }
        for (int i = modelGroupCount; i < groupArray.length; i++) {
            groupArray[i].rows().jacobian(q, out, groupArray[i].rowOffset());
        }
    }

    /**
     * γ(q, v) of every row into {@code out} (m entries): -Ġ v, plus -2α φ̇ - β² φ on the rows of groups with
     * Baumgarte stabilisation enabled. This is the right-hand side the solvers use.
     */
    public void calcGamma(double[] q, double[] v, double[] out) {
        checkBound();
        if (modelRows != null) {
            modelRows.gamma(q, v, out);
            // Settings may change between calls (also through ConstraintGroup): look, do not cache.
            boolean anyModelGroupStabilised = false;
            for (int i = 0; i < modelGroupCount; i++) {
                anyModelGroupStabilised |= groupArray[i].isBaumgarteEnabled();
            }
            if (anyModelGroupStabilised) {
                modelRows.positionError(q, stabPhi);
                modelRows.velocityError(q, v, stabPhidot);
            }
        }
        for (int i = modelGroupCount; i < groupArray.length; i++) {
            ConstraintGroup group = groupArray[i];
            group.rows().gamma(q, v, out, group.rowOffset());
            if (group.isBaumgarteEnabled()) {
                group.rows().positionError(q, stabPhi, group.rowOffset());
                group.rows().velocityError(q, v, stabPhidot, group.rowOffset());
            }
        }
        for (ConstraintGroup group : groupArray) {
            if (group.isBaumgarteEnabled()) {
                double a2 = 2 * group.baumgarteAlpha();
                double b2 = group.baumgarteBeta() * group.baumgarteBeta();
                for (int r = group.rowOffset(), end = r + group.size(); r < end; r++) {
                    out[r] -= a2 * stabPhidot[r] + b2 * stabPhi[r];
                }
            }
        }
    }

    /** φ(q) of one group into {@code out[0..size)}. */
    public void calcPositionError(int groupIndex, double[] q, double[] out) {
        checkBound();
        ConstraintGroup group = group(groupIndex);
        if (group.rows() != null) {
            group.rows().positionError(q, out, 0);
        } else {
            modelRows.positionError(q, scratchRows);
            System.arraycopy(scratchRows, group.rowOffset(), out, 0, group.size());
        }
    }

    /** φ̇(q, v) of one group into {@code out[0..size)}. */
    public void calcVelocityError(int groupIndex, double[] q, double[] v, double[] out) {
        checkBound();
        ConstraintGroup group = group(groupIndex);
        if (group.rows() != null) {
            group.rows().velocityError(q, v, out, 0);
        } else {
            modelRows.velocityError(q, v, scratchRows);
            System.arraycopy(scratchRows, group.rowOffset(), out, 0, group.size());
        }
    }

    /**
     * Fills the workspaces of a constrained forward-dynamics solve at (q, v): {@link #H()} = H(q),
     * {@link #C()} = C(q, v), {@link #G()} = G(q), {@link #gamma()} = γ(q, v) with stabilisation (RBDL's
     * CalcConstrainedSystemVariables).
     */
    public void computeSystem(double[] q, double[] v) {
        checkBound();
        dynamics.massMatrix(q, h);
        dynamics.biasForces(q, v, c);
        calcJacobian(q, g);
        calcGamma(q, v, gamma);
    }

    /** Fills {@link #H()} = H(q) and {@link #G()} = G(q) (what an impulse solve needs). */
    public void computeImpulseSystem(double[] q) {
        checkBound();
        dynamics.massMatrix(q, h);
        calcJacobian(q, g);
    }

    /** Workspace H (nv x nv) of the last {@link #computeSystem}; read-only by convention. */
    public DMatrixRMaj H() {
        checkBound();
        return h;
    }

    /** Workspace C (nv) of the last {@link #computeSystem}; read-only by convention. */
    public double[] C() {
        checkBound();
        return c;
    }

    /** Workspace G (m x nv) of the last {@link #computeSystem}; read-only by convention. */
    public DMatrixRMaj G() {
        checkBound();
        return g;
    }

    /** Workspace γ (m, stabilised) of the last {@link #computeSystem}; read-only by convention. */
    public double[] gamma() {
        checkBound();
        return gamma;
    }

    /**
     * The multipliers λ (m) of the last forward-dynamics solve: H v̇ + C = τ + Gᵀ λ (forces in N, torques in N·m
     * for unit axes). Written by the solvers.
     */
    public double[] force() {
        checkBound();
        return force;
    }

    /** The impulses Λ (m) of the last impulse solve: H (v⁺ - v⁻) = -Gᵀ Λ. Written by the solvers. */
    public double[] impulse() {
        checkBound();
        return impulse;
    }

    /** The target constraint velocities v⁺_target (m, default 0) of impulse solves, G v⁺ = v⁺_target; writable. */
    public double[] impulseTarget() {
        checkBound();
        return impulseTarget;
    }

    // ---------------------------------------------------------------- forces on bodies

    /** A buffer large enough for {@link #calcForces} of any group of this set. */
    public ConstraintForces newForceBuffer() {
        int n = 1;
        for (ConstraintGroup group : groups) {
            if (group.resolver != null) {
                n = Math.max(n, group.resolver.maxBodyForces());
            }
        }
        return new ConstraintForces(n);
    }

    /**
     * Resolves the group's multipliers λ of the last forward-dynamics solve ({@link #force()}) into the spatial
     * forces the constraint applies to the bodies involved at q (RBDL's calcForces): Σ_k J_kᵀ f_k = G_groupᵀ λ_group.
     * See {@link ConstraintForces} for frames and coordinates.
     *
     * @param inWorld false: each force in its frame's coordinates; true: world-aligned at the frame origins
     * @throws UnsupportedOperationException if the group's type does not resolve into body forces
     */
    public void calcForces(int groupIndex, double[] q, boolean inWorld, ConstraintForces out) {
        checkBound();
        resolve(groupIndex, q, force, inWorld, out);
    }

    /**
     * Resolves the group's impulses of the last impulse solve into the spatial impulses the constraint applies to
     * the bodies (RBDL's calcImpulses): Σ_k J_kᵀ ι_k = -G_groupᵀ Λ_group = the group's share of H (v⁺ - v⁻).
     */
    public void calcImpulses(int groupIndex, double[] q, boolean inWorld, ConstraintForces out) {
        checkBound();
        // The impulse applied to the system is -Gᵀ Λ (see the impulse equations): resolve -Λ.
        for (int i = 0; i < m; i++) {
            scratchRows[i] = -impulse[i];
        }
        resolve(groupIndex, q, scratchRows, inWorld, out);
    }

    private void resolve(int groupIndex, double[] q, double[] multipliers, boolean inWorld, ConstraintForces out) {
        ConstraintGroup group = group(groupIndex);
        if (group.resolver == null) {
            throw new UnsupportedOperationException("constraint group '" + group.name() + "' (" + group.type()
                    + ") cannot be resolved into body forces");
        }
        group.resolver.bodyForces(q, multipliers, group.rowOffset(), inWorld, out);
    }

    @Override
    public String toString() {
        return "ConstraintSet{" + model.name() + ", " + groups.size() + " groups, " + size() + " rows"
                + (bound ? ", bound" : "") + "}";
    }
}
