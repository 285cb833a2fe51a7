package org.spice.lesson;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One run of the lesson: a {@code scripts/spice} command (bench or sweep) that answers one question or several. Two
 * questions that name the same step share its run.
 *
 * @param id      its name, and its folder under the lesson's runs/
 * @param servers the servers it starts, as scripts/spice names them (their install is checked before the lesson runs)
 * @param env     what it needs in its environment, by name: {@link #JDK_21} for a JDK with virtual threads
 * @param args    scripts/spice's arguments, without --out
 * @param minutes about how long it takes here (a 2-core machine), for the plan's estimate
 */
public record Step(String id, List<String> servers, Map<String, String> env, List<String> args, int minutes) {

    /** An {@link #env} value the plan fills in: the home of a JDK 21 or later. */
    public static final String JDK_21 = "<a JDK 21 or later>";
    /** How a command shown to a reader names that JDK's home: where it is on their machine is theirs to fill in. */
    public static final String JDK_21_SHOWN = "/path/to/jdk-21-or-later";

    public Step {
        servers = List.copyOf(servers);
        env = Map.copyOf(env);
        args = List.copyOf(args);
    }

    /** A step of {@code scripts/spice} with the arguments of {@code line} (split on spaces). */
    static Step of(String id, List<String> servers, int minutes, String line) {
        return new Step(id, servers, Map.of(), List.of(line.split(" ")), minutes);
    }

    /** This step with {@code name=value} in its environment. */
    Step with(String name, String value) {
        Map<String, String> more = new LinkedHashMap<>(env);
        more.put(name, value);
        return new Step(id, servers, more, args, minutes);
    }

    /** This step with its environment's placeholders filled in by {@code fill}. */
    Step filled(Map<String, String> fill) {
        Map<String, String> done = new LinkedHashMap<>();
        env.forEach((name, value) -> done.put(name, fill.getOrDefault(value, value)));
        return new Step(id, servers, done, args, minutes);
    }

    /**
     * This step with {@code options} ("--name value" pairs) in place of its own of the same names, the others added
     * after them: how a test or a slower machine shortens or lengthens every run.
     */
    Step withOptions(List<String> options) {
        List<String> all = new ArrayList<>(args);
        for (int i = 0; i + 1 < options.size(); i += 2) {
            int at = all.indexOf(options.get(i));
            if (at >= 0 && at + 1 < all.size()) {
                all.set(at + 1, options.get(i + 1));
            } else {
                all.addAll(List.of(options.get(i), options.get(i + 1)));
            }
        }
        return new Step(id, servers, env, all, minutes);
    }

    /** Its arguments with {@code --out dir}. */
    List<String> argsOut(String dir) {
        List<String> all = new ArrayList<>(args);
        all.addAll(List.of("--out", dir));
        return all;
    }

    /**
     * The command as a reader runs it by hand: "SPICE_JAVA_HOME=/path/to/jdk-21-or-later scripts/spice bench ...". A JDK's
     * folder is this machine's, so the command names what it must be, not where the plan found it (the pages the
     * lesson writes travel to other machines).
     */
    public String command() {
        String prefix = env.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .map(e -> e.getKey() + "=" + e.getValue() + " ").collect(Collectors.joining());
        return shown(prefix + "scripts/spice " + String.join(" ", args));
    }

    /** {@code command} as a reader is shown it: a JDK's home named by what it must be ({@link #JDK_21_SHOWN}). */
    static String shown(String command) {
        // a folder, or the plan's placeholder (<a JDK 21 or later>: a step not filled in, a question skipped)
        return command.replaceAll("(^|\\s)SPICE_JAVA_HOME=(<[^>]*>|\\S+)", "$1SPICE_JAVA_HOME=" + JDK_21_SHOWN);
    }
}
