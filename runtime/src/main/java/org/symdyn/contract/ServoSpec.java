package org.symdyn.contract;

/**
 * A PD joint servo ({@code <symdyn:servo>}): τ = clamp(kp (target − q) − kd q̇, ±maxTorque) on a single-coordinate
 * joint.
 *
 * @param joint     the joint's name
 * @param qIndex    its position coordinate
 * @param vIndex    its velocity coordinate (where τ acts)
 * @param kp        stiffness ≥ 0 (N·m/rad or N/m)
 * @param kd        damping ≥ 0 (N·m·s/rad or N·s/m)
 * @param target    target position (rad or m)
 * @param maxTorque torque or force limit &gt; 0; {@link Double#POSITIVE_INFINITY} for none
 */
public record ServoSpec(String name, String joint, int qIndex, int vIndex, double kp, double kd, double target,
        double maxTorque) implements DeviceSpec {
}
