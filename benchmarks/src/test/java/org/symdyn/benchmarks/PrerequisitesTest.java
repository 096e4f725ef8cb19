package org.symdyn.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.VerboseMode;

/** {@link Prerequisites}: what a run selects and the missing files it reports, before any fork starts. */
class PrerequisitesTest {
    private final String savedShared = System.getProperty(SharedModels.PROPERTY);

    @AfterEach
    void restore() {
        if (savedShared == null) {
            System.clearProperty(SharedModels.PROPERTY);
        } else {
            System.setProperty(SharedModels.PROPERTY, savedShared);
        }
    }

    @Test
    void everyBenchmarkClassWithAModelParameterHasItsFileFinder() {
        SortedSet<BenchmarkListEntry> all = BenchmarkList.defaultList().find(
                OutputFormatFactory.createFormatInstance(System.out, VerboseMode.SILENT), List.of(".*"), List.of());
        assertTrue(all.size() > 10, "the JMH benchmark list of this module: " + all.size() + " entries");
        for (BenchmarkListEntry e : all) {
            String c = e.getUserClassQName();
            if (e.getParams().hasValue() && e.getParams().get().containsKey(Prerequisites.MODEL)) {
                assertTrue(Prerequisites.MODEL_FILES.containsKey(c),
                        c + " has a model parameter but no entry in Prerequisites.MODEL_FILES");
            } else {
                assertTrue(Prerequisites.FIXED_FILES.containsKey(c),
                        c + " has no model parameter and no entry in Prerequisites.FIXED_FILES");
            }
        }
    }

    @Test
    void runsExpandTheParametersAndHonourMinusP() throws Exception {
        CommandLineOptions options = new CommandLineOptions("-p", "model=panda,solo12",
                "GenericDynamicsBenchmark.massMatrix");
        Set<Prerequisites.Run> runs = Prerequisites.runs(Prerequisites.selected(options), options);
        assertEquals(Set.of(
                new Prerequisites.Run(GenericDynamicsBenchmark.class.getName() + ".massMatrix", Map.of("model", "panda")),
                new Prerequisites.Run(GenericDynamicsBenchmark.class.getName() + ".massMatrix",
                        Map.of("model", "solo12"))), runs);

        CommandLineOptions all = new CommandLineOptions("ConstrainedSolverBenchmark.rangeSpace");
        // 4 models x 3 backends x 4 solvers
        assertEquals(48, Prerequisites.runs(Prerequisites.selected(all), all).size());
    }

    @Test
    void aMissingSharedFolderIsOneLineForAllModels() throws Exception {
        Path nowhere = Path.of("target", "no-such-shared").toAbsolutePath();
        System.setProperty(SharedModels.PROPERTY, nowhere.toString());
        CommandLineOptions options = new CommandLineOptions("DynamicsBenchmark");
        SortedSet<BenchmarkListEntry> selected = Prerequisites.selected(options);
        List<String> problems = Prerequisites.missingInputs(selected, Prerequisites.runs(selected, options));
        assertEquals(1, problems.size(), problems.toString());
        assertTrue(problems.get(0).contains("-Dsymdyn.shared=" + nowhere) && problems.get(0).contains("models"),
                problems.get(0));
    }

    @Test
    void sampleModelsNeedNoSharedFolder() throws Exception {
        System.setProperty(SharedModels.PROPERTY, Path.of("target", "no-such-shared").toAbsolutePath().toString());
        CommandLineOptions options = new CommandLineOptions("-p", "model=fourbar,quadruped",
                "ConstrainedSolverBenchmark");
        SortedSet<BenchmarkListEntry> selected = Prerequisites.selected(options);
        assertEquals(List.of(), Prerequisites.missingInputs(selected, Prerequisites.runs(selected, options)));
    }

    @Test
    void aBenchmarkWithoutModelParameterHasItsFileCheckedToo() throws Exception {
        System.setProperty(ConstrainedSolverBenchmark.ROOT_PROPERTY, Path.of("target", "no-such-repository")
                .toAbsolutePath().toString());
        try {
            // anchored: the bare name would also select ShapeContactStepBenchmark, which needs ../shared
            CommandLineOptions options = new CommandLineOptions("\\bContactStepBenchmark\\b");
            SortedSet<BenchmarkListEntry> selected = Prerequisites.selected(options);
            List<String> problems = Prerequisites.missingInputs(selected, Prerequisites.runs(selected, options));
            assertEquals(1, problems.size(), problems.toString());
            assertTrue(problems.get(0).startsWith("-Dsymdyn.root="), problems.get(0));
        } finally {
            System.clearProperty(ConstrainedSolverBenchmark.ROOT_PROPERTY);
        }
    }

    @Test
    void aMistypedModelNameIsNamed() throws Exception {
        Path models;
        try {
            models = SharedModels.modelsDirectory();
        } catch (MissingInputException e) {
            org.junit.jupiter.api.Assumptions.abort("../shared is absent: " + e.getMessage());
            return;
        }
        CommandLineOptions options = new CommandLineOptions("-p", "model=pandaa", "GenericDynamicsBenchmark");
        SortedSet<BenchmarkListEntry> selected = Prerequisites.selected(options);
        assertEquals(List.of("model file not found: " + models.resolve("pandaa.urdf")),
                Prerequisites.missingInputs(selected, Prerequisites.runs(selected, options)));
    }
}
