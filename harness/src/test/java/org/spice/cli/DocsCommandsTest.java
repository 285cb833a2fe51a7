package org.spice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.spice.harness.Main;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Every {@code scripts/spice ...} command README.md and docs/ quote, in a code block or a code span, parsed as the CLI
 * parses it: a harness command by its picocli spec (every option one it has, a value where it takes one, no more
 * positional words than it takes, each of those one it takes: an action, a server's name), the shell's own commands
 * too (org.spice.commands.shell declares them). A synopsis quoted in the docs (with [ ], |, ...) is not a command and
 * is left out. Option values are not checked: the docs write placeholders (URL, DIR, N).
 */
@Tag("unit")
class DocsCommandsTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern SPAN = Pattern.compile("`((?:sudo )?scripts/spice [^`]+)`");
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
        assertTrue(problem(words("server install tomcat jetty")).contains("at most 2 words"));
        assertTrue(problem(words("server start apche")).contains("unknown server \"apche\""));
        assertTrue(problem(words("server start apache --prot 1")).contains("--prot"));
        assertTrue(problem(words("verify")).contains("verify takes 1"));
        assertTrue(problem(words("metrics-agent begin")).contains("\"begin\" is not one of"));
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
        return "no command \"" + name + "\"";
    }

    private static String harnessProblem(CommandSpec spec, List<String> args) {
        int positional = 0;
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (arg.startsWith("-") && !arg.equals("-")) {
                OptionSpec option = spec.findOption(arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg);
                if (option == null && spec.unmatchedArgsBindings().isEmpty()) {
                    return spec.name() + " has no option " + arg;
                }
                if (option == null) {
                    continue;   // build's Maven options
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
                String wrong = valueProblem(spec, positional++, arg);
                if (wrong != null) {
                    return wrong;
                }
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
     * What is wrong with {@code word} as the positional parameter at {@code index}: not one of an enum's constants, or
     * refused by its converter (an unknown server). A placeholder (NAME, URL) is not checked.
     */
    private static String valueProblem(CommandSpec spec, int index, String word) {
        PositionalParamSpec param = spec.positionalParameters().stream().filter(p -> p.index().contains(index))
                .findFirst().orElse(null);
        if (param == null || word.equals(word.toUpperCase(Locale.ROOT))) {
            return null;
        }
        if (param.type().isEnum()) {
            List<String> names = Stream.of(param.type().getEnumConstants()).map(String::valueOf).toList();
            return names.contains(word) ? null : spec.name() + ": \"" + word + "\" is not one of " + names;
        }
        try {
            if (param.converters().length > 0) {
                param.converters()[0].convert(word);
            }
            return null;
        } catch (Exception e) {
            return spec.name() + ": " + e.getMessage();
        }
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
