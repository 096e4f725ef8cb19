package org.symdyn.systems;

import java.util.List;
import java.util.Objects;
import org.symdyn.constraints.ConstraintSet;
import org.symdyn.contact.ContactSet;
import org.symdyn.contract.DeclaredDevices;
import org.symdyn.contract.DeviceSpec;
import org.symdyn.contract.ModelFunctions;
import org.symdyn.model.JointDamping;
import org.symdyn.model.LidarModel;
import org.symdyn.model.Model;

/**
 * The time-stepping system a model file describes, as {@code symdyn simulate} runs it: the file's declared devices
 * (actuators and sensors; a generated class's own copy of them when it carries one, {@link DeclaredDevices}), its
 * grounds, contact points and collision shapes, its joints' position limits, its bilateral constraints bound to the
 * backend, its joints' damping, and a {@link Lidar} for each {@code <symdyn:lidar>} (seeded {@link #LIDAR_SEED} + its
 * index). One recipe, so that a simulation, a batch of rollouts and a Spark job of them build the same system.
 */
public final class ModelSystems {
    /** The noise seed of the model's first Lidar; the k-th has this + k. */
    public static final long LIDAR_SEED = 0x5D11DA12L;

    private ModelSystems() {
    }

    /**
     * A builder for the model's time-stepping system on {@code functions} (a generated class of the model, or
     * {@code GenericModel}) with {@code contacts} (usually {@link ContactSet#of(Model)}, or a variant of it), the
     * model's joint limits and its own damping; the caller may still change the settings, the step (default 1 ms),
     * the damping, or add devices before {@link TimeSteppingSystem.Builder#build()}. Allocates (binds the
     * constraints): call it when setting up, not per step.
     *
     * @throws IllegalArgumentException if {@code functions} has another number of dofs than the model
     */
    public static TimeSteppingSystem.Builder timeStepping(Model model, ModelFunctions functions, ContactSet contacts) {
        TimeSteppingSystem.Builder builder = TimeSteppingSystem.builder(checked(model, functions))
                .contacts(Objects.requireNonNull(contacts, "contacts"))
                .jointLimits(model);
        ConstraintSet constraints = ConstraintSet.of(model);
        if (constraints.size() > 0) {
            builder.constraints(constraints.bind(functions));
        }
        return withDevices(builder, model, functions, contacts);
    }

    /**
     * As {@link #timeStepping}, the continuous-time hybrid system ({@link ContinuousTimeSystem}; joint limits are not
     * among its contacts); the integrator and settings are the caller's to choose.
     */
    public static ContinuousTimeSystem.Builder continuous(Model model, ModelFunctions functions, ContactSet contacts) {
        ContinuousTimeSystem.Builder builder = ContinuousTimeSystem.builder(checked(model, functions))
                .contacts(Objects.requireNonNull(contacts, "contacts"));
        ConstraintSet constraints = ConstraintSet.of(model);
        if (constraints.size() > 0) {
            builder.constraints(constraints.bind(functions));
        }
        return withDevices(builder, model, functions, contacts);
    }

    private static ModelFunctions checked(Model model, ModelFunctions functions) {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(functions, "functions");
        if (functions.nv() != model.nv() || functions.nq() != model.nq()) {
            throw new IllegalArgumentException("the functions have nq = " + functions.nq() + ", nv = " + functions.nv()
                    + "; model " + model.name() + " has nq = " + model.nq() + ", nv = " + model.nv());
        }
        return functions;
    }

    private static <B extends SystemBuilder<B>> B withDevices(B builder, Model model, ModelFunctions functions,
            ContactSet contacts) {
        List<DeviceSpec> declared = functions instanceof DeclaredDevices d ? d.devices() : model.devices();
        builder.devices(Devices.of(declared, functions, model.gravity())).jointDamping(JointDamping.of(model));
        List<LidarModel> lidars = model.scene().lidars();
        for (int i = 0; i < lidars.size(); i++) {
            builder.sensor(new Lidar(lidars.get(i), contacts, functions, LIDAR_SEED + i));
        }
        return builder;
    }
}
