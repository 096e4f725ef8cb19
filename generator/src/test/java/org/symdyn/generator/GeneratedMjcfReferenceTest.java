package org.symdyn.generator;

import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.symdyn.contract.Dynamics;
import org.symdyn.io.mjcf.MjcfReader;
import org.symdyn.model.Model;
import org.symdyn.testing.MjcfReference;
import org.symdyn.testing.SharedFiles;

/**
 * Classes generated from MJCF models against MuJoCo 3.14's values ({@code shared/reference-mjcf/}), by the same
 * comparison as the generic backend's ({@link MjcfReference#compare}, 1e-9 relative). Cassie (32 dofs) is left to
 * the generic backend's test: generating it here would take most of the module's test time.
 */
class GeneratedMjcfReferenceTest {
    static final Map<String, Double> WORST = new ConcurrentHashMap<>();

    @AfterAll
    static void printWorst() {
        System.out.println("GeneratedMjcfReferenceTest worst relative errors (tolerance " + MjcfReference.REL_TOL
                + "):");
        new TreeMap<>(WORST).forEach((k, v) -> System.out.printf("  %-20s %.3e%n", k, v));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"ur5e", "go2"})
    void generatedMatchesMujoco(String name) throws Exception {
        Path json = SharedFiles.require("reference-mjcf/mjcf_" + name + ".json");
        Model model = MjcfReader.read(SharedFiles.require("reference-mjcf/models/" + name + ".xml"));
        GeneratedClass gen = new CodeGenerator().generate(model,
                GeneratorOptions.of("org.symdyn.generated", "Mjcf" + Character.toUpperCase(name.charAt(0))
                        + name.substring(1)));
        Dynamics generated = GeneratedVsGenericTest.instance(gen);
        MjcfReference.compare(name, model, generated, json, WORST);
    }
}
