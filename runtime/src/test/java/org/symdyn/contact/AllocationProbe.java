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
}
