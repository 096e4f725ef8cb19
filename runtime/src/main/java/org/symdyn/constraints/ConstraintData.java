package org.symdyn.constraints;

import org.ejml.data.DMatrixRMaj;
import org.symdyn.contract.Arguments;
import org.symdyn.contract.ConstrainedSystemFactorization;
import org.symdyn.contract.ConstraintDerivatives;
import org.symdyn.contract.ConstraintFunctions;
import org.symdyn.contract.Dynamics;
import org.symdyn.contract.Kinematics;
import org.symdyn.contract.ModelFunctions;
import org.symdyn.dynamics.MotionDerivatives;
import org.symdyn.dynamics.StateScope;

/**
 * A {@link ConstraintSet} bound to implementations of its model: the evaluation of its rows, the current
 * Baumgarte settings of each group, the solver settings, and every workspace of a solve (RBDL's ConstraintSet after
 * Bind, Pinocchio's data). Made by {@link ConstraintSet#bind}; nothing allocates afterwards. Not thread-safe: bind
 * one per thread (the set is shared).
 *
 * <p>Rows: φ(q) (position error), φ̇(q, v) (velocity error), G(q) (m x nv) and γ(q, v), with G v̇ = γ,
 * γ = -Ġ v plus -2α φ̇ - β² φ on the rows of groups with Baumgarte stabilisation enabled. Equations of motion
 * H v̇ + C = τ + Gᵀ λ (λ in {@link #force()}), solved as [H Gᵀ; G 0][v̇; -λ] = [τ - C; γ]; impulses solve
 * [H Gᵀ; G 0][v⁺; Λ] = [H v⁻; v⁺_target] (Λ in {@link #impulse()}, so H (v⁺ - v⁻) = -Gᵀ Λ). The solvers are in
 * {@code org.symdyn.solvers}.
 *
 * <p>Evaluation: the model's rows come from its {@link ConstraintFunctions}; when those are a {@link ModelFunctions}
 * (a generated class, or {@link GenericModel}), {@link #computeSystem} makes one fused call for H, C, G, γ (and φ,
 * φ̇ when a model group is stabilised), so a generated class shares its sines, cosines and kinematics between
 * them. Groups added in code are evaluated by their row providers through {@link Kinematics}.
 *
 * <p>This class holds what is bound and the workspaces; each job on them is a class of its own, which the methods
 * here call: the refusals of binding ({@code ModelMatch}), the Baumgarte settings per group
 * ({@code BaumgarteStabilisation}), the rows' providers and stacked evaluation ({@code BoundRows}), the system's
 * evaluation into the workspaces ({@code SystemEvaluation}), the rows' derivatives ({@code StackedRowDerivatives})
 * and the resolution of multipliers into body forces ({@code BodyForceResolution}).
 */
public final class ConstraintData {
    private final ConstraintSet set;
    private final Dynamics dynamics;
    private final Kinematics kinematics;
    private final ConstraintFunctions functions;
    /** The dynamics when they are the model's fused functions as well; else null. */
    private final ModelFunctions fused;
    private final SolverSettings settings = new SolverSettings();
    private final int nv;
    private final int m;
    private final int modelRows;
    private final DMatrixRMaj h;
    private final double[] c;
    private final DMatrixRMaj g;
    private final double[] gamma;
    private final double[] force;
    private final double[] impulse;
    private final double[] impulseTarget;
    private final BaumgarteStabilisation stabilisation;
    private final BoundRows rows;
    private final SystemEvaluation system;
    private final StackedRowDerivatives derivatives;
    private final BodyForceResolution bodyForces;

    ConstraintData(ConstraintSet set, Dynamics dyn, Kinematics kin, ConstraintFunctions functions) {
        if (dyn == null) {
            throw new IllegalArgumentException("binding needs the model's dynamics");
        }
        this.set = set;
        ModelMatch.checkSameModel(set, dyn, "dynamics");
        if (kin != null) {
            ModelMatch.checkSameModel(set, kin, "kinematics");
        }
        this.nv = set.nv();
        this.m = set.size();
        this.modelRows = set.modelRowCount();
        boolean modelGroups = set.modelGroupCount() > 0;
        if (modelGroups) {
            ModelMatch.checkFunctions(set, functions);
        }
        this.dynamics = dyn;
        this.kinematics = kin;
        this.functions = modelGroups ? functions : null;
        this.fused = this.functions instanceof ModelFunctions mf && mf == dyn ? mf : null;
        h = new DMatrixRMaj(nv, nv);
        c = new double[nv];
        g = new DMatrixRMaj(m, nv);
        gamma = new double[m];
        force = new double[m];
        impulse = new double[m];
        impulseTarget = new double[m];
        stabilisation = new BaumgarteStabilisation(set);
        rows = new BoundRows(set, kin, this.functions, stabilisation, g, gamma);
        system = new SystemEvaluation(dyn, fused, kin instanceof StateScope scope ? scope : null, rows, stabilisation,
                h, c, g, gamma);
        derivatives = new StackedRowDerivatives(rows, stabilisation, g);
        bodyForces = new BodyForceResolution(set, rows.providers, kin != null);
    }

    // ---------------------------------------------------------------- what is bound

    /** The description this data was bound from. */
    public ConstraintSet set() {
        return set;
    }

    /**
     * Checks that {@code info} (a stepper's or a system's dynamics) describes this data's model, by the rule binding
     * applies: same sizes, and the same content hash where both are known (a set built from a generated class alone
     * has the hash but no {@link org.symdyn.model.Model}).
     *
     * @param what the implementation, as the message names it ("stepper's dynamics")
     * @throws IllegalArgumentException naming what differs
     */
    public void checkModelOf(org.symdyn.contract.ModelInfo info, String what) {
        ModelMatch.checkSameModel(set, info, what);
    }

    /** The bound dynamics. */
    public Dynamics dynamics() {
        return dynamics;
    }

    /** The bound kinematics, or null if bound without. */
    public Kinematics kinematics() {
        return kinematics;
    }

    /** The bound functions of the model's constraints, or null when the set has none. */
    public ConstraintFunctions functions() {
        return functions;
    }

    /** True if {@link #computeSystem} makes one fused call (the dynamics are the model's {@link ModelFunctions}). */
    public boolean isFused() {
        return fused != null;
    }

    /**
     * The generated class's own factorisation of this set's constrained system, or null: present when the set holds
     * exactly the model's constraint rows (none added in code) and is bound to a generated class alone
     * ({@link #isFused()}) that implements {@link ConstrainedSystemFactorization}, so that H and G are that class's
     * own, with the zeros and constants its factorisation folds in.
     */
    public ConstrainedSystemFactorization generatedFactorization() {
        return fused instanceof ConstrainedSystemFactorization f && m == modelRows && m > 0 ? f : null;
    }

    /**
     * The generated class's own recursive constrained system of this set's rows, or null: present under the same
     * conditions as {@link #generatedFactorization()} (exactly the model's rows, bound to a generated class alone)
     * when that class implements {@link org.symdyn.contract.ArticulatedConstraintSystem}.
     */
    public org.symdyn.contract.ArticulatedConstraintSystem generatedArticulatedSystem() {
        return fused instanceof org.symdyn.contract.ArticulatedConstraintSystem f && m == modelRows && m > 0 ? f
                : null;
    }

    /**
     * The generated class's own limb-eliminated constrained forward dynamics of this set's rows, or null: present
     * under the same conditions as {@link #generatedFactorization()} (exactly the model's rows, bound to a generated
     * class alone) when that class implements {@link org.symdyn.contract.LimbConstrainedDynamics} (every row carried
     * by a limb of a floating base).
     */
    public org.symdyn.contract.LimbConstrainedDynamics generatedLimbDynamics() {
        return fused instanceof org.symdyn.contract.LimbConstrainedDynamics f && m == modelRows && m > 0 ? f : null;
    }

    /** True if a group of this set has Baumgarte stabilisation enabled. */
    public boolean anyBaumgarteEnabled() {
        return stabilisation.anyEnabledBelow(set.groupCount());
    }

    /** The solver settings of this data (factorisations, rank policy); mutable. */
    public SolverSettings settings() {
        return settings;
    }

    /** Number of constraint rows m. */
    public int size() {
        return m;
    }

    /** Number of position coordinates. */
    public int nq() {
        return set.nq();
    }

    /** Number of velocity coordinates. */
    public int nv() {
        return nv;
    }

    // ---------------------------------------------------------------- Baumgarte per group

    /** True if the group's γ carries -2α φ̇ - β² φ. */
    public boolean isBaumgarteEnabled(int groupIndex) {
        return stabilisation.isEnabled(groupIndex);
    }

    /** Turns the group's stabilisation on. */
    public void enableBaumgarte(int groupIndex) {
        stabilisation.setEnabled(groupIndex, true);
    }

    /** Turns the group's stabilisation off. */
    public void disableBaumgarte(int groupIndex) {
        stabilisation.setEnabled(groupIndex, false);
    }

    /** Sets the group's α = β = 1/T (s); does not enable. */
    public void setBaumgarteTimeConstant(int groupIndex, double timeConstant) {
        stabilisation.setTimeConstant(groupIndex, timeConstant);
    }

    /** Sets the group's coefficients of γ - 2α φ̇ - β² φ directly; does not enable. */
    public void setBaumgarteCoefficients(int groupIndex, double a, double b) {
        stabilisation.setCoefficients(groupIndex, a, b);
    }

    /** α (1/s) of the group. */
    public double baumgarteAlpha(int groupIndex) {
        return stabilisation.alpha(groupIndex);
    }

    /** β (1/s) of the group. */
    public double baumgarteBeta(int groupIndex) {
        return stabilisation.beta(groupIndex);
    }

    /** T_stab = 1/α when α = β, NaN otherwise. */
    public double baumgarteTimeConstant(int groupIndex) {
        return stabilisation.timeConstant(groupIndex);
    }

    /**
     * The group's term -2α φ̇ - β² φ for its errors φ, φ̇ (group-sized arrays) into {@code out}, whether or not
     * stabilisation is enabled.
     */
    public void baumgarteTerm(int groupIndex, double[] phi, double[] phidot, double[] out) {
        int size = set.group(groupIndex).size();
        Arguments.checkLength(phi, size, "phi");
        Arguments.checkLength(phidot, size, "phidot");
        Arguments.checkLength(out, size, "out");
        stabilisation.term(groupIndex, phi, phidot, out);
    }

    // ---------------------------------------------------------------- evaluation

    /** φ(q) of every row into {@code phi} (m entries). Contact rows are 0. */
    public void positionError(double[] q, double[] phi) {
        Arguments.checkLength(q, nq(), "q");
        Arguments.checkLength(phi, m, "phi");
        rows.positionError(q, phi);
    }

    /** φ̇(q, v) of every row (G v for holonomic rows) into {@code phidot} (m entries). */
    public void velocityError(double[] q, double[] v, double[] phidot) {
        Arguments.checkLength(q, nq(), "q");
        Arguments.checkLength(v, nv, "v");
        Arguments.checkLength(phidot, m, "phidot");
        rows.velocityError(q, v, phidot);
    }

    /** G(q) (m x nv) into {@code out}. */
    public void jacobian(double[] q, DMatrixRMaj out) {
        rows.jacobian(q, out);
    }

    /**
     * The Baumgarte terms -2α φ̇ - β² φ of every row into {@code out} (m entries): 0 on the rows of groups without
     * stabilisation, so that {@link #gamma} is -Ġ v plus these.
     */
    public void stabilisationTerms(double[] q, double[] v, double[] out) {
        rows.stabilisationTerms(q, v, out);
    }

    /**
     * γ(q, v) of every row into {@code out} (m entries): -Ġ v, plus -2α φ̇ - β² φ on the rows of groups with
     * Baumgarte stabilisation enabled. This is the right-hand side the solvers use.
     */
    public void gamma(double[] q, double[] v, double[] out) {
        rows.gamma(q, v, out);
    }

    /** φ(q) of one group into {@code out[0..size)} ({@code out} may be longer: a buffer for every group). */
    public void positionError(int groupIndex, double[] q, double[] out) {
        Arguments.checkLength(q, nq(), "q");
        checkAtLeast(out, set.group(groupIndex).size());
        rows.positionError(set.group(groupIndex), q, out);
    }

    /** φ̇(q, v) of one group into {@code out[0..size)} ({@code out} may be longer: a buffer for every group). */
    public void velocityError(int groupIndex, double[] q, double[] v, double[] out) {
        Arguments.checkLength(q, nq(), "q");
        Arguments.checkLength(v, nv, "v");
        checkAtLeast(out, set.group(groupIndex).size());
        rows.velocityError(set.group(groupIndex), q, v, out);
    }

    private static void checkAtLeast(double[] out, int size) {
        if (out.length < size) {
            throw new IllegalArgumentException("out must have at least " + size + " entries, got " + out.length);
        }
    }

    /**
     * Fills the workspaces of a constrained forward-dynamics solve at (q, v): {@link #H()} = H(q),
     * {@link #C()} = C(q, v), {@link #G()} = G(q), {@link #gamma()} = γ(q, v) with stabilisation (RBDL's
     * CalcConstrainedSystemVariables); one fused call of the model's functions when they provide it.
     */
    public void computeSystem(double[] q, double[] v) {
        system.computeSystem(q, v);
    }

    /**
     * The rows' part of the derivatives of constrained forward dynamics ({@code ConstrainedDynamicsDerivatives}) at
     * (q, v, v̇) and multipliers λ (m entries): ∂a/∂q and ∂a/∂v (m x nv) of the rows' acceleration a = G v̇ - γ₀ at
     * fixed v̇ (γ₀ = -Ġ v, without stabilisation), with the Baumgarte terms of the groups that enable them (there
     * a = G v̇ - γ₀ + 2α φ̇ + β² φ, so ∂a/∂q gains 2α ∂φ̇/∂q + β² ∂φ/∂q and ∂a/∂v gains 2α G), and ∂(Gᵀ λ)/∂q
     * (nv x nv) at fixed λ. The model's rows come from the bound functions when they implement
     * {@link ConstraintDerivatives} (a class generated with derivatives); the other rows from their providers
     * ({@link ConstraintRowDerivatives}) on {@code motion}, which must then have been updated at (q, v, v̇) (it may be
     * null when {@link #needsMotionDerivatives()} is false). The 2α G term reads {@link #G()}: the last
     * {@link #computeSystem} must have been at the same q (the solver's forward dynamics solve at that state leaves
     * it so).
     *
     * @throws UnsupportedOperationException if a group's rows do not provide derivatives (see
     *                                       {@link #checkRowDerivatives()})
     * @throws IllegalArgumentException      for outputs of the wrong shape, or motion derivatives that are null or of
     *                                       another nv while {@link #needsMotionDerivatives()}
     */
    public void rowDerivatives(double[] q, double[] v, double[] vdot, double[] lambda, MotionDerivatives motion,
            DMatrixRMaj dForceDq, DMatrixRMaj dAccelerationDq, DMatrixRMaj dAccelerationDv) {
        derivatives.rowDerivatives(q, v, vdot, lambda, motion, dForceDq, dAccelerationDq, dAccelerationDv);
    }

    /**
     * True if some rows are differentiated by their providers on {@link MotionDerivatives}: rows added in code, or the
     * model's rows when the bound functions do not implement {@link ConstraintDerivatives}.
     */
    public boolean needsMotionDerivatives() {
        return derivatives.needsMotionDerivatives();
    }

    /**
     * Checks that every group's rows provide derivatives, so that {@link #rowDerivatives} can run: the model's rows
     * through bound functions that implement {@link ConstraintDerivatives} (a class generated with derivatives, any
     * kind) or else, as every row added in code, through their provider ({@link ConstraintRowDerivatives}: contacts,
     * loops and couplers do; line-on-line and custom rows do not).
     *
     * @throws UnsupportedOperationException naming the first group that does not, or the model's rows when the data
     *                                       was bound without a Model or without Kinematics to functions that do
     *                                       not implement {@link ConstraintDerivatives}
     */
    public void checkRowDerivatives() {
        derivatives.checkRowDerivatives();
    }

    /** Fills {@link #H()} = H(q) and {@link #G()} = G(q) (what an impulse solve needs). */
    public void computeImpulseSystem(double[] q) {
        system.computeImpulseSystem(q);
    }

    /**
     * Workspace H (nv x nv) of the last {@link #computeSystem}; read-only by convention: a
     * {@link #generatedFactorization()} folds in the zeros and constants of the bound class's own H and G, and the
     * solvers hand it these workspaces as they were computed.
     */
    public DMatrixRMaj H() {
        return h;
    }

    /** Workspace C (nv) of the last {@link #computeSystem}; read-only by convention. */
    public double[] C() {
        return c;
    }

    /** Workspace G (m x nv) of the last {@link #computeSystem}; read-only by convention (see {@link #H()}). */
    public DMatrixRMaj G() {
        return g;
    }

    /** Workspace γ (m, stabilised) of the last {@link #computeSystem}; read-only by convention. */
    public double[] gamma() {
        return gamma;
    }

    /**
     * The multipliers λ (m) of the last forward-dynamics solve: H v̇ + C = τ + Gᵀ λ (forces in N, torques in N·m
     * for unit axes). Written by the solvers.
     */
    public double[] force() {
        return force;
    }

    /** The impulses Λ (m) of the last impulse solve: H (v⁺ - v⁻) = -Gᵀ Λ. Written by the solvers. */
    public double[] impulse() {
        return impulse;
    }

    /** The target constraint velocities v⁺_target (m, default 0) of impulse solves, G v⁺ = v⁺_target; writable. */
    public double[] impulseTarget() {
        return impulseTarget;
    }

    // ---------------------------------------------------------------- forces on bodies

    /** A buffer large enough for {@link #forces} of any group of this data. */
    public ConstraintForces newForceBuffer() {
        return bodyForces.newForceBuffer();
    }

    /**
     * Resolves the group's multipliers λ of the last forward-dynamics solve ({@link #force()}) into the spatial
     * forces the constraint applies to the bodies involved at q (RBDL's calcForces):
     * Σ_k J_kᵀ f_k = G_groupᵀ λ_group. See {@link ConstraintForces} for frames and coordinates.
     *
     * @param inWorld false: each force in its frame's coordinates; true: world-aligned at the frame origins
     * @throws UnsupportedOperationException if the group cannot be resolved into body forces (its type does not
     *                                       resolve, or it is a model group of a set built without the Model, or
     *                                       the data was bound without kinematics)
     */
    public void forces(int groupIndex, double[] q, boolean inWorld, ConstraintForces out) {
        bodyForces.forces(groupIndex, q, force, inWorld, out);
    }

    /**
     * Resolves the group's impulses of the last impulse solve into the spatial impulses the constraint applies to
     * the bodies (RBDL's calcImpulses): Σ_k J_kᵀ ι_k = -G_groupᵀ Λ_group = the group's share of H (v⁺ - v⁻).
     */
    public void impulses(int groupIndex, double[] q, boolean inWorld, ConstraintForces out) {
        bodyForces.impulses(groupIndex, q, impulse, inWorld, out);
    }

    @Override
    public String toString() {
        return "ConstraintData{" + set + (fused != null ? ", fused" : "") + "}";
    }
}
