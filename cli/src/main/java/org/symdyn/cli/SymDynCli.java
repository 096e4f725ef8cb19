package org.symdyn.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.symdyn.cli.json.JsonWriter;
import org.symdyn.generator.GeneratorIdentity;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.MissingParameterException;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.OverwrittenOptionException;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The {@code symdyn} command line ({@code java -jar symdyn.jar ...}): commands {@code inspect}, {@code evaluate},
 * {@code simulate}, {@code rollouts}, {@code view}, {@code generate} and {@code help}, their options, per-command
 * help and {@code --version} by picocli.
 *
 * <p>Results go to standard output as pretty-printed JSON (two-space indentation, numeric arrays on one line,
 * doubles in round-trip form, non-ASCII characters escaped). Problems go to standard error: every problem of a
 * model or states file as a {@code path:[line,col] message} line, never a stack trace; a usage error as
 * {@code symdyn: message} and a one-line hint at the command's help ({@code Try 'symdyn generate --help' ...}).
 *
 * <p>Options may stand anywhere: before the command ({@code symdyn --strict inspect m.urdf}), between it and the
 * model files or after them; {@code --} ends the options. {@code -h}/{@code --help} anywhere before {@code --} prints
 * the command's help, whatever else is given; {@code -V}/{@code --version} prints the version and the generator's
 * identity ({@link GeneratorIdentity}: its version and code hash, as the Maven plugin logs them).
 *
 * <p>Exit codes: 0 success (also for {@code --help}, {@code help} and {@code --version}); 2 bad usage, a bad model or
 * states file, a model the generator cannot handle, an unknown backend or an output that cannot be written (also
 * when no arguments are given: the help then goes to standard error); 1 an internal error, printed as
 * {@code internal error: message} (a bug: please report it), among them a generated class that does not compile or
 * has a method over HotSpot's size limit.
 */
public final class SymDynCli {
    /** The JSON layout of every result and report. */
    static final JsonWriter WRITER = new JsonWriter(JsonWriter.Style.PRETTY, true);

    /** What a missing required option means, by its longest name. */
    private static final Map<String, String> NEEDS = Map.of(
            "--states", "evaluate needs --states FILE",
            "--duration", "simulate needs --duration SECONDS",
            "--step", "simulate needs --step SECONDS",
            "--output", "view needs -o FILE (the HTML page to write)",
            "--dir", "generate needs -d DIR (where the sources go)",
            "--package", "generate needs -p PACKAGE (the package of the generated classes)");

    private SymDynCli() {
    }

    /** The top-level command: its options are picocli's standard {@code --help} and {@code --version}. */
    @Command(name = "symdyn", mixinStandardHelpOptions = true, versionProvider = Version.class,
            synopsisSubcommandLabel = "COMMAND", usageHelpAutoWidth = true, usageHelpWidth = 100,
            description = {"Reads rigid multibody models (URDF with SymDyn's constraint elements, MuJoCo's MJCF or SDFormat),"
                    + " prints their structure and dynamics as JSON, simulates them with contact (one run, or a batch of"
                    + " rollouts on every core), animates a trajectory"
                    + " in an HTML page, and generates one Java dynamics class per model."},
            footer = {"", "Options may stand before or after the model files. 'symdyn help COMMAND' or 'symdyn"
                    + " COMMAND --help' describes a command.",
                "Exit codes: 0 success, 1 internal error (a bug: please report it), 2 bad usage or input. Problems"
                        + " of files are printed as path:[line,col] message."})
    static final class Top {
    }

    /** {@code symdyn help [COMMAND]}. */
    @Command(name = "help", header = "Print the help of a command.",
            description = "Print the help of a command (or of symdyn) and exit.")
    static final class Help implements CliCommand {
        @Parameters(paramLabel = "COMMAND", arity = "0..1",
                description = "inspect, evaluate, simulate, rollouts, view or generate.")
        String command;

        private CommandLine root;

        @Override
        public void run(PrintStream out, PrintStream err) throws CliException {
            if (command == null) {
                out.print(root.getUsageMessage());
                return;
            }
            CommandLine sub = root.getSubcommands().get(command);
            if (sub == null) {
                throw unknownCommand(command);
            }
            out.print(sub.getUsageMessage());
        }
    }

    /** {@code symdyn <version>}, {@code generator <version> (code <hash>)}, and the Java runtime. */
    public static final class Version implements IVersionProvider {
        @Override
        public String[] getVersion() {
            String generator;
            try {
                generator = GeneratorIdentity.current().toString();
            } catch (IOException e) {
                generator = GeneratorIdentity.generatorVersion() + " (code unknown: " + e.getMessage() + ")";
            }
            return new String[] {"symdyn " + cliVersion(), "generator " + generator,
                "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")"};
        }
    }

    /** Runs the command and exits the JVM with its exit code. */
    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /**
     * 0 if everything written to {@code out} reached it; else the problem on {@code err} and exit code 2. A
     * PrintStream swallows write errors: results (or help) lost to a full disk were reported as success.
     */
    private static int written(PrintStream out, PrintStream err) {
        out.flush();
        if (out.checkError()) {
            err.println("cannot write the results to standard output (a full disk, or a closed pipe); where the"
                    + " command has -o FILE, write them there");
            return CliException.BAD_INPUT;
        }
        return 0;
    }

    /**
     * Runs one command, as {@link #main} does but without exiting, so that tests can call it in-process.
     *
     * @param args the command-line arguments
     * @param out  where results (JSON, help, version) go
     * @param err  where problems go
     * @return the exit code: 0 success, 1 internal error, 2 bad usage or input
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        try {
            CommandLine root = commandLine();
            if (args.length == 0) {
                err.print(root.getUsageMessage());
                return CliException.BAD_INPUT;
            }
            int end = Arrays.asList(args).indexOf("--");
            List<String> options = Arrays.asList(args).subList(0, end < 0 ? args.length : end);
            int at = commandIndex(root, args, end);
            CommandLine command = at < 0 ? null : root.getSubcommands().get(args[at]);
            if (options.contains("-h") || options.contains("--help")) {
                out.print((command == null || command.getCommand() instanceof Help ? root : command)
                        .getUsageMessage());
                return written(out, err);
            }
            if (options.contains("-V") || options.contains("--version")) {
                root.printVersionHelp(out);
                return written(out, err);
            }
            if (at < 0) {
                throw CliException.usage("", "missing command (inspect, evaluate, simulate, rollouts, view or"
                        + " generate)");
            }
            if (command == null) {
                throw unknownCommand(args[at]);
            }
            List<String> rest = new ArrayList<>(Arrays.asList(args));
            rest.remove(at);
            checkOptions(root, command, rest);
            List<String> line = new ArrayList<>(rest);
            line.add(0, args[at]);
            try {
                root.parseArgs(line.toArray(String[]::new));
            } catch (ParameterException e) {
                throw translate(command, rest, e);
            }
            try {
                ((CliCommand) command.getCommand()).run(out, err);
            } finally {
                for (CommandSpec mixin : command.getCommandSpec().mixins().values()) {
                    if (mixin.userObject() instanceof QuietOption quiet) {
                        quiet.close();
                    }
                }
            }
            return written(out, err);
        } catch (CliException e) {
            for (String l : e.lines()) {
                err.println(l);
            }
            if (e.usageOf() != null) {
                err.println("Try 'symdyn " + (e.usageOf().isEmpty() ? "" : e.usageOf() + " ")
                        + "--help' for more information.");
            }
            return e.exitCode();
        } catch (RuntimeException | StackOverflowError | LinkageError e) {
            err.println("internal error: " + describe(e));
            return 1;
        } catch (OutOfMemoryError e) {
            err.println("internal error: out of memory (" + describe(e) + "); give the JVM more with -Xmx");
            return 1;
        } finally {
            out.flush();
            err.flush();
        }
    }

    /** The help of {@code symdyn} ({@code command} null) or of one of its commands, as {@code --help} prints it. */
    static String usage(String command) {
        CommandLine root = commandLine();
        return (command == null ? root : root.getSubcommands().get(command)).getUsageMessage();
    }

    /** The command tree, with fresh command objects (they hold the parsed options). */
    static CommandLine commandLine() {
        Help help = new Help();
        CommandLine root = new CommandLine(new Top())
                .addSubcommand(new InspectCommand())
                .addSubcommand(new EvaluateCommand())
                .addSubcommand(new SimulateCommand())
                .addSubcommand(new RolloutsCommand())
                .addSubcommand(new ViewCommand())
                .addSubcommand(new GenerateCommand())
                .addSubcommand(help);
        help.root = root;
        root.setColorScheme(CommandLine.Help.defaultColorScheme(CommandLine.Help.Ansi.OFF));
        return root;
    }

    /**
     * Where the command name is: the first argument that is neither an option nor an option's value (options may
     * come first), or -1.
     */
    private static int commandIndex(CommandLine root, String[] args, int end) {
        Set<String> valued = new HashSet<>();
        for (CommandLine sub : root.getSubcommands().values()) {
            for (OptionSpec o : sub.getCommandSpec().options()) {
                if (o.arity().max() > 0) {
                    valued.addAll(Arrays.asList(o.names()));
                }
            }
        }
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (i == end) {
                continue;
            }
            if ((end < 0 || i < end) && a.startsWith("-") && !a.equals("-")) {
                if (valued.contains(a)) {
                    i++;
                }
                continue;
            }
            return i;
        }
        return -1;
    }

    /**
     * Refuses an option the command does not have before picocli sees it (picocli would report a missing model or
     * option first): {@code option X is only for C} (or {@code C and D}) when other commands have it, else
     * {@code unknown option}.
     */
    private static void checkOptions(CommandLine root, CommandLine command, List<String> args) throws CliException {
        String name = command.getCommandName();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--")) {
                return;
            }
            if (!a.startsWith("-") || a.equals("-")) {
                continue;
            }
            int eq = a.indexOf('=');
            String option = a.startsWith("--") && eq > 0 ? a.substring(0, eq) : a;
            OptionSpec spec = command.getCommandSpec().findOption(option);
            if (spec != null) {
                if (spec.arity().max() > 0 && !a.contains("=")) {
                    i++;
                }
                continue;
            }
            if (!a.startsWith("--") && a.length() > 2
                    && command.getCommandSpec().findOption(a.substring(0, 2)) != null) {
                continue; // clustered short options, or -dDIR: picocli's to parse
            }
            List<String> others = new ArrayList<>();
            for (CommandLine other : root.getSubcommands().values()) {
                if (other != command && other.getCommandSpec().findOption(option) != null) {
                    others.add(other.getCommandName());
                }
            }
            if (!others.isEmpty()) {
                String list = others.size() == 1 ? others.get(0) : String.join(", ",
                        others.subList(0, others.size() - 1)) + " and " + others.get(others.size() - 1);
                throw CliException.usage(name, "option " + option + " is only for " + list);
            }
            throw CliException.usage(name, "unknown option '" + a + "'");
        }
    }

    /** picocli's parse error as one line of ours. */
    private static CliException translate(CommandLine command, List<String> args, ParameterException e) {
        String name = command.getCommandName();
        String hint = name.equals("help") ? "" : name;
        if (e instanceof MissingParameterException m) {
            for (ArgSpec missing : m.getMissing()) {
                if (missing.isPositional()) {
                    return CliException.usage(hint, name + switch (name) {
                        case "generate" -> " needs one or more model files";
                        case "view" -> " needs a trajectory file and a model file (view TRAJ.json MODEL.urdf)";
                        default -> " needs a model file";
                    });
                }
            }
            OptionSpec option = (OptionSpec) m.getMissing().get(0);
            for (String n : option.names()) {
                for (String a : args) {
                    if (a.equals(n) || a.startsWith(n + "=")) {
                        return CliException.usage(hint, "option " + n + " needs a value");
                    }
                }
            }
            return CliException.usage(hint, NEEDS.getOrDefault(option.longestName(),
                    name + " needs " + option.shortestName() + " " + option.paramLabel()));
        }
        if (e instanceof OverwrittenOptionException o && o.getOverwritten() instanceof OptionSpec option) {
            return CliException.usage(hint, "option " + option.shortestName() + " given twice");
        }
        if (e instanceof UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
            String first = u.getUnmatched().get(0);
            if (first.startsWith("-") && !first.equals("-")) {
                return CliException.usage(hint, "unknown option '" + first + "'");
            }
            return CliException.usage(hint, "unexpected argument '" + first + "' (" + switch (name) {
                case "help" -> "one command only";
                case "view" -> "one trajectory file and one model file only";
                default -> "one model file only";
            } + ")");
        }
        if (e.getArgSpec() instanceof OptionSpec option && option.arity().max() == 0) {
            return CliException.usage(hint, "option " + option.longestName() + " takes no value");
        }
        String message = e.getMessage() == null ? "bad arguments" : e.getMessage();
        return CliException.usage(hint, Character.toLowerCase(message.charAt(0)) + message.substring(1));
    }

    private static CliException unknownCommand(String command) {
        return CliException.usage("", "unknown command '" + command + "' (commands: inspect, evaluate, simulate,"
                + " rollouts, view, generate)");
    }

    /** This command line's version, written by the build into {@code symdyn-cli.properties}. */
    static String cliVersion() {
        return GeneratorIdentity.buildVersion(SymDynCli.class, "symdyn-cli.properties");
    }

    /**
     * The message of an internal error; for one without a message (an exception in a static initialiser, say),
     * its type and the first cause that has one.
     */
    private static String describe(Throwable e) {
        if (e.getMessage() != null) {
            return e.getMessage();
        }
        StringBuilder sb = new StringBuilder(e.getClass().getName());
        for (Throwable c = e.getCause(); c != null && c != e; c = c.getCause()) {
            if (c.getMessage() != null) {
                sb.append(": ").append(c.getClass().getName()).append(": ").append(c.getMessage());
                break;
            }
        }
        return sb.toString();
    }

    /** The path of a file named on the command line; a name the file system cannot hold is bad input. */
    static Path path(String name) throws CliException {
        try {
            return Path.of(name);
        } catch (InvalidPathException e) {
            throw CliException.badInput(name + ":[0,0] cannot read file: invalid path (" + e.getReason() + ")");
        }
    }
}
