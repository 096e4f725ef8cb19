package org.symdyn.rollout;

import java.util.Objects;
import java.util.function.Supplier;
import org.symdyn.contact.ContactReport;
import org.symdyn.contact.PainleveException;
import org.symdyn.contract.ModelFunctions;
import org.symdyn.contract.ModelParameters;
import org.symdyn.systems.TimeSteppingSystem;

/**
 * Runs rollouts one after another on one model instance: what each thread of a {@link Rollouts} batch holds, and
 * what a Spark task holds for its partition. A rollout is a function of its specification alone: the model's
 * declared parameters are put back to their initial values, a new system is built ({@link SystemFactory}), the
 * parameters applied, each sensor reseeded from the rollout's seed ({@link Rollouts#sensorSeed}), the state set,
 * and the steps taken with the controller and the observer. Nothing carries over from one rollout to the next, so
 * results do not depend on which worker runs which rollout, or in what order.
 *
 * <p>The steps allocate nothing when the controller and observer do not (the system's own step allocates nothing;
 * building it does). Not thread-safe: one worker per thread.
 */
public final class RolloutWorker {
    private final ModelFunctions model;
    private final SystemFactory systems;
    private final Controller.Factory controllers;
    private final boolean failOnUnconverged;
    private final double[] initialParameters;

    /**
     * A worker on its own model instance.
     *
     * @param model             this worker's model instance (a {@code copy()}; not shared with another thread)
     * @param systems           builds each rollout's system
     * @param controllers       each rollout's controller
     * @param failOnUnconverged whether a contact solve that did not converge fails the rollout (otherwise it is
     *                          counted in the result's solves)
     */
    public RolloutWorker(ModelFunctions model, SystemFactory systems, Controller.Factory controllers,
            boolean failOnUnconverged) {
        this.model = Objects.requireNonNull(model, "model");
        this.systems = Objects.requireNonNull(systems, "systems");
        this.controllers = Objects.requireNonNull(controllers, "controllers");
        this.failOnUnconverged = failOnUnconverged;
        if (model instanceof ModelParameters mp) {
            initialParameters = new double[mp.parameterNames().size()];
            for (int i = 0; i < initialParameters.length; i++) {
                initialParameters[i] = mp.parameter(i);
            }
        } else {
            initialParameters = new double[0];
        }
    }

    /** The model instance rollouts run on. */
    public ModelFunctions model() {
        return model;
    }

    /**
     * Runs one rollout. Never throws for anything the specification, the factory, the controller or the observer
     * does wrong: the result then carries the failure. ({@link Error}s, such as running out of memory, propagate.)
     *
     * @param index     the rollout's index in its batch, for the result
     * @param spec      the rollout
     * @param observers makes the rollout's observer
     */
    public <R> RolloutResult<R> run(int index, RolloutSpec spec, Supplier<? extends RolloutObserver<R>> observers) {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(observers, "observers");
        String invalid = invalid(spec);
        if (invalid != null) {
            return failedAtStart(index, spec, RolloutFailure.Kind.INVALID_SPEC, invalid);
        }
        restoreParameters();
        TimeSteppingSystem system;
        try {
            system = systems.build(model, spec);
        } catch (Exception e) {
            return failedAtStart(index, spec, RolloutFailure.Kind.EXCEPTION, "the system factory threw " + describe(e));
        }
        try {
            RolloutParameters.apply(spec.parameters(), model, system);
        } catch (IllegalArgumentException e) {
            return failedAtStart(index, spec, RolloutFailure.Kind.INVALID_SPEC, e.getMessage());
        }
        var sensors = system.sensors();
        for (int k = 0; k < sensors.size(); k++) {
            sensors.get(k).seed(Rollouts.sensorSeed(spec.seed(), k));
        }
        try {
            system.setState(0, spec.q0Shared(), spec.v0Shared());
        } catch (RuntimeException e) {
            return failedAtStart(index, spec, RolloutFailure.Kind.INVALID_SPEC, "the initial state: " + describe(e));
        }
        Controller controller;
        RolloutObserver<R> observer;
        try {
            controller = Objects.requireNonNull(controllers.create(spec, system), "the controller factory gave null");
            observer = Objects.requireNonNull(observers.get(), "the observer factory gave null");
            observer.start(spec, system);
        } catch (Exception e) {
            return failedAtStart(index, spec, RolloutFailure.Kind.EXCEPTION, describe(e));
        }
        long n = spec.stepCount();
        for (long k = 0; k < n; k++) {
            double t = system.time();
            try {
                controller.control(system);
            } catch (Exception e) { // a checked exception thrown undeclared too: the batch goes on
                return failed(index, spec, system, new RolloutFailure(RolloutFailure.Kind.EXCEPTION, k, t,
                        "the controller threw " + describe(e)), k);
            }
            ContactReport report;
            try {
                report = system.step(spec.stepSize(k, n));
            } catch (PainleveException e) {
                return failed(index, spec, system, new RolloutFailure(RolloutFailure.Kind.PAINLEVE, k, t,
                        describe(e)), k);
            } catch (Exception e) { // an actuator's or sensor's checked exception, thrown undeclared, too
                // a solver that refuses a NaN (a non-finite command or state) reports it by throwing
                RolloutFailure.Kind why = finite(system.q()) && finite(system.v()) && finite(system.input())
                        ? RolloutFailure.Kind.EXCEPTION : RolloutFailure.Kind.NON_FINITE_STATE;
                return failed(index, spec, system, new RolloutFailure(why, k, t, "the step threw " + describe(e)), k);
            }
            if (!finite(system.q()) || !finite(system.v())) {
                return failed(index, spec, system, new RolloutFailure(RolloutFailure.Kind.NON_FINITE_STATE, k, t,
                        "the state after the step is not finite"), k + 1);
            }
            int runaway = runaway(system.v());
            if (runaway >= 0) {
                return failed(index, spec, system, new RolloutFailure(RolloutFailure.Kind.DIVERGED, k, t,
                        "the state diverged: v[" + runaway + "] = " + system.v()[runaway] + " after the step, beyond "
                        + RUNAWAY_SPEED + " (a smaller time step, or stiffer contact settings)"), k + 1);
            }
            if (failOnUnconverged && !report.converged()) {
                return failed(index, spec, system, new RolloutFailure(RolloutFailure.Kind.UNCONVERGED, k, t,
                        "the contact solve did not converge: " + report), k + 1);
            }
            try {
                observer.afterStep(k, system, report);
            } catch (Exception e) {
                return failed(index, spec, system, new RolloutFailure(RolloutFailure.Kind.EXCEPTION, k, t,
                        "the observer threw " + describe(e)), k + 1);
            }
        }
        try {
            return new RolloutResult<>(index, spec, observer.finish(system), null, n, system.summary());
        } catch (Exception e) {
            return failed(index, spec, system, new RolloutFailure(RolloutFailure.Kind.EXCEPTION, n, system.time(),
                    "the observer's finish threw " + describe(e)), n);
        }
    }

    private void restoreParameters() {
        if (initialParameters.length > 0) {
            // all at once: one at a time, a set of physical values can pass through a non-physical link on the way
            // back, and a refusal here would stop the worker, not one rollout (a review's finding)
            ((ModelParameters) model).setParameters(initialParameters);
        }
    }

    private String invalid(RolloutSpec spec) {
        if (spec.q0Shared().length != model.nq()) {
            return "q0 has " + spec.q0Shared().length + " numbers; the model has nq = " + model.nq();
        }
        if (spec.v0Shared().length != model.nv()) {
            return "v0 has " + spec.v0Shared().length + " numbers; the model has nv = " + model.nv();
        }
        if (!finite(spec.q0Shared()) || !finite(spec.v0Shared())) {
            return "the initial state has a NaN or infinite number";
        }
        if (!(spec.duration() >= 0) || Double.isInfinite(spec.duration())) {
            return "duration " + spec.duration() + " must be a finite number of seconds >= 0";
        }
        if (!(spec.timeStep() > 0) || Double.isInfinite(spec.timeStep())) {
            return "time step " + spec.timeStep() + " must be a positive number of seconds";
        }
        if (!(spec.duration() / spec.timeStep() <= RolloutSpec.MAX_STEPS)) {
            double steps = spec.duration() / spec.timeStep();
            return "duration " + spec.duration() + " s in steps of " + spec.timeStep() + " s is "
                    + (Double.isInfinite(steps) ? "" : steps + " steps, ") + "more than the " + RolloutSpec.MAX_STEPS
                    + (Double.isInfinite(steps) ? " steps" : "") + " a rollout may take";
        }
        return null;
    }

    /**
     * A speed no mechanism reaches (m/s, rad/s): a state past it has diverged even while it is finite (a four-bar
     * stepped from its reference state reached v = 4.4e65 in six steps of 1 ms and "completed"). The same bound as
     * {@code symdyn simulate}'s.
     */
    public static final double RUNAWAY_SPEED = 1e6;

    /** The first velocity coordinate beyond {@link #RUNAWAY_SPEED}, or -1. */
    public static int runaway(double[] v) {
        for (int i = 0; i < v.length; i++) {
            if (Math.abs(v[i]) > RUNAWAY_SPEED) {
                return i;
            }
        }
        return -1;
    }

    private static boolean finite(double[] x) {
        for (double d : x) {
            if (!Double.isFinite(d)) {
                return false;
            }
        }
        return true;
    }

    private static String describe(Exception e) {
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }

    private static <R> RolloutResult<R> failedAtStart(int index, RolloutSpec spec, RolloutFailure.Kind kind,
            String message) {
        return new RolloutResult<>(index, spec, null, new RolloutFailure(kind, -1, Double.NaN, message), 0, null);
    }

    private static <R> RolloutResult<R> failed(int index, RolloutSpec spec, TimeSteppingSystem system,
            RolloutFailure failure, long steps) {
        return new RolloutResult<>(index, spec, null, failure, steps, system.summary());
    }
}
