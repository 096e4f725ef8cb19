package org.symdyn.benchmarks;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.JMException;
import javax.management.ObjectName;

/**
 * The machine code HotSpot's C2 has compiled for one class's methods, read in-process from the JVM's own code list
 * (the {@code Compiler.codelist} diagnostic command, through the DiagnosticCommand MBean), with a generated method's
 * private chunks ({@code name$0}, {@code name$1}, ... and their dispatch methods) counted under the method's name.
 *
 * <p>Why it is measured: a generated method runs at its operation count's speed only while its machine code and that
 * of the methods called with it fit the core's instruction cache. Measured on this project's 2-CPU machines (an Intel
 * Xeon with 64 KB of L1i per core, 2026-12-03; the quadruped sample's 12 declared contact rows, generated class,
 * {@link ConstrainedSolveParts}): the fused system evaluation (H, C, G, γ; 43 KB of C2 code) took 467-479 ns and the
 * factorisation of the saddle-point system (56 KB) 500-513 ns, each called alone in a loop, but 1,356-1,374 ns called
 * one after the other; the factorisation and the solve (20 KB) together cost their sum, and so did the system and
 * the solve. All three took 2,068-2,090 ns against 1,130-1,164 for their parts. Chunk sizes of 1,500 to 7,000 bytes
 * of bytecode (against the default 2,500) did not change that. See benchmarks/README.md, "Machine code footprint".
 *
 * <p>The JMH benchmarks of generated classes print this after their last iteration ({@code # C2 machine code of
 * ...}); a run that forbids the MBean (a security manager, a JVM without it) prints that it is unavailable.
 */
final class CodeFootprint {
    /** One compiled method: its class, name (chunk suffix kept), compilation tier, whether in use, code bytes. */
    record Compiled(String className, String method, int tier, boolean inUse, long bytes) {
    }

    /**
     * One line of {@code Compiler.codelist}: {@code id tier state class.method(signature) [blob, code_begin -
     * code_end]}, e.g. {@code 7914 4 0 bench.gen.G.factor$0(Lx;)V [0x7f..., 0x7f... - 0x7f...]}; state 0 is code in
     * use (a method deoptimised and compiled again is listed twice until its old code is flushed: not in use).
     */
    private static final Pattern LINE = Pattern.compile(
            "^\\s*\\d+\\s+(\\d+)\\s+(\\d+)\\s+([^\\s(]+)\\(\\S*\\s+\\[0x([0-9a-fA-F]+),\\s*0x([0-9a-fA-F]+)\\s*-\\s*"
                    + "0x([0-9a-fA-F]+)\\]");

    /** The tier of C2's code (tiers 1-3 are C1's). */
    static final int C2_TIER = 4;

    private CodeFootprint() {
    }

    /**
     * The entries of a {@code Compiler.codelist} text (lines it cannot read, such as its header, are skipped): the
     * bytes of each method's code, from its code's beginning to its end (the blob's header left out).
     */
    static List<Compiled> parse(String codelist) {
        List<Compiled> out = new ArrayList<>();
        for (String line : codelist.split("\n")) {
            Matcher m = LINE.matcher(line);
            if (!m.find()) {
                continue;
            }
            String qualified = m.group(3);
            int dot = qualified.lastIndexOf('.');
            if (dot <= 0) {
                continue;
            }
            long begin = Long.parseUnsignedLong(m.group(5), 16);
            long end = Long.parseUnsignedLong(m.group(6), 16);
            out.add(new Compiled(qualified.substring(0, dot), qualified.substring(dot + 1),
                    Integer.parseInt(m.group(1)), m.group(2).equals("0"), end - begin));
        }
        return out;
    }

    /**
     * C2's code bytes in use per method of {@code className}, a method's chunks ({@code name$k}) and dispatchers
     * ({@code name$$k}) summed under {@code name}, largest first. A nested class keeps its {@code $} (the class is
     * cut at the last dot). What it counts is code size, not the part a call executes: uncommon paths and stubs
     * are included, an on-stack-replacement compilation (a method with a loop) is added to its method, and the
     * classes of one name from different class loaders (a JMH run with {@code -f 0}) are summed.
     */
    static Map<String, Long> c2BytesByMethod(List<Compiled> entries, String className) {
        Map<String, Long> sums = new LinkedHashMap<>();
        for (Compiled c : entries) {
            if (c.tier() != C2_TIER || !c.inUse() || !c.className().equals(className)) {
                continue;
            }
            int cut = c.method().indexOf('$');
            String name = cut > 0 ? c.method().substring(0, cut) : c.method();
            sums.merge(name, c.bytes(), Long::sum);
        }
        List<Map.Entry<String, Long>> sorted = new ArrayList<>(sums.entrySet());
        sorted.sort(Map.Entry.<String, Long>comparingByValue().reversed());
        Map<String, Long> out = new LinkedHashMap<>();
        for (Map.Entry<String, Long> e : sorted) {
            out.put(e.getKey(), e.getValue());
        }
        return Collections.unmodifiableMap(out);
    }

    /** This JVM's {@code Compiler.codelist}, or null when the DiagnosticCommand MBean cannot give it. */
    static String codelist() {
        try {
            Object text = ManagementFactory.getPlatformMBeanServer().invoke(
                    new ObjectName("com.sun.management:type=DiagnosticCommand"), "compilerCodelist",
                    new Object[] {null}, new String[] {String[].class.getName()});
            return text instanceof String s ? s : null;
        } catch (JMException | RuntimeException unavailable) {
            return null;
        }
    }

    /**
     * One line for a benchmark's output: C2's code of {@code type}'s methods, in KB (1,000 bytes), largest first,
     * with the total; or why it is not known.
     */
    static String describe(Class<?> type) {
        String text = codelist();
        if (text == null) {
            return "# C2 machine code of " + type.getName() + ": unavailable (no DiagnosticCommand MBean)";
        }
        return "# C2 machine code of " + type.getName() + ": " + format(c2BytesByMethod(parse(text), type.getName()));
    }

    /**
     * Prints {@link #describe} for a JMH {@code @TearDown}: on a line of its own, because JMH has already written the
     * last iteration's label ("Iteration   5: ") when a trial's tear-down runs, and writes its figure after it.
     */
    static void printAfterTrial(Class<?> type) {
        System.out.println(System.lineSeparator() + describe(type));
    }

    /** "total 95.9 KB: factorConstrainedSystem 52.5, constrainedSystem 43.4" (KB of 1,000 bytes, one decimal). */
    static String format(Map<String, Long> byMethod) {
        long total = byMethod.values().stream().mapToLong(Long::longValue).sum();
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "total %.1f KB", total / 1000.0));
        String sep = ": ";
        for (Map.Entry<String, Long> e : byMethod.entrySet()) {
            b.append(sep).append(e.getKey())
                    .append(String.format(Locale.ROOT, " %.1f", e.getValue() / 1000.0));
            sep = ", ";
        }
        return b.toString();
    }
}
