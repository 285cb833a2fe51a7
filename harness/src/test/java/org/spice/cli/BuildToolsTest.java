package org.spice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Set-up is the command: where the build's tools are missing, scripts/spice (bench, lesson, build, any command that
 * builds) installs them as root with apt, as scripts/spice test does the suite's, and otherwise stops at once with the
 * exact packages and the command that installs them. Run in bash with a PATH that holds some of the tools and not
 * the others, as a user who is not root (the test stands in for {@code id}: it never installs anything).
 */
@Tag("process")
class BuildToolsTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    /** What sourcing common.sh runs, besides the tools the test chooses. */
    private static final List<String> BASICS = List.of("bash", "awk", "readlink", "dirname", "cat", "mkdir", "setpriv",
            "cksum", "cut", "chmod", "id", "rm", "ln", "test", "stat", "find", "sed", "grep", "tr", "sort", "head");

    /** bash on a PATH of BASICS and {@code tools}, running {@code script} after common.sh: its exit, stdout and stderr. */
    private static Map.Entry<Integer, String[]> run(Path bin, List<String> tools, String script) throws Exception {
        Files.createDirectories(bin);
        for (String tool : concat(BASICS, tools)) {
            Path real = which(tool);
            if (real != null) {
                Files.createSymbolicLink(bin.resolve(tool), real);
            }
        }
        ProcessBuilder bash = new ProcessBuilder(bin.resolve("bash").toString(), "-c", "source scripts/lib/common.sh; "
                + script).directory(ROOT.toFile());
        bash.environment().clear();
        bash.environment().putAll(Map.of("PATH", bin.toString(), "HOME", bin.toString()));
        Process p = bash.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        return Map.entry(p.waitFor(), new String[] {out, err});
    }

    private static List<String> concat(List<String> a, List<String> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
    }

    private static Path which(String tool) throws IOException {
        for (String dir : System.getenv("PATH").split(":")) {
            Path p = Path.of(dir, tool);
            if (Files.isExecutable(p)) {
                return p.toRealPath();
            }
        }
        return null;
    }

    @Test
    void theMissingToolsArePackagesEachOnce(@TempDir Path dir) throws Exception {
        var done = run(dir.resolve("bin"), List.of("java", "make"), "missing_packages \"${SPICE_BUILD_TOOLS[@]}\"");
        assertEquals(0, done.getKey(), done.getValue()[1]);
        assertEquals(List.of("openjdk-17-jdk-headless", "maven", "gcc"), done.getValue()[0].lines().toList(),
                "javac is the JDK's too: its package once");
    }

    @Test
    void notAsRootTheCommandStopsWithTheExactListAndItsInstall(@TempDir Path dir) throws Exception {
        var done = run(dir.resolve("bin"), List.of("java", "javac", "make"), "id() { echo 1000; }; SPICE_COMMAND=bench;"
                + " require_build_tools; echo went on");
        assertEquals(1, done.getKey(), done.getValue()[1]);
        assertTrue(done.getValue()[1].contains("bench needs maven gcc, which this machine lacks: install them as root"
                + " (apt-get install maven gcc), or run it as root, which installs them"), done.getValue()[1]);
        assertEquals("", done.getValue()[0], "it stopped there");
    }

    @Test
    void nothingMissingNothingSaid(@TempDir Path dir) throws Exception {
        var done = run(dir.resolve("bin"), List.of(), "install_packages bench; echo went on");
        assertEquals(0, done.getKey(), done.getValue()[1]);
        assertEquals("went on", done.getValue()[0].strip());
    }
}
