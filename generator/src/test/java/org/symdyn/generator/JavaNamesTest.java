package org.symdyn.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The class and package names the plugin and the command line both accept (moved from the plugin's tests). */
class JavaNamesTest {
    private static final List<String> NAMES = List.of("iiwa14", "romeo_small", "2dof_planar", "ur5-e.v2", "",
            "simple_pendulum", "two_link_arm", "HyQ", "already CamelCase", "__x__", "été", "a1b2", "class", "9");

    @Test
    void derivedNames() {
        assertEquals("Iiwa14Dynamics", CodeGenerator.defaultClassName("iiwa14"));
        assertEquals("RomeoSmallDynamics", CodeGenerator.defaultClassName("romeo_small"));
        assertEquals("Model2dofPlanarDynamics", CodeGenerator.defaultClassName("2dof_planar"));
        assertEquals("Ur5EV2Dynamics", CodeGenerator.defaultClassName("ur5-e.v2"));
        assertEquals("ModelDynamics", CodeGenerator.defaultClassName(""));
        assertEquals("ModelDynamics", CodeGenerator.defaultClassName(null));
        assertEquals("TwoLinkArmDynamics", CodeGenerator.defaultClassName("two_link_arm"));
        for (String n : NAMES) {
            assertTrue(isClassName(CodeGenerator.defaultClassName(n)), n);
        }
    }

    private static boolean isClassName(String name) {
        return JavaNames.classNameProblem(name) == null;
    }

    private static boolean isPackageName(String name) {
        return JavaNames.packageNameProblem(name) == null;
    }

    /** One rule for the plugin and the command line, including restricted identifiers and java.lang names. */
    @Test
    void packageAndClassNames() {
        assertTrue(isPackageName("org.symdyn.generated"));
        assertTrue(isPackageName("robots"));
        for (String bad : new String[] {"", ".a", "a.", "a..b", "a.class.b", "1a", "a-b", "a b"}) {
            assertFalse(isPackageName(bad), bad);
        }
        assertTrue(isClassName("Iiwa"));
        assertFalse(isClassName("int"));
        assertFalse(isClassName("true"));
        assertFalse(isClassName("a.B"));
        assertFalse(isClassName(null));
        // issue 10, item 5: the command line's rule, including restricted identifiers and java.lang names
        for (String bad : new String[] {"record", "var", "yield", "sealed", "permits", "Math", "String", "Object",
            "Override", "System"}) {
            assertFalse(isClassName(bad), bad);
        }
        assertFalse(isPackageName("java.robots"));
    }

    /**
     * A helper's findings: classes that stand where a package the generated code names fully qualified is, or in
     * such a package, compiled into code that did not compile (exit 1): {@code --class org}, {@code -p org --class
     * symdyn}, {@code -p org.symdyn --class spatial}, {@code -p org.symdyn.contract --class Dynamics} (cyclic
     * inheritance).
     */
    @Test
    void namesThatHideThePackagesGeneratedCodeUses() {
        for (String bad : new String[] {"org", "javax", "java"}) {
            assertTrue(JavaNames.classNameProblem(bad).contains("would hide the package " + bad), bad);
        }
        String[][] clashes = {{"org", "symdyn"}, {"org", "ejml"}, {"javax", "annotation"}, {"org.symdyn", "spatial"},
            {"org.symdyn.spatial", "SinCos"}, {"org.symdyn.contract", "Dynamics"}, {"java", "util"}};
        for (String[] c : clashes) {
            assertFalse(JavaNames.qualifiedNameProblem(c[0], c[1]) == null, c[0] + "." + c[1]);
        }
        assertTrue(JavaNames.classNameProblem("A".repeat(201)).contains("is 201 characters long"));
        assertEquals(null, JavaNames.classNameProblem("A".repeat(200)));
        for (String[] fine : new String[][] {{"org.symdyn.samples.generated", "Arm7Dynamics"}, {"robots", "Org"},
            {"org.example", "Symdyn"}, {"com.acme.robots", "ArmDynamics"}}) {
            assertEquals(null, JavaNames.qualifiedNameProblem(fine[0], fine[1]), fine[0] + "." + fine[1]);
        }
    }
}
