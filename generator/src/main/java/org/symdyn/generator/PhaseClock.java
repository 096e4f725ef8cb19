package org.symdyn.generator;

import java.util.LinkedHashMap;
import java.util.Map;

/** The milliseconds each phase of one generation takes, in the order the phases end ({@link GeneratedClass}). */
final class PhaseClock {
    private final Map<String, Long> millis = new LinkedHashMap<>();
    private final long start = System.nanoTime();
    private long since = start;

    /** Records {@code phase} as the time since the last lap, and starts the next phase. */
    void lap(String phase) {
        long now = System.nanoTime();
        millis.put(phase, (now - since) / 1_000_000);
        since = now;
    }

    /**
     * Records {@code phase} as the time since the last lap without starting another: the next lap's phase
     * includes it.
     */
    void within(String phase) {
        millis.put(phase, (System.nanoTime() - since) / 1_000_000);
    }

    /** The phases, and their {@code total} since the clock started. */
    Map<String, Long> total() {
        millis.put("total", (System.nanoTime() - start) / 1_000_000);
        return millis;
    }
}
