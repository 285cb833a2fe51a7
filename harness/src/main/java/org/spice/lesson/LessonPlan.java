package org.spice.lesson;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;

import org.spice.bench.model.Server;
import org.spice.bench.report.Format;
import org.spice.servers.Servers;

/**
 * What a lesson will run: the chosen questions' steps, each once however many questions it answers, and the
 * questions that cannot be answered here (a server or a JDK missing), each with the commands that install what it
 * lacks. Decided before anything runs.
 */
record LessonPlan(List<Question> questions, List<Step> steps, Map<Integer, String> skipped, boolean quick) {

    /** The plan for {@code chosen} on this machine: what {@code scripts/spice server installed} says is missing skips. */
    static LessonPlan of(List<Question> chosen, boolean quick, Path root, List<String> extra) {
        return of(chosen, quick, root, extra, List.of());
    }

    /** As {@link #of(List, boolean, Path, List)}, the servers {@code installing} counted as installed (a dry run's plan). */
    static LessonPlan of(List<Question> chosen, boolean quick, Path root, List<String> extra, List<String> installing) {
        return of(chosen, quick, server -> installing.contains(base(server)) ? "" : installed(root, server), jdk21(),
                extra);
    }

    /**
     * The plan for {@code chosen}, where {@code lacks} says what a server lacks (the commands that install it; "" for
     * nothing) and {@code jdk} is a JDK 21 or later (null: none), each step with {@code extra}'s options in place of its
     * own of the same name.
     */
    static LessonPlan of(List<Question> chosen, boolean quick, Function<String, String> lacks, String jdk,
            List<String> extra) {
        Map<String, Step> steps = new LinkedHashMap<>();
        Map<String, String> missingOf = new LinkedHashMap<>();
        Map<Integer, String> skipped = new LinkedHashMap<>();
        for (Question question : chosen) {
            Step step = question.step(quick);
            List<String> missing = new ArrayList<>();
            for (String server : step.servers()) {
                String lacking = missingOf.computeIfAbsent(server, lacks);
                if (!lacking.isEmpty() && !missing.contains(lacking)) {
                    missing.add(lacking);
                }
            }
            if (step.env().containsValue(Step.JDK_21) && jdk == null) {
                missing.add("a JDK 21 or later under /usr/lib/jvm (apt-get install openjdk-21-jdk-headless where Debian"
                        + " has it)");
            }
            if (!missing.isEmpty()) {
                skipped.put(question.number(), String.join("; ", missing));
                continue;
            }
            steps.putIfAbsent(step.id(), step.filled(jdk == null ? Map.of() : Map.of(Step.JDK_21, jdk)).withOptions(extra));
        }
        return new LessonPlan(chosen, List.copyOf(steps.values()), skipped, quick);
    }

    /** The questions {@code step} answers, in order. */
    List<Integer> answeredBy(Step step) {
        return questions.stream().filter(q -> !skipped.containsKey(q.number()) && q.step(quick).id().equals(step.id()))
                .map(Question::number).toList();
    }

    /** The step that answers {@code question} here, or null where it is skipped. */
    Step stepOf(Question question) {
        return steps.stream().filter(s -> s.id().equals(question.step(quick).id())).findFirst().orElse(null);
    }

    int minutes() {
        return steps.stream().mapToInt(Step::minutes).sum();
    }

    /** The plan as the lesson says it before it starts. */
    void print(PrintStream err) {
        err.printf("spice lesson: %d question%s in %d run%s, about %d min here%s:%n", questions.size() - skipped.size(),
                questions.size() - skipped.size() == 1 ? "" : "s", steps.size(), steps.size() == 1 ? "" : "s", minutes(),
                quick ? " (--quick)" : " (in full; --quick takes less)");
        for (Step step : steps) {
            List<Integer> answered = answeredBy(step);
            err.printf("  question%s %s, %s, about %d min:%n    %s%n", answered.size() == 1 ? "" : "s", words(answered),
                    String.join(", ", step.servers()), step.minutes(), step.command());
        }
        skipped.forEach((number, why) -> err.printf("  question %d skipped: it needs %s%n", number, why));
    }

    /** "3", "3 and 4", "1, 6 and 8". */
    static String words(List<Integer> numbers) {
        return Format.list(numbers.stream().map(String::valueOf).toList());
    }

    /** Whether the lesson installs what its questions need: as root, as scripts/spice test and bench do. */
    static boolean installsHere() {
        try {
            return Files.getAttribute(Path.of("/proc/self"), "unix:uid").equals(0);
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * The servers the steps of {@code chosen} start that this machine lacks, in order, each variant as its base (tomcat
     * for tomcat-vt: one install serves both).
     */
    static List<String> missing(List<Question> chosen, boolean quick, Path root) {
        return chosen.stream().flatMap(q -> q.step(quick).servers().stream())
                .map(LessonPlan::base).distinct()
                .filter(server -> !installed(root, server).isEmpty()).toList();
    }

    /** The server whose install serves {@code name}: a variant's base (tomcat for tomcat-vt), else itself. */
    private static String base(String name) {
        return Server.find(name).map(s -> s.base().id()).orElse(name);
    }

    /**
     * Installs {@code servers} ({@code scripts/spice server install NAME}, saying so), so that no question is skipped
     * for them; a failed install is said, and its questions are then skipped with the install's command as before.
     */
    static void install(List<String> servers, Path root, PrintStream err) {
        for (String server : servers) {
            err.println("spice lesson: installing " + server + ", which a question needs (scripts/spice server install "
                    + server + ")");
            try {
                Server named = Server.find(server).orElseThrow(() -> new IOException("no server " + server));
                int status = new Servers(root, err, err).install(named);
                if (status != 0) {
                    err.println("spice lesson: scripts/spice server install " + server + " failed (exit " + status + "):"
                            + " its questions are skipped");
                }
            } catch (IOException e) {
                err.println("spice lesson: could not run scripts/spice server install " + server + ": " + e);
            }
        }
    }

    /** What {@code scripts/spice server installed NAME} says is missing: the commands that install it; "" for nothing. */
    private static String installed(Path root, String server) {
        try {
            Server named = Server.find(server).orElseThrow(() -> new IOException("no server " + server));
            List<String> lines = new ArrayList<>(new Servers(root, System.err, System.err).missing(named));
            lines.removeIf(String::isBlank);
            return String.join("; ", lines);
        } catch (IOException e) {
            return "scripts/spice server install " + server + " (" + e.getMessage() + ")";
        }
    }

    /** The newest JDK 21 or later under /usr/lib/jvm (as the servers' own start finds it), or null. */
    static String jdk21() {
        Path jvms = Path.of("/usr/lib/jvm");
        if (!Files.isDirectory(jvms)) {
            return null;
        }
        String best = null;
        int bestVersion = 20;
        try (Stream<Path> homes = Files.list(jvms)) {
            for (Path home : homes.sorted().toList()) {
                int version = version(home);
                if (version > bestVersion && Files.isExecutable(home.resolve("bin/java")) && !Files.isSymbolicLink(home)) {
                    best = home.toString();
                    bestVersion = version;
                }
            }
        } catch (IOException e) {
            return null;
        }
        return best;
    }

    /** The feature version in HOME/release ({@code JAVA_VERSION="25.0.1"}: 25), 0 where there is none. */
    private static int version(Path home) {
        try {
            for (String line : Files.readAllLines(home.resolve("release"))) {
                if (line.startsWith("JAVA_VERSION=\"")) {
                    String digits = line.substring(14).replaceAll("[^0-9].*", "");
                    return digits.isEmpty() ? 0 : Integer.parseInt(digits);
                }
            }
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
        return 0;
    }
}
