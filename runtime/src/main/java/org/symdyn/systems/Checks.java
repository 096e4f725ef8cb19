package org.symdyn.systems;

import java.util.Objects;
import org.symdyn.contract.ModelInfo;

/** Argument checks shared by the actuators and sensors (messages name the device). */
final class Checks {
    private Checks() {
    }

    static String name(String name) {
        Objects.requireNonNull(name, "name");
        if (name.isBlank()) {
            throw new IllegalArgumentException("a device name must not be blank");
        }
        return name;
    }

    static double nonNegative(String device, String what, double x) {
        if (!(x >= 0) || Double.isInfinite(x)) {
            throw new IllegalArgumentException(device + ": " + what + " " + x + " must be a finite number >= 0");
        }
        return x;
    }

    static double positive(String device, String what, double x) {
        if (!(x > 0) || Double.isInfinite(x)) {
            throw new IllegalArgumentException(device + ": " + what + " " + x + " must be a finite number > 0");
        }
        return x;
    }

    /** A torque limit: &gt; 0, infinity allowed (no limit). */
    static double limit(String device, double maxTorque) {
        if (!(maxTorque > 0)) {
            throw new IllegalArgumentException(device + ": maxTorque " + maxTorque
                    + " must be > 0 (Double.POSITIVE_INFINITY for none)");
        }
        return maxTorque;
    }

    static double finite(String device, String what, double x) {
        if (!Double.isFinite(x)) {
            throw new IllegalArgumentException(device + ": " + what + " " + x + " must be finite");
        }
        return x;
    }

    static int vIndex(String device, ModelInfo model, int vIndex) {
        if (model != null && (vIndex < 0 || vIndex >= model.nv())) {
            throw new IllegalArgumentException(device + ": velocity index " + vIndex + " outside 0.." + (model.nv() - 1)
                    + " of model " + model.modelName());
        }
        if (vIndex < 0) {
            throw new IllegalArgumentException(device + ": velocity index " + vIndex + " is negative");
        }
        return vIndex;
    }

    static int qIndex(String device, ModelInfo model, int qIndex) {
        if (model != null && (qIndex < 0 || qIndex >= model.nq())) {
            throw new IllegalArgumentException(device + ": position index " + qIndex + " outside 0.." + (model.nq() - 1)
                    + " of model " + model.modelName());
        }
        if (qIndex < 0) {
            throw new IllegalArgumentException(device + ": position index " + qIndex + " is negative");
        }
        return qIndex;
    }

    /** Refuses a device holding {@code own} kinematics (or a size) of another model than {@code model}. */
    static void sameModel(String device, ModelInfo own, ModelInfo model) {
        if (own.nq() != model.nq() || own.nv() != model.nv() || !own.modelName().equals(model.modelName())) {
            throw new IllegalArgumentException(device + ": made for model " + own.modelName() + " (nq " + own.nq()
                    + ", nv " + own.nv() + "), not the system's " + model.modelName() + " (nq " + model.nq() + ", nv "
                    + model.nv() + ")");
        }
    }

    /** A body index of the model, or −1 for the world. */
    static int body(String device, ModelInfo model, int body) {
        if (body < -1 || body >= model.bodyNames().size()) {
            throw new IllegalArgumentException(device + ": body " + body + " outside -1 (world).."
                    + (model.bodyNames().size() - 1) + " of model " + model.modelName());
        }
        return body;
    }

    static double[] vector(String device, String what, double[] x, int n) {
        Objects.requireNonNull(x, device + ": " + what);
        if (x.length != n) {
            throw new IllegalArgumentException(device + ": " + what + " needs " + n + " numbers, got " + x.length);
        }
        for (double e : x) {
            if (!Double.isFinite(e)) {
                throw new IllegalArgumentException(device + ": " + what + " has a non-finite entry");
            }
        }
        return x.clone();
    }
}
