package org.symdyn.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class ModelChecksTest {
    /** The readers refuse a model whose H is singular only if the dynamics' check is found by the service loader. */
    @Test
    void theJointSpaceInertiaCheckIsDeclared() {
        assertEquals(List.of("org.symdyn.dynamics.JointSpaceInertiaCheck"), ModelChecks.declared());
    }
}
