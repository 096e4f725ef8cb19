package org.symdyn.contract;

/**
 * A joint torque (or force) source ({@code <symdyn:torque_source>}): τ = clamp(command, ±maxTorque) on a
 * single-coordinate joint, the command set at run time (starting at {@code command}).
 *
 * @param joint     the joint's name
 * @param vIndex    its velocity coordinate
 * @param command   the initial command (N·m or N)
 * @param maxTorque saturation &gt; 0; {@link Double#POSITIVE_INFINITY} for none
 */
public record TorqueSourceSpec(String name, String joint, int vIndex, double command, double maxTorque)
        implements DeviceSpec {
}
