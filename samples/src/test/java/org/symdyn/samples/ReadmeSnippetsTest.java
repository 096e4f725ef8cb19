package org.symdyn.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The README's project files are real files: the user's {@code pom.xml} ({@code src/test/readme}) and the Java
 * examples ({@code src/test/java/com/example}, compiled against the classes the {@code readme-examples} execution
 * generates, and run by {@code com.example.ExamplesTest}). The README shows each in a fenced block after a marker
 * {@code <!-- project file USER-PATH = REPOSITORY-PATH -->}; this test keeps the blocks equal to the files, so that
 * the page cannot drift from code that compiles and runs. {@code .ci/user-project} builds the project from the page.
 */
class ReadmeSnippetsTest {
    /** A marker and the fenced block after it. */
    static final Pattern MARKED = Pattern.compile(
            "<!-- project file (\\S+) = (\\S+) -->\\n```(\\w+)\\n(.*?)^```$", Pattern.DOTALL | Pattern.MULTILINE);
    static final Pattern FENCE = Pattern.compile("^```(\\w*)$", Pattern.MULTILINE);

    record Snippet(String userPath, String repositoryPath, String language, String text) {
    }

    /** The repository's root: the working directory's parent when the tests run in samples (Surefire, IDEs). */
    static Path root() {
        Path dir = Path.of("").toAbsolutePath();
        return Files.isDirectory(dir.resolve("samples")) ? dir : dir.getParent();
    }

    static String readme() throws IOException {
        return Files.readString(root().resolve("README.md"), StandardCharsets.UTF_8);
    }

    static List<Snippet> snippets(String readme) {
        List<Snippet> out = new ArrayList<>();
        Matcher m = MARKED.matcher(readme);
        while (m.find()) {
            out.add(new Snippet(m.group(1), m.group(2), m.group(3), m.group(4)));
        }
        return out;
    }

    @Test
    void everyMarkedBlockIsItsFileByteForByte() throws IOException {
        List<Snippet> snippets = snippets(readme());
        assertEquals(5, snippets.size(), "marked blocks in README.md: " + snippets.stream().map(Snippet::userPath)
                .toList());
        for (Snippet s : snippets) {
            Path file = root().resolve(s.repositoryPath());
            assertTrue(Files.isRegularFile(file), s.repositoryPath() + " (shown as " + s.userPath() + ") is missing");
            assertEquals(Files.readString(file, StandardCharsets.UTF_8), s.text(),
                    "README.md's block for " + s.userPath() + " differs from " + s.repositoryPath()
                            + ": copy the file into the README");
        }
    }

    /**
     * README.md and ARCHITECTURE.md name only files that a clone has (not, say, the team's ../shared), besides the
     * files of the user's project that the README shows.
     */
    @Test
    void everyFileTheTopPagesNameIsInTheRepository() throws IOException {
        Pattern named = Pattern.compile("`((?:\\.?[\\w-]+/)*[\\w.-]+\\.(?:md|java|xml|urdf))`");
        Set<String> userFiles = new TreeSet<>();
        snippets(readme()).forEach(s -> userFiles.add(s.userPath()));
        for (String page : List.of("README.md", "ARCHITECTURE.md")) {
            Matcher m = named.matcher(Files.readString(root().resolve(page), StandardCharsets.UTF_8));
            while (m.find()) {
                String name = m.group(1);
                if ((name.contains("/") || name.endsWith(".md")) && !userFiles.contains(name)) {
                    assertTrue(Files.exists(root().resolve(name)), page + " names " + name + ", which a clone has not");
                }
            }
        }
    }

    @Test
    void everyJavaBlockIsMarked() throws IOException {
        String readme = readme();
        int javaBlocks = 0;
        boolean open = false;
        Matcher m = FENCE.matcher(readme);
        while (m.find()) {
            if (!open && m.group(1).equals("java")) {
                javaBlocks++;
            }
            open = !open;
        }
        assertFalse(open, "README.md has an unclosed fenced block");
        long marked = snippets(readme).stream().filter(s -> s.language().equals("java")).count();
        assertEquals(javaBlocks, marked, "every ```java block of README.md must follow a <!-- project file ... -->"
                + " marker naming the file it shows");
    }

    @Test
    void everyExampleFileIsShownWhereItsPackageSaysAndNothingIsLeftOut() throws IOException {
        List<Snippet> snippets = snippets(readme());
        Set<String> shown = new TreeSet<>();
        for (Snippet s : snippets) {
            shown.add(s.repositoryPath());
            if (s.repositoryPath().endsWith(".java")) {
                String source = s.text();
                Matcher pkg = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE).matcher(source);
                assertTrue(pkg.find(), s.repositoryPath() + " has no package declaration");
                String expected = pkg.group(1).replace('.', '/') + "/" + Path.of(s.repositoryPath()).getFileName();
                assertTrue(s.userPath().equals("src/main/java/" + expected)
                        || s.userPath().equals("src/test/java/" + expected),
                        s.userPath() + " is not where javac and Maven expect " + expected);
            }
        }
        Set<String> files = new TreeSet<>();
        for (String dir : List.of("samples/src/test/java/com/example", "samples/src/test/readme")) {
            try (Stream<Path> list = Files.list(root().resolve(dir))) {
                list.forEach(f -> files.add(dir + "/" + f.getFileName()));
            }
        }
        assertEquals(files, shown, "the README shows every file of the user's project kept in samples, and no other");
    }
}
