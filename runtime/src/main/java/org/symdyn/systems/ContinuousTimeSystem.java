package org.symdyn.systems;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import org.symdyn.constraints.ConstraintData;
import org.symdyn.contact.ContactSet;
import org.symdyn.contract.Dynamics;
import org.symdyn.contract.Kinematics;
import org.symdyn.simulation.AccelerationFunction;
import org.symdyn.simulation.ConstrainedAcceleration;
import org.symdyn.simulation.DormandPrince45;
import org.symdyn.simulation.Integrator;
import org.symdyn.simulation.RungeKutta4;
import org.symdyn.simulation.StateSpace;
import org.symdyn.simulation.UnconstrainedAcceleration;
import org.symdyn.solvers.ConstrainedDynamics;
import org.symdyn.solvers.ConstraintSolverMethod;

/**
 * The design note's RigidBodySystem: a tree with its actuators and sensors as an ordinary differential equation,
 * <pre>
 *   H(q) v̇ + C(q, v) = τ_input + Σ_a τ_a(t, q, v)     [+ Gᵀ λ with G v̇ = γ for bound bilateral constraints]
 *   q̇ = N(q) v
 * </pre>
 * integrated by one of {@link org.symdyn.simulation}'s integrators ({@link RungeKutta4} by default,
 * {@link DormandPrince45}, {@link org.symdyn.simulation.SemiImplicitEuler}); after each step the sensors read the
 * new state with v̇ from the dynamics there (one more evaluation of the right-hand side).
 *
 * <p><b>Contact.</b> Rigid unilateral contact is not an ODE (impacts are jumps, sticking is a complementarity
 * problem), so this system refuses a {@link ContactSet}: use {@link TimeSteppingSystem} for rigid contact, or add
 * a {@link CompliantContact} actuator (a stiff, smooth force the integrators can follow with small steps).
 *
 * <p><b>Commands change between steps.</b> Actuators are read at every evaluation, so a command set between
 * steps acts from the next step on. Because the adaptive {@link DormandPrince45} would otherwise reuse its last
 * evaluation (first same as last) with the old command, this system resets it before every step; an accepted step
 * then costs seven evaluations instead of six.
 *
 * <p>Everything is allocated by {@link Builder#build()}; a step allocates nothing when the actuators and sensors
 * do not. Not thread-safe.
 */
public final class ContinuousTimeSystem {
    private final StateSpace space;
    private final SystemDevices devices;
    private final AccelerationFunction rhs;
    private final Integrator integrator;
    private final int nq;
    private final int nv;
    private final double[] q;
    private final double[] v;
    private final double[] vdot;
    private double t;
    private long steps;
    private double lastH;
    private boolean stateSet;

    private ContinuousTimeSystem(Builder b) {
        this.nq = b.dynamics.nq();
        this.nv = b.dynamics.nv();
        this.space = new StateSpace(b.dynamics);
        this.devices = new SystemDevices(nv, b.actuators, b.sensors);
        if (b.constraints != null) {
            rhs = new ConstrainedAcceleration(new ConstrainedDynamics(b.constraints), b.method, devices);
        } else {
            rhs = new UnconstrainedAcceleration(b.dynamics, devices);
        }
        this.integrator = Objects.requireNonNull(b.factory.create(space, rhs), "integrator factory returned null");
        this.q = space.neutralConfiguration();
        this.v = new double[nv];
        this.vdot = new double[nv];
    }

    /** A builder for a model's dynamics and kinematics: a generated class or {@code GenericDynamics}. */
    public static <T extends Dynamics & Kinematics> Builder builder(T model) {
        return new Builder(model);
    }

    /** Sets time and state (copied; quaternions renormalised) and reads the sensors there. */
    public ContinuousTimeSystem setState(double time, double[] q0, double[] v0) {
        SystemDevices.checkState(time, q0, v0, nq, nv);
        System.arraycopy(q0, 0, q, 0, nq);
        System.arraycopy(v0, 0, v, 0, nv);
        space.normalize(q);
        t = time;
        steps = 0;
        lastH = 0;
        stateSet = true;
        if (integrator instanceof DormandPrince45 dp) {
            dp.reset();
        }
        readSensors();
        return this;
    }

    /**
     * One step of at most {@code hMax} (exactly hMax for a fixed-step integrator), then the sensors.
     *
     * @return the step taken (s)
     */
    public double step(double hMax) {
        if (!stateSet) {
            throw new IllegalStateException("set the state first");
        }
        if (integrator instanceof DormandPrince45 dp) {
            dp.reset();
        }
        double taken = integrator.step(t, hMax, q, v);
        t += taken;
        lastH = taken;
        steps++;
        readSensors();
        return taken;
    }

    /**
     * Steps of (at most) h until t_end, the last one shortened to end there (a remainder below 1e-9 h is not
     * stepped).
     *
     * @return the number of steps taken
     */
    public long run(double tEnd, double h) {
        if (!(h > 0) || Double.isInfinite(h)) {
            throw new IllegalArgumentException("step " + h + " must be a positive number of seconds");
        }
        long n = 0;
        while (tEnd - t > 1e-9 * h) {
            step(Math.min(h, tEnd - t));
            n++;
        }
        return n;
    }

    private void readSensors() {
        if (devices.sensors.length > 0) {
            rhs.accelerations(q, v, t, vdot);
            devices.read(t, q, v, vdot);
        }
    }

    /** The τ input (nv, live); added to the actuators' forces. */
    public double[] input() {
        return devices.input;
    }

    /** Sets the τ input (nv numbers, copied). */
    public void setInput(double[] tauInput) {
        devices.setInput(tauInput);
    }

    public Actuator actuator(String name) {
        return devices.actuator(name);
    }

    public <T extends Actuator> T actuator(String name, Class<T> type) {
        return devices.cast(devices.actuator(name), name, type);
    }

    public List<Actuator> actuators() {
        return devices.actuatorList();
    }

    public Sensor sensor(String name) {
        return devices.sensor(name);
    }

    public List<Sensor> sensors() {
        return devices.sensorList();
    }

    /** The reading of the sensor named {@code name} (live, overwritten by the next step). */
    public double[] reading(String name) {
        return devices.reading(name);
    }

    public double time() {
        return t;
    }

    /** Positions (nq), live: read only. */
    public double[] q() {
        return q;
    }

    /** Velocities (nv), live: read only. */
    public double[] v() {
        return v;
    }

    /** v̇ at the current state as the sensors last saw it (nv, live; only computed when there are sensors). */
    public double[] vdot() {
        return vdot;
    }

    public long stepCount() {
        return steps;
    }

    public double lastStepSize() {
        return lastH;
    }

    public Integrator integrator() {
        return integrator;
    }

    /** Configures a {@link ContinuousTimeSystem}. */
    public static final class Builder {
        private final Dynamics dynamics;
        private final Kinematics kinematics;
        private Integrator.Factory factory = RungeKutta4::new;
        private ConstraintData constraints;
        private ConstraintSolverMethod method = ConstraintSolverMethod.DIRECT;
        private final List<Actuator> actuators = new ArrayList<>();
        private final List<Sensor> sensors = new ArrayList<>();

        private <T extends Dynamics & Kinematics> Builder(T model) {
            this.dynamics = Objects.requireNonNull(model, "model");
            this.kinematics = model;
        }

        /** The integrator (default {@code RungeKutta4::new}; e.g. {@code DormandPrince45.factory(1e-10, 1e-10)}). */
        public Builder integrator(Integrator.Factory f) {
            this.factory = Objects.requireNonNull(f, "integrator factory");
            return this;
        }

        /** Bilateral constraints of this model ([H Gᵀ; G 0][v̇; −λ] = [τ − C; γ], Baumgarte as the data says). */
        public Builder constraints(ConstraintData data) {
            Objects.requireNonNull(data, "data");
            if (data.nv() != dynamics.nv() || !data.set().model().contentHash().equals(dynamics.modelHash())) {
                throw new IllegalArgumentException("the constraint data is bound to model "
                        + data.set().model().name() + ", not to " + dynamics.modelName());
            }
            this.constraints = data;
            return this;
        }

        /** The constrained solution method (default direct). */
        public Builder solverMethod(ConstraintSolverMethod m) {
            this.method = Objects.requireNonNull(m, "method");
            return this;
        }

        /**
         * Refused: rigid unilateral contact needs time stepping.
         *
         * @throws IllegalArgumentException always
         */
        public Builder contacts(ContactSet set) {
            throw new IllegalArgumentException("ContinuousTimeSystem has no rigid unilateral contact (impacts and "
                    + "sticking are not an ODE): use TimeSteppingSystem for the contact set of " + set.modelName()
                    + ", or add a CompliantContact actuator here");
        }

        public Builder actuator(Actuator a) {
            actuators.add(Objects.requireNonNull(a, "actuator"));
            return this;
        }

        public Builder actuators(Collection<? extends Actuator> as) {
            as.forEach(this::actuator);
            return this;
        }

        public Builder sensor(Sensor s) {
            sensors.add(Objects.requireNonNull(s, "sensor"));
            return this;
        }

        public Builder sensors(Collection<? extends Sensor> ss) {
            ss.forEach(this::sensor);
            return this;
        }

        /** Every actuator and sensor of a binding. */
        public Builder devices(Devices d) {
            actuators(d.actuators());
            return sensors(d.sensors());
        }

        public ContinuousTimeSystem build() {
            if (kinematics.nv() != dynamics.nv()) {
                throw new IllegalArgumentException("kinematics and dynamics of different models");
            }
            return new ContinuousTimeSystem(this);
        }
    }
}
