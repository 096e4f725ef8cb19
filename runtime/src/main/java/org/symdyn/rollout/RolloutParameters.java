package org.symdyn.rollout;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.symdyn.contract.ModelFunctions;
import org.symdyn.contract.ModelParameters;
import org.symdyn.systems.Actuator;
import org.symdyn.systems.PdServo;
import org.symdyn.systems.TimeSteppingSystem;

/**
 * The names a {@link RolloutSpec}'s parameters may have, and what each sets on the rollout's model and system:
 * <table>
 * <caption>Parameter names</caption>
 * <tr><th>name</th><th>sets</th></tr>
 * <tr><td>a parameter the model declares ({@link ModelParameters#parameterNames()}: a mass, a centre of mass, an
 * inertia, a joint offset marked in the model file)</td><td>that parameter of the worker's model instance (SI
 * units); it returns to the model's value before the next rollout</td></tr>
 * <tr><td>{@code friction}</td><td>Coulomb's μ of every contact, grounds and shapes alike
 * ({@link org.symdyn.contact.ContactKinematics#setFriction})</td></tr>
 * <tr><td>{@code kp}, {@code kd}</td><td>that gain of every PD servo of the system</td></tr>
 * <tr><td>{@code kp.NAME}, {@code kd.NAME}, {@code target.NAME}</td><td>that gain, or the target (rad or m), of
 * the servo named NAME</td></tr>
 * </table>
 * Names are applied in sorted order (so {@code kp} before {@code kp.knee}); a model parameter of the same name as
 * one of the others is the model's. The model's parameters are set together, as one set
 * ({@link ModelParameters#setParameters}), so that the order of their names does not matter. An unknown name, or a
 * value the setter refuses (a negative or NaN gain or friction; a model parameter that is not finite, or that makes
 * a link no physical body or an armature negative), fails that rollout with
 * {@link RolloutFailure.Kind#INVALID_SPEC}.
 */
public final class RolloutParameters {
    /** The friction parameter's name. */
    public static final String FRICTION = "friction";
    /**
     * The built-in names a model parameter can take over (a model parameter is a Java identifier, so it never has
     * the dot of {@code kp.NAME}): {@code friction}, {@code kp}, {@code kd}.
     */
    public static final java.util.Set<String> SHADOWABLE = java.util.Set.of(FRICTION, "kp", "kd");

    private RolloutParameters() {
    }

    /**
     * Applies {@code parameters} to the model instance and the system, in the map's iteration order (a
     * {@link RolloutSpec}'s is sorted by name).
     *
     * @throws IllegalArgumentException naming the parameter, for an unknown name or a refused value
     */
    public static void apply(Map<String, Double> parameters, ModelFunctions model, TimeSteppingSystem system) {
        // the model's parameters as one set (ModelParameters.setParameters): one at a time, a physical set could be
        // refused for the order of its names (a product of inertia before the moment that makes room for it)
        ModelParameters mp = model instanceof ModelParameters p && !p.parameterNames().isEmpty() ? p : null;
        double[] values = null;
        java.util.List<String> set = new java.util.ArrayList<>();
        for (Map.Entry<String, Double> e : parameters.entrySet()) {
            String name = e.getKey();
            double value = e.getValue();
            int index = mp == null ? -1 : mp.parameterIndex(name);
            if (index >= 0) {
                if (!Double.isFinite(value)) {
                    throw new IllegalArgumentException("parameter " + name + " = " + value + ": a model parameter"
                            + " must be a finite number");
                }
                if (values == null) {
                    values = new double[mp.parameterNames().size()];
                    for (int k = 0; k < values.length; k++) {
                        values[k] = mp.parameter(k);
                    }
                }
                values[index] = value;
                set.add(name + " = " + value);
                continue;
            }
            try {
                applyOne(name, value, model, system);
            } catch (IllegalArgumentException ex) {
                throw new IllegalArgumentException("parameter " + name + " = " + value + ": " + ex.getMessage(), ex);
            }
        }
        if (values != null) {
            try {
                mp.setParameters(values);
            } catch (IllegalArgumentException ex) {
                throw new IllegalArgumentException("parameter" + (set.size() == 1 ? " " : "s ") + String.join(", ", set)
                        + ": " + ex.getMessage(), ex);
            }
        }
    }

    private static void applyOne(String name, double value, ModelFunctions model, TimeSteppingSystem system) {
        if (FRICTION.equals(name)) {
            if (!(value >= 0) || Double.isInfinite(value)) {
                // checked here: the contact set's own message offers NaN, which restores its materials' friction
                throw new IllegalArgumentException("friction must be a finite number >= 0");
            }
            system.stepper().contacts().setFriction(value);
            return;
        }
        if (name.equals("kp") || name.equals("kd")) {
            boolean any = false;
            for (Actuator a : system.actuators()) {
                if (a instanceof PdServo s) {
                    setGain(s, name, value);
                    any = true;
                }
            }
            if (!any) {
                throw new IllegalArgumentException("the system has no PD servo");
            }
            return;
        }
        int dot = name.indexOf('.');
        String kind = dot < 0 ? "" : name.substring(0, dot);
        if (kind.equals("kp") || kind.equals("kd") || kind.equals("target")) {
            String servo = name.substring(dot + 1);
            PdServo s = servo(system, servo);
            if (kind.equals("target")) {
                if (!Double.isFinite(value)) {
                    throw new IllegalArgumentException("a target must be a finite number");
                }
                s.setTarget(value);
            } else {
                setGain(s, kind, value);
            }
            return;
        }
        throw new IllegalArgumentException("unknown parameter; the names are " + String.join(", ", names(model, system)));
    }

    private static void setGain(PdServo s, String gain, double value) {
        if (gain.equals("kp")) {
            s.setGains(value, s.kd());
        } else {
            s.setGains(s.kp(), value);
        }
    }

    private static PdServo servo(TimeSteppingSystem system, String name) {
        for (Actuator a : system.actuators()) {
            if (a instanceof PdServo s && s.name().equals(name)) {
                return s;
            }
        }
        throw new IllegalArgumentException("no PD servo named '" + name + "'");
    }

    /** Every parameter name this model and system take, in the table's order (model parameters first). */
    public static List<String> names(ModelFunctions model, TimeSteppingSystem system) {
        List<String> names = new ArrayList<>();
        if (model instanceof ModelParameters mp) {
            names.addAll(mp.parameterNames());
        }
        names.add(FRICTION);
        List<String> servos = new ArrayList<>();
        for (Actuator a : system.actuators()) {
            if (a instanceof PdServo s) {
                servos.add(s.name());
            }
        }
        if (!servos.isEmpty()) {
            names.add("kp");
            names.add("kd");
            for (String s : servos) {
                names.add("kp." + s);
                names.add("kd." + s);
                names.add("target." + s);
            }
        }
        return names;
    }
}
