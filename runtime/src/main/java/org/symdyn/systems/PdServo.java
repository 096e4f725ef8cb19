package org.symdyn.systems;

import org.ejml.data.DMatrixRMaj;
import org.symdyn.contract.ModelInfo;
import org.symdyn.contract.ServoSpec;

/**
 * A PD position servo on a single-coordinate joint:
 * <pre>
 *   τ[vIndex] += clamp(kp (target − q[qIndex]) − kd v[vIndex], −maxTorque, maxTorque)
 * </pre>
 * kp in N·m/rad (N/m on a prismatic joint), kd in N·m·s/rad (N·s/m). The damping acts on the joint rate alone, not
 * on the error rate, so a step in the target gives no derivative kick. Target and gains may be changed between
 * steps.
 */
public final class PdServo implements Actuator {
    private final String name;
    private final int qIndex;
    private final int vIndex;
    private final double maxTorque;
    private double kp;
    private double kd;
    private double target;

    /**
     * @param qIndex    the joint's position coordinate
     * @param vIndex    its velocity coordinate (where τ acts)
     * @param kp        stiffness ≥ 0
     * @param kd        damping ≥ 0
     * @param target    the initial target position (rad or m)
     * @param maxTorque the saturation &gt; 0, {@link Double#POSITIVE_INFINITY} for none
     */
    public PdServo(String name, int qIndex, int vIndex, double kp, double kd, double target, double maxTorque) {
        this.name = Checks.name(name);
        this.qIndex = Checks.qIndex(name, null, qIndex);
        this.vIndex = Checks.vIndex(name, null, vIndex);
        this.kp = Checks.nonNegative(name, "kp", kp);
        this.kd = Checks.nonNegative(name, "kd", kd);
        this.target = Checks.finite(name, "target", target);
        this.maxTorque = Checks.limit(name, maxTorque);
    }

    /** From a model file's declaration. */
    public static PdServo of(ServoSpec spec) {
        return new PdServo(spec.name(), spec.qIndex(), spec.vIndex(), spec.kp(), spec.kd(), spec.target(),
                spec.maxTorque());
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void addForces(double t, double[] q, double[] v, double[] tau) {
        double u = kp * (target - q[qIndex]) - kd * v[vIndex];
        tau[vIndex] += Math.max(-maxTorque, Math.min(maxTorque, u));
    }

    /**
     * −kp along its q and −kd along its v on its own entry while the command is inside ±maxTorque; zero once it is
     * clamped (at the limit exactly too).
     */
    @Override
    public void addForceDerivatives(double t, double[] q, double[] v, DMatrixRMaj dq, DMatrixRMaj dv) {
        double u = kp * (target - q[qIndex]) - kd * v[vIndex];
        if (Math.abs(u) < maxTorque) {
            int i = vIndex * dq.numCols + vIndex;
            dq.data[i] -= kp;
            dv.data[i] -= kd;
        }
    }

    /**
     * Sets the target position (rad or m).
     *
     * @throws IllegalArgumentException if the target is not finite (a NaN target made a NaN torque)
     */
    public void setTarget(double target) {
        this.target = Checks.finite(name, "target", target);
    }

    /** Sets both gains (≥ 0). */
    public void setGains(double kp, double kd) {
        this.kp = Checks.nonNegative(name, "kp", kp);
        this.kd = Checks.nonNegative(name, "kd", kd);
    }

    public double target() {
        return target;
    }

    public double kp() {
        return kp;
    }

    public double kd() {
        return kd;
    }

    public double maxTorque() {
        return maxTorque;
    }

    public int qIndex() {
        return qIndex;
    }

    public int vIndex() {
        return vIndex;
    }

    @Override
    public void checkFits(ModelInfo model) {
        Checks.qIndex(name, model, qIndex);
        Checks.vIndex(name, model, vIndex);
    }
}
