import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes the user's project that README.md gives: every fenced block after a marker
 * {@code <!-- project file USER-PATH = REPOSITORY-PATH -->} becomes the file USER-PATH of the project folder, with
 * the block's text as it stands in the README (the samples' ReadmeSnippetsTest keeps those blocks equal to files
 * that compile and run). Used by .ci/user-project; run as a source file:
 *
 * <pre>  java .ci/ReadmeProject.java README.md PROJECT-DIR</pre>
 */
public class ReadmeProject {
    static final Pattern MARKED = Pattern.compile(
            "<!-- project file (\\S+) = (\\S+) -->\\n```(\\w+)\\n(.*?)^```$", Pattern.DOTALL | Pattern.MULTILINE);

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: java ReadmeProject.java README.md PROJECT-DIR");
            System.exit(2);
        }
        String readme = Files.readString(Path.of(args[0]), StandardCharsets.UTF_8);
        Path project = Path.of(args[1]).toAbsolutePath().normalize();
        Matcher m = MARKED.matcher(readme);
        int files = 0;
        while (m.find()) {
            Path file = project.resolve(m.group(1)).normalize();
            if (!file.startsWith(project)) {
                throw new IllegalArgumentException("README names a file outside the project: " + m.group(1));
            }
            Files.createDirectories(file.getParent());
            Files.writeString(file, m.group(4), StandardCharsets.UTF_8);
            System.out.println(project.relativize(file));
            files++;
        }
        if (files == 0) {
            System.err.println(args[0] + " has no <!-- project file ... --> blocks");
            System.exit(1);
        }
    }
}
