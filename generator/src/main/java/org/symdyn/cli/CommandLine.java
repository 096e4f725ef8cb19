package org.symdyn.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * The parsed arguments of one {@code symdyn} invocation.
 *
 * <p>Grammar: {@code COMMAND MODEL [options]}, where options may stand anywhere (before the command, between it
 * and the model, or after the model). Options taking a value accept {@code --states FILE} and
 * {@code --states=FILE}. {@code --} ends the options, so that a file whose name starts with {@code -} can be
 * given. {@code -h}/{@code --help} anywhere before {@code --} asks for the usage text, whatever else is given.
 *
 * @param help     whether help was asked for (then the other fields are unset)
 * @param command  {@code inspect} or {@code evaluate}
 * @param model    the model file as given
 * @param floating {@code --floating}: give the root link a floating joint to the world
 * @param strict   {@code --strict}: model warnings are errors
 * @param states   {@code --states FILE} (evaluate only), null when absent
 * @param backend  {@code --backend NAME} (evaluate only), {@code generic} when absent
 */
record CommandLine(boolean help, String command, String model, boolean floating, boolean strict, String states,
        String backend) {

    static final String INSPECT = "inspect";
    static final String EVALUATE = "evaluate";
    static final String DEFAULT_BACKEND = "generic";

    private static final CommandLine HELP = new CommandLine(true, null, null, false, false, null, null);

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
        String states = null;
        String backend = null;
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
            switch (name) {
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
                case "--states", "--backend" -> {
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
                    if (name.equals("--states")) {
                        if (states != null) {
                            throw CliException.usage("option --states given twice");
                        }
                        states = value;
                    } else {
                        if (backend != null) {
                            throw CliException.usage("option --backend given twice");
                        }
                        backend = value;
                    }
                }
                default -> throw CliException.usage("unknown option '" + arg + "'");
            }
        }
        if (positional.isEmpty()) {
            throw CliException.usage("missing command (inspect or evaluate)");
        }
        String command = positional.get(0);
        if (!command.equals(INSPECT) && !command.equals(EVALUATE)) {
            throw CliException.usage("unknown command '" + command + "' (commands: inspect, evaluate)");
        }
        if (positional.size() < 2) {
            throw CliException.usage(command + " needs a model file");
        }
        if (positional.size() > 2) {
            throw CliException.usage("unexpected argument '" + positional.get(2) + "' (one model file only)");
        }
        if (command.equals(INSPECT)) {
            if (states != null) {
                throw CliException.usage("option --states is only for evaluate");
            }
            if (backend != null) {
                throw CliException.usage("option --backend is only for evaluate");
            }
        } else if (states == null) {
            throw CliException.usage("evaluate needs --states FILE");
        }
        return new CommandLine(false, command, positional.get(1), floating, strict, states,
                backend == null ? DEFAULT_BACKEND : backend);
    }
}
