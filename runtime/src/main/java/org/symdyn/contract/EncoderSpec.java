package org.symdyn.contract;

/**
 * A joint encoder ({@code <symdyn:encoder>}): reads offset + resolution · round(q / resolution) for a
 * single-coordinate joint (a resolution of 0 reads q exactly), and the velocity q̇ unquantised.
 *
 * @param joint      the joint's name
 * @param qIndex     its position coordinate
 * @param vIndex     its velocity coordinate
 * @param resolution one count, ≥ 0 (rad or m)
 * @param offset     added to the reading (rad or m)
 */
public record EncoderSpec(String name, String joint, int qIndex, int vIndex, double resolution, double offset)
        implements DeviceSpec {
}
