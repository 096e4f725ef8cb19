package org.symdyn.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.symdyn.cli.json.JsonValue;
import org.symdyn.cli.json.JsonWriter;
import org.symdyn.generator.CodeGenerator;
import org.symdyn.generator.InProcessCompiler;
import org.symdyn.generator.emit.OperationCount;
import org.symdyn.model.Diagnostic;
import org.symdyn.model.Model;

/**
 * {@code symdyn generate}: one Java class per model, written as {@code DIR/<package path>/<Class>.java}.
 *
 * <p>Class names: {@code --class NAME} (one model only), else {@link CodeGenerator#defaultClassName(String) derived from
 * the robot name}. Two models of one run may not map to the same class, nor to names differing only in case (they
 * would overwrite each other on a case-insensitive file system).
 *
 * <p>The run is all or nothing. Every model file is read first and every bad one reported (its
 * {@code path:[line,col] message} lines; a model the generator refuses, with an
 * {@link UnsupportedOperationException} whose message starts with the element's {@code path:[line,col]}, counts
 * as bad), exit code 2, and then nothing is written. Each class is compiled
 * in-process ({@link InProcessCompiler}) before anything is written, so a source that does not compile or has a
 * method over HotSpot's 8000-byte limit is never written: that is a generator bug, exit code 1.
 *
 * <p>Output: with {@code --report FILE}, a JSON report
 * <pre>
 * {"models": [{
 *   "model": the model file as given, "class": the qualified class name, "nq": n, "nv": n,
 *   "generation_ms": {"setup": ms, "mass_matrix": ms, ..., "emission": ms, "total": ms, "compile": ms},
 *                      the generator's phases and its total, then the in-process compilation (not in total)
 *   "operations": {"mass_matrix": {"mul": n, "add": n, "trig": n}, "bias_forces", "gravity", "inverse_dynamics",
 *                  "forward_dynamics", "constraint_jacobian", "gamma", "position_error", "velocity_error",
 *                  "constrained_system" (H, C, G, γ), "constrained_system_with_errors" (and φ, φ̇),
 *                  "impulse_system" (H, G)},
 *   "max_method_bytes": bytecode size of the largest method of the class
 * }, ...]}
 * </pre>
 * and nothing on standard output; without it, one summary line per model on standard output.
 */
final class GenerateCommand {
    /** The package of classes generated for {@code evaluate --backend generated}. */
    static final String EVALUATE_PACKAGE = "org.symdyn.generated";

    /** The operation keys of the report, in report order (the generator's others, if any, follow). */
    static final List<String> OPERATIONS = List.of("mass_matrix", "bias_forces", "gravity", "inverse_dynamics",
            "forward_dynamics", "constraint_jacobian", "gamma", "position_error", "velocity_error",
            "constrained_system", "constrained_system_with_errors", "impulse_system");

    private static final JsonWriter WRITER = new JsonWriter(JsonWriter.Style.PRETTY, true);

    private GenerateCommand() {
    }

    /** One model of the run, once generated and compiled. */
    private record Generated(String modelPath, CodeGenerator.GeneratedClass generated, Path file, long compileMillis,
            int maxMethodBytes) {
    }


    /**
     * Runs {@code generate}.
     *
     * @throws CliException bad models (every one reported), clashing class names, an output that cannot be
     *                      written (exit code 2)
     */
    static void run(CommandLine line, PrintStream out, PrintStream err) throws CliException {
        Path dir = outputPath(line.dir());
        Path report = line.report() == null ? null : outputPath(line.report());
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw CliException.badInput(dir + ":[0,0] cannot write into it: not a directory");
        }
        if (report != null && Files.isDirectory(report)) {
            throw CliException.badInput(report + ":[0,0] cannot write the report: it is a directory");
        }

        // 1. read every model, check names and generator support; report every bad model
        List<String> problems = new ArrayList<>();
        List<Model> models = new ArrayList<>();
        List<String> classNames = new ArrayList<>();
        Map<String, Integer> classOwners = new HashMap<>(); // lower-case class name -> model index
        Map<Path, String> files = new HashMap<>(); // the files given, made absolute, -> as given
        for (int i = 0; i < line.models().size(); i++) {
            String file = line.models().get(i);
            Model model;
            try {
                Path path = SymDynCli.path(file);
                String earlier = files.putIfAbsent(path.toAbsolutePath().normalize(), file);
                if (earlier != null) {
                    throw CliException.badInput(file + ":[0,0] this model file is given twice"
                            + (earlier.equals(file) ? "" : " (also as " + earlier + ")"));
                }
                model = ModelLoader.load(path, line.floating(), line.strict());
            } catch (CliException e) {
                problems.addAll(e.lines());
                models.add(null);
                classNames.add(null);
                continue;
            }
            models.add(model);
            String className = line.className() != null ? line.className() : CodeGenerator.defaultClassName(model.name());
            classNames.add(className);
            Integer owner = classOwners.putIfAbsent(className.toLowerCase(Locale.ROOT), i);
            if (owner != null) {
                String other = classNames.get(owner);
                problems.add(file + ":[0,0] the class of robot '" + model.name() + "', "
                        + qualified(line.packageName(), className) + (other.equals(className) ? ", is also"
                                : ", differs only in case from " + qualified(line.packageName(), other)
                                + ",")
                        + " the class of " + line.models().get(owner) + " (robot '" + models.get(owner).name()
                        + "'); generate one of them in another run, named with --class");
            }
        }
        if (!problems.isEmpty()) {
            throw CliException.badInput(problems);
        }
        for (Model model : models) {
            for (Diagnostic warning : model.warnings()) {
                err.println(warning);
            }
        }

        // 2. generate and compile every class in memory; a refusal the check above missed is still reported
        List<Generated> results = new ArrayList<>();
        Path packageDir = dir.resolve(line.packageName().replace('.', '/'));
        for (int i = 0; i < models.size(); i++) {
            CodeGenerator.GeneratedClass gen;
            try {
                gen = new CodeGenerator().generate(models.get(i),
                        new CodeGenerator.Options(line.packageName(), classNames.get(i), false, line.mathTrig()));
            } catch (UnsupportedOperationException | IllegalArgumentException e) {
                problems.add(e instanceof IllegalArgumentException ? line.models().get(i) + ":[0,0] "
                        + e.getMessage() : e.getMessage());
                continue;
            }
            long t0 = System.nanoTime();
            InProcessCompiler.Compiled compiled = InProcessCompiler.compile(gen); // a failure is a bug: exit 1
            long compileMillis = (System.nanoTime() - t0) / 1_000_000;
            int maxBytes = compiled.methodSizes().values().stream().mapToInt(Integer::intValue).max().orElse(0);
            results.add(new Generated(line.models().get(i), gen, packageDir.resolve(gen.className() + ".java"),
                    compileMillis, maxBytes));
        }
        if (!problems.isEmpty()) {
            throw CliException.badInput(problems);
        }

        // 3. write
        try {
            Files.createDirectories(packageDir);
        } catch (IOException | RuntimeException e) {
            throw cannotWrite(packageDir, e);
        }
        for (Generated g : results) {
            write(g.file(), g.generated().source());
        }
        if (report != null) {
            Path parent = report.toAbsolutePath().getParent();
            try {
                if (parent != null) {
                    Files.createDirectories(parent);
                }
            } catch (IOException | RuntimeException e) {
                throw cannotWrite(parent, e);
            }
            write(report, WRITER.write(report(results)) + "\n");
        } else {
            for (Generated g : results) {
                out.println(summary(g));
            }
        }
    }

    /**
     * Generates and compiles the class of {@code model} in memory and returns an instance, for
     * {@code evaluate --backend generated}.
     *
     * @throws CliException the generator's refusal of the model, {@code path:[line,col] message} (exit code 2)
     */
    static Object compileInstance(Model model) throws CliException {
        CodeGenerator.GeneratedClass gen;
        try {
            gen = new CodeGenerator().generate(model,
                    new CodeGenerator.Options(EVALUATE_PACKAGE, CodeGenerator.defaultClassName(model.name())));
        } catch (UnsupportedOperationException e) {
            throw CliException.badInput(e.getMessage());
        }
        Class<?> type = InProcessCompiler.compile(gen).type();
        try {
            return type.getConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot instantiate the generated class " + gen.qualifiedName() + ": "
                    + e, e);
        }
    }

    private static JsonValue report(List<Generated> results) {
        List<JsonValue> entries = new ArrayList<>();
        for (Generated g : results) {
            CodeGenerator.GeneratedClass gen = g.generated();
            JsonValue.ObjectBuilder millis = JsonValue.objectBuilder();
            gen.generationMillis().forEach((phase, ms) -> millis.put(phase, ms));
            millis.put("compile", g.compileMillis());
            JsonValue.ObjectBuilder ops = JsonValue.objectBuilder();
            for (String key : OPERATIONS) {
                OperationCount count = gen.operations().get(key);
                if (count == null) {
                    throw new IllegalStateException("the generator gave no operation count for " + key);
                }
                ops.put(key, operations(count));
            }
            gen.operations().forEach((key, count) -> {
                if (!OPERATIONS.contains(key)) {
                    ops.put(key, operations(count));
                }
            });
            entries.add(JsonValue.objectBuilder()
                    .put("model", g.modelPath())
                    .put("class", gen.qualifiedName())
                    .put("nq", gen.nq())
                    .put("nv", gen.nv())
                    .put("generation_ms", millis.build())
                    .put("operations", ops.build())
                    .put("max_method_bytes", g.maxMethodBytes())
                    .build());
        }
        return JsonValue.objectBuilder().put("models", JsonValue.array(entries)).build();
    }

    private static JsonValue operations(OperationCount count) {
        return JsonValue.objectBuilder()
                .put("mul", count.mul())
                .put("add", count.add())
                .put("trig", count.trig())
                .build();
    }

    /** {@code pkg.Class: 7 dof (nq 7), generated in 812 ms + compiled in 402 ms, mass matrix ... -> file}. */
    private static String summary(Generated g) {
        CodeGenerator.GeneratedClass gen = g.generated();
        OperationCount h = gen.operations().get("mass_matrix");
        Long total = gen.generationMillis().get("total");
        return gen.qualifiedName() + ": " + gen.nv() + " dof (nq " + gen.nq() + "), generated in "
                + (total == null ? "?" : total) + " ms + compiled in " + g.compileMillis() + " ms, mass matrix "
                + (h == null ? "?" : h.flops() + " flops (" + h.mul() + " mul, " + h.add() + " add)") + " -> "
                + g.file();
    }

    private static String qualified(String packageName, String className) {
        return packageName + "." + className;
    }

    private static void write(Path file, String text) throws CliException {
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            throw cannotWrite(file, e);
        }
    }

    private static CliException cannotWrite(Path file, Exception e) {
        String reason;
        if (e instanceof AccessDeniedException) {
            reason = "permission denied";
        } else if (e instanceof FileAlreadyExistsException x) {
            reason = "a file is in the way: " + x.getFile();
        } else if (e instanceof FileSystemException x && x.getReason() != null) {
            reason = x.getReason();
        } else if (e.getMessage() != null) {
            reason = e.getMessage();
        } else {
            reason = e.getClass().getSimpleName();
        }
        return CliException.badInput(file + ":[0,0] cannot write file: " + reason);
    }

    /** An output path named on the command line; a name the file system cannot hold is bad input. */
    private static Path outputPath(String name) throws CliException {
        try {
            return Path.of(name);
        } catch (InvalidPathException e) {
            throw CliException.badInput(name + ":[0,0] cannot write file: invalid path (" + e.getReason() + ")");
        }
    }
}
