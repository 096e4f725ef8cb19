package org.symdyn.simulation;

import java.util.Arrays;
import java.util.Objects;
import org.ejml.data.DMatrixRMaj;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.constraints.ConstraintSet;
import org.symdyn.constraints.GenericConstraints;
import org.symdyn.constraints.GenericModel;
import org.symdyn.contract.ConstraintFunctions;
import org.symdyn.contract.Dynamics;
import org.symdyn.contract.Kinematics;
import org.symdyn.contract.ModelFunctions;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.manifold.StateSpace;
import org.symdyn.model.JointDamping;
import org.symdyn.model.Model;
import org.symdyn.solvers.Assembly;
import org.symdyn.solvers.ConstrainedDynamics;
import org.symdyn.solvers.ConstraintSolverMethod;

/**
 * Time stepping of one mechanism: model, dynamics, constraints, integrator and drift control together.
 *
 * <pre>
 *   Simulator sim = Simulator.builder(model)             // constraints of the model bound automatically
 *           .integrator(RungeKutta4::new)                  // or SemiImplicitEuler::new, DormandPrince45.factory(..)
 *           .driftControl(DriftControl.PROJECTION)
 *           .build();
 *   sim.setState(0, q0, v0);
 *   SimulationLog log = new SimulationLog(10_000);
 *   sim.run(10.0, 1e-3, log);                              // or sim.step(h) in a loop
 * </pre>
 *
 * <p><b>Equations.</b> Without constraints v̇ = H⁻¹ (τ - C) ({@link UnconstrainedAcceleration}); with a bound
 * {@link ConstraintData}, [H Gᵀ; G 0][v̇; -λ] = [τ - C; γ] ({@link ConstrainedAcceleration}, method selectable),
 * τ = τ(t, q, v) − D v from a {@link ForceFunction} (default 0) and the joints' viscous damping D
 * ({@link Builder#jointDamping}; by default the model's own, {@code JointDamping.of(model)}, when the builder has the
 * model, explicit: stable while h d_k / H_kk stays below about 2.8 with RK4); or any {@link AccelerationFunction}.
 * Positions evolve by
 * q̇ = N(q) v on the configuration manifold ({@link StateSpace}): quaternions stay unit.
 *
 * <p><b>Drift control</b> ({@link DriftControl}): Baumgarte through the set's per-group settings (enabled in every
 * group for BAUMGARTE and BOTH, with the simulator's time constant if one is given, else each group's own; disabled
 * in every group for NONE and PROJECTION, when the simulator is built; the set's per-group switches may be changed
 * afterwards and are read at every evaluation), and/or projection after every step:
 * <pre>
 *   q ← argmin (q - q⁻)ᵀ W (q - q⁻) s.t. φ(q) = 0     (Assembly.assembleQ: Newton, tolerance 1e-12 on ‖φ‖₂)
 *   v ← argmin (v - v⁻)ᵀ W (v - v⁻) s.t. G(q) v = 0   (Assembly.assembleV, exact)
 * </pre>
 * with W = diag(weights), default the identity. A projection that does not reach its tolerance within its
 * iteration limit leaves the last iterate and is counted ({@link #projectionFailures()}).
 *
 * <p><b>Monitoring</b> (computed on demand, cached per step): ‖φ(q)‖₂ and ‖G v‖₂ over all constraint rows, kinetic
 * energy ½ vᵀ H v and gravitational potential -Σ m_i g·c_i ({@link MechanicalEnergy}), quaternion norm error.
 *
 * <p><b>Time.</b> {@link #run} takes steps of h (the last one shortened to end exactly at t_end) with fixed-step
 * integrators; with an adaptive integrator h is the largest step allowed (the integrator chooses smaller ones).
 *
 * <p><b>Stepping.</b> A step is {@link IntegrationLoop}'s, the continuous-time step the systems' simulation
 * ({@code org.symdyn.systems.ContinuousTimeSystem}) takes too; the state, time and step count are
 * {@link SimulationState}'s.
 *
 * <p>Everything is allocated when the simulator is built: {@link #step} and {@link #run} do not allocate (with
 * generic or generated dynamics, the built-in right-hand sides, and a non-allocating listener). Not thread-safe:
 * build one simulator, with its own dynamics and constraint set, per thread.
 */
public final class Simulator extends SimulationState {
    private final Model model;
    private final Dynamics dynamics;
    private final Kinematics kinematics;
    private final ConstraintData set;
    private final AccelerationFunction rhs;
    private final Integrator integrator;
    private final DriftControl drift;
    private final IntegrationLoop loop;
    private final DriftProjection projection;
    private final MechanicalEnergy energy;
    private final DMatrixRMaj hScratch;

    private final double[] phi;
    private final double[] phidot;

    // Per-step caches of the monitored quantities.
    private boolean phiValid;
    private boolean phidotValid;
    private boolean kineticValid;
    private boolean potentialValid;
    private double phiNorm;
    private double phidotNorm;
    private double kinetic;
    private double potential;

    private Simulator(Builder b) {
        super(b.model != null ? new StateSpace(b.model) : new StateSpace(b.functions));
        this.model = b.model;
        ConstraintData s = b.data;
        if (s == null && b.useModelConstraints) {
            s = bindModelConstraints(b);
        }
        this.set = s;
        if (set != null) {
            if (b.dynamics != null && b.dynamics != set.dynamics()) {
                throw new IllegalArgumentException("with constraint data, the dynamics are the data's: give them to "
                        + "ConstraintSet.bind, not to the builder");
            }
            this.dynamics = set.dynamics();
            this.kinematics = set.kinematics();
        } else if (b.dynamics != null) {
            this.dynamics = b.dynamics;
            this.kinematics = b.kinematics;
        } else {
            GenericDynamics generic = new GenericDynamics(model);
            this.dynamics = generic;
            this.kinematics = generic;
        }
        if (model != null) {
            String hash = dynamics.modelHash();
            if (dynamics.nq() != model.nq() || dynamics.nv() != model.nv()
                    || (hash != null && !hash.equals(model.contentHash()))) {
                throw new IllegalArgumentException("the dynamics ('" + dynamics.modelName() + "', nq " + dynamics.nq()
                        + ", nv " + dynamics.nv() + ", content hash " + hash + ") are not of model '" + model.name()
                        + "' (nq " + model.nq() + ", nv " + model.nv() + ", content hash " + model.contentHash() + ")");
            }
        }
        this.drift = b.drift;
        if (set != null) {
            drift.configure(set, b.baumgarteTimeConstant);
        }
        if (b.rhs != null) {
            this.rhs = b.rhs;
        } else if (set != null) {
            this.rhs = new ConstrainedAcceleration(new ConstrainedDynamics(set), b.method, damped(b, dynamics.nv()));
        } else {
            this.rhs = new UnconstrainedAcceleration(dynamics, damped(b, dynamics.nv()));
        }
        this.integrator = Objects.requireNonNull(b.factory.create(stateSpace(), rhs),
                "integrator factory returned null");
        if (integrator.stateSpace().nq() != dynamics.nq() || integrator.stateSpace().nv() != dynamics.nv()) {
            throw new IllegalArgumentException("the integrator's state space does not match the model");
        }
        int nv = dynamics.nv();
        double[] weights;
        if (b.weights != null) {
            if (b.weights.length != nv) {
                throw new IllegalArgumentException("projection weights must have nv = " + nv + " entries");
            }
            weights = b.weights.clone();
        } else {
            weights = new double[nv];
            Arrays.fill(weights, 1.0);
        }
        this.projection = set != null && drift.usesProjection()
                ? new DriftProjection(set, weights, b.projectionTolerance, b.projectionMaxIterations) : null;
        this.loop = IntegrationLoop.of(integrator, projection);
        this.energy = model != null && kinematics != null ? new MechanicalEnergy(model, dynamics, kinematics) : null;
        this.hScratch = energy == null ? new DMatrixRMaj(nv, nv) : null;
        int m = set != null ? set.size() : 0;
        this.phi = new double[m];
        this.phidot = new double[m];
    }

    /**
     * The model's constraints bound for a builder without constraint data: to the builder's dynamics when they are
     * the model's {@link ModelFunctions} (a generated class: its own constraint code and fused evaluation), to
     * {@link GenericConstraints} beside other dynamics and beside a class generated without constraint code (following
     * the parameter values set on it), to {@link GenericModel} when none are given. Null when the model has no
     * constraints.
     */
    private static ConstraintData bindModelConstraints(Builder b) {
        ConstraintSet set = b.model != null ? ConstraintSet.of(b.model) : ConstraintSet.of(b.functions);
        if (set.size() == 0) {
            return null;
        }
        boolean ownRows = !(b.dynamics instanceof ModelFunctions mf)
                || mf.parts().contains(org.symdyn.contract.ModelPart.CONSTRAINTS);
        if (b.dynamics instanceof ModelFunctions mf && b.kinematics == mf && (ownRows || b.model == null)) {
            return set.bind(mf); // without the part and without a model: refused, naming the option
        }
        if (b.dynamics instanceof ConstraintFunctions generated && (ownRows || b.model == null)) {
            return set.bind(b.dynamics, b.kinematics, generated); // the class's own constraint code, when it has it
        }
        if (b.dynamics != null) {
            // dynamics given with parameters set (an interpreter, a class without constraint code): its loops close
            // on their numbers, not the file's
            return set.bind(b.dynamics, b.kinematics, b.kinematics instanceof GenericDynamics gd
                    ? GenericConstraints.sharing(gd) : GenericConstraints.following(b.model, b.dynamics));
        }
        return set.bind(new GenericModel(b.model));
    }

    /** The builder's forces, less the joints' damping D v when there is any. */
    private static ForceFunction damped(Builder b, int nv) {
        JointDamping d = b.damping != null ? b.damping : b.model != null ? JointDamping.of(b.model)
                : JointDamping.NONE;
        d.checkSize(nv);
        if (d.isZero()) {
            return b.forces;
        }
        ForceFunction applied = b.forces;
        return (t, q, v, tau) -> {
            applied.forces(t, q, v, tau);
            d.subtractFrom(v, tau);
        };
    }

    /** A builder for a simulator of {@code model} (generic dynamics unless others are given). */
    public static Builder builder(Model model) {
        return new Builder(Objects.requireNonNull(model, "model"), null);
    }

    /**
     * A builder for a simulator of the model a generated class evaluates, from the class alone (no model file):
     * its dynamics, kinematics and constraint functions are used. The potential energy needs the model's masses
     * and is NaN here ({@link #potentialEnergy()}).
     */
    public static Builder builder(ModelFunctions functions) {
        Builder b = new Builder(null, Objects.requireNonNull(functions, "functions"));
        b.dynamics = functions;
        b.kinematics = functions;
        return b;
    }

    // ---------------------------------------------------------------- state

    /**
     * Sets the time and state (copied). Quaternions are renormalised; the state is not projected (assemble it first
     * with {@link Assembly} if the constraints should hold from the start). Resets the step count.
     */
    public Simulator setState(double time, double[] q0, double[] v0) {
        assignState(time, q0, v0);
        invalidate();
        return this;
    }

    // ---------------------------------------------------------------- stepping

    /**
     * One step of at most h (exactly h for fixed-step integrators), then drift projection if selected.
     *
     * @return the step taken (s)
     */
    public double step(double h) {
        double taken = loop.step(this, h);
        invalidate();
        return taken;
    }

    /**
     * Integrates until t_end: steps of h (fixed-step integrators; the last one shortened so the run ends at t_end to
     * rounding) or of at most h (adaptive). The listener, if any, sees the initial state and every step.
     *
     * @return the number of steps taken
     */
    public long run(double tEnd, double h, StepListener listener) {
        requireState();
        if (!(h > 0) || Double.isInfinite(h)) {
            throw new IllegalArgumentException("step must be positive and finite, got " + h);
        }
        if (!Double.isFinite(tEnd)) {
            throw new IllegalArgumentException("end time must be finite, got " + tEnd);
        }
        if (listener != null) {
            listener.onStep(this);
        }
        // counted, not summed: no step of rounding alone at the end
        return StepGrid.run(tEnd, h, () -> t, dt -> {
            step(dt);
            if (listener != null) {
                listener.onStep(this);
            }
        });
    }

    private void invalidate() {
        phiValid = phidotValid = kineticValid = potentialValid = false;
    }

    // ---------------------------------------------------------------- monitoring

    /** ‖φ(q)‖₂ over all constraint rows at the current state (0 without constraints). */
    public double positionErrorNorm() {
        if (!phiValid) {
            phiNorm = 0;
            if (set != null) {
                set.positionError(q, phi);
                phiNorm = norm(phi);
            }
            phiValid = true;
        }
        return phiNorm;
    }

    /** ‖φ̇(q, v)‖₂ = ‖G(q) v‖₂ over all constraint rows at the current state (0 without constraints). */
    public double velocityErrorNorm() {
        if (!phidotValid) {
            phidotNorm = 0;
            if (set != null) {
                set.velocityError(q, v, phidot);
                phidotNorm = norm(phidot);
            }
            phidotValid = true;
        }
        return phidotNorm;
    }

    /** φ(q) of every row at the current state (a view, valid until the next step; empty without constraints). */
    public double[] positionErrors() {
        positionErrorNorm();
        return phi;
    }

    /** φ̇(q, v) of every row at the current state (a view, valid until the next step). */
    public double[] velocityErrors() {
        velocityErrorNorm();
        return phidot;
    }

    /** Kinetic energy ½ vᵀ H(q) v (J). */
    public double kineticEnergy() {
        if (!kineticValid) {
            kinetic = energy != null ? energy.kinetic(q, v) : kineticFromH();
            kineticValid = true;
        }
        return kinetic;
    }

    private double kineticFromH() {
        dynamics.massMatrix(q, hScratch);
        double s = 0;
        int nv = v.length;
        for (int i = 0; i < nv; i++) {
            double row = 0;
            for (int j = 0; j < nv; j++) {
                row += hScratch.data[i * nv + j] * v[j];
            }
            s += v[i] * row;
        }
        return 0.5 * s;
    }

    /**
     * Gravitational potential energy -Σ m_i g·c_i (J), zero at the world origin; NaN for a simulator built from a
     * generated class alone ({@link #builder(ModelFunctions)}), which does not carry the masses.
     */
    public double potentialEnergy() {
        if (!potentialValid) {
            potential = energy != null ? energy.potential(q) : Double.NaN;
            potentialValid = true;
        }
        return potential;
    }

    /** Kinetic plus potential energy (J). */
    public double totalEnergy() {
        return kineticEnergy() + potentialEnergy();
    }

    /** max | |quat| - 1 | over the quaternions of q (0 without quaternions). */
    public double quaternionNormError() {
        return stateSpace().quaternionNormError(q);
    }

    // ---------------------------------------------------------------- parts and statistics

    /** Newton iterations of the last position projection (0 if already within tolerance, or no projection). */
    public int lastProjectionIterations() {
        return projection == null ? 0 : projection.lastIterations();
    }

    /** Position projections that stopped at the iteration limit above the tolerance. */
    public long projectionFailures() {
        return projection == null ? 0 : projection.failures();
    }

    /** The largest ‖φ‖₂ a position projection ended with. */
    public double maxProjectionResidual() {
        return projection == null ? 0 : projection.maxResidual();
    }

    /** The model. */
    public Model model() {
        return model;
    }

    /** The dynamics (the constraint set's when there is one). */
    public Dynamics dynamics() {
        return dynamics;
    }

    /** The kinematics (the constraint set's when there is one). */
    public Kinematics kinematics() {
        return kinematics;
    }

    /** The bound constraint set, or null for an unconstrained simulation. */
    public ConstraintData constraintData() {
        return set;
    }

    /** The right-hand side. */
    public AccelerationFunction accelerationFunction() {
        return rhs;
    }

    /** The integrator. */
    public Integrator integrator() {
        return integrator;
    }

    /** The drift control. */
    public DriftControl driftControl() {
        return drift;
    }

    /** The energy evaluator. */
    public MechanicalEnergy energy() {
        return energy;
    }

    private static double norm(double[] x) {
        double s = 0;
        for (double e : x) {
            s += e * e;
        }
        return Math.sqrt(s);
    }

    @Override
    public String toString() {
        return "Simulator{" + dynamics.modelName() + ", " + integrator + ", " + drift + (set != null ? ", " + set.size()
                + " constraint rows" : "") + ", t=" + t + "}";
    }

    // ---------------------------------------------------------------- builder

    /** Configures a {@link Simulator}; every setting has a default. */
    public static final class Builder {
        private final Model model;
        private final ModelFunctions functions;
        private ConstraintData data;
        private boolean useModelConstraints = true;
        private Dynamics dynamics;
        private Kinematics kinematics;
        private ForceFunction forces = ForceFunction.ZERO;
        private JointDamping damping;
        private ConstraintSolverMethod method = ConstraintSolverMethod.DIRECT;
        private AccelerationFunction rhs;
        private Integrator.Factory factory = RungeKutta4::new;
        private DriftControl drift = DriftControl.AS_SET;
        private double baumgarteTimeConstant = Double.NaN;
        private double[] weights;
        private double projectionTolerance = Assembly.DEFAULT_TOLERANCE;
        private int projectionMaxIterations = Assembly.DEFAULT_MAX_ITERATIONS;

        private Builder(Model model, ModelFunctions functions) {
            this.model = model;
            this.functions = functions;
        }

        /**
         * Bound constraint data of the model (its dynamics and kinematics are used). Default: when the model has
         * constraints, {@code ConstraintSet.of(model)} bound to the builder's dynamics: their own constraint code
         * when they have it (a generated class: one fused evaluation when it is also the kinematics),
         * {@link GenericConstraints} beside other dynamics, {@link GenericModel} when none are given.
         */
        public Builder constraints(ConstraintData bound) {
            this.data = Objects.requireNonNull(bound, "constraint data");
            return this;
        }

        /** Ignore the model's constraints (simulate the open tree) unless a set is given. */
        public Builder withoutModelConstraints() {
            this.useModelConstraints = false;
            return this;
        }

        /** Dynamics and kinematics to use without a given constraint set (default: {@link GenericDynamics}). */
        public Builder dynamics(Dynamics dyn, Kinematics kin) {
            this.dynamics = Objects.requireNonNull(dyn, "dynamics");
            this.kinematics = Objects.requireNonNull(kin, "kinematics");
            return this;
        }

        /** Dynamics that are also the kinematics (a generic or generated class implementing both). */
        public <T extends Dynamics & Kinematics> Builder dynamics(T both) {
            return dynamics(both, both);
        }

        /**
         * The joints' viscous damping, a passive force −D v added to the applied forces (explicit; see the class
         * comment). Default: the model's ({@code JointDamping.of(model)}) when the builder was given the model, none
         * for a generated class alone; {@link JointDamping#NONE} switches it off.
         */
        public Builder jointDamping(JointDamping d) {
            this.damping = Objects.requireNonNull(d, "damping");
            return this;
        }

        /** Applied generalised forces τ(t, q, v); default zero. */
        public Builder forces(ForceFunction tau) {
            this.forces = Objects.requireNonNull(tau, "forces");
            return this;
        }

        /** The constrained solution method; default {@link ConstraintSolverMethod#DIRECT}. */
        public Builder solverMethod(ConstraintSolverMethod m) {
            this.method = Objects.requireNonNull(m, "method");
            return this;
        }

        /** A custom right-hand side, replacing the built-in one (forces and solver method are then ignored). */
        public Builder accelerationFunction(AccelerationFunction f) {
            this.rhs = Objects.requireNonNull(f, "acceleration function");
            return this;
        }

        /** The integrator; default {@code RungeKutta4::new}. */
        public Builder integrator(Integrator.Factory f) {
            this.factory = Objects.requireNonNull(f, "integrator factory");
            return this;
        }

        /**
         * The drift control; default {@link DriftControl#AS_SET}: each group's Baumgarte setting as the model file
         * (or the bound data) says, no projection.
         */
        public Builder driftControl(DriftControl d) {
            this.drift = Objects.requireNonNull(d, "drift control");
            return this;
        }

        /** T_stab (s) given to every group when Baumgarte is used (α = β = 1/T); default: the groups' own. */
        public Builder baumgarteTimeConstant(double timeConstant) {
            if (!(timeConstant > 0) || Double.isInfinite(timeConstant)) {
                throw new IllegalArgumentException("time constant must be positive, got " + timeConstant);
            }
            this.baumgarteTimeConstant = timeConstant;
            return this;
        }

        /** W's diagonal for the projections (nv, non-negative); default ones. */
        public Builder projectionWeights(double[] w) {
            this.weights = w.clone();
            return this;
        }

        /** Tolerance on ‖φ‖₂ and iteration limit of the position projection; defaults 1e-12 and 100. */
        public Builder projectionTolerance(double tolerance, int maxIterations) {
            if (!(tolerance > 0) || maxIterations < 1) {
                throw new IllegalArgumentException("need tolerance > 0 and maxIterations >= 1");
            }
            this.projectionTolerance = tolerance;
            this.projectionMaxIterations = maxIterations;
            return this;
        }

        /** The simulator (allocates everything). */
        public Simulator build() {
            return new Simulator(this);
        }
    }
}
