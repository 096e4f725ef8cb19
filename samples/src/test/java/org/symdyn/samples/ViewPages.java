package org.symdyn.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.symdyn.cli.SymDynCli;

/**
 * Writes a demo's {@code symdyn view} page through the command line's own entry point, as the demo's printed
 * {@code java -jar cli/target/symdyn.jar view ...} command does, and checks that it succeeded.
 */
final class ViewPages {
    private ViewPages() {
    }

    /**
     * {@code symdyn view TRAJ MODEL -o PAGE OPTIONS...}; returns the line it printed.
     *
     * @param options more options ({@code --floating}, {@code --package-path DIR})
     */
    static String write(Path trajectory, Path model, Path page, String... options) throws IOException {
        List<String> args = new ArrayList<>(List.of("view", trajectory.toString(), model.toString(), "-o",
                page.toString()));
        args.addAll(List.of(options));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = SymDynCli.run(args.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        String printed = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, printed + err.toString(StandardCharsets.UTF_8));
        assertTrue(Files.size(page) > 100_000, "the page inlines three.js: " + Files.size(page) + " bytes");
        return printed;
    }
}
