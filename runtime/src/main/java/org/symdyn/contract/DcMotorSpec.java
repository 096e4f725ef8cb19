package org.symdyn.contract;

/**
 * A brushed DC motor driving a single-coordinate joint through a gear ({@code <symdyn:motor>}), the model robotics
 * teams hand-write for feedforward: with the motor speed ω = N q̇ and the back-EMF constant
 * k_b = nominalVoltage / freeSpeed (free current neglected), the joint torque is
 * τ = N k_t (V − k_b N q̇) / R. Stall torque at V: N k_t V / R; free speed at V: V / (k_b N).
 *
 * @param joint          the joint's name
 * @param qIndex         its position coordinate
 * @param vIndex         its velocity coordinate
 * @param torqueConstant k_t &gt; 0 (N·m/A, at the motor shaft)
 * @param resistance     winding resistance R &gt; 0 (Ω)
 * @param freeSpeed      motor shaft free speed at the nominal voltage &gt; 0 (rad/s)
 * @param nominalVoltage the voltage the free speed is given at &gt; 0 (V)
 * @param gearRatio      N = motor speed / joint speed, ≠ 0
 * @param voltage        the input voltage V the motor starts with (V; a command, changed at run time)
 */
public record DcMotorSpec(String name, String joint, int qIndex, int vIndex, double torqueConstant,
        double resistance, double freeSpeed, double nominalVoltage, double gearRatio, double voltage)
        implements DeviceSpec {
}
