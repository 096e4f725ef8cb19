package org.symdyn.io;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;
import org.symdyn.model.Diagnostic;
import org.symdyn.model.Model;
import org.symdyn.model.ModelCheck;

/**
 * The {@link ModelCheck}s declared in {@code META-INF/services}, run on every model a reader assembles. They are
 * looked up once, with the class loader that loaded {@link ModelCheck} (the runtime's own), so that a reader
 * running inside a build tool's plugin finds the runtime's checks whatever the thread's context class loader is;
 * they run in the order of their class names, so that the errors of a file come out in the same order every time.
 */
public final class ModelChecks {
    private static final List<ModelCheck> DECLARED = load();

    private ModelChecks() {
    }

    /** The errors of every declared check, check by check; empty if the model passes them all. */
    public static List<Diagnostic> run(Model model) {
        List<Diagnostic> errors = new ArrayList<>();
        for (ModelCheck check : DECLARED) {
            errors.addAll(check.check(model));
        }
        return errors;
    }

    /** The class names of the declared checks, in the order they run. */
    public static List<String> declared() {
        return DECLARED.stream().map(c -> c.getClass().getName()).toList();
    }

    private static List<ModelCheck> load() {
        List<ModelCheck> checks = new ArrayList<>();
        ServiceLoader.load(ModelCheck.class, ModelCheck.class.getClassLoader()).forEach(checks::add);
        checks.sort(Comparator.comparing(c -> c.getClass().getName()));
        return List.copyOf(checks);
    }
}
