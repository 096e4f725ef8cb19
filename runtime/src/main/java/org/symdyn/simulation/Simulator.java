package org.symdyn.simulation;

import java.util.Arrays;
import java.util.Objects;
import org.symdyn.constraints.ConstraintSet;
import org.symdyn.constraints.GenericConstraints;
import org.symdyn.contract.Dynamics;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.contract.Kinematics;
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
 * {@link ConstraintSet}, [H Gᵀ; G 0][v̇; -λ] = [τ - C; γ] ({@link ConstrainedAcceleration}, method selectable),
 * τ = τ(t, q, v) from a {@link ForceFunction} (default 0); or any {@link AccelerationFunction}. Positions evolve by
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
 * <p>Everything is allocated when the simulator is built: {@link #step} and {@link #run} do not allocate (with
 * generic or generated dynamics, the built-in right-hand sides, and a non-allocating listener). Not thread-safe:
 * build one simulator, with its own dynamics and constraint set, per thread.
 */
public final class Simulator {
    private final Model model;
    private final StateSpace space;
    private final Dynamics dynamics;
    private final Kinematics kinematics;
    private final ConstraintSet set;
    private final AccelerationFunction rhs;
    private final Integrator integrator;
    private final DriftControl drift;
    private final Assembly assembly;
    private final double[] weights;
    private final double projectionTolerance;
    private final int projectionMaxIterations;
    private final MechanicalEnergy energy;

    private final double[] q;
    private final double[] v;
    private final double[] phi;
    private final double[] phidot;
    private double t;
    private long steps;
    private double lastStep;
    private boolean stateSet;

    private int lastProjectionIterations;
    private long projectionFailures;
    private double maxProjectionResidual;

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
        this.model = b.model;
        this.space = new StateSpace(model);
        ConstraintSet s = b.set;
        if (s == null && b.useModelConstraints && !model.constraints().isEmpty()) {
            s = ConstraintSet.of(model);
            if (b.dynamics != null) {
                s.bind(b.dynamics, b.kinematics, new GenericConstraints(model));
            } else {
                s.bindGeneric();
            }
        }
        this.set = s;
        if (set != null) {
            if (!set.isBound()) {
                throw new IllegalArgumentException("bind the constraint set before building the simulator");
            }
            if (set.model() != model && (set.nq() != model.nq() || set.nv() != model.nv())) {
                throw new IllegalArgumentException("the constraint set is not of model '" + model.name() + "'");
            }
            if (b.dynamics != null && b.dynamics != set.dynamics()) {
                throw new IllegalArgumentException("with a constraint set, the dynamics are the set's: give them to "
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
        if (dynamics.nq() != model.nq() || dynamics.nv() != model.nv()) {
            throw new IllegalArgumentException("the dynamics are not of model '" + model.name() + "'");
        }
        this.drift = b.drift;
        if (set != null) {
            for (int g = 0; g < set.groupCount(); g++) {
                if (drift.usesBaumgarte()) {
                    if (!Double.isNaN(b.baumgarteTimeConstant)) {
                        set.setBaumgarteTimeConstant(g, b.baumgarteTimeConstant);
                    }
                    set.enableBaumgarteStabilization(g);
                } else {
                    set.disableBaumgarteStabilization(g);
                }
            }
        }
        if (b.rhs != null) {
            this.rhs = b.rhs;
        } else if (set != null) {
            this.rhs = new ConstrainedAcceleration(new ConstrainedDynamics(set), b.method, b.forces);
        } else {
            this.rhs = new UnconstrainedAcceleration(dynamics, b.forces);
        }
        this.integrator = Objects.requireNonNull(b.factory.create(space, rhs), "integrator factory returned null");
        if (integrator.stateSpace().nq() != model.nq() || integrator.stateSpace().nv() != model.nv()) {
            throw new IllegalArgumentException("the integrator's state space does not match the model");
        }
        int nv = model.nv();
        if (b.weights != null) {
            if (b.weights.length != nv) {
                throw new IllegalArgumentException("projection weights must have nv = " + nv + " entries");
            }
            this.weights = b.weights.clone();
        } else {
            this.weights = new double[nv];
            Arrays.fill(weights, 1.0);
        }
        this.projectionTolerance = b.projectionTolerance;
        this.projectionMaxIterations = b.projectionMaxIterations;
        this.assembly = set != null && drift.usesProjection() ? new Assembly(set) : null;
        this.energy = new MechanicalEnergy(model, dynamics, kinematics);
        this.q = model.neutralConfiguration();
        this.v = new double[nv];
        int m = set != null ? set.size() : 0;
        this.phi = new double[m];
        this.phidot = new double[m];
    }

    /** A builder for a simulator of {@code model}. */
    public static Builder builder(Model model) {
        return new Builder(model);
    }

    // ---------------------------------------------------------------- state

    /**
     * Sets the time and state (copied). Quaternions are renormalised; the state is not projected (assemble it first
     * with {@link Assembly} if the constraints should hold from the start). Resets the step count.
     */
    public Simulator setState(double time, double[] q0, double[] v0) {
        if (q0.length != q.length || v0.length != v.length) {
            throw new IllegalArgumentException("state must have nq = " + q.length + " and nv = " + v.length
                    + " entries, got " + q0.length + " and " + v0.length);
        }
        if (!Double.isFinite(time)) {
            throw new IllegalArgumentException("time must be finite, got " + time);
        }
        System.arraycopy(q0, 0, q, 0, q.length);
        System.arraycopy(v0, 0, v, 0, v.length);
        space.normalize(q);
        t = time;
        steps = 0;
        lastStep = 0;
        stateSet = true;
        invalidate();
        return this;
    }

    /** Time (s). */
    public double time() {
        return t;
    }

    /** The positions (nq), a live view: read only. */
    public double[] q() {
        return q;
    }

    /** The velocities (nv), a live view: read only. */
    public double[] v() {
        return v;
    }

    /** Steps taken since the last {@link #setState}. */
    public long stepCount() {
        return steps;
    }

    /** The last step size taken (s), 0 before the first step. */
    public double lastStepSize() {
        return lastStep;
    }

    // ---------------------------------------------------------------- stepping

    /**
     * One step of at most h (exactly h for fixed-step integrators), then drift projection if selected.
     *
     * @return the step taken (s)
     */
    public double step(double h) {
        if (!stateSet) {
            throw new IllegalStateException("set the state first");
        }
        double taken = integrator.step(t, h, q, v);
        t += taken;
        if (assembly != null) {
            project();
        }
        steps++;
        lastStep = taken;
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
        if (!stateSet) {
            throw new IllegalStateException("set the state first");
        }
        if (!(h > 0) || Double.isInfinite(h)) {
            throw new IllegalArgumentException("step must be positive and finite, got " + h);
        }
        if (listener != null) {
            listener.onStep(this);
        }
        long n = 0;
        double eps = 1e-12 * Math.max(1, Math.abs(tEnd));
        while (tEnd - t > eps) {
            double remaining = tEnd - t;
            // Merge a final sliver into the last step rather than take a tiny one.
            double hs = remaining <= h * (1 + 1e-9) ? remaining : h;
            step(hs);
            n++;
            if (listener != null) {
                listener.onStep(this);
            }
        }
        return n;
    }

    private void project() {
        boolean ok = assembly.assembleQ(q, weights, projectionTolerance, projectionMaxIterations, q);
        lastProjectionIterations = assembly.lastIterations();
        maxProjectionResidual = Math.max(maxProjectionResidual, assembly.lastError());
        if (!ok) {
            projectionFailures++;
        }
        assembly.assembleV(q, v, weights, v);
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
                set.calcPositionError(q, phi);
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
                set.calcVelocityError(q, v, phidot);
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
            kinetic = energy.kinetic(q, v);
            kineticValid = true;
        }
        return kinetic;
    }

    /** Gravitational potential energy -Σ m_i g·c_i (J), zero at the world origin. */
    public double potentialEnergy() {
        if (!potentialValid) {
            potential = energy.potential(q);
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
        return space.quaternionNormError(q);
    }

    // ---------------------------------------------------------------- parts and statistics

    /** Newton iterations of the last position projection (0 if already within tolerance, or no projection). */
    public int lastProjectionIterations() {
        return lastProjectionIterations;
    }

    /** Position projections that stopped at the iteration limit above the tolerance. */
    public long projectionFailures() {
        return projectionFailures;
    }

    /** The largest ‖φ‖₂ a position projection ended with. */
    public double maxProjectionResidual() {
        return maxProjectionResidual;
    }

    /** The model. */
    public Model model() {
        return model;
    }

    /** The state space. */
    public StateSpace stateSpace() {
        return space;
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
    public ConstraintSet constraintSet() {
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
        return "Simulator{" + model.name() + ", " + integrator + ", " + drift + (set != null ? ", " + set.size()
                + " constraint rows" : "") + ", t=" + t + "}";
    }

    // ---------------------------------------------------------------- builder

    /** Configures a {@link Simulator}; every setting has a default. */
    public static final class Builder {
        private final Model model;
        private ConstraintSet set;
        private boolean useModelConstraints = true;
        private Dynamics dynamics;
        private Kinematics kinematics;
        private ForceFunction forces = ForceFunction.ZERO;
        private ConstraintSolverMethod method = ConstraintSolverMethod.DIRECT;
        private AccelerationFunction rhs;
        private Integrator.Factory factory = RungeKutta4::new;
        private DriftControl drift = DriftControl.NONE;
        private double baumgarteTimeConstant = Double.NaN;
        private double[] weights;
        private double projectionTolerance = Assembly.DEFAULT_TOLERANCE;
        private int projectionMaxIterations = Assembly.DEFAULT_MAX_ITERATIONS;

        private Builder(Model model) {
            this.model = Objects.requireNonNull(model, "model");
        }

        /**
         * A bound constraint set of the model (its dynamics and kinematics are used). Default: when the model has
         * constraints, {@code ConstraintSet.of(model)} bound to the builder's dynamics (generic if none).
         */
        public Builder constraints(ConstraintSet boundSet) {
            this.set = Objects.requireNonNull(boundSet, "set");
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

        /** The drift control; default {@link DriftControl#NONE}. */
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
