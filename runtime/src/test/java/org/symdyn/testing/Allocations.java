package org.symdyn.testing;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Assumptions;

/** Bytes allocated by the calling thread, for the contract's "no allocation after construction" checks. */
public final class Allocations {
    private Allocations() {
    }

    /**
     * Bytes allocated by this thread while {@code body} runs {@code rounds} times: the least of three measured passes,
     * after two warm-up passes. A few hundred bytes of noise come from the JIT (a compilation that lands during a pass,
     * more of it on a loaded machine); a real per-call allocation costs at least 16 bytes per round in every pass, so
     * the least pass keeps it and drops the noise. Skips the calling test on a JVM that cannot count.
     */
    public static long allocatedBytes(int rounds, Runnable body) {
        java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        Assumptions.assumeTrue(bean instanceof com.sun.management.ThreadMXBean);
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) bean;
        Assumptions.assumeTrue(mx.isThreadAllocatedMemorySupported() && mx.isThreadAllocatedMemoryEnabled());
        long id = Thread.currentThread().getId();
        long least = Long.MAX_VALUE;
        for (int pass = 0; pass < 5; pass++) {
            long before = mx.getThreadAllocatedBytes(id);
            for (int i = 0; i < rounds; i++) {
                body.run();
            }
            if (pass >= 2) {
                least = Math.min(least, mx.getThreadAllocatedBytes(id) - before);
            }
        }
        return least;
    }
}
