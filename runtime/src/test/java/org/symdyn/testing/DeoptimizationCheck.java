package org.symdyn.testing;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@link DeoptimizationProbe} in a fresh JVM (the current {@code java}, the test's class path plus extra
 * entries) and parses its report: the test of issue 18 that generated code is not deoptimised when the state leaves
 * the range it was warmed with.
 */
public final class DeoptimizationCheck {
    private DeoptimizationCheck() {
    }

    /** What the probe reported: deoptimisations in the second phase, C2 compilations per class before it. */
    public record Result(String order, List<String> deoptimisations, List<String> c2Lines, List<String> extras,
            String output, long millis) {
        /** A message for an assertion: the deoptimisations, or the whole output when the probe did not finish. */
        public String describe() {
            return order + ": " + deoptimisations.size() + " deoptimisation(s) of generated code after the switch\n"
                    + String.join("\n", deoptimisations) + "\nC2 before the switch: " + c2Lines + "\n--- probe output "
                    + "(last 4000 chars) ---\n" + output.substring(Math.max(0, output.length() - 4000));
        }

        /** Classes that had no method compiled by C2 before the switch (the check is vacuous for them). */
        public List<String> notCompiled() {
            List<String> none = new ArrayList<>();
            for (String line : c2Lines) {
                String[] parts = line.split(" ");
                if (parts.length == 3 && parts[2].equals("0")) {
                    none.add(parts[1]);
                }
            }
            return none;
        }
    }

    /**
     * @param smallFirst    warm with small angles and probe with large ones (else the reverse)
     * @param extraClassPath entries to add to this JVM's class path (e.g. a folder of freshly compiled classes)
     * @param classes       the generated classes' binary names
     */
    public static Result run(boolean smallFirst, List<Path> extraClassPath, List<String> classes)
            throws IOException, InterruptedException {
        String order = smallFirst ? DeoptimizationProbe.SMALL_THEN_LARGE : DeoptimizationProbe.LARGE_THEN_SMALL;
        StringBuilder cp = new StringBuilder(System.getProperty("java.class.path"));
        for (Path p : extraClassPath) {
            cp.append(File.pathSeparator).append(p.toAbsolutePath());
        }
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-XX:+UseSerialGC", "-cp", cp.toString(), DeoptimizationProbe.class.getName(), order));
        command.addAll(classes);
        long start = System.nanoTime();
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] bytes;
        try {
            bytes = process.getInputStream().readAllBytes();
            if (!process.waitFor(300, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("the probe did not finish in 300 s");
            }
        } finally {
            process.destroy();
        }
        String output = new String(bytes, StandardCharsets.UTF_8);
        List<String> deopts = new ArrayList<>();
        List<String> c2 = new ArrayList<>();
        List<String> extras = new ArrayList<>();
        boolean done = false;
        for (String line : output.split("\n")) {
            if (line.startsWith("DEOPT ")) {
                deopts.add(line);
            } else if (line.startsWith("C2 ")) {
                c2.add(line);
            } else if (line.startsWith("EXTRA ")) {
                extras.add(line);
            } else if (line.equals("DONE")) {
                done = true;
            }
        }
        if (!done || process.exitValue() != 0) {
            throw new IllegalStateException("the probe failed (exit " + process.exitValue() + "):\n" + output);
        }
        return new Result(order, deopts, c2, extras, output, (System.nanoTime() - start) / 1_000_000);
    }

    /**
     * Runs the probe in one order and fails if any method of the classes was deoptimised after the switch, or if
     * the warm-up compiled nothing of a class with C2 (then the probe would prove nothing); prints a summary line.
     */
    public static void assertNoDeoptimisation(boolean smallFirst, List<Path> extraClassPath, List<String> classes)
            throws IOException, InterruptedException {
        Result r = run(smallFirst, extraClassPath, classes);
        System.out.println("[deopt probe] " + r.order() + ": " + r.deoptimisations().size() + " deoptimisations, "
                + r.c2Lines() + ", " + r.millis() + " ms");
        org.junit.jupiter.api.Assertions.assertTrue(r.notCompiled().isEmpty(), "warm-up too short, nothing compiled"
                + " by C2 before the switch for " + r.notCompiled() + ":\n" + r.describe());
        org.junit.jupiter.api.Assertions.assertEquals(List.of(), r.deoptimisations(), r.describe());
    }
}
