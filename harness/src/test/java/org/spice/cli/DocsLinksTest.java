package org.spice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The docs as one reference that travels with the checkout: every relative link in README.md and docs/ (its
 * subfolders too) resolves to a file or folder of the tree, and no page carries a path of the machine it was written
 * on (a temporary folder, a home, the checkout's own place, a JDK's install folder): a reader's machine has other ones.
 */
@Tag("unit")
class DocsLinksTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    /** A Markdown link's target: [text](target), the target without its title. */
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
    /**
     * A path of one machine: under /tmp, /home, /root, /work or /var/tmp, or a JDK's own folder under /usr/lib/jvm (the
     * folder itself, where JDKs are looked for, is everyone's).
     */
    static final Pattern MACHINE_PATH = Pattern.compile(
            "(?<![\\w.])(/tmp/|/var/tmp/|/home/|/root/|/work/|/usr/lib/jvm/[\\w.-]+)");

    /** Every page: README.md and every .md under docs/. */
    static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> docs = Files.walk(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    @Test
    void everyRelativeLinkResolves() throws IOException {
        List<String> broken = new ArrayList<>();
        int links = 0;
        for (Path page : pages()) {
            List<String> lines = Files.readAllLines(page);
            for (int n = 0; n < lines.size(); n++) {
                Matcher m = LINK.matcher(lines.get(n));
                while (m.find()) {
                    String target = m.group(1).replaceFirst("#.*$", "");
                    if (target.isEmpty() || target.matches("^[a-z]+:.*")) {
                        continue;   // an anchor in the page, a URL
                    }
                    links++;
                    if (!Files.exists(page.getParent().resolve(target).normalize())) {
                        broken.add(ROOT.relativize(page) + ":" + (n + 1) + ": " + m.group(1));
                    }
                }
            }
        }
        assertTrue(links > 50, "the docs link each other: " + links);
        assertEquals("", String.join("\n", broken), broken.size() + " links lead nowhere");
    }

    @Test
    void noPageCarriesAPathOfTheMachineItWasWrittenOn() throws IOException {
        List<String> found = new ArrayList<>();
        for (Path page : pages()) {
            List<String> lines = Files.readAllLines(page);
            for (int n = 0; n < lines.size(); n++) {
                Matcher m = MACHINE_PATH.matcher(lines.get(n));
                if (m.find()) {
                    found.add(ROOT.relativize(page) + ":" + (n + 1) + ": " + m.group(1) + " in " + lines.get(n).strip());
                }
            }
        }
        assertEquals("", String.join("\n", found), found.size() + " lines carry a machine's path");
    }

    @Test
    void theRuleTellsAMachinesPathFromEveryonesFolder() {
        assertTrue(MACHINE_PATH.matcher("SPICE_JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 scripts/spice").find());
        assertTrue(MACHINE_PATH.matcher("results in /tmp/tmp.x1/spice/results").find());
        assertTrue(!MACHINE_PATH.matcher("a JDK 21 or later under `/usr/lib/jvm`").find());
        assertTrue(!MACHINE_PATH.matcher("see docs/tmp/notes or run/tmp/").find());
    }
}
