package org.symdyn.maven;

import java.io.File;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;
import org.symdyn.generator.CodeGenerator;
import org.symdyn.generator.GenerationPipeline;
import org.symdyn.generator.GeneratorIdentity;

/**
 * Generates one Java dynamics class per URDF or MJCF model (see {@link CodeGenerator}) into
 * {@code target/generated-sources/symdyn}, which is added as a compile source root.
 *
 * <p><b>Incremental.</b> Each model's fingerprint is stored with the SHA-256 of its output: the SHA-256 of the
 * model file's bytes, the generator's code hash ({@link GeneratorIdentity}; not its version string) and the
 * options that shape the output or decide whether the model is accepted: {@code packageName}, the class name
 * ({@code classNames}, {@code models}), {@code floatingBase}, {@code strict}, {@code closedForm},
 * {@code mathTrig} and {@code derivatives}. A model whose fingerprint and output are unchanged is neither read nor
 * generated, and its source is left untouched (same mtime); every regenerated model's log line says why (new, model
 * changed, which option changed, generator changed, source missing or edited, {@code symdyn.force}).
 * {@code -Dsymdyn.force} regenerates everything; unreadable fingerprints regenerate the models concerned, with a
 * warning.
 *
 * <p><b>Ownership.</b> The fingerprints are kept per output directory, each source recorded relative to it with
 * the execution that generated it. The goal deletes only sources it wrote into its own output directory and that
 * still hold the bytes it wrote: those of removed models, of renamed classes, and of executions that the POM no
 * longer configures (a renamed execution id, or a command-line run {@code mvn symdyn:generate}, execution
 * {@code default-cli}); each deletion is logged. Two executions generating the same class into one directory fail
 * the build, naming both.
 *
 * <p><b>All or nothing.</b> The models that need generating go through the generator's {@link GenerationPipeline},
 * shared with the command line: every one is read before anything is generated (the up-to-date ones take part in
 * the class-name checks without being read, and so do the sources of the other executions writing here); every
 * problem of every bad model is reported, each as {@code path:[line,col] message}, in the log and in the failure,
 * and then nothing is written. Bad input (an unreadable or invalid model, a model the generator does not support,
 * two models or two executions with the same class) fails the build with a {@link MojoFailureException}; bad
 * configuration and I/O errors with a {@link MojoExecutionException}, and so does a generated class that does not
 * compile or has a method over HotSpot's 8000-byte limit, which is a generator bug.
 *
 * <p>Thread-safe: each execution creates its own generator (Symja's evaluator is per thread).
 */
@Mojo(name = "generate", defaultPhase = LifecyclePhase.GENERATE_SOURCES, threadSafe = true)
public class GenerateMojo extends AbstractGenerateMojo {
    /** Where the models are; their paths relative to it name them in {@code classNames} and {@code models}. */
    @Parameter(property = "symdyn.sourceDirectory", defaultValue = "${project.basedir}/src/main/symdyn")
    File sourceDirectory;

    /**
     * Where the sources go (as {@code <package path>/<Class>.java}); added as a compile source root unless
     * {@code addSourceRoot} is off.
     */
    @Parameter(property = "symdyn.outputDirectory",
            defaultValue = "${project.build.directory}/generated-sources/symdyn")
    File outputDirectory;

    @Override
    File sourceDirectory() {
        return sourceDirectory;
    }

    @Override
    File outputDirectory() {
        return outputDirectory;
    }

    @Override
    void addSourceRoot(MavenProject project, String directory) {
        project.addCompileSourceRoot(directory);
    }

    @Override
    String goal() {
        return "generate";
    }
}
