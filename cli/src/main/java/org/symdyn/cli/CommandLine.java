package org.symdyn.cli;

import java.util.ArrayList;
import java.util.List;
import org.symdyn.generator.JavaNames;

/**
 * The parsed arguments of one {@code symdyn} invocation.
 *
 * <p>Grammar: {@code COMMAND MODEL... [options]}, where options may stand anywhere (before the command, between it
 * and the models, or after them). Options taking a value accept {@code --states FILE} and {@code --states=FILE};
 * the short options {@code -d DIR} and {@code -p PACKAGE} take their value as the next argument (their long
 * spellings {@code --dir} and {@code --package} accept both forms). {@code --} ends the options, so that a file
 * whose name starts with {@code -} can be given. {@code -h}/{@code --help} anywhere before {@code --} asks for the
 * usage text, whatever else is given. {@code inspect} and {@code evaluate} take one model file, {@code generate}
 * one or more.
 *
 * @param help        whether help was asked for (then the other fields are unset)
 * @param command     {@code inspect}, {@code evaluate} or {@code generate}
 * @param models      the model files as given, in order (one for inspect and evaluate)
 * @param floating    {@code --floating}: give the root link a floating joint to the world
 * @param strict      {@code --strict}: model warnings are errors
 * @param states      {@code --states FILE} (evaluate only), null when absent
 * @param backend     {@code --backend NAME} (evaluate only), {@code generic} when absent
 * @param dir         {@code -d DIR} (generate only, required): the source root the classes are written under
 * @param packageName {@code -p PACKAGE} (generate only, required): a valid Java package name
 * @param className   {@code --class NAME} (generate only, with exactly one model), null when absent: a valid Java
 *                    class name
 * @param report      {@code --report FILE} (generate only), null when absent
 * @param mathTrig    {@code --math-trig} (generate only): sines and cosines by Math.sin/Math.cos
 */
record CommandLine(boolean help, String command, List<String> models, boolean floating, boolean strict,
        String states, String backend, String dir, String packageName, String className, String report,
        boolean mathTrig) {

    static final String INSPECT = "inspect";
    static final String EVALUATE = "evaluate";
    static final String GENERATE = "generate";
    static final String DEFAULT_BACKEND = "generic";

    private static final CommandLine HELP = new CommandLine(true, null, List.of(), false, false, null, null, null,
            null, null, null, false);

    CommandLine {
        models = List.copyOf(models);
    }

    /** The model file of a one-model command (inspect, evaluate). */
    String model() {
        return models.get(0);
    }

    /**
     * Parses the arguments.
     *
     * @throws CliException a usage error (exit code 2) naming what is wrong
     */
    static CommandLine parse(String[] args) throws CliException {
        for (String arg : args) {
            if (arg.equals("--")) {
                break;
            }
            if (arg.equals("--help") || arg.equals("-h")) {
                return HELP;
            }
        }
        List<String> positional = new ArrayList<>();
        boolean floating = false;
        boolean strict = false;
        boolean mathTrig = false;
        String states = null;
        String backend = null;
        String dir = null;
        String packageName = null;
        String className = null;
        String report = null;
        boolean optionsEnded = false;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (optionsEnded || !arg.startsWith("-") || arg.equals("-")) {
                positional.add(arg);
                continue;
            }
            if (arg.equals("--")) {
                optionsEnded = true;
                continue;
            }
            String name = arg;
            String inlineValue = null;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                name = arg.substring(0, eq);
                inlineValue = arg.substring(eq + 1);
            }
            // the long spellings of -d and -p
            name = switch (name) {
                case "--dir" -> "-d";
                case "--package" -> "-p";
                default -> name;
            };
            switch (name) {
                case "--math-trig" -> {
                    if (inlineValue != null) {
                        throw CliException.usage("option --math-trig takes no value");
                    }
                    if (mathTrig) {
                        throw CliException.usage("option --math-trig given twice");
                    }
                    mathTrig = true;
                }
                case "--floating", "--strict" -> {
                    if (inlineValue != null) {
                        throw CliException.usage("option " + name + " takes no value");
                    }
                    if (name.equals("--floating")) {
                        if (floating) {
                            throw CliException.usage("option --floating given twice");
                        }
                        floating = true;
                    } else {
                        if (strict) {
                            throw CliException.usage("option --strict given twice");
                        }
                        strict = true;
                    }
                }
                case "--states", "--backend", "-d", "-p", "--class", "--report" -> {
                    String value = inlineValue;
                    if (value == null) {
                        if (i + 1 >= args.length) {
                            throw CliException.usage("option " + name + " needs a value");
                        }
                        value = args[++i];
                    }
                    if (value.isEmpty()) {
                        throw CliException.usage("option " + name + " needs a non-empty value");
                    }
                    String previous = switch (name) {
                        case "--states" -> states;
                        case "--backend" -> backend;
                        case "-d" -> dir;
                        case "-p" -> packageName;
                        case "--class" -> className;
                        default -> report;
                    };
                    if (previous != null) {
                        throw CliException.usage("option " + name + " given twice");
                    }
                    switch (name) {
                        case "--states" -> states = value;
                        case "--backend" -> backend = value;
                        case "-d" -> dir = value;
                        case "-p" -> packageName = value;
                        case "--class" -> className = value;
                        default -> report = value;
                    }
                }
                default -> throw CliException.usage("unknown option '" + arg + "'");
            }
        }
        if (positional.isEmpty()) {
            throw CliException.usage("missing command (inspect, evaluate or generate)");
        }
        String command = positional.get(0);
        if (!command.equals(INSPECT) && !command.equals(EVALUATE) && !command.equals(GENERATE)) {
            throw CliException.usage("unknown command '" + command + "' (commands: inspect, evaluate, generate)");
        }
        List<String> models = positional.subList(1, positional.size());
        if (models.isEmpty()) {
            throw CliException.usage(command + (command.equals(GENERATE) ? " needs one or more model files"
                    : " needs a model file"));
        }
        if (!command.equals(GENERATE) && models.size() > 1) {
            throw CliException.usage("unexpected argument '" + models.get(1) + "' (one model file only)");
        }
        if (!command.equals(EVALUATE)) {
            onlyFor(states, "--states", EVALUATE);
            onlyFor(backend, "--backend", EVALUATE);
        }
        if (!command.equals(GENERATE)) {
            onlyFor(dir, "-d", GENERATE);
            onlyFor(packageName, "-p", GENERATE);
            onlyFor(className, "--class", GENERATE);
            onlyFor(report, "--report", GENERATE);
            if (mathTrig) {
                throw CliException.usage("option --math-trig is only for " + GENERATE);
            }
        }
        if (command.equals(EVALUATE) && states == null) {
            throw CliException.usage("evaluate needs --states FILE");
        }
        if (command.equals(GENERATE)) {
            if (dir == null) {
                throw CliException.usage("generate needs -d DIR (where the sources go)");
            }
            if (packageName == null) {
                throw CliException.usage("generate needs -p PACKAGE (the package of the generated classes)");
            }
            String packageProblem = JavaNames.packageNameProblem(packageName);
            if (packageProblem != null) {
                throw CliException.usage("package '" + packageName + "' " + packageProblem);
            }
            if (className != null) {
                if (models.size() != 1) {
                    throw CliException.usage("option --class needs exactly one model file (" + models.size()
                            + " given); without it each class is named after its robot");
                }
                String classProblem = JavaNames.classNameProblem(className);
                if (classProblem != null) {
                    throw CliException.usage("class name '" + className + "' " + classProblem);
                }
            }
        }
        return new CommandLine(false, command, models, floating, strict, states,
                backend == null ? DEFAULT_BACKEND : backend, dir, packageName, className, report, mathTrig);
    }

    /** Whether {@code name} can name a generated class: {@link JavaNames#classNameProblem}, shared with the plugin. */
    static boolean isClassName(String name) {
        return JavaNames.classNameProblem(name) == null;
    }

    private static void onlyFor(String value, String option, String command) throws CliException {
        if (value != null) {
            throw CliException.usage("option " + option + " is only for " + command);
        }
    }
}
