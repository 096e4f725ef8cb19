package org.symdyn.constraints;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.symdyn.model.ConstraintModel;

/**
 * One group of a {@link ConstraintSet}: contiguous rows of one type on the same bodies and frames (RBDL groups
 * contacts on the same body point, and loops between the same frames), with a name, optional user-defined id,
 * the id assigned when its first constraint was added, and its Baumgarte settings.
 *
 * <p>Baumgarte stabilisation replaces the group's γ by γ - 2α φ̇ - β² φ (φ, φ̇ the group's position and velocity
 * errors), which makes the errors decay like a critically damped system when α = β = 1/T_stab. Off by default
 * with T_stab = 0.1 s; a model constraint that states a time constant starts enabled with it.
 */
public final class ConstraintGroup {
    /** Default Baumgarte time constant T_stab (s). */
    public static final double DEFAULT_TIME_CONSTANT = 0.1;

    private final int index;
    private final String name;
    private final ConstraintType type;
    private final int userId;
    private final int assignedId;
    private final ConstraintRows rows;
    private final ConstraintModel modelConstraint;
    private final List<String> rowNames = new ArrayList<>();
    private int rowOffset = -1;
    private boolean baumgarte;
    private double alpha = 1 / DEFAULT_TIME_CONSTANT;
    private double beta = 1 / DEFAULT_TIME_CONSTANT;
    /** Evaluator of the group's rows (code groups) or null (model groups, evaluated by the model's functions). */
    ConstraintRows resolver;

    ConstraintGroup(int index, String name, ConstraintType type, int userId, int assignedId, ConstraintRows rows,
            ConstraintModel modelConstraint) {
        this.index = index;
        this.name = name;
        this.type = type;
        this.userId = userId;
        this.assignedId = assignedId;
        this.rows = rows;
        this.modelConstraint = modelConstraint;
        this.resolver = rows;
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

    /** The id assigned when its first constraint was added (see {@link ConstraintSet#addContact}). */
    public int assignedId() {
        return assignedId;
    }

    /** Number of rows. */
    public int size() {
        return rowNames.size();
    }

    /** Index of the group's first row in the set's G, γ, φ, λ (assigned when the set is bound; -1 before). */
    public int rowOffset() {
        return rowOffset;
    }

    /** Names of the group's rows, in row order (for diagnostics). */
    public List<String> rowNames() {
        return Collections.unmodifiableList(rowNames);
    }

    /** The model constraint the group was built from, or null for a group added in code. */
    public ConstraintModel modelConstraint() {
        return modelConstraint;
    }

    /** The row provider of a group added in code, or null for a model group. */
    public ConstraintRows rows() {
        return rows;
    }

    /** True if γ of this group carries the Baumgarte terms. */
    public boolean isBaumgarteEnabled() {
        return baumgarte;
    }

    /** Turns Baumgarte stabilisation on with the current coefficients. */
    public void enableBaumgarte() {
        baumgarte = true;
    }

    /** Turns Baumgarte stabilisation off. */
    public void disableBaumgarte() {
        baumgarte = false;
    }

    /** Sets α = β = 1/T (does not enable). */
    public void setBaumgarteTimeConstant(double timeConstant) {
        if (!(timeConstant > 0) || Double.isInfinite(timeConstant)) {
            throw new IllegalArgumentException("Baumgarte time constant must be positive, got " + timeConstant);
        }
        alpha = beta = 1 / timeConstant;
    }

    /** Sets the coefficients of γ - 2α φ̇ - β² φ directly (does not enable). */
    public void setBaumgarteCoefficients(double alpha, double beta) {
        if (!(alpha >= 0) || !(beta >= 0) || Double.isInfinite(alpha) || Double.isInfinite(beta)) {
            throw new IllegalArgumentException("Baumgarte coefficients must be finite and >= 0, got " + alpha
                    + ", " + beta);
        }
        this.alpha = alpha;
        this.beta = beta;
    }

    /** α (1/s), the velocity coefficient. */
    public double baumgarteAlpha() {
        return alpha;
    }

    /** β (1/s), the position coefficient. */
    public double baumgarteBeta() {
        return beta;
    }

    /** T_stab = 1/α when α = β, NaN otherwise. */
    public double baumgarteTimeConstant() {
        return alpha == beta && alpha > 0 ? 1 / alpha : Double.NaN;
    }

    /**
     * The stabilisation term -2α φ̇ - β² φ of this group into {@code out[0..size)} (RBDL's
     * calcBaumgarteStabilizationForces), whether or not stabilisation is enabled.
     */
    public void baumgarteTerm(double[] phi, double[] phidot, double[] out) {
        for (int i = 0; i < rowNames.size(); i++) {
            out[i] = -2 * alpha * phidot[i] - beta * beta * phi[i];
        }
    }

    @Override
    public String toString() {
        return "ConstraintGroup{" + index + " '" + name + "' " + type + ", rows " + rowOffset + "+" + size() + "}";
    }

    // ---------------------------------------------------------------- set-private

    void addRowName(String rowName) {
        rowNames.add(rowName);
    }

    void setRowOffset(int offset) {
        rowOffset = offset;
    }
}
