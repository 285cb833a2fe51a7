package org.spice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.spice.bench.model.Server;
import org.spice.harness.Main;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Every {@code scripts/spice ...} command README.md and docs/ quote, in a code block or a code span, parsed as the CLI
 * parses it: a harness command by its picocli spec (every option one it has, a value where it takes one, no more
 * positional words than it takes), a shell command by its synopsis in the shell's own help (scripts/spice, server.sh,
 * metrics.sh: its options and their values, its actions, one server name of the server table). A synopsis quoted in
 * the docs (with [ ], |, ...) is not a command and is left out. Values are not checked: the docs write placeholders
 * (URL, DIR, N).
 */
class DocsCommandsTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern SPAN = Pattern.compile("`((?:sudo )?scripts/spice [^`]+)`");
    private static final Pattern OPTION = Pattern.compile("--[a-z][a-z0-9-]*");
    /** The harness's commands as picocli models them, built once. */
    private static final CommandLine HARNESS = new CommandLine(new Main());

    /** A command as the docs quote it, where it stands. */
    record Quoted(String where, String command) {
    }

    @Test
    void everyCommandTheDocsQuoteParses() throws IOException {
        List<Quoted> quoted = quoted();
        List<String> wrong = new ArrayList<>();
        for (Quoted q : quoted) {
            String problem = problem(words(q.command()));
            if (problem != null) {
                wrong.add(q.where() + ": scripts/spice " + q.command() + "\n    " + problem);
            }
        }
        assertTrue(quoted.size() > 80, "the docs quote commands: " + quoted.size());
        assertEquals("", String.join("\n", wrong), wrong.size() + " of the " + quoted.size() + " commands the docs quote"
                + " do not parse");
    }

    @Test
    void aMisspelledOptionOrASecondServerNameIsFound() {
        assertTrue(problem(words("bench --target http://127.0.0.1:18081 --probe static")).contains("--probe"));
        assertTrue(problem(words("server install tomcat jetty")).contains("one server"));
        assertTrue(problem(words("server start apache --prot 1")).contains("--prot"));
        assertTrue(problem(words("verify")).contains("verify takes 1"));
        assertTrue(problem(words("metrics-agent begin")).contains("first word"));
        assertEquals(null, problem(words("bench --target http://SERVER --server apache --server-metrics METRICS")));
        assertEquals(null, problem(words("server start apache --port 18081 --mpm prefork")));
    }

    /** What is wrong with {@code words} (the command and its arguments) as the CLI parses them; null if nothing. */
    static String problem(List<String> words) {
        String name = words.get(0);
        if (name.equals("help") || name.equals("--help") || name.equals("-h") || name.equals("--version")) {
            return null;
        }
        if (HARNESS.getSubcommands().containsKey(name)) {
            return harnessProblem(HARNESS.getSubcommands().get(name).getCommandSpec(), words.subList(1, words.size()));
        }
        Synopsis synopsis = SYNOPSES.get(name);
        return synopsis == null ? "no command \"" + name + "\"" : synopsis.problem(words.subList(1, words.size()));
    }

    private static String harnessProblem(CommandSpec spec, List<String> args) {
        int positional = 0;
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (arg.startsWith("-") && !arg.equals("-")) {
                OptionSpec option = spec.findOption(arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg);
                if (option == null) {
                    return spec.name() + " has no option " + arg;
                }
                if (option.arity().min() > 0 && !arg.contains("=")) {
                    if (i + 1 >= args.size()) {
                        return arg + " takes a value";
                    }
                    // a value, or as many as it takes (lesson --compare A B C) up to the next option
                    for (int taken = 0; taken < option.arity().max() && i + 1 < args.size()
                            && (taken == 0 || !args.get(i + 1).startsWith("-")); taken++) {
                        i++;
                    }
                }
            } else {
                positional++;
            }
        }
        // where the positional words may stand: up to the last index any of them takes (open-ended: any number)
        int most = spec.positionalParameters().stream().mapToInt(p -> p.index().max() == Integer.MAX_VALUE
                ? Integer.MAX_VALUE : p.index().max() + 1).max().orElse(0);
        int least = spec.positionalParameters().stream().filter(PositionalParamSpec::required)
                .mapToInt(p -> p.index().min() + p.arity().min()).max().orElse(0);
        if (positional > most) {
            return spec.name() + " takes at most " + most + " words besides its options, not " + positional;
        }
        return positional < least && !args.contains("--help") ? spec.name() + " takes " + least + " words, not " + positional : null;
    }

    /**
     * A shell command's grammar, from its help's synopsis: its actions (the first word), how many words may follow
     * the action (each among {@code names} where that is not empty), and its options, each with whether it takes a
     * value.
     */
    record Synopsis(Set<String> actions, int words, Set<String> names, Map<String, Boolean> options) {

        /** From {@code line}, "NAME FIRST [--option VALUE] [--flag] ...": FIRST's alternatives are its actions. */
        static Synopsis of(String line, Set<String> names, int words) {
            Map<String, Boolean> options = new LinkedHashMap<>();
            Matcher m = OPTION.matcher(line);
            while (m.find()) {
                String after = line.substring(m.end());
                options.putIfAbsent(m.group(), after.startsWith(" ") && !after.startsWith(" [") && !after.startsWith(" -"));
            }
            String first = line.trim().split("\\s+")[1];
            Set<String> actions = first.contains("|") && !first.startsWith("[") ? Set.of(first.split("\\|")) : Set.of();
            return new Synopsis(actions, words, names, options);
        }

        String problem(List<String> args) {
            List<String> rest = new ArrayList<>();
            for (int i = 0; i < args.size(); i++) {
                String arg = args.get(i);
                if (arg.startsWith("--") && !arg.equals("--help")) {
                    String name = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
                    Boolean value = options.get(name);
                    if (value == null) {
                        return "no option " + name + " (its options: " + options.keySet() + ")";
                    }
                    if (value && !arg.contains("=") && ++i >= args.size()) {
                        return arg + " takes a value";
                    }
                } else if (!arg.startsWith("-") || arg.equals("-")) {
                    rest.add(arg);
                }
            }
            if (!actions.isEmpty()) {
                if (rest.isEmpty() || !actions.contains(rest.get(0))) {
                    return "the first word is one of " + actions + ", not " + (rest.isEmpty() ? "none" : rest.get(0));
                }
                rest = rest.subList(1, rest.size());
            }
            if (rest.size() > words) {
                return "one server (or all) at a time, not " + rest;
            }
            return rest.stream().filter(w -> !names.isEmpty() && !names.contains(w) && !w.equals(w.toUpperCase()))
                    .findFirst().map(w -> "\"" + w + "\" is not one of " + names).orElse(null);
        }
    }

    private static final Map<String, Synopsis> SYNOPSES = synopses();

    /** The shell's commands, each from the synopsis its help prints. */
    private static Map<String, Synopsis> synopses() {
        try {
            String spice = Files.readString(ROOT.resolve("scripts/spice"));
            Set<String> servers = new HashSet<>(Stream.of(Server.values()).map(Server::id).toList());
            servers.add("all");
            Map<String, Synopsis> map = new LinkedHashMap<>();
            map.put("server", Synopsis.of(synopsis(Files.readString(ROOT.resolve("scripts/lib/server.sh")),
                    "usage: scripts/spice server "), servers, 1));
            map.put("metrics-agent", Synopsis.of(synopsis(Files.readString(ROOT.resolve("scripts/lib/metrics.sh")),
                    "usage: scripts/spice metrics-agent "), Set.of(), 0));
            for (String command : List.of("serve", "jmeter-server", "test")) {
                map.put(command, Synopsis.of(synopsis(spice, "  " + command + " ["), Set.of(), 0));
            }
            String bundle = synopsis(spice, "  bundle ");
            map.put("bundle", new Synopsis(Set.of(), Integer.MAX_VALUE, Set.of(bundle.split("\\s+")[1].split("\\|")),
                    Synopsis.of(bundle, Set.of(), 0).options()));
            for (String command : List.of("build", "test-bundles")) {
                map.put(command, new Synopsis(Set.of(), Integer.MAX_VALUE, Set.of(), Map.of()));
            }
            return map;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The synopsis that starts with {@code start} in {@code text}, its continuation lines joined, from the command on. */
    private static String synopsis(String text, String start) {
        int at = text.indexOf(start);
        assertTrue(at >= 0, "no synopsis \"" + start + "\"");
        String[] lines = text.substring(at).split("\n");
        StringBuilder line = new StringBuilder(lines[0]);
        for (int i = 1; i < lines.length && lines[i].matches("\\s+\\[.*"); i++) {
            line.append(' ').append(lines[i].trim());
        }
        return line.toString().replaceFirst("^usage: scripts/spice ", "").trim();
    }

    /** The command's words, without what a shell would take: a comment, a pipe, a redirection. */
    static List<String> words(String command) {
        String cut = command.replaceAll("\\s+#.*$", "").replaceAll("\\s+(\\||>|2>|<|&&|;).*$", "").trim();
        return Arrays.asList(cut.split("\\s+"));
    }

    /** Every quoted command: the code blocks' lines and the code spans, synopses left out. */
    static List<Quoted> quoted() throws IOException {
        List<Path> files = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
        }
        List<Quoted> quoted = new ArrayList<>();
        for (Path file : files) {
            List<String> lines = Files.readAllLines(file);
            boolean block = false;
            for (int n = 0; n < lines.size(); n++) {
                String line = lines.get(n);
                if (line.startsWith("```")) {
                    block = !block;
                    continue;
                }
                String where = ROOT.relativize(file) + ":" + (n + 1);
                if (block) {
                    for (String part : line.split("&&|;")) {
                        String command = part.trim().replaceFirst("^\\$ ", "").replaceFirst("^sudo ", "");
                        command = command.replaceFirst("^([A-Z_]+=\\S+ )+", "");
                        if (command.startsWith("scripts/spice ")) {
                            add(quoted, where, command.substring("scripts/spice ".length()));
                        }
                    }
                } else {
                    Matcher m = SPAN.matcher(line);
                    while (m.find()) {
                        add(quoted, where, m.group(1).replaceFirst("^sudo ", "").substring("scripts/spice ".length()));
                    }
                }
            }
        }
        return quoted;
    }

    private static void add(List<Quoted> quoted, String where, String command) {
        String words = String.join(" ", words(command));
        if (!words.contains(" ") || words.matches(".*(\\[|\\.\\.\\.|…|\\||<|\\\\$|COMMAND|--[a-z-]+/).*")) {
            return;   // a command named in prose, a synopsis, a line that goes on
        }
        quoted.add(new Quoted(where, words));
    }
}
