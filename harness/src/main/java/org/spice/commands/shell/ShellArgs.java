package org.spice.commands.shell;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.spice.cli.Cli;

/**
 * scripts/spice's own command lines parsed in this JVM, as the script's {@code shell_args} parses them in a JVM of its
 * own: a harness that runs {@code scripts/spice server ...} hands the script the assignments with the arguments they
 * came from (SPICE_PARSED, SPICE_PARSED_ARGS), and the script starts no JVM to parse them again.
 */
public final class ShellArgs {

    /** Set while this JVM parses a command line for the script, as SPICE_SHELL=1 says in the script's own JVM. */
    private static final ThreadLocal<Boolean> FOR_SCRIPT = ThreadLocal.withInitial(() -> false);

    private ShellArgs() {
    }

    /** Whether a shell command is parsed for the script, which evaluates what it prints. */
    static boolean forScript() {
        return "1".equals(System.getenv("SPICE_SHELL")) || FOR_SCRIPT.get();
    }

    /**
     * The assignments scripts/spice evaluates for {@code args} ({@code server ...}: the commands a harness runs it
     * for), or null where they are another command's or do not parse: the script then parses them itself, and says
     * why they do not.
     */
    public static String of(List<String> args) {
        if (args.isEmpty() || !args.get(0).equals("server")) {
            return null;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        FOR_SCRIPT.set(true);
        try {
            int status = Cli.run(new ServerCommand(), new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(OutputStream.nullOutputStream()), args.subList(1, args.size()).toArray(String[]::new));
            return status == 0 ? out.toString(StandardCharsets.UTF_8) : null;
        } finally {
            FOR_SCRIPT.remove();
        }
    }
}
