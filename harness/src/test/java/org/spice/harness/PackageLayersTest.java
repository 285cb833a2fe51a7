package org.spice.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The harness's packages form layers (docs/code.md): jdeps, run on the compiled classes, finds no cycle between them,
 * and no package uses one it is not allowed to. The sources are checked too, since bytecode does not show everything:
 * an import only a javadoc link needs, or a fully qualified name that hides a use from the import lines.
 */
@Tag("unit")
class PackageLayersTest {

    private static final String P = "org.spice.";

    /** What each package may use, besides itself, the JDK and the libraries. */
    static final Map<String, Set<String>> ALLOWED = new TreeMap<>(Map.ofEntries(
            Map.entry("cli", Set.of("page")),
            Map.entry("agent", Set.of("bench.proc")),
            Map.entry("bench.net", Set.of()),
            Map.entry("bench.mix", Set.of("page", "bench.net")),
            Map.entry("bench.figures", Set.of()),
            Map.entry("bench.proc", Set.of()),
            Map.entry("bench.model", Set.of("page", "bench.net", "bench.mix", "bench.figures", "bench.proc")),
            Map.entry("bench.analysis", Set.of("page", "bench.figures", "bench.model")),
            Map.entry("bench.samples", Set.of("page", "bench.net", "bench.figures", "bench.model")),
            Map.entry("bench.engine", Set.of("page", "bench.net", "bench.mix", "bench.figures", "bench.proc",
                    "bench.model")),
            Map.entry("bench.jmeter", Set.of("page", "cli", "bench.net", "bench.mix", "bench.figures", "bench.proc",
                    "bench.model", "bench.samples")),
            Map.entry("bench.report", Set.of("page", "cli", "bench.net", "bench.figures", "bench.model", "bench.analysis")),
            Map.entry("verify", Set.of("page", "bench.net")),
            Map.entry("fileset", Set.of("page")),
            Map.entry("cgifloor", Set.of("page", "bench.figures", "bench.model", "bench.analysis", "bench.report")),
            Map.entry("imports", Set.of("page", "bench.net", "bench.figures", "bench.model", "bench.analysis",
                    "bench.samples", "bench.report")),
            Map.entry("bench.run", Set.of("page", "cli", "bench.net", "bench.mix", "bench.figures", "bench.proc",
                    "bench.model", "bench.analysis", "bench.engine", "bench.jmeter", "bench.report", "verify")),
            // the servers' life cycle, each server's launcher (ServerLaunch) included: the server table
            Map.entry("servers", Set.of("page", "bench.model")),
            Map.entry("bench.plan", Set.of("page", "cli", "bench.net", "bench.mix", "bench.figures", "bench.proc",
                    "bench.model", "bench.analysis", "bench.engine", "bench.jmeter", "bench.report", "bench.run", "verify",
                    "fileset", "cgifloor", "servers")),
            Map.entry("lesson", Set.of("bench.figures", "bench.model", "bench.analysis", "bench.report", "bench.run",
                    "bench.plan", "servers")),
            Map.entry("commands", Set.of("page", "cli", "bench.net", "bench.mix", "bench.figures", "bench.proc",
                    "bench.model", "bench.analysis", "bench.samples", "bench.engine", "bench.jmeter", "bench.report",
                    "bench.run", "bench.plan", "verify", "fileset", "cgifloor", "imports", "agent", "lesson", "commands.shell", "servers")),
            // the shell's own commands: their options, checks and help; the server table's names; the servers' life
            // cycle (server)
            Map.entry("commands.shell", Set.of("page", "cli", "bench.model", "servers")),
            Map.entry("harness", Set.of("page", "cli", "commands", "commands.shell"))));

    @Test
    void packagesFormLayersWithoutCycles() throws Exception {
        Map<String, Set<String>> uses = packageGraph();
        assertEquals(ALLOWED.keySet(), uses.keySet(), "every package of the harness has its place in the layers");
        List<String> wrong = new ArrayList<>();
        uses.forEach((from, tos) -> tos.stream().filter(to -> !ALLOWED.get(from).contains(to))
                .forEach(to -> wrong.add(from + " -> " + to)));
        assertTrue(wrong.isEmpty(), "uses outside the layers: " + wrong);
        assertEquals(List.of(), cycle(uses), "a cycle between packages");
    }

    @Test
    void sourcesImportOnlyWhatTheirLayerMayUse() throws IOException {
        Path sources = Path.of("src/main/java");
        List<String> wrong = new ArrayList<>();
        try (Stream<Path> files = Files.walk(sources)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                wrong.addAll(sourceProblems(sources.relativize(file).toString(), Files.readString(file)));
            }
        }
        assertEquals(List.of(), wrong);
    }

    @Test
    void theSourceCheckFindsAnUpwardImportAndAFullyQualifiedName() {
        String upward = "package org.spice.bench.model;\n\nimport org.spice.commands.BenchCommand;\n\n/** {@link BenchCommand} */\n"
                + "record A() {\n    org.spice.bench.report.Verdict v;\n    // org.spice.bench.run.Ladder in a comment is no use\n"
                + "    String s = \"org.spice.page.Generate\";\n}\n";
        List<String> problems = sourceProblems("A.java", upward);
        assertEquals(2, problems.size(), problems.toString());
        assertTrue(problems.get(0).contains("bench.model -> commands"), problems.toString());
        assertTrue(problems.get(1).contains("fully qualified org.spice.bench.report.Verdict"), problems.toString());
    }

    private static final Pattern IMPORT = Pattern.compile("^import (?:static )?org\\.spice\\.((?:[a-z]\\w*\\.)*[a-z]\\w*)\\.[A-Z]",
            Pattern.MULTILINE);
    private static final Pattern QUALIFIED = Pattern.compile("\\borg\\.spice\\.(?:[a-z]\\w*\\.)+[A-Z]\\w*");

    /** What one source file imports from outside its layer, and the fully qualified SPICE names in its code. */
    static List<String> sourceProblems(String name, String source) {
        Matcher declared = Pattern.compile("^package org\\.spice\\.([\\w.]+);", Pattern.MULTILINE).matcher(source);
        if (!declared.find()) {
            return List.of(name + ": no org.spice package");
        }
        String from = declared.group(1);
        Set<String> allowed = ALLOWED.getOrDefault(from, Set.of());
        List<String> problems = new ArrayList<>();
        Matcher imported = IMPORT.matcher(source);
        while (imported.find()) {
            String to = imported.group(1).startsWith("page") ? "page" : imported.group(1);
            if (!to.equals(from) && !allowed.contains(to)) {
                problems.add(name + ": imports outside its layer: " + from + " -> " + to);
            }
        }
        for (String line : source.split("\n")) {
            String code = line.strip();
            if (code.startsWith("import ") || code.startsWith("package ") || code.startsWith("*") || code.startsWith("/*")
                    || code.startsWith("//")) {
                continue;
            }
            Matcher qualified = QUALIFIED.matcher(code.replaceAll("\"(?:[^\"\\\\]|\\\\.)*\"", "\"\""));
            while (qualified.find()) {
                problems.add(name + ": fully qualified " + qualified.group() + " (import it, so the layers see it)");
            }
        }
        return problems;
    }

    /** The calls that compute a run's figures from its counts: only where a run ends or a file is read (bench.analysis). */
    private static final Pattern COMPUTES = Pattern.compile("\\b(Summaries|RoundFigures|CrossFigures|OwnRatios|Restarts"
            + "|CostFigures|LatencyFigures)\\.(?!class\\b)[a-z]\\w*\\(|\\bCrossFigures\\.All\\.of\\(");

    /**
     * The tables, pages, sentences, the lesson and the commands draw the figures a run concluded and compute none
     * (issue "one figure, one judge"): no call there to what computes them.
     */
    @Test
    void noRendererComputesAFigure() throws IOException {
        List<String> computing = new ArrayList<>();
        for (String layer : List.of("bench/report", "lesson", "commands")) {
            try (Stream<Path> files = Files.walk(Path.of("src/main/java/org/spice", layer))) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                    computing.addAll(computations(file.getFileName().toString(), Files.readString(file)));
                }
            }
        }
        assertEquals(List.of(), computing);
    }

    @Test
    void theComputationCheckFindsACallAndLeavesTypesAlone() {
        String source = "class A {\n    List<CrossFigures.Cross> c;\n    // Summaries.of(results) in a comment\n"
                + "    double a = RoundFigures.aim(0.05, 1);\n    Object s = Summaries.of(results);\n}\n";
        assertEquals(List.of("A.java: RoundFigures.aim(", "A.java: Summaries.of("), computations("A.java", source));
    }

    static List<String> computations(String name, String source) {
        List<String> found = new ArrayList<>();
        for (String line : source.split("\n")) {
            String code = line.strip();
            if (code.startsWith("*") || code.startsWith("/*") || code.startsWith("//") || code.startsWith("import ")) {
                continue;
            }
            Matcher call = COMPUTES.matcher(code);
            while (call.find()) {
                found.add(name + ": " + call.group());
            }
        }
        return found;
    }

    @Test
    void theCycleCheckFindsACycle() {
        Map<String, Set<String>> graph = Map.of("a", Set.of("b"), "b", Set.of("c"), "c", Set.of("a"), "d", Set.of("a"));
        assertEquals(3, cycle(graph).size());
        assertEquals(List.of(), cycle(Map.of("a", Set.of("b"), "b", Set.of())));
    }

    /** Package → the SPICE packages it uses, as jdeps reads them from the compiled classes. */
    static Map<String, Set<String>> packageGraph() {
        Path classes = Path.of("target/classes");
        assertTrue(Files.isDirectory(classes.resolve("org/spice")), "compiled classes in " + classes.toAbsolutePath());
        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow(() -> new AssertionError("no jdeps in this JDK"));
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        PrintWriter out = new PrintWriter(text, true, StandardCharsets.UTF_8);
        int status = jdeps.run(out, out, "-verbose:package", "-filter:none", "-e", "org\\.spice\\..*", classes.toString());
        String report = text.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, report);
        Map<String, Set<String>> graph = new TreeMap<>();
        Matcher edge = Pattern.compile("^\\s+org\\.spice\\.(\\S+)\\s+->\\s+org\\.spice\\.(\\S+)", Pattern.MULTILINE).matcher(report);
        while (edge.find()) {
            String from = edge.group(1);
            String to = edge.group(2);
            graph.computeIfAbsent(from, k -> new TreeSet<>());
            if (!from.equals(to) && !to.startsWith("page")) {
                graph.get(from).add(to);
            } else if (to.startsWith("page")) {
                graph.get(from).add("page");
            }
        }
        assertTrue(graph.size() > 5, "jdeps found the packages: " + report);
        return graph;
    }

    /** One cycle of the graph as the packages on it, or an empty list. */
    static List<String> cycle(Map<String, Set<String>> graph) {
        Map<String, Integer> state = new TreeMap<>();
        for (String start : graph.keySet()) {
            List<String> path = new ArrayList<>();
            if (visit(start, graph, state, path)) {
                return path;
            }
        }
        return List.of();
    }

    private static boolean visit(String node, Map<String, Set<String>> graph, Map<String, Integer> state, List<String> path) {
        Integer seen = state.get(node);
        if (seen != null) {
            if (seen == 1) {
                path.subList(0, path.indexOf(node)).clear();
                return true;
            }
            return false;
        }
        state.put(node, 1);
        path.add(node);
        for (String next : graph.getOrDefault(node, Set.of())) {
            if (visit(next, graph, state, path)) {
                return true;
            }
        }
        path.remove(path.size() - 1);
        state.put(node, 2);
        return false;
    }
}
