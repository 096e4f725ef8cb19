package org.symdyn.contract;

import java.util.List;

/**
 * The actuators and sensors a model file declares, in file order: implemented by every generated class (the
 * declarations compiled in as constants) and by the generic model, so that a system can be assembled from the
 * class alone.
 */
public interface DeclaredDevices {

    /** Every declared device, in file order (unmodifiable). */
    List<DeviceSpec> devices();

    /**
     * The device named {@code name}.
     *
     * @throws IllegalArgumentException if there is none, or it is not a {@code type}
     */
    default <T extends DeviceSpec> T device(String name, Class<T> type) {
        for (DeviceSpec d : devices()) {
            if (d.name().equals(name)) {
                if (!type.isInstance(d)) {
                    throw new IllegalArgumentException("device '" + name + "' is a "
                            + d.getClass().getSimpleName() + ", not a " + type.getSimpleName());
                }
                return type.cast(d);
            }
        }
        throw new IllegalArgumentException("no device named '" + name + "'; declared: "
                + devices().stream().map(DeviceSpec::name).toList());
    }
}
