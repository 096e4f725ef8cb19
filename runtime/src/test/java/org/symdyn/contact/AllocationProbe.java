package org.symdyn.contact;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Assumptions;

/** Bytes a thread allocates over repeated calls (the third of three passes, after the JIT has settled). */
final class AllocationProbe {
    private AllocationProbe() {
    }

    static long allocatedBytes(int rounds, Runnable body) {
        java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        Assumptions.assumeTrue(bean instanceof com.sun.management.ThreadMXBean);
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) bean;
        Assumptions.assumeTrue(mx.isThreadAllocatedMemorySupported() && mx.isThreadAllocatedMemoryEnabled());
        long id = Thread.currentThread().getId();
        long before = 0;
        for (int pass = 0; pass < 3; pass++) {
            before = mx.getThreadAllocatedBytes(id);
            for (int i = 0; i < rounds; i++) {
                body.run();
            }
        }
        return mx.getThreadAllocatedBytes(id) - before;
    }

    /**
     * The fewest bytes a thread allocates over one pass of {@code rounds} calls, among passes 3 to 8: a per-call
     * allocation shows in every pass, while the JIT's one-off events (a recompilation after a profile trap when the
     * number of contacts changes, a constant resolved on a path first met) show in one pass at most.
     */
    static long allocatedBytesSettled(int rounds, Runnable body) {
        java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        Assumptions.assumeTrue(bean instanceof com.sun.management.ThreadMXBean);
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) bean;
        Assumptions.assumeTrue(mx.isThreadAllocatedMemorySupported() && mx.isThreadAllocatedMemoryEnabled());
        long id = Thread.currentThread().getId();
        long least = Long.MAX_VALUE;
        for (int pass = 0; pass < 8; pass++) {
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
