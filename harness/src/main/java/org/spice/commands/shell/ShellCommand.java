package org.spice.commands.shell;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import org.spice.cli.Cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * A command of scripts/spice's own (the metrics agent, the bundles, the build and the tests): its options are declared,
 * checked and described here, as the harness's are, and scripts/spice runs it. Run by the script (SPICE_SHELL=1 in
 * its environment), it prints the parsed options as shell assignments, which the script evaluates; run otherwise,
 * it says that scripts/spice runs it. Its help is picocli's, as every command's.
 */
abstract class ShellCommand extends Cli.Printing implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    /** Checks what picocli's types do not, and returns the variables the script reads, in order; a List is an array. */
    abstract Map<String, Object> assignments();

    @Override
    public final Integer call() {
        Map<String, Object> assignments = assignments();
        if (!"1".equals(System.getenv("SPICE_SHELL"))) {
            throw fail("is scripts/spice's own command: run scripts/spice "
                    + String.join(" ", spec.root().commandLine().getParseResult().originalArgs()));
        }
        assignments.forEach((name, value) -> out.println(name + "=" + shell(value)));
        return 0;
    }

    static Map<String, Object> vars(Object... pairs) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put((String) pairs[i], pairs[i + 1]);
        }
        return map;
    }

    ParameterException fail(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    /** A value as one shell word, single-quoted; a list as an array, {@code ('a' 'b')}; null as the empty word. */
    static String shell(Object value) {
        if (value instanceof List<?> list) {
            StringBuilder words = new StringBuilder("(");
            list.forEach(each -> words.append(words.length() > 1 ? " " : "").append(shell(each)));
            return words.append(')').toString();
        }
        return "'" + (value == null ? "" : value.toString().replace("'", "'\\''")) + "'";
    }
}
