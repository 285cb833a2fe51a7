package org.spice.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Headless Chromium as the tests run it (Debian's chromium; CI installs it; SPICE_CHROMIUM names another binary): a
 * page loaded from a file, its DOM after its scripts ran, or a screenshot.
 */
public final class Chromium {

    /** The window's width, px. */
    public static final int WIDTH = 1280;

    private Chromium() {
    }

    /** The browser's binary, or null where this machine has none. */
    public static String find() {
        String named = System.getenv("SPICE_CHROMIUM");
        for (String candidate : named != null ? List.of(named) : List.of("/usr/bin/chromium", "/usr/bin/chromium-browser")) {
            if (Files.isExecutable(Path.of(candidate))) {
                return candidate;
            }
        }
        return null;
    }

    /** Loads {@code page} with the flags {@code what} (--dump-dom, --screenshot=FILE ...); what it printed. */
    public static String browse(String chromium, Path page, String... what) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(chromium, "--headless", "--disable-gpu", "--hide-scrollbars",
                "--window-size=" + WIDTH + ",900", "--virtual-time-budget=5000", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run",
                "--user-data-dir=" + Files.createTempDirectory("spice-chromium")));
        if ("root".equals(System.getProperty("user.name"))) {
            command.add("--no-sandbox");   // Chromium's sandbox refuses to run as root
        }
        command.addAll(List.of(what));
        command.add(page.toAbsolutePath().toUri().toString());
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        byte[] out = process.getInputStream().readAllBytes();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "chromium ended");
        assertEquals(0, process.exitValue(), "chromium's exit status");
        return new String(out, StandardCharsets.UTF_8);
    }
}
