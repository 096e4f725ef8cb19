package org.symdyn.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FingerprintStoreTest {
    @TempDir
    Path dir;

    private static final GeneratorIdentity GEN = new GeneratorIdentity("1.0", "ab".repeat(32));

    @Test
    void roundTripKeepsEveryFieldOfEveryModel() throws Exception {
        Path file = dir.resolve("sub/default.properties");
        FingerprintStore store = FingerprintStore.load(file);
        assertEquals(List.of(), store.models());
        List<String> names = List.of("a.urdf", "deep/er/b.urdf", "odd name=x:y#!.urdf", "été.urdf");
        for (String n : names) {
            store.put(n, new FingerprintStore.Entry("in-" + n, "C" + n.length(), "/out/" + n + ".java", "sha-" + n));
        }
        store.save();
        String text = Files.readString(file, StandardCharsets.UTF_8);
        assertFalse(text.contains("2026") || text.contains("UTC"), text); // no date: same store, same bytes

        FingerprintStore back = FingerprintStore.load(file);
        assertEquals(names.stream().sorted().toList(), back.models());
        for (String n : names) {
            assertEquals(new FingerprintStore.Entry("in-" + n, "C" + n.length(), "/out/" + n + ".java", "sha-" + n),
                    back.get(n));
        }
        back.save();
        assertEquals(text, Files.readString(file, StandardCharsets.UTF_8));
        try (var s = Files.list(file.getParent())) {
            assertEquals(1, s.count()); // no temporary file left
        }

        back.remove("a.urdf");
        back.save();
        assertNull(FingerprintStore.load(file).get("a.urdf"));
        for (String n : back.models()) {
            back.remove(n);
        }
        back.save();
        assertFalse(Files.exists(file));
    }

    @Test
    void incompleteOrDamagedRecordsAreForgotten() throws Exception {
        Path file = dir.resolve("f.properties");
        Files.writeString(file, "a.urdf.input=x\na.urdf.class=A\nb.urdf.input=y\nb.urdf.class=B\nb.urdf.output=/o\n"
                + "b.urdf.outputSha256=z\nnodot=1\n");
        FingerprintStore store = FingerprintStore.load(file);
        assertEquals(List.of("b.urdf"), store.models());
        Files.writeString(file, "a.urdf.input=\\u12\n"); // malformed escape
        assertEquals(List.of(), FingerprintStore.load(file).models());
    }

    @Test
    void theInputFingerprintCoversTheModelTheGeneratorCodeAndEveryOption() {
        String base = FingerprintStore.inputFingerprint(GEN, "m", "p", null, false, false, false, false);
        assertEquals(64, base.length());
        assertEquals(base, FingerprintStore.inputFingerprint(GEN, "m", "p", null, false, false, false, false));
        assertEquals(base, FingerprintStore.inputFingerprint(new GeneratorIdentity("unknown", GEN.codeSha256()), "m",
                "p", null, false, false, false, false), "the code hash identifies the generator, not its version string");
        Set<String> all = new HashSet<>(List.of(base,
                FingerprintStore.inputFingerprint(new GeneratorIdentity("1.0", "cd".repeat(32)), "m", "p", null,
                        false, false, false, false),
                FingerprintStore.inputFingerprint(GEN, "m2", "p", null, false, false, false, false),
                FingerprintStore.inputFingerprint(GEN, "m", "q", null, false, false, false, false),
                FingerprintStore.inputFingerprint(GEN, "m", "p", "Name", false, false, false, false),
                FingerprintStore.inputFingerprint(GEN, "m", "p", null, true, false, false, false),
                FingerprintStore.inputFingerprint(GEN, "m", "p", null, false, true, false, false),
                FingerprintStore.inputFingerprint(GEN, "m", "p", null, false, false, true, false),
                FingerprintStore.inputFingerprint(GEN, "m", "p", null, false, false, false, true)));
        assertEquals(9, all.size());
        assertNotEquals(FingerprintStore.inputFingerprint(GEN, "m", "p", "derived", false, false, false, false), base,
                "an override spelled like the marker is still an override");
    }

    @Test
    void generatorIdentityIsStable() throws Exception {
        GeneratorIdentity a = GeneratorIdentity.current();
        GeneratorIdentity b = GeneratorIdentity.current();
        assertEquals(a, b);
        assertEquals(64, a.codeSha256().length());
        assertTrue(a.toString().contains(a.codeSha256().substring(0, 12)));
    }
}
