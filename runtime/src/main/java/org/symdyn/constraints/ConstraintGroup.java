package org.symdyn.constraints;

import java.util.List;
import java.util.function.Supplier;
import org.symdyn.contract.ConstraintType;

/**
 * One group of a {@link ConstraintSet}: contiguous rows of one type on the same bodies and frames (RBDL groups
 * contacts on the same body point, and loops between the same frames), with a name, optional user-defined id, the
 * id assigned when its first constraint was added, its rows' place in G, γ, φ, λ, and its default Baumgarte
 * settings. Immutable; the current stabilisation settings live in the bound {@link ConstraintData}.
 *
 * <p>Baumgarte stabilisation replaces the group's γ by γ - 2α φ̇ - β² φ (φ, φ̇ the group's position and velocity
 * errors), which makes the errors decay like a critically damped system when α = β = 1/T_stab. Off by default
 * with T_stab = {@value #DEFAULT_TIME_CONSTANT} s; a model constraint that states a time constant starts enabled
 * with it.
 */
public final class ConstraintGroup {
    /** Default Baumgarte time constant T_stab (s). */
    public static final double DEFAULT_TIME_CONSTANT = 0.1;

    private final int index;
    private final String name;
    private final ConstraintType type;
    private final int userId;
    private final int assignedId;
    private final int rowOffset;
    private final List<String> rowNames;
    private final int modelConstraint;
    private final Supplier<ConstraintRows> rows;
    private final boolean baumgarte;
    private final double alpha;
    private final double beta;

    ConstraintGroup(int index, String name, ConstraintType type, int userId, int assignedId, int rowOffset,
            List<String> rowNames, int modelConstraint, Supplier<ConstraintRows> rows, boolean baumgarte,
            double alpha, double beta) {
        this.index = index;
        this.name = name;
        this.type = type;
        this.userId = userId;
        this.assignedId = assignedId;
        this.rowOffset = rowOffset;
        this.rowNames = List.copyOf(rowNames);
        this.modelConstraint = modelConstraint;
        this.rows = rows;
        this.baumgarte = baumgarte;
        this.alpha = alpha;
        this.beta = beta;
    }

    /** The group index in its set. */
    public int index() {
        return index;
    }

    /** The group's name: that of its first constraint (the model constraint's name for model groups). */
    public String name() {
        return name;
    }

    /** The type of every row of the group. */
    public ConstraintType type() {
        return type;
    }

    /** The user-defined id of its first constraint, {@link ConstraintSet#NO_ID} if none was given. */
    public int userId() {
        return userId;
    }

    /** The id assigned when its first constraint was added (see {@link ConstraintSet.Builder#addContact}). */
    public int assignedId() {
        return assignedId;
    }

    /** Number of rows. */
    public int size() {
        return rowNames.size();
    }

    /**
     * True if row {@code k} of the group (0-based within it) has a position error φ whose gradient is its Jacobian
     * row (a loop's, a coupler's, a line-on-line contact's normal, a custom row's), false where φ is 0 by definition
     * (a contact's rows, held at the velocity level; a rolling line-on-line contact's two slip rows): what a caller
     * differentiating a position-aware offset such as β φ / h must know, since ∂φ/∂q is G on the first and 0 on the
     * second. Line-on-line contacts form one group each (their normal row first).
     */
    public boolean holonomic(int k) {
        return switch (type) {
            case CONTACT -> false;
            case LINE_ON_LINE -> k == 0;
            default -> true;
        };
    }

    /** Index of the group's first row in the set's G, γ, φ, λ. */
    public int rowOffset() {
        return rowOffset;
    }

    /** Names of the group's rows, in row order. */
    public List<String> rowNames() {
        return rowNames;
    }

    /** True for a group of the model's own constraints (evaluated by the bound {@code ConstraintFunctions}). */
    public boolean isModelConstraint() {
        return modelConstraint >= 0;
    }

    /** The index of the model constraint the group was built from, or -1 for a group added in code. */
    public int modelConstraint() {
        return modelConstraint;
    }

    /** True if the group starts with Baumgarte stabilisation on when a set is bound. */
    public boolean baumgarteByDefault() {
        return baumgarte;
    }

    /** The default α (1/s), the velocity coefficient. */
    public double defaultBaumgarteAlpha() {
        return alpha;
    }

    /** The default β (1/s), the position coefficient. */
    public double defaultBaumgarteBeta() {
        return beta;
    }

    /** A new, unbound row provider for this group (code groups), or null (model groups). */
    ConstraintRows newRows() {
        return rows == null ? null : rows.get();
    }

    @Override
    public String toString() {
        return "ConstraintGroup{" + index + " '" + name + "' " + type + ", rows " + rowOffset + "+" + size() + "}";
    }
}
