package org.symdyn.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Issue 13, item 8: each usage line of the README ({@code java -jar cli/target/symdyn.jar COMMAND ...}, a trailing
 * backslash continuing it) lists every option the command has, and no option it does not have; and each line runs
 * (its synopsis parses once placeholders are filled in).
 */
class ReadmeUsageTest {
    private static final String PREFIX = "java -jar cli/target/symdyn.jar ";
    /** A synopsis names its arguments in capitals: MODEL.urdf, FILE, TRAJ.json. */
    private static final java.util.regex.Pattern PLACEHOLDER =
            java.util.regex.Pattern.compile("(^|\\s)[A-Z][A-Z0-9_]+(\\.[a-z]+)?(\\.\\.\\.)?(\\s|$)");

    /** The README of the checkout: the first README.md beside a cli folder, walking up from here. */
    static Path readme() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve("README.md")) && Files.isDirectory(d.resolve("cli"))) {
                return d.resolve("README.md");
            }
        }
        return null;
    }

    /** The README's usage lines, continuations joined, by command (or by option, for --version). */
    private static Map<String, String> usageLines() throws IOException {
        Path readme = readme();
        assertNotNull(readme, "README.md not found above " + Path.of("").toAbsolutePath());
        List<String> lines = Files.readAllLines(readme, StandardCharsets.UTF_8);
        Map<String, String> usage = new LinkedHashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).startsWith(PREFIX)) {
                continue;
            }
            StringBuilder line = new StringBuilder(lines.get(i));
            while (line.toString().endsWith("\\") && i + 1 < lines.size()) {
                line.setLength(line.length() - 1);
                line.append(' ').append(lines.get(++i).trim());
            }
            String rest = line.substring(PREFIX.length()).trim();
            String command = rest.split("\\s+")[0];
            if (!command.startsWith("-") && !command.equals("help") && !PLACEHOLDER.matcher(rest).find()) {
                continue; // an example with real files (the demos' view lines), not a synopsis
            }
            assertTrue(usage.put(command, rest) == null, "two usage lines for " + command);
        }
        return usage;
    }

    @Test
    void everyUsageLineListsTheOptionsItsCommandHas() throws IOException {
        Map<String, String> usage = usageLines();
        CommandLine root = SymDynCli.commandLine();
        assertEquals(List.of("generate", "inspect", "evaluate", "simulate", "rollouts", "view", "help", "--version"),
                List.copyOf(usage.keySet()));
        for (String command : List.of("inspect", "evaluate", "simulate", "rollouts", "view", "generate")) {
            Set<String> documented = new TreeSet<>();
            for (String token : usage.get(command).split("\\s+")) {
                String t = bare(token);
                if (t.startsWith("-")) {
                    documented.add(t.contains("=") ? t.substring(0, t.indexOf('=')) : t);
                }
            }
            Set<String> missing = new TreeSet<>();
            Set<String> known = new TreeSet<>();
            for (OptionSpec o : root.getSubcommands().get(command).getCommandSpec().options()) {
                if (o.usageHelp()) {
                    continue; // -h, --help: every command has it, as the README says beside the lines
                }
                known.addAll(List.of(o.names()));
                if (List.of(o.names()).stream().noneMatch(documented::contains)) {
                    missing.add(o.longestName());
                }
            }
            assertEquals(Set.of(), missing, "README's " + command + " line lacks options: " + usage.get(command));
            documented.removeAll(known);
            assertEquals(Set.of(), documented, "README's " + command + " line names options " + command
                    + " does not have");
        }
    }

    /** A synopsis token without the brackets of optional parts and the parentheses of alternatives. */
    private static String bare(String token) {
        return token.replace("[", "").replace("]", "").replace("(", "").replace(")", "");
    }

    @Test
    void theUsageLinesParse() throws IOException {
        for (Map.Entry<String, String> e : usageLines().entrySet()) {
            List<String> args = new ArrayList<>();
            for (String token : e.getValue().split("\\s+")) {
                String t = bare(token);
                if (t.equals("|")) {
                    continue; // between alternatives, (--specs FILE.json | --sweep FILE.json): both parse
                }
                args.add(switch (t) {
                    case "MODEL.urdf..." -> "model.urdf";
                    case "generic|generated" -> "generic";
                    case "COMMAND" -> "generate";
                    case "PACKAGE" -> "org.example";
                    case "NAME" -> "Arm";
                    case "SECONDS", "N" -> "1";
                    case "M/S", "METRES" -> "1e-6";
                    default -> t;
                });
            }
            CommandLine root = SymDynCli.commandLine();
            root.parseArgs(args.toArray(String[]::new)); // throws if a line does not parse
        }
    }
}
