package org.symdyn.io;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import org.symdyn.model.Diagnostic;
import org.symdyn.model.Model;
import org.symdyn.model.ModelBuilder;
import org.symdyn.model.ModelCheck;
import org.symdyn.model.ModelException;

/**
 * The {@link ModelCheck}s declared in {@code META-INF/services}, run on every model a reader assembles. They are
 * looked up once, at the first model read, with the class loader that loaded {@link ModelCheck} (the runtime's own),
 * so that a reader running inside a build tool's plugin finds the runtime's checks whatever the thread's context
 * class loader is; they run in the order of their class names, so that the errors of a file come out in the same
 * order every time.
 *
 * <p>The runtime declares at least one check (the joint-space inertia's), so finding none means the class path lost
 * the declaration (a fat jar that drops or overwrites {@code META-INF/services}, classes run without their
 * resources): reading then fails with an {@link IllegalStateException} that says so, rather than accepting models
 * the checks would refuse. A declaration that cannot be loaded fails the same way, at each read, never with an
 * {@link Error} that would leave this class unusable.
 */
public final class ModelChecks {
    /** Kept only once found, so that a failed lookup is reported at every read. */
    private static volatile List<ModelCheck> found;

    private ModelChecks() {
    }

    /**
     * The errors of every declared check, check by check; empty if the model passes them all.
     *
     * @throws IllegalStateException if no check is declared on the class path or a declared one cannot be loaded
     */
    public static List<Diagnostic> run(Model model) {
        List<Diagnostic> errors = new ArrayList<>();
        for (ModelCheck check : checks()) {
            errors.addAll(check.check(model));
        }
        return errors;
    }

    /**
     * A reader's last step, the same for every format: reports what the reader {@code found} to the builder, builds
     * the model and runs the declared checks on it.
     *
     * @throws ModelException the builder's errors with the reader's, or else the checks' errors, in
     *                        {@link DiagnosticOrder}
     */
    public static Model build(ModelBuilder builder, List<Diagnostic> found) throws ModelException {
        for (Diagnostic d : found) {
            builder.report(d);
        }
        Model model;
        try {
            model = builder.build();
        } catch (ModelException e) {
            throw DiagnosticOrder.refusal(e.diagnostics());
        }
        List<Diagnostic> unsimulatable = run(model);
        if (!unsimulatable.isEmpty()) {
            throw DiagnosticOrder.refusal(unsimulatable);
        }
        return model;
    }

    /** The class names of the declared checks, in the order they run. */
    public static List<String> declared() {
        return checks().stream().map(c -> c.getClass().getName()).toList();
    }

    /** The checks that {@code loader} finds, in the order they run; refused as {@link #run} says. */
    static List<ModelCheck> load(ClassLoader loader) {
        List<ModelCheck> checks = new ArrayList<>();
        try {
            ServiceLoader.load(ModelCheck.class, loader).forEach(checks::add);
        } catch (ServiceConfigurationError | LinkageError e) {
            throw new IllegalStateException("a model check declared in META-INF/services/"
                    + ModelCheck.class.getName() + " could not be loaded: " + e.getMessage(), e);
        }
        if (checks.isEmpty()) {
            throw new IllegalStateException("no model checks found: META-INF/services/" + ModelCheck.class.getName()
                    + " of the SymDyn runtime is missing from the class path (a shaded jar must keep and merge"
                    + " META-INF/services), so singular models could not be refused");
        }
        checks.sort(Comparator.comparing(c -> c.getClass().getName()));
        return List.copyOf(checks);
    }

    private static List<ModelCheck> checks() {
        List<ModelCheck> checks = found;
        if (checks == null) {
            checks = load(ModelCheck.class.getClassLoader());
            found = checks;
        }
        return checks;
    }
}
