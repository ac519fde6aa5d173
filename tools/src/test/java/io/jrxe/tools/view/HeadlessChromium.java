package io.jrxe.tools.view;

import io.jrxe.wire.testing.ExternalTool;
import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Debian's chromium, headless, loading a page from a file: the DOM after the page's scripts ran,
 * and every console message the page produced (an uncaught error among them), as chromium logs
 * them on stderr. Nothing is fetched: the browser's own background traffic is switched off and the
 * pages are self-contained.
 */
public final class HeadlessChromium {
    public static final Path CHROMIUM = Path.of("/usr/bin/chromium");

    public record Load(String dom, List<String> consoleMessages, String stderr) {
    }

    private HeadlessChromium() {
    }

    /** Skips the calling test, saying so on stderr, when chromium is not installed. */
    public static void assumeInstalled() {
        boolean present = Files.isExecutable(CHROMIUM);
        if (!present) {
            System.err.println("SKIPPED: chromium not installed");
        }
        Assumptions.assumeTrue(present, "chromium not installed (Debian package chromium)");
    }

    /** Loads {@code url} (a file: URL, with a #fragment if wanted) and returns the DOM once scripts ran. */
    public static Load dumpDom(String url) {
        return run("--dump-dom", url);
    }

    /** Loads {@code url} in a window of the given size and writes a PNG of what it shows. */
    public static Load screenshot(String url, Path png, int width, int height) {
        return run("--screenshot=" + png, "--window-size=" + width + "," + height, "--hide-scrollbars", url);
    }

    /** The share of a screenshot's pixels that are not white (a page's background): near 0 for a blank page. */
    public static double inked(Path png) throws IOException {
        java.awt.image.BufferedImage image = javax.imageio.ImageIO.read(png.toFile());
        if (image == null) {
            throw new AssertionError("not a PNG: " + png);
        }
        long inked = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                if ((image.getRGB(x, y) & 0xffffff) != 0xffffff) {
                    inked++;
                }
            }
        }
        return (double) inked / ((long) image.getWidth() * image.getHeight());
    }

    private static Load run(String... what) {
        Path profile;
        try {
            profile = Files.createTempDirectory("jrxe-chromium");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            List<String> command = new ArrayList<>(List.of(CHROMIUM.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                    "--user-data-dir=" + profile, "--enable-logging=stderr", "--v=0"));
            command.addAll(List.of(what));
            ExternalTool.Result r = ExternalTool.run(command, 120);
            if (r.exitCode() != 0) {
                throw new AssertionError("chromium exited " + r.exitCode() + ":\n" + r.stderr());
            }
            // Chromium logs each console message as "[...:INFO:CONSOLE(line)] \"text\", source: url (line)".
            List<String> console = r.stderr().lines().filter(l -> l.contains(":CONSOLE")).toList();
            return new Load(r.stdout(), console, r.stderr());
        } finally {
            delete(profile);
        }
    }

    private static void delete(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // A profile left in /tmp is harmless.
        }
    }
}
