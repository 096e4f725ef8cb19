package org.symdyn.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.symdyn.generator.GeneratorIdentity;

class FingerprintStoreTest {
    @TempDir
    Path dir;

    private static FingerprintStore.Entry entry(String execution, String model) {
        return new FingerprintStore.Entry(execution, model, "m-" + model, "g", "package=p", "C" + model.length(),
                "p/C" + model.length() + ".java", "sha-" + model);
    }

    @Test
    void roundTripKeepsEveryFieldOfEveryModel() throws Exception {
        Path file = dir.resolve("sub/generated-sources_symdyn.properties");
        FingerprintStore store = FingerprintStore.load(file);
        assertEquals(List.of(), store.entries());
        assertEquals(List.of(), store.damage());
        List<String> names = List.of("a.urdf", "deep/er/b.urdf", "odd name=x:y#!.urdf", "été.urdf");
        for (String n : names) {
            store.put(entry("default", n));
            store.put(entry("other", n));
        }
        store.save();
        String text = Files.readString(file, StandardCharsets.UTF_8);
        assertFalse(text.contains("2026") || text.contains("UTC"), text); // no date: same store, same bytes

        FingerprintStore back = FingerprintStore.load(file);
        assertEquals(List.of(), back.damage());
        assertEquals(8, back.entries().size());
        for (String n : names) {
            assertEquals(entry("default", n), back.get("default", n));
            assertEquals(entry("other", n), back.get("other", n));
        }
        back.save();
        assertEquals(text, Files.readString(file, StandardCharsets.UTF_8));
        try (var s = Files.list(file.getParent())) {
            assertEquals(1, s.count()); // no temporary file left
        }
        back.remove(entry("default", "a.urdf"));
        back.save();
        assertNull(FingerprintStore.load(file).get("default", "a.urdf"));
        for (FingerprintStore.Entry e : back.entries()) {
            back.remove(e);
        }
        back.save();
        assertFalse(Files.exists(file));
    }

    /** Issue 10, item 2: a damaged file is reported and read as empty, never an exception. */
    @Test
    void damagedFilesAreReportedAndForgotten() throws Exception {
        Path file = dir.resolve("f.properties");
        Files.write(file, new byte[] {(byte) 0xe9, '\n'}); // not UTF-8: MalformedInputException
        FingerprintStore store = FingerprintStore.load(file);
        assertEquals(List.of(), store.entries());
        assertTrue(store.damage().get(0).startsWith("cannot read it (MalformedInputException"), store.damage()
                .toString());
        Files.writeString(file, "symdyn.format=2\ndefault/a.urdf.model=\\u12\n"); // malformed escape
        assertEquals(List.of(), FingerprintStore.load(file).entries());
        assertEquals(1, FingerprintStore.load(file).damage().size());
        Files.writeString(file, "a.urdf.input=x\na.urdf.output=/abs/A.java\n"); // format 1
        assertTrue(FingerprintStore.load(file).damage().get(0).startsWith("format 1, not 2"));
        Files.writeString(file, "symdyn.format=2\ndefault/a.urdf.model=x\n");
        assertEquals(List.of("incomplete record 'default/a.urdf'"), FingerprintStore.load(file).damage());
    }

    /** Issue 10, item 1: an output recorded outside the output directory is never taken. */
    @Test
    void outputsOutsideTheOutputDirectoryAreDropped() throws Exception {
        Path file = dir.resolve("f.properties");
        for (String output : List.of("/etc/passwd.java", "../x/A.java", "p/../../A.java", "C:/A.java", "p\\A.java",
                "p/A.txt", "", "p//A.java")) {
            Files.writeString(file, "symdyn.format=2\n" + String.join("\n", "default/ghost.urdf.model=m",
                    "default/ghost.urdf.generator=g", "default/ghost.urdf.options=o", "default/ghost.urdf.class=A",
                    "default/ghost.urdf.output=" + output.replace("\\", "\\\\"),
                    "default/ghost.urdf.outputSha256=s") + "\n");
            FingerprintStore store = FingerprintStore.load(file);
            assertEquals(List.of(), store.entries(), output);
            assertTrue(store.damage().get(0).contains("names an output outside the output directory"), output);
        }
        assertTrue(FingerprintStore.isOwnRelativePath("org/x/A.java"));
    }

    @Test
    void theStoreIsNamedAfterTheOutputDirectory() {
        File target = dir.resolve("target").toFile();
        File fingerprints = new File(target, "symdyn-fingerprints");
        assertEquals(fingerprints.toPath().resolve("generated-sources_symdyn.properties"),
                FingerprintStore.fileFor(fingerprints, new File(target, "generated-sources/symdyn")));
        Path elsewhere = FingerprintStore.fileFor(fingerprints, dir.resolve("src/gen").toFile());
        assertTrue(elsewhere.getFileName().toString().matches("out-[0-9a-f]{16}\\.properties"), elsewhere.toString());
    }

    @Test
    void optionsCoverEveryOptionAndNameWhatChanged() {
        String base = FingerprintStore.options("p", null, false, false, false, false);
        Set<String> all = new HashSet<>(List.of(base,
                FingerprintStore.options("q", null, false, false, false, false),
                FingerprintStore.options("p", "Name", false, false, false, false),
                FingerprintStore.options("p", null, true, false, false, false),
                FingerprintStore.options("p", null, false, true, false, false),
                FingerprintStore.options("p", null, false, false, true, false),
                FingerprintStore.options("p", null, false, false, false, true),
                FingerprintStore.options("p", null, false, false, false, false, true)));
        assertEquals(8, all.size());
        assertNotEquals(FingerprintStore.options("p", "(derived)x", false, false, false, false), base);
        assertEquals(List.of("mathTrig false -> true"), FingerprintStore.changedOptions(base,
                FingerprintStore.options("p", null, false, false, false, true)));
        assertEquals(List.of("derivatives false -> true"), FingerprintStore.changedOptions(base,
                FingerprintStore.options("p", null, false, false, false, false, true)));
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
