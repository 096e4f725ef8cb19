package org.symdyn.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** {@link CodeFootprint}: reading HotSpot's code list and summing a generated method's chunks. */
class CodeFootprintTest {
    /** Lines in the format of JDK 17's and 25's {@code Compiler.codelist}, with its header line. */
    private static final String CODELIST = String.join("\n",
            "4111:",
            "15 4 0 java.lang.StringLatin1.hashCode([B)I [0x00007fce58ec7010, 0x00007fce58ec71a0 - 0x00007fce58ec72d8]",
            "7904 4 0 bench.gen.G.solveConstrainedSystem$0([D[D[D[D)V [0x00007fce591c2690, 0x00007fce591c2820"
                    + " - 0x00007fce591c2f98]",
            "7905 4 0 bench.gen.G.solveConstrainedSystem$1([D[D[D[D)V [0x00007fce591c3b10, 0x00007fce591c3ca0"
                    + " - 0x00007fce591c44f8]",
            "7906 3 0 bench.gen.G.solveConstrainedSystem$2([D[D[D[D)V [0x00007fce591c5110, 0x00007fce591c52a0"
                    + " - 0x00007fce591c5b18]",
            "7914 4 0 bench.gen.G.factorConstrainedSystem(Lorg/ejml/data/DMatrixRMaj;Lorg/ejml/data/DMatrixRMaj;)D"
                    + " [0x00007fce591cfc10, 0x00007fce591cfe40 - 0x00007fce591d0978]",
            "7915 4 0 bench.gen.Other.factorConstrainedSystem$0()V [0x0000000000001000, 0x0000000000001100"
                    + " - 0x0000000000009100]",
            "7916 4 2 bench.gen.G.factorConstrainedSystem(Lorg/ejml/data/DMatrixRMaj;Lorg/ejml/data/DMatrixRMaj;)D"
                    + " [0x0000000000010000, 0x0000000000010100 - 0x0000000000020100]",
            "7917 4 0 bench.gen.G.forwardDerivatives$$0([D)V [0x0000000000030000, 0x0000000000030100"
                    + " - 0x0000000000030300]",
            "7918 4 0 bench.gen.G$Twin.biasForces$limb0([D)V [0x0000000000040000, 0x0000000000040100"
                    + " - 0x0000000000040180]",
            "not a line of the list");

    @Test
    void parsesEveryCompiledMethodWithItsTierAndCodeBytes() {
        List<CodeFootprint.Compiled> all = CodeFootprint.parse(CODELIST);
        assertEquals(9, all.size());
        assertEquals(new CodeFootprint.Compiled("java.lang.StringLatin1", "hashCode", 4, true, 0x72d8 - 0x71a0),
                all.get(0));
        assertEquals(new CodeFootprint.Compiled("bench.gen.G", "solveConstrainedSystem$2", 3, true,
                0x5b18 - 0x52a0), all.get(3));
        assertEquals(new CodeFootprint.Compiled("bench.gen.G", "factorConstrainedSystem", 4, false, 0x10000),
                all.get(6));
        assertEquals(new CodeFootprint.Compiled("bench.gen.G$Twin", "biasForces$limb0", 4, true, 0x80), all.get(8));
    }

    @Test
    void sumsAMethodsC2ChunksUnderItsNameLargestFirst() {
        Map<String, Long> g = CodeFootprint.c2BytesByMethod(CodeFootprint.parse(CODELIST), "bench.gen.G");
        long solve = (0x2f98 - 0x2820) + (0x44f8 - 0x3ca0); // chunk 2 is C1 code: not counted
        long factor = 0xd0978 - 0xcfe40; // its older code, not in use (state 2), is not counted
        long dispatch = 0x200;
        assertEquals(List.of("solveConstrainedSystem", "factorConstrainedSystem", "forwardDerivatives"),
                List.copyOf(g.keySet()));
        assertEquals(dispatch, g.get("forwardDerivatives"));
        assertEquals(factor, g.get("factorConstrainedSystem"));
        assertEquals(solve, g.get("solveConstrainedSystem"));
        assertEquals(String.format(java.util.Locale.ROOT, "total %.1f KB: solveConstrainedSystem %.1f,"
                + " factorConstrainedSystem %.1f, forwardDerivatives %.1f", (factor + solve + dispatch) / 1000.0,
                solve / 1000.0, factor / 1000.0, dispatch / 1000.0), CodeFootprint.format(g));
        assertEquals(Map.of("biasForces", 0x80L), CodeFootprint.c2BytesByMethod(CodeFootprint.parse(CODELIST),
                "bench.gen.G$Twin"), "a nested class keeps its $");
    }

    @Test
    void readsThisJvmsOwnCodeList() {
        String text = CodeFootprint.codelist();
        assumeTrue(text != null, "this JVM gives no Compiler.codelist through the DiagnosticCommand MBean");
        List<CodeFootprint.Compiled> all = CodeFootprint.parse(text);
        assertFalse(all.isEmpty(), "a running JVM has compiled methods: " + text.lines().limit(3).toList());
        // Tier 0: native method wrappers; 1-3: C1; 4: C2.
        Predicate<CodeFootprint.Compiled> plausible = c -> c.bytes() > 0 && c.tier() >= 0
                && c.tier() <= CodeFootprint.C2_TIER;
        assertTrue(all.stream().allMatch(plausible),
                () -> all.stream().filter(plausible.negate()).limit(5).toList().toString());
        assertTrue(CodeFootprint.describe(CodeFootprintTest.class).startsWith(
                "# C2 machine code of org.symdyn.benchmarks.CodeFootprintTest: total "));
    }
}
