package org.symdyn.maven;

import java.io.File;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;

/**
 * Generates one Java dynamics class per model of {@code src/test/symdyn} into
 * {@code target/generated-test-sources/symdyn}, which is added as a test compile source root: models that only the
 * tests use. Everything else is the goal {@code generate}'s (parameters, incremental runs with fingerprints kept
 * per output directory, ownership of the sources, all-or-nothing errors; see {@link GenerateMojo}). Skipped, like
 * the test compilation, under {@code maven.test.skip}.
 *
 * <p>Thread-safe: each execution creates its own generator (Symja's evaluator is per thread).
 */
@Mojo(name = "generate-test", defaultPhase = LifecyclePhase.GENERATE_TEST_SOURCES, threadSafe = true)
public class GenerateTestMojo extends AbstractGenerateMojo {
    /** Where the test models are; their paths relative to it name them in {@code classNames} and {@code models}. */
    @Parameter(property = "symdyn.testSourceDirectory", defaultValue = "${project.basedir}/src/test/symdyn")
    File testSourceDirectory;

    /** Where the sources go (as {@code <package path>/<Class>.java}); added as a test compile source root. */
    @Parameter(property = "symdyn.testOutputDirectory",
            defaultValue = "${project.build.directory}/generated-test-sources/symdyn")
    File testOutputDirectory;

    /** Skip the goal, as Maven skips compiling and running the tests. */
    @Parameter(property = "maven.test.skip", defaultValue = "false")
    boolean mavenTestSkip;

    @Override
    File sourceDirectory() {
        return testSourceDirectory;
    }

    @Override
    File outputDirectory() {
        return testOutputDirectory;
    }

    @Override
    void addSourceRoot(MavenProject project, String directory) {
        project.addTestCompileSourceRoot(directory);
    }

    @Override
    String goal() {
        return "generate-test";
    }

    @Override
    String skippedBy() {
        return mavenTestSkip ? "maven.test.skip" : super.skippedBy();
    }
}
