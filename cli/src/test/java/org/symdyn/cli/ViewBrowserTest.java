package org.symdyn.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The page of {@code symdyn view} in a real headless browser (Debian's Chromium): it loads its inlined three.js,
 * draws (the marker {@code data-drawn="1"} on the body, set after the first WebGL frame), records no script error,
 * and its screenshot shows the stick figure and the grid, and a model's shapes in their colours. Skipped, with a
 * line saying so, when no Chromium is installed ({@code .ci/run} installs it).
 *
 * <p>Headless Chromium renders WebGL in software with SwiftShader when asked to ({@code --use-angle=swiftshader
 * --enable-unsafe-swiftshader}, with {@code --disable-gpu}); the page loads three.js asynchronously, so each run
 * lets virtual time run ({@code --virtual-time-budget}) before the DOM is dumped or the screenshot taken.
 */
class ViewBrowserTest {
    private static final long TIMEOUT_SECONDS = 120;
    private static Path chromium;

    @TempDir
    Path dir;

    @BeforeAll
    static void findChromium() {
        for (String name : List.of("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")) {
            if (Files.isExecutable(Path.of(name))) {
                chromium = Path.of(name);
                return;
            }
        }
        String path = System.getenv("PATH");
        if (path != null) {
            for (String d : path.split(File.pathSeparator)) {
                for (String name : List.of("chromium", "chromium-browser")) {
                    Path p = Path.of(d, name);
                    if (Files.isExecutable(p)) {
                        chromium = p;
                        return;
                    }
                }
            }
        }
        System.out.println("[symdyn] ViewBrowserTest skipped: no chromium found (/usr/bin/chromium or on PATH);"
                + " install it (apt-get install chromium) to test symdyn view's page in a browser");
    }

    private static void assumeChromium() {
        Assumptions.assumeTrue(chromium != null, "no chromium installed (/usr/bin/chromium or on PATH): the page of"
                + " symdyn view is not tested in a browser");
    }

    /** Runs chromium headless with these arguments; returns its standard output. */
    private String chromium(Path userData, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(chromium.toString(), "--headless", "--no-sandbox",
                "--disable-gpu", "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--disable-dev-shm-usage",
                "--no-first-run", "--mute-audio", "--virtual-time-budget=4000", "--user-data-dir=" + userData));
        command.addAll(List.of(args));
        Path out = Files.createTempFile(dir, "chromium", ".out");
        Path err = Files.createTempFile(dir, "chromium", ".err");
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new AssertionError("chromium did not finish in " + TIMEOUT_SECONDS + " s: " + command);
        }
        String stdout = Files.readString(out, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), "chromium failed: " + command + "\n" + Files.readString(err,
                StandardCharsets.UTF_8));
        return stdout;
    }

    /** The attributes of the dumped DOM's body element. */
    private static String bodyTag(String dom) {
        Matcher m = Pattern.compile("<body[^>]*>").matcher(dom);
        assertTrue(m.find(), "no body in the dumped DOM:\n" + dom);
        return m.group();
    }

    @Test
    void thePageDrawsWithoutScriptErrors() throws Exception {
        assumeChromium();
        assertDrawsWithoutScriptErrors(ViewCommandTest.armPage(dir));
    }

    private void assertDrawsWithoutScriptErrors(Path page) throws IOException, InterruptedException {
        String body = bodyTag(chromium(dir.resolve("profile"), "--dump-dom", page.toUri().toString()));
        assertTrue(body.contains("data-drawn=\"1\""), "the page did not finish its first draw: " + body);
        assertFalse(body.contains("data-errors"), "the page recorded script errors: " + body);
    }

    @Test
    void theModelsShapesAreDrawnWithoutScriptErrors() throws Exception {
        assumeChromium();
        assertDrawsWithoutScriptErrors(ViewSceneTest.turntablePage(dir));
    }

    /** The outcome page of {@code symdyn rollouts --page} draws its scatter plots without script errors. */
    @Test
    void theRolloutsOutcomePageDrawsWithoutScriptErrors() throws Exception {
        assumeChromium();
        String dom = chromium(dir.resolve("profile"), "--dump-dom", RolloutsCommandTest.outcomePage(dir).toUri()
                .toString());
        String body = bodyTag(dom);
        assertTrue(body.contains("data-drawn=\"1\""), "the page did not draw: " + body);
        assertFalse(body.contains("data-errors"), "the page recorded script errors: " + body);
        // one scatter per swept column, six points each (no rollout failed)
        String plots = dom.substring(dom.indexOf("<div id=\"plots\">"));
        assertEquals(2, count(plots, "<svg width=\"360\""), dom);
        assertEquals(12, count(plots, "<circle "), dom);
    }

    private static int count(String text, String part) {
        int n = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
            n++;
        }
        return n;
    }

    /** The turntable's red box, shaded, is in the 3-D view; the stick figure is off for a model with shapes. */
    @Test
    void theScreenshotShowsTheShapesInTheirColours() throws Exception {
        assumeChromium();
        BufferedImage image = screenshot(ViewSceneTest.turntablePage(dir));
        int red = 0;
        int blue = 0;
        int link = 0;
        for (int y = 60; y < image.getHeight() - 70; y++) {
            for (int x = 15; x < image.getWidth() * 0.55; x++) {
                int rgb = image.getRGB(x, y) & 0xffffff;
                int r = (rgb >> 16) & 0xff;
                int g = (rgb >> 8) & 0xff;
                int b = rgb & 0xff;
                red += r > 120 && g < 50 && b < 50 ? 1 : 0;
                blue += b > 120 && r < 110 && g < 130 && b > r + 60 ? 1 : 0;
                link += near(rgb, 0x2b4c7e, 10) ? 1 : 0;
            }
        }
        assertTrue(red > 400, "the red box covers " + red + " pixels of the 3-D view");
        assertTrue(blue > 100, "the translucent blue cylinder covers " + blue + " pixels");
        assertTrue(link < 50, "the stick figure is hidden when the model has visual shapes: " + link + " pixels");
    }

    private BufferedImage screenshot(Path page) throws IOException, InterruptedException {
        Path png = dir.resolve("shot.png");
        chromium(dir.resolve("profile"), "--hide-scrollbars", "--window-size=1100,700", "--screenshot=" + png,
                page.toUri().toString());
        BufferedImage image = ImageIO.read(png.toFile());
        assertNotNull(image, "no PNG written");
        return image;
    }

    @Test
    void theScreenshotIsNotBlank() throws Exception {
        assumeChromium();
        BufferedImage image = screenshot(ViewCommandTest.armPage(dir));
        Set<Integer> all = new HashSet<>();
        for (int y = 0; y < image.getHeight(); y += 2) {
            for (int x = 0; x < image.getWidth(); x += 2) {
                all.add(image.getRGB(x, y) & 0xffffff);
            }
        }
        assertTrue(all.size() > 50, "the screenshot has " + all.size() + " colours: blank");
        // the 3-D view (left part, below the header and above the controls) holds the drawing: ink of the links'
        // colour (#2b4c7e) and of the contacts' (#f28c28), allowing for anti-aliasing
        boolean link = false;
        boolean grid = false;
        for (int y = 60; y < image.getHeight() - 70; y++) {
            for (int x = 15; x < image.getWidth() * 0.55; x++) {
                int rgb = image.getRGB(x, y) & 0xffffff;
                link |= near(rgb, 0x2b4c7e, 24);
                grid |= near(rgb, 0xb4bcc7, 30);
            }
        }
        assertTrue(link, "no link drawn in the 3-D view");
        assertTrue(grid, "no ground grid drawn in the 3-D view");
    }

    @Test
    void aScriptErrorIsRecordedOnTheBody() throws Exception {
        assumeChromium();
        // the test of the marker would be worthless if errors were not recorded: break the data and look
        Path page = ViewCommandTest.armPage(dir);
        String html = Files.readString(page, StandardCharsets.UTF_8);
        Path broken = dir.resolve("broken.html");
        assertTrue(html.contains("\n\"t\": ["));
        Files.writeString(broken, html.replace("\n\"t\": [", "\n\"t\": null, \"t0\": ["), StandardCharsets.UTF_8);
        String body = bodyTag(chromium(dir.resolve("profile"), "--dump-dom", broken.toUri().toString()));
        assertTrue(body.contains("data-errors"), "no error recorded: " + body);
        assertFalse(body.contains("data-drawn"), body);
    }

    private static boolean near(int rgb, int target, int tolerance) {
        for (int shift = 0; shift <= 16; shift += 8) {
            if (Math.abs(((rgb >> shift) & 0xff) - ((target >> shift) & 0xff)) > tolerance) {
                return false;
            }
        }
        return true;
    }
}
