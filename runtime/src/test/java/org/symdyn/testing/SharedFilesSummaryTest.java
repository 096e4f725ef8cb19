package org.symdyn.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.core.LauncherConfig;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/** {@link SharedFilesSummary} counts what {@link SharedFiles} skipped, and only that, and prints one line. */
class SharedFilesSummaryTest {
    /** Two tests skipped for want of a shared file, one skipped for another reason, one that runs. */
    static class Tests {
        @Test
        void absent() {
            throw new SharedFiles.Absent("../shared/models/a.urdf is absent: skipping");
        }

        @Test
        void alsoAbsent() {
            throw new SharedFiles.Absent("../shared/models/b.urdf is absent: skipping");
        }

        @Test
        void otherAssumption() {
            Assumptions.assumeTrue(false, "not about ../shared");
        }

        @Test
        void runs() {
        }
    }

    /** A class whose set-up needs a shared file: its three tests never run. */
    static class ClassSetUp {
        @BeforeAll
        static void needsShared() {
            throw new SharedFiles.Absent("../shared/models/c.urdf is absent: skipping");
        }

        @Test
        void one() {
        }

        @Test
        void two() {
        }

        @Test
        void three() {
        }
    }

    @Test
    void countsTheSkipsOfSharedFilesAndPrintsOneLine() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        SharedFilesSummary summary = new SharedFilesSummary(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        // Without the listeners of META-INF/services, so that the real summary of this module is not disturbed.
        Launcher launcher = LauncherFactory.create(LauncherConfig.builder()
                .enableTestExecutionListenerAutoRegistration(false).build());
        launcher.execute(LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClass(Tests.class), selectClass(ClassSetUp.class)).build(), summary);

        assertEquals(5, summary.skipped());
        String printed = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(1, printed.lines().count(), printed);
        assertTrue(printed.startsWith("[symdyn] " + Path.of("").toAbsolutePath().getFileName() + ": 5 tests skipped"
                + " for want of ../shared ("), printed);
        assertTrue(printed.contains("-Dsymdyn.shared=DIR"), printed);
    }

    @Test
    void printsNothingWhenNothingWasSkippedForWantOfShared() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        SharedFilesSummary summary = new SharedFilesSummary(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        Launcher launcher = LauncherFactory.create(LauncherConfig.builder()
                .enableTestExecutionListenerAutoRegistration(false).build());
        launcher.execute(LauncherDiscoveryRequestBuilder.request()
                .selectors(selectMethod(Tests.class, "runs"), selectMethod(Tests.class, "otherAssumption")).build(),
                summary);
        assertEquals(0, summary.skipped());
        assertEquals("", bytes.toString(StandardCharsets.UTF_8));
    }
}
