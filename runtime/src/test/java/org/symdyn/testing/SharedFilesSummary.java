package org.symdyn.testing;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Prints one line on the console when tests of a module were skipped because {@code ../shared} (or a file in it) is
 * absent: how many, where it was looked for, and how to point at it. Surefire shows a test's skip message only in its
 * XML report; without this line a clone without {@code ../shared} would skip a quarter of the tests silently.
 *
 * <p>Registered for the JUnit Platform launcher in {@code META-INF/services}, in this module's test classes and so
 * in its test-jar, which the generator and the samples use: one line per module's test run. It counts the tests
 * whose execution ended aborted by {@link SharedFiles.Absent}, and for a class aborted in {@code @BeforeAll} the
 * tests under it.
 */
public final class SharedFilesSummary implements TestExecutionListener {
    private final AtomicInteger skipped = new AtomicInteger();
    private final PrintStream out;
    private volatile TestPlan plan;
    private volatile String example;

    /** The listener the launcher finds in {@code META-INF/services}: prints on {@code System.out}. */
    public SharedFilesSummary() {
        this(System.out);
    }

    SharedFilesSummary(PrintStream out) {
        this.out = out;
    }

    /** Tests counted in the last (or current) test plan. */
    int skipped() {
        return skipped.get();
    }

    @Override
    public void testPlanExecutionStarted(TestPlan testPlan) {
        plan = testPlan;
        skipped.set(0);
        example = null;
    }

    @Override
    public void executionFinished(TestIdentifier id, TestExecutionResult result) {
        if (result.getStatus() != TestExecutionResult.Status.ABORTED
                || !(result.getThrowable().orElse(null) instanceof SharedFiles.Absent absent)) {
            return;
        }
        int tests = 1;
        if (!id.isTest() && plan != null) {
            tests = (int) Math.max(1, plan.getDescendants(id).stream().filter(TestIdentifier::isTest).count());
        }
        skipped.addAndGet(tests);
        if (example == null) {
            example = absent.getMessage();
        }
    }

    @Override
    public void testPlanExecutionFinished(TestPlan testPlan) {
        int n = skipped.get();
        if (n > 0) {
            out.println(line(n, Path.of("").toAbsolutePath().getFileName(), SharedFiles.root() == null
                    ? SharedFiles.searched() : example));
        }
    }

    /** The summary line. */
    static String line(int tests, Path module, String why) {
        return "[symdyn] " + module + ": " + tests + (tests == 1 ? " test" : " tests")
                + " skipped for want of ../shared (" + why + "); run with -D" + SharedFiles.PROPERTY
                + "=DIR to point at it";
    }
}
