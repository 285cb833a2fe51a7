package org.spice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Every shell script of the project passes shellcheck (the project's .shellcheckrc: sourced files followed, each
 * exception a directive where it stands, with its reason). The scripts are found as git tracks them: a .sh file, or a
 * file whose first line runs a shell.
 */
@Tag("process")
class ShellcheckTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern SHEBANG = Pattern.compile("^#!.*\\b(ba)?sh\\b.*");

    @Test
    void everyShellScriptIsClean() throws Exception {
        List<String> scripts = scripts();
        assertTrue(scripts.contains("scripts/spice") && scripts.contains("scripts/lib/metrics.sh")
                && scripts.contains(".ci/run"), "the scripts found: " + scripts);
        // one shellcheck a script, all at once: following the sourced files makes scripts/spice alone take some 12 s
        List<Process> checks = new ArrayList<>();
        for (String script : scripts) {
            try {
                checks.add(new ProcessBuilder("shellcheck", "--format=gcc", script).directory(ROOT.toFile())
                        .redirectErrorStream(true).start());
            } catch (IOException e) {
                throw new AssertionError("shellcheck is not installed: apt-get install shellcheck (scripts/spice test"
                        + " installs it)", e);
            }
        }
        StringBuilder findings = new StringBuilder();
        for (Process check : checks) {
            String out = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (check.waitFor() != 0) {
                findings.append(out.isBlank() ? "shellcheck failed with status " + check.exitValue() + "\n" : out);
            }
        }
        assertEquals("", findings.toString(), "shellcheck over " + scripts.size() + " scripts");
    }

    private static List<String> scripts() throws Exception {
        Process git = new ProcessBuilder("git", "ls-files").directory(ROOT.toFile()).start();
        List<String> files = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        assertEquals(0, git.waitFor(), "git ls-files");
        List<String> scripts = new ArrayList<>();
        for (String file : files) {
            Path path = ROOT.resolve(file);
            if (!Files.isRegularFile(path)) {
                continue;
            }
            if (file.endsWith(".sh") || firstLine(path).map(l -> SHEBANG.matcher(l).matches()).orElse(false)) {
                scripts.add(file);
            }
        }
        return scripts;
    }

    private static java.util.Optional<String> firstLine(Path path) throws IOException {
        byte[] head;
        try (var in = Files.newInputStream(path)) {
            head = in.readNBytes(128);
        }
        String text = new String(head, StandardCharsets.ISO_8859_1);
        int end = text.indexOf('\n');
        return java.util.Optional.of(end < 0 ? text : text.substring(0, end));
    }
}
