package org.symdyn.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The demo commands of README.md and samples/README.md agree with the demos: each file a command names as a demo's
 * output is the demo's own default name (a string in its source), the page each {@code view} line writes is the one
 * the demo's printed command writes (one of them, for a demo that suggests a page per result), and every output is
 * ignored by git (.gitignore at the root of the clone, where the commands run).
 */
class DemoFileNamesTest {
    /** {@code java -cp JAR org.symdyn.samples.Demo ARGS}. */
    private static final Pattern DEMO = Pattern.compile("java -cp \\S+ org\\.symdyn\\.samples\\.(\\w+)((?: \\S+)*)");
    /** {@code java -jar cli/target/symdyn.jar view TRAJ MODEL ... -o PAGE} (after continuations are joined). */
    private static final Pattern VIEW =
            Pattern.compile("java -jar cli/target/symdyn\\.jar view (\\S+) \\S+.* -o (\\S+)");

    /** The lines of the {@code sh} blocks of a README, continuations joined. */
    private static List<String> commands(Path readme) throws IOException {
        List<String> lines = new ArrayList<>();
        boolean in = false;
        StringBuilder pending = new StringBuilder();
        for (String line : Files.readAllLines(readme, StandardCharsets.UTF_8)) {
            if (line.startsWith("```")) {
                in = line.equals("```sh");
                continue;
            }
            if (!in) {
                continue;
            }
            pending.append(line.strip());
            if (line.endsWith("\\")) {
                pending.setLength(pending.length() - 1);
                continue;
            }
            lines.add(pending.toString().replaceAll("\\s+", " "));
            pending.setLength(0);
        }
        return lines;
    }

    @Test
    void readmeCommandsNameTheDemosOwnFilesAndGitIgnoresThem() throws IOException {
        Path root = ReadmeSnippetsTest.root();
        List<String> ignored = Files.readAllLines(root.resolve(".gitignore"), StandardCharsets.UTF_8).stream()
                .filter(l -> l.startsWith("/")).toList();
        int demos = 0;
        int pages = 0;
        for (Path readme : List.of(root.resolve("README.md"), root.resolve("samples/README.md"))) {
            String demo = null;
            for (String command : commands(readme)) {
                Matcher d = DEMO.matcher(command.replace("$J", "J"));
                if (d.matches()) {
                    demo = d.group(1);
                    String source = Files.readString(root.resolve("samples/src/main/java/org/symdyn/samples/" + demo
                            + ".java"), StandardCharsets.UTF_8);
                    for (String given : d.group(2).strip().split(" ")) {
                        String arg = given.replaceAll("^\\[|\\]$", ""); // an optional argument, [NAME]
                        if (arg.isEmpty() || arg.startsWith("..") || arg.matches("[0-9.]+")) {
                            continue; // the shared folder, a number
                        }
                        assertTrue(source.contains("\"" + arg + "\""), readme + ": " + demo + " writes " + arg
                                + " but its default is another name");
                        assertTrue(isIgnored(ignored, arg), arg + " (" + demo + ") is not in .gitignore");
                    }
                    demos++;
                    continue;
                }
                Matcher v = VIEW.matcher(command);
                if (v.matches() && demo != null) {
                    String page = v.group(2);
                    String source = Files.readString(root.resolve("samples/src/main/java/org/symdyn/samples/" + demo
                            + ".java"), StandardCharsets.UTF_8);
                    Matcher named = Pattern.compile("-o (\\S+\\.html)").matcher(source);
                    List<String> names = new ArrayList<>();
                    while (named.find()) {
                        names.add(named.group(1));
                    }
                    assertFalse(names.isEmpty(), demo + " names the page it suggests");
                    // a demo with several results (IlqrDemo) names a page per result, by name or as a pattern
                    // (ilqr-%s.html); the page must be one of them
                    assertTrue(names.stream().anyMatch(n -> page.matches(n.replace(".", "\\.").replace("%d", "\\d+")
                            .replace("%s", "[\\w-]+"))), readme + ": the page of " + demo + " is " + page
                            + ", the demo names " + names);
                    assertTrue(isIgnored(ignored, page), page + " is not in .gitignore");
                    if (!v.group(1).startsWith("..")) {
                        assertTrue(isIgnored(ignored, v.group(1)), v.group(1) + " is not in .gitignore");
                    }
                    pages++;
                    if (names.stream().distinct().count() == 1) {
                        demo = null; // one page per demo: a later view line is not this demo's
                    }
                }
            }
        }
        assertEquals(12, demos, "demo commands in the READMEs");
        assertEquals(9, pages, "view commands after a demo command");
        assertFalse(isIgnored(ignored, "README.md"));
    }

    /** Whether a path relative to the root matches a root-anchored .gitignore line (a file, a glob, or a folder). */
    private static boolean isIgnored(List<String> patterns, String file) {
        for (String p : patterns) {
            String pattern = p.substring(1);
            if (pattern.endsWith("/") ? (file + "/").startsWith(pattern)
                    : FileSystems.getDefault().getPathMatcher("glob:" + pattern).matches(Path.of(file))) {
                return true;
            }
        }
        return false;
    }
}
