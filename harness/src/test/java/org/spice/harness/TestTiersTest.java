package org.spice.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The fast tier is chosen by inclusion ({@code scripts/spice test --fast}: {@code -Dgroups=unit}): every test class of
 * the page and the harness carries one tier (its methods each one, where they differ), and one tagged "unit" starts
 * no process (a test that does is "process", and runs in the suite alone). A class with none would run in no tier
 * chosen by its tag, a method's tier under a class's "unit" would run in the fast tier too, and a class that starts a
 * process under "unit" would put a process there: each fails here, by name.
 */
@Tag("unit")
class TestTiersTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Set<String> TIERS = Set.of("unit", "process", "load", "tools");
    private static final Pattern TEST = Pattern.compile("@(Test|ParameterizedTest|RepeatedTest|TestFactory)\\b");
    private static final Pattern TAG = Pattern.compile("@Tag\\(\"([a-z]+)\"\\)");
    /** What starts a process: a ProcessBuilder, the Runtime's exec, a testkit run of scripts/spice or a browser. */
    private static final Pattern STARTS = Pattern.compile("new ProcessBuilder|Runtime\\.getRuntime\\(\\)\\.exec"
            + "|Chromium\\.|VegetaRounds|Vegeta\\.");

    /** The tiers {@code source} tags, in order. */
    private static List<String> tiers(String source) {
        List<String> tiers = new ArrayList<>();
        Matcher tag = TAG.matcher(source);
        while (tag.find()) {
            if (TIERS.contains(tag.group(1))) {
                tiers.add(tag.group(1));
            }
        }
        return tiers;
    }

    @Test
    void everyTestClassHasOneTierAndAUnitOneStartsNoProcess() throws IOException {
        List<String> wrong = new ArrayList<>();
        int units = 0;
        for (String module : List.of("page", "harness")) {
            try (Stream<Path> files = Files.walk(ROOT.resolve(module).resolve("src/test/java"))) {
                for (Path file : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                    String source = Files.readString(file);
                    if (!TEST.matcher(source).find()) {
                        continue;
                    }
                    String name = ROOT.relativize(file).toString();
                    int declared = source.indexOf("\nclass ") >= 0 ? source.indexOf("\nclass ") : source.indexOf(" class ");
                    List<String> ofClass = tiers(source.substring(0, Math.max(declared, 0)));
                    List<String> ofMethods = tiers(source.substring(Math.max(declared, 0)));
                    if (ofClass.size() > 1 || ofClass.isEmpty() && ofMethods.isEmpty()) {
                        wrong.add(name + ": tiers " + ofClass + ", one of " + TIERS + " wanted");
                    } else if (ofClass.equals(List.of("unit")) && !ofMethods.isEmpty()) {
                        wrong.add(name + ": a method's tier " + ofMethods + " under the class's unit runs as a unit too");
                    } else if (ofClass.equals(List.of("unit")) && STARTS.matcher(source).find()
                            && !name.endsWith("TestTiersTest.java")) {
                        wrong.add(name + ": tagged unit, and it starts a process (tag it \"process\")");
                    } else if (ofClass.equals(List.of("unit")) || ofMethods.contains("unit")) {
                        units++;
                    }
                }
            }
        }
        assertEquals(List.of(), wrong);
        assertTrue(units > 50, "the unit tests found: " + units);
    }
}
