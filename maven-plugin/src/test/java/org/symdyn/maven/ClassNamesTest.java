package org.symdyn.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ClassNamesTest {
    private static final List<String> NAMES = List.of("iiwa14", "romeo_small", "2dof_planar", "ur5-e.v2", "",
            "simple_pendulum", "two_link_arm", "HyQ", "already CamelCase", "__x__", "été", "a1b2", "class", "9");

    @Test
    void derivedNames() {
        assertEquals("Iiwa14Dynamics", ClassNames.derive("iiwa14"));
        assertEquals("RomeoSmallDynamics", ClassNames.derive("romeo_small"));
        assertEquals("Model2dofPlanarDynamics", ClassNames.derive("2dof_planar"));
        assertEquals("Ur5EV2Dynamics", ClassNames.derive("ur5-e.v2"));
        assertEquals("ModelDynamics", ClassNames.derive(""));
        assertEquals("ModelDynamics", ClassNames.derive(null));
        assertEquals("TwoLinkArmDynamics", ClassNames.derive("two_link_arm"));
        for (String n : NAMES) {
            assertTrue(ClassNames.isClassName(ClassNames.derive(n)), n);
        }
    }

    /** The plugin and the command line name a model's class alike (the CLI's rule is package-private there). */
    @Test
    void packageAndClassNames() {
        assertTrue(ClassNames.isPackageName("org.symdyn.generated"));
        assertTrue(ClassNames.isPackageName("robots"));
        for (String bad : new String[] {"", ".a", "a.", "a..b", "a.class.b", "1a", "a-b", "a b"}) {
            assertFalse(ClassNames.isPackageName(bad), bad);
        }
        assertTrue(ClassNames.isClassName("Iiwa"));
        assertFalse(ClassNames.isClassName("int"));
        assertFalse(ClassNames.isClassName("true"));
        assertFalse(ClassNames.isClassName("a.B"));
        assertFalse(ClassNames.isClassName(null));
        // issue 10, item 5: the command line's rule, including restricted identifiers and java.lang names
        for (String bad : new String[] {"record", "var", "yield", "sealed", "permits", "Math", "String", "Object",
            "Override", "System"}) {
            assertFalse(ClassNames.isClassName(bad), bad);
        }
        assertFalse(ClassNames.isPackageName("java.robots"));
    }
}
