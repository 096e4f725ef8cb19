package org.symdyn.constraints;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.symdyn.contract.ConstraintFunctions;
import org.symdyn.contract.ConstraintType;
import org.symdyn.contract.Dynamics;
import org.symdyn.contract.Kinematics;
import org.symdyn.contract.ModelFunctions;
import org.symdyn.contract.ModelPart;
import org.symdyn.model.ConstraintModel;
import org.symdyn.model.Model;
import org.symdyn.spatial.Pose;

/**
 * The constraints of one mechanism: an immutable description (RBDL's ConstraintSet without its workspaces, in the
 * manner of Pinocchio's model/data split). Rows are organised in {@link ConstraintGroup groups}: one per constraint
 * of the model (evaluated by the model's {@link ConstraintFunctions}, generic or generated), then the groups added
 * in code (contacts, loops, couplers and custom rows, evaluated through {@link Kinematics}). Contacts on the same
 * body point, and loops between the same frames with the same Baumgarte settings, share a group, as in RBDL.
 *
 * <p>The stacked rows define φ(q), φ̇(q, v), G(q) (m x nv) and γ(q, v) with G v̇ = γ; the equations of motion are
 * H v̇ + C = τ + Gᵀ λ, solved as [H Gᵀ; G 0][v̇; -λ] = [τ - C; γ] (see {@link ConstraintData}).
 *
 * <p>Life cycle: {@link #builder(Model)} (or {@link #builder(ConstraintFunctions)} from a generated class alone,
 * without the model file), add constraints, {@link Builder#build()}; then {@link #bind(ModelFunctions)} once per
 * thread: each call returns a new {@link ConstraintData} that owns every workspace, so nothing allocates afterwards.
 * The set itself is immutable and may be shared.
 *
 * <p>RBDL's names, for users coming from it:
 * <table>
 * <caption>RBDL ConstraintSet → SymDyn</caption>
 * <tr><td>AddContactConstraint, AddLoopConstraint, AddCustomConstraint</td>
 * <td>{@link Builder#addContact}, {@link Builder#addLoop}, {@link Builder#addCustom}</td></tr>
 * <tr><td>Bind</td><td>{@link Builder#build()} then {@link #bind}</td></tr>
 * <tr><td>getGroupIndexByName / ById / ByAssignedId, getGroupIndexMax</td>
 * <td>{@link #groupIndex(String)}, {@link #groupIndexById}, {@link #groupIndexByAssignedId},
 * {@link #groupCount()} - 1</td></tr>
 * <tr><td>getGroupName, getGroupSize, getGroupType, getGroupId, getGroupAssignedId</td>
 * <td>{@link #group(int)}: {@code name()}, {@code size()}, {@code type()}, {@code userId()},
 * {@code assignedId()}</td></tr>
 * <tr><td>calcPositionError, calcVelocityError, CalcConstraintsJacobian, CalcConstrainedSystemVariables</td>
 * <td>{@link ConstraintData}: {@code positionError}, {@code velocityError}, {@code jacobian},
 * {@code computeSystem}</td></tr>
 * <tr><td>enable/disableBaumgarteStabilization, setBaumgarteTimeConstant, ...Coefficients,
 * calcBaumgarteStabilizationForces</td>
 * <td>{@link ConstraintData}: {@code enableBaumgarte}, {@code disableBaumgarte}, {@code setBaumgarteTimeConstant},
 * {@code setBaumgarteCoefficients}, {@code baumgarteTerm}</td></tr>
 * <tr><td>calcForces, calcImpulses; H, C, G, gamma, force, impulse, v_plus</td>
 * <td>{@link ConstraintData}: {@code forces}, {@code impulses}; {@code H()}, {@code C()}, {@code G()},
 * {@code gamma()}, {@code force()}, {@code impulse()}, {@code impulseTarget()}</td></tr>
 * </table>
 */
public final class ConstraintSet {
    /** The user-defined id of a constraint added without one. */
    public static final int NO_ID = -1;

    private final ModelIdentity identity;
    private final List<ConstraintGroup> groups;
    private final int modelGroupCount;
    private final int modelRows;
    private final int rows;
    private final List<String> rowNames;
    private final Map<String, Integer> groupByName;
    private final Map<Integer, Integer> groupByUserId;
    private final Map<Integer, Integer> groupByAssignedId;

    private ConstraintSet(Builder b) {
        this.identity = b.identity;
        this.modelGroupCount = b.modelGroupCount;
        this.groupByName = Map.copyOf(b.registry.groupByName);
        this.groupByUserId = Map.copyOf(b.registry.groupByUserId);
        this.groupByAssignedId = Map.copyOf(b.registry.groupByAssignedId);
        List<ConstraintGroup> built = new ArrayList<>();
        List<String> names = new ArrayList<>();
        int offset = 0;
        int modelRowCount = 0;
        for (GroupDraft d : b.drafts) {
            built.add(new ConstraintGroup(built.size(), d.name, d.type, d.userId, d.assignedId, offset, d.rowNames,
                    d.modelConstraint, d.rowsSupplier(), d.baumgarte, d.alpha, d.beta));
            names.addAll(d.rowNames);
            offset += d.rowNames.size();
            if (d.modelConstraint >= 0) {
                modelRowCount = offset;
            }
        }
        this.groups = List.copyOf(built);
        this.rowNames = List.copyOf(names);
        this.rows = offset;
        this.modelRows = modelRowCount;
    }

    /** A builder whose set starts with one group per constraint of {@code model}. */
    public static Builder builder(Model model) {
        return new Builder(model, null);
    }

    /**
     * A builder from a model's functions alone (a generated class, without the model file): the model's constraints
     * come from {@link ConstraintFunctions#constraintNames()} and the metadata beside it. Couplers added in code
     * and the resolution of model constraints into body forces need the {@link Model}: use
     * {@link #builder(Model)} for those.
     */
    public static Builder builder(ConstraintFunctions functions) {
        return new Builder(null, functions);
    }

    /** The set of the model's own constraints. */
    public static ConstraintSet of(Model model) {
        return builder(model).build();
    }

    /** The set of the model's own constraints, from a generated class alone. */
    public static ConstraintSet of(ConstraintFunctions functions) {
        return builder(functions).build();
    }

    // ---------------------------------------------------------------- binding

    /**
     * Binds a new {@link ConstraintData} to one implementation of the whole contract (a generated class, or
     * {@link GenericModel}); the fused evaluations of {@link ModelFunctions} are used.
     *
     * @throws IllegalArgumentException if the implementation is of another model (content hash, sizes or constraint
     *                                  names differ), or lacks the constraints part ({@link ModelPart}), whose fused
     *                                  evaluations every solve makes
     */
    public ConstraintData bind(ModelFunctions functions) {
        ModelFunctions.requirePart(functions, ModelPart.CONSTRAINTS, "a constraint set bound to the whole contract");
        return new ConstraintData(this, functions, functions, functions);
    }

    /**
     * Binds to separate implementations. {@code kinematics} may be null when no group needs it (every row is a model
     * row and no forces are resolved); {@code functions} may be null only when the set has no model rows.
     *
     * @throws IllegalArgumentException if an implementation is of another model or a needed one is missing
     */
    public ConstraintData bind(Dynamics dynamics, Kinematics kinematics, ConstraintFunctions functions) {
        return new ConstraintData(this, dynamics, kinematics, functions);
    }

    /** Binds to the generic interpreter of the model ({@link GenericModel}). */
    public ConstraintData bindGeneric() {
        if (identity.model() == null) {
            throw new IllegalStateException("the set was built from a model's functions, not from its Model: bind it"
                    + " to those functions");
        }
        return bind(new GenericModel(identity.model()));
    }

    // ---------------------------------------------------------------- sizes and metadata

    /** The model, or null for a set built from a model's functions alone. */
    public Model model() {
        return identity.model();
    }

    /** The model's name. */
    public String modelName() {
        return identity.name();
    }

    /** The model's content hash ({@link Model#contentHash()}). */
    public String modelHash() {
        return identity.hash();
    }

    /** Number of constraint rows m (all groups). */
    public int size() {
        return rows;
    }

    /** Number of rows of the model's own constraints (they come first). */
    public int modelRowCount() {
        return modelRows;
    }

    /** Number of groups of the model's own constraints (they come first). */
    public int modelGroupCount() {
        return modelGroupCount;
    }

    /** Number of position coordinates of the model. */
    public int nq() {
        return identity.nq();
    }

    /** Number of velocity coordinates of the model. */
    public int nv() {
        return identity.nv();
    }

    /** Number of moving bodies of the model. */
    public int bodyCount() {
        return identity.bodyCount();
    }

    /** Name of row i. */
    public String rowName(int row) {
        return rowNames.get(row);
    }

    /** Names of all rows in row order. */
    public List<String> rowNames() {
        return rowNames;
    }

    /** Number of groups. */
    public int groupCount() {
        return groups.size();
    }

    /** The group at an index. */
    public ConstraintGroup group(int groupIndex) {
        if (groupIndex < 0 || groupIndex >= groups.size()) {
            throw new IndexOutOfBoundsException("constraint group " + groupIndex + " of " + groups.size());
        }
        return groups.get(groupIndex);
    }

    /** All groups in row order. */
    public List<ConstraintGroup> groups() {
        return groups;
    }

    /**
     * The group that a constraint of this name (a model constraint's name, or a name given when adding) belongs to.
     *
     * @throws IllegalArgumentException if there is none
     */
    public int groupIndex(String name) {
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
    public int groupIndexById(int userId) {
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
    public int groupIndexByAssignedId(int assignedId) {
        Integer i = groupByAssignedId.get(assignedId);
        if (i == null) {
            throw new IllegalArgumentException("no constraint with assigned id " + assignedId);
        }
        return i;
    }

    @Override
    public String toString() {
        return "ConstraintSet{" + identity.name() + ", " + groups.size() + " groups, " + rows + " rows}";
    }

    // ---------------------------------------------------------------- building

    /**
     * Collects the constraints of a set. The model's own constraints come first, one group each; then the groups
     * added in code, in the order of the add calls. Not thread-safe; {@link #build()} may be called more than once.
     */
    public static final class Builder {
        private final ModelIdentity identity;
        private final GroupRegistry registry = new GroupRegistry();
        private final List<GroupDraft> drafts = registry.drafts;
        private int modelGroupCount;
        private boolean withModelConstraints = true;

        private Builder(Model model, ConstraintFunctions functions) {
            this.identity = ModelIdentity.of(model, functions);
            if (model != null) {
                List<ConstraintModel> cs = model.constraints();
                for (int k = 0; k < cs.size(); k++) {
                    ConstraintModel c = cs.get(k);
                    addModelGroup(k, c.name(), c.type(), c.rowCount(), c.baumgarteTimeConstant());
                }
            } else {
                List<String> names = functions.constraintNames();
                for (int k = 0; k < names.size(); k++) {
                    addModelGroup(k, names.get(k), functions.constraintType(k), functions.constraintRowCount(k),
                            functions.baumgarteTimeConstant(k));
                }
            }
            modelGroupCount = drafts.size();
        }

        private void addModelGroup(int k, String name, ConstraintType type, int rowCount, double timeConstant) {
            GroupDraft d = registry.newGroupDraft(name, type, NO_ID, k);
            registry.registerRows(d, name, rowCount);
            if (!Double.isNaN(timeConstant)) {
                d.setTimeConstant(timeConstant);
                d.baumgarte = true;
            }
        }

        /** Leaves the model's own constraints out of the set (for constraints added in code only). */
        public Builder withoutModelConstraints() {
            if (drafts.size() > modelGroupCount) {
                throw new IllegalStateException("leave the model's constraints out before adding others");
            }
            if (withModelConstraints) {
                withModelConstraints = false;
                registry.clear();
                modelGroupCount = 0;
            }
            return this;
        }

        /** The set as added so far. */
        public ConstraintSet build() {
            return new ConstraintSet(this);
        }

        /** {@link #addContact(int, double[], double[], String, int)} without a name or id. */
        public int addContact(int body, double[] bodyPoint, double[] worldNormal) {
            return addContact(body, bodyPoint, worldNormal, null, NO_ID);
        }

        /**
         * Holds a body point along a world direction: one row with φ = 0, G = nᵀ J_p, γ = -n · p̈(v̇ = 0); λ is
         * the force (N) along n on the body (see {@link ContactRows}). Joins the group of an earlier contact on the
         * same body at exactly the same point (RBDL's rule), whose rows then share one point Jacobian.
         *
         * @param body        a moving body's index
         * @param bodyPoint   the point in body coordinates
         * @param worldNormal a unit vector in world coordinates
         * @param name        a name unique in the set, or null for {@code contact#<assigned id>}
         * @param userId      an id unique in the set, or {@link #NO_ID}
         * @return the assigned id: the number of rows added to the set before this one (a handle for
         *         {@link ConstraintSet#groupIndexByAssignedId}, not a row index)
         */
        public int addContact(int body, double[] bodyPoint, double[] worldNormal, String name, int userId) {
            checkBody(body, false, "contact");
            if (bodyPoint == null || bodyPoint.length != 3) {
                throw new IllegalArgumentException("contact point must have 3 coordinates");
            }
            if (!Double.isFinite(bodyPoint[0]) || !Double.isFinite(bodyPoint[1]) || !Double.isFinite(bodyPoint[2])) {
                throw new IllegalArgumentException("contact point must be finite, got "
                        + java.util.Arrays.toString(bodyPoint));
            }
            if (worldNormal == null || worldNormal.length != 3) {
                throw new IllegalArgumentException("contact normal must have 3 coordinates");
            }
            double n = Math.sqrt(worldNormal[0] * worldNormal[0] + worldNormal[1] * worldNormal[1]
                    + worldNormal[2] * worldNormal[2]);
            if (!(Math.abs(n - 1) <= 1e-9)) {
                throw new IllegalArgumentException("contact normal must be a unit vector, |n| = " + n);
            }
            registry.checkNameAndId(name, userId);
            for (GroupDraft d : drafts) {
                if (d.contactBody == body && d.supplier == null && d.contactPoint[0] == bodyPoint[0]
                        && d.contactPoint[1] == bodyPoint[1] && d.contactPoint[2] == bodyPoint[2]) {
                    d.directions.add(worldNormal.clone());
                    return registry.addRowsToGroup(d, name, userId, 1);
                }
            }
            GroupDraft d = registry.newCodeGroup(ConstraintType.CONTACT, name, userId);
            d.contactBody = body;
            d.contactPoint = bodyPoint.clone();
            d.directions.add(worldNormal.clone());
            registry.registerRows(d, name, 1);
            return d.assignedId;
        }

        /** {@link #addLoop(int, Pose, int, Pose, List, boolean, double, String, int)} for one axis, no stabilisation. */
        public int addLoop(int predecessorBody, Pose predecessorFrame, int successorBody, Pose successorFrame,
                double[] axis) {
            return addLoop(predecessorBody, predecessorFrame, successorBody, successorFrame, List.of(axis), false,
                    ConstraintGroup.DEFAULT_TIME_CONSTANT, null, NO_ID);
        }

        /**
         * Holds frame S of the successor on frame P of the predecessor along spatial axes [angular; linear] in P,
         * one row each (see {@link LoopRows} for φ, G and γ; λ_k is the generalised force along axis k, applied as
         * a wrench on the successor at S and its opposite on the predecessor at P). Joins an existing loop group
         * between the same bodies and frames with the same Baumgarte settings.
         *
         * @param predecessorBody  body index, -1 for the world
         * @param predecessorFrame P in the predecessor's frame
         * @param successorBody    body index, -1 for the world
         * @param successorFrame   S in the successor's frame
         * @param axes             one or more 6-vectors [angular; linear] in P
         * @param baumgarte        whether the group starts with Baumgarte stabilisation on
         * @param timeConstant     T_stab (s), α = β = 1/T_stab
         * @param name             a name unique in the set (rows named name[k] when several axes are given), or
         *                         null
         * @param userId           an id unique in the set, or {@link #NO_ID}
         * @return the assigned id of the first added row
         */
        public int addLoop(int predecessorBody, Pose predecessorFrame, int successorBody, Pose successorFrame,
                List<double[]> axes, boolean baumgarte, double timeConstant, String name, int userId) {
            checkBody(predecessorBody, true, "loop predecessor");
            checkBody(successorBody, true, "loop successor");
            if (axes == null || axes.isEmpty()) {
                throw new IllegalArgumentException("a loop needs at least one axis");
            }
            if (!(timeConstant > 0) || Double.isInfinite(timeConstant)) {
                throw new IllegalArgumentException("Baumgarte time constant must be positive, got " + timeConstant);
            }
            registry.checkNameAndId(name, userId);
            // Validates the frames and axes now, where the caller made them.
            LoopRows check = new LoopRows(predecessorBody, predecessorFrame, successorBody, successorFrame,
                    axes.get(0));
            for (int k = 1; k < axes.size(); k++) {
                check.addAxis(axes.get(k));
            }
            for (GroupDraft d : drafts) {
                if (d.type == ConstraintType.LOOP && d.supplier == null && d.modelConstraint < 0
                        && d.loopPredecessor == predecessorBody && d.loopSuccessor == successorBody
                        && d.loopPredecessorFrame.equals(predecessorFrame)
                        && d.loopSuccessorFrame.equals(successorFrame) && d.baumgarte == baumgarte
                        && d.alpha == 1 / timeConstant && d.beta == d.alpha) {
                    for (double[] a : axes) {
                        d.directions.add(a.clone());
                    }
                    return registry.addRowsToGroup(d, name, userId, axes.size());
                }
            }
            GroupDraft d = registry.newCodeGroup(ConstraintType.LOOP, name, userId);
            d.loopPredecessor = predecessorBody;
            d.loopPredecessorFrame = predecessorFrame;
            d.loopSuccessor = successorBody;
            d.loopSuccessorFrame = successorFrame;
            for (double[] a : axes) {
                d.directions.add(a.clone());
            }
            d.setTimeConstant(timeConstant);
            d.baumgarte = baumgarte;
            registry.registerRows(d, name, axes.size());
            return d.assignedId;
        }

        /**
         * Couples two single-dof joints, q_j = ratio q_r + offset (see {@link CouplerRows}); its own group. Needs the
         * builder of a {@link Model}.
         *
         * @param jointBody     the body whose joint is driven
         * @param referenceBody the body whose joint drives it
         * @return the assigned id
         */
        public int addCoupler(int jointBody, int referenceBody, double ratio, double offset, String name,
                int userId) {
            Model model = identity.model();
            if (model == null) {
                throw new IllegalStateException("a coupler added in code needs the Model (its joints' axes): use "
                        + "ConstraintSet.builder(model)");
            }
            registry.checkNameAndId(name, userId);
            new CouplerRows(model, jointBody, referenceBody, ratio, offset); // validates now
            return addSupplied(() -> new CouplerRows(model, jointBody, referenceBody, ratio, offset),
                    ConstraintType.COUPLER, 1, name, userId);
        }

        /**
         * Adds a user constraint as its own group (RBDL's AddCustomConstraint); Baumgarte off. The instance is bound
         * by the first {@link ConstraintSet#bind}; to bind the set more than once (one data per thread), add a
         * supplier with {@link #addRows(Supplier, String, int)}.
         */
        public int addCustom(CustomConstraint constraint, String name, int userId) {
            return addRows(constraint, name, userId);
        }

        /**
         * Adds a row provider as its own group of type {@link ConstraintRows#type()}; bound by the first
         * {@link ConstraintSet#bind} (a second bind is refused: use {@link #addRows(Supplier, String, int)}).
         *
         * @return the assigned id of its first row
         */
        public int addRows(ConstraintRows rows, String name, int userId) {
            for (GroupDraft d : drafts) {
                if (d.supplier instanceof SingleUseRows s && s.rows == rows) {
                    throw new IllegalArgumentException("these rows were already added as group '" + d.name + "'");
                }
            }
            return addSupplied(new SingleUseRows(rows), rows.type(), rows.rowCount(), name, userId);
        }

        /**
         * Adds the row providers {@code rows} makes, one per bind, as one group of their {@link ConstraintRows#type()}
         * (the way new constraint kinds join a set). Every provider must have the same row count.
         *
         * @return the assigned id of its first row
         */
        public int addRows(Supplier<? extends ConstraintRows> rows, String name, int userId) {
            ConstraintRows first = rows.get();
            ConstraintType type = first.type();
            int count = first.rowCount();
            return addSupplied(new Supplier<ConstraintRows>() {
                private ConstraintRows next = first;

                @Override
                public ConstraintRows get() {
                    ConstraintRows r = next != null ? next : rows.get();
                    next = null;
                    if (r.rowCount() != count) {
                        throw new IllegalStateException("constraint '" + name + "' was added with " + count
                                + " rows and its supplier now makes " + r.rowCount());
                    }
                    return r;
                }
            }, type, count, name, userId);
        }

        private int addSupplied(Supplier<ConstraintRows> supplier, ConstraintType type, int count, String name,
                int userId) {
            if (count <= 0) {
                throw new IllegalArgumentException("a constraint group needs at least one row");
            }
            registry.checkNameAndId(name, userId);
            GroupDraft d = registry.newCodeGroup(type, name, userId);
            d.supplier = supplier;
            registry.registerRows(d, name, count);
            return d.assignedId;
        }

        private void checkBody(int body, boolean worldAllowed, String what) {
            if (body < (worldAllowed ? -1 : 0) || body >= identity.bodyCount()) {
                throw new IllegalArgumentException(what + ": body index " + body + " is not a "
                        + (worldAllowed ? "body or the world (-1)" : "moving body") + " of model '" + identity.name()
                        + "'");
            }
        }
    }
}
