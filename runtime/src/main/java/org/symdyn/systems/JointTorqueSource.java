package org.symdyn.systems;

import org.ejml.data.DMatrixRMaj;
import org.symdyn.contract.ModelInfo;
import org.symdyn.contract.TorqueSourceSpec;

/**
 * A joint torque (or force) source: τ[vIndex] += clamp(command, −maxTorque, maxTorque), the command (N·m on a
 * revolute joint, N on a prismatic one) set at run time by {@link #setCommand}. A NaN command passes through as NaN
 * (the contract's "NaN in, NaN out"), so a missing command is seen rather than read as zero.
 */
public final class JointTorqueSource implements Actuator {
    private final String name;
    private final int vIndex;
    private final double maxTorque;
    private double command;

    /**
     * @param vIndex    the joint's velocity coordinate, where the torque acts
     * @param command   the initial command (N·m or N)
     * @param maxTorque the saturation &gt; 0, {@link Double#POSITIVE_INFINITY} for none
     */
    public JointTorqueSource(String name, int vIndex, double command, double maxTorque) {
        this.name = Checks.name(name);
        this.vIndex = Checks.vIndex(name, null, vIndex);
        this.maxTorque = Checks.limit(name, maxTorque);
        this.command = command;
    }

    /** From a model file's declaration. */
    public static JointTorqueSource of(TorqueSourceSpec spec) {
        return new JointTorqueSource(spec.name(), spec.vIndex(), spec.command(), spec.maxTorque());
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void addForces(double t, double[] q, double[] v, double[] tau) {
        tau[vIndex] += Math.max(-maxTorque, Math.min(maxTorque, command));
    }

    /** Its force depends on neither q nor v: nothing to add. */
    @Override
    public void addForceDerivatives(double t, double[] q, double[] v, DMatrixRMaj dq, DMatrixRMaj dv) {
    }

    /** Sets the command (N·m or N), saturated when applied. */
    public void setCommand(double command) {
        this.command = command;
    }

    public double command() {
        return command;
    }

    public double maxTorque() {
        return maxTorque;
    }

    public int vIndex() {
        return vIndex;
    }

    @Override
    public void checkFits(ModelInfo model) {
        Checks.vIndex(name, model, vIndex);
    }
}
