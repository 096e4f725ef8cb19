package org.symdyn.systems;

import java.util.List;

/**
 * A sensor's name and channel names, fixed at construction: what every built-in {@link Sensor} holds alike. The
 * channels are prefixed with the name ("name.q", "name.wx", ...), which the subclass checks
 * ({@link Checks#name}) before it builds them.
 */
abstract class NamedSensor implements Sensor {
    private final String name;
    private final List<String> channels;

    NamedSensor(String name, List<String> channels) {
        this.name = name;
        this.channels = List.copyOf(channels);
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final List<String> channels() {
        return channels;
    }
}
