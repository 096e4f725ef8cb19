package org.symdyn.io.mjcf;

import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.symdyn.dynamics.GenericDynamics;
import org.symdyn.model.Model;
import org.symdyn.testing.MjcfReference;
import org.symdyn.testing.SharedFiles;

/**
 * The MJCF reader and the generic backend against MuJoCo 3.14's values on mesh-free Menagerie models
 * ({@code shared/reference-mjcf/}, see its README): H, C, g and forward dynamics at five states each, already in
 * SymDyn's coordinates, compared by {@link MjcfReference#compare} within 1e-9 relative. Skipped, visibly, when the
 * shared folder is absent.
 */
class MjcfReferenceTest {
    private static final double REL_TOL = MjcfReference.REL_TOL;
    /** Worst relative error per model and quantity, printed after the tests. */
    static final Map<String, Double> WORST = new ConcurrentHashMap<>();

    @AfterAll
    static void printWorst() {
        System.out.println("MjcfReferenceTest worst relative errors (tolerance " + REL_TOL + "):");
        new TreeMap<>(WORST).forEach((k, v) -> System.out.printf("  %-20s %.3e%n", k, v));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"ur5e", "go2", "cassie"})
    void matchesMujoco(String name) throws Exception {
        Path json = SharedFiles.require("reference-mjcf/mjcf_" + name + ".json");
        Model model = MjcfReader.read(SharedFiles.require("reference-mjcf/models/" + name + ".xml"));
        MjcfReference.compare(name, model, new GenericDynamics(model), json, WORST);
    }
}
