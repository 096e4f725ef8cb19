package org.symdyn.systems;

import org.ejml.data.DMatrixRMaj;
import org.symdyn.contract.DcMotorSpec;
import org.symdyn.contract.ModelInfo;

/**
 * A brushed DC motor driving a single-coordinate joint through a gear of ratio N (motor speed = N q̇), with the
 * winding inductance and the free current neglected (the motor's electrical time constant is far below a step):
 * <pre>
 *   i = (V − k_b N q̇) / R,     τ[vIndex] += N k_t i = N k_t (V − k_b N q̇) / R,     k_b = V_nominal / ω_free
 * </pre>
 * so that at the voltage V the stall torque is N k_t V / R and the joint's free speed V / (k_b N). Signs: a
 * positive voltage drives q̇ positive (a negative N reverses the motor). The voltage is the command, set by
 * {@link #setVoltage}; it is not limited (clamp it in the controller to the supply).
 */
public final class DcMotor implements Actuator {
    private final String name;
    private final int vIndex;
    private final double torqueConstant;
    private final double resistance;
    private final double backEmfConstant;
    private final double gearRatio;
    private double voltage;

    /**
     * @param vIndex         the joint's velocity coordinate
     * @param torqueConstant k_t &gt; 0 (N·m/A at the motor shaft)
     * @param resistance     R &gt; 0 (Ω)
     * @param freeSpeed      motor-shaft free speed at the nominal voltage &gt; 0 (rad/s)
     * @param nominalVoltage the voltage the free speed is given at &gt; 0 (V)
     * @param gearRatio      N, ≠ 0
     * @param voltage        the initial input voltage (V)
     */
    public DcMotor(String name, int vIndex, double torqueConstant, double resistance, double freeSpeed,
            double nominalVoltage, double gearRatio, double voltage) {
        this.name = Checks.name(name);
        this.vIndex = Checks.vIndex(name, null, vIndex);
        this.torqueConstant = Checks.positive(name, "torqueConstant", torqueConstant);
        this.resistance = Checks.positive(name, "resistance", resistance);
        this.backEmfConstant = Checks.positive(name, "nominalVoltage", nominalVoltage)
                / Checks.positive(name, "freeSpeed", freeSpeed);
        if (gearRatio == 0 || !Double.isFinite(gearRatio)) {
            throw new IllegalArgumentException(name + ": gearRatio " + gearRatio + " must be finite and non-zero");
        }
        this.gearRatio = gearRatio;
        this.voltage = Checks.finite(name, "voltage", voltage);
    }

    /** From a model file's declaration. */
    public static DcMotor of(DcMotorSpec s) {
        return new DcMotor(s.name(), s.vIndex(), s.torqueConstant(), s.resistance(), s.freeSpeed(),
                s.nominalVoltage(), s.gearRatio(), s.voltage());
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void addForces(double t, double[] q, double[] v, double[] tau) {
        tau[vIndex] += torque(v[vIndex]);
    }

    /** ∂τ/∂q̇ = −N² k_t k_b / R on its own entry (the back-EMF's damping); nothing along q. */
    @Override
    public void addForceDerivatives(double t, double[] q, double[] v, DMatrixRMaj dq, DMatrixRMaj dv) {
        dv.data[vIndex * dv.numCols + vIndex] -= gearRatio * torqueConstant * backEmfConstant * gearRatio / resistance;
    }

    /** The joint torque N k_t (V − k_b N q̇) / R at joint rate q̇ and the current voltage (N·m or N). */
    public double torque(double jointRate) {
        return gearRatio * torqueConstant * (voltage - backEmfConstant * gearRatio * jointRate) / resistance;
    }

    /** The winding current (V − k_b N q̇) / R at joint rate q̇ (A). */
    public double current(double jointRate) {
        return (voltage - backEmfConstant * gearRatio * jointRate) / resistance;
    }

    /** Sets the input voltage (V). */
    public void setVoltage(double voltage) {
        this.voltage = voltage;
    }

    public double voltage() {
        return voltage;
    }

    /** N k_t V / R: the torque at q̇ = 0 (N·m or N). */
    public double stallTorque() {
        return gearRatio * torqueConstant * voltage / resistance;
    }

    /** V / (k_b N): the joint rate at which the torque vanishes (rad/s or m/s). */
    public double freeSpeed() {
        return voltage / (backEmfConstant * gearRatio);
    }

    /** k_b = V_nominal / ω_free (V·s/rad). */
    public double backEmfConstant() {
        return backEmfConstant;
    }

    public int vIndex() {
        return vIndex;
    }

    @Override
    public void checkFits(ModelInfo model) {
        Checks.vIndex(name, model, vIndex);
    }
}
