package org.symdyn.contract;

/**
 * An actuator or sensor declared in a model file ({@code <symdyn:servo>}, {@code <symdyn:imu>}, ...), resolved
 * against the model: joints to their q and v indices, links to body indices with the placement of a fixed link
 * folded in. Plain immutable data, the same from the model reader ({@code Model.devices()}) and from a generated
 * class ({@link DeclaredDevices}); {@code org.symdyn.systems} turns each into a working actuator or sensor.
 *
 * <p>Units: SI throughout (rad, m, N·m, N, V, Ω, A, s). Body index −1 is the world (the root link of a fixed-base
 * model); points are in the body's coordinates, or in world coordinates for the world.
 */
public sealed interface DeviceSpec permits ServoSpec, DcMotorSpec, TorqueSourceSpec, SpringDamperSpec, ImuSpec,
        EncoderSpec {

    /** The device's name, unique among the model's devices. */
    String name();
}
