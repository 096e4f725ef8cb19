package org.symdyn.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.List;
import org.junit.jupiter.api.Test;

class ModelChecksTest {
    /** The readers refuse a model whose H is singular only if the dynamics' check is found by the service loader. */
    @Test
    void theJointSpaceInertiaCheckIsDeclared() {
        assertEquals(List.of("org.symdyn.dynamics.JointSpaceInertiaCheck"), ModelChecks.declared());
    }

    /** A class path that lost the declaration (a fat jar without META-INF/services) fails loudly, not silently. */
    @Test
    void aClassPathWithoutTheDeclarationIsRefused() throws Exception {
        try (URLClassLoader bare = new URLClassLoader(new URL[0], null)) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> ModelChecks.load(bare));
            assertTrue(e.getMessage().contains("no model checks found"), e.getMessage());
            assertTrue(e.getMessage().contains("META-INF/services/org.symdyn.model.ModelCheck"), e.getMessage());
        }
    }
}
