package org.spice.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.spice.page.Probe;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * What every command of the harness shares on top of picocli: where it prints, how a bad option is
 * reported (one line on stderr that names the option, then where the help is; exit 2), and the checks
 * of values that picocli's types do not express.
 */
public final class Cli {

    private Cli() {
    }

    /** A command that prints: its streams are set before it runs, so tests can read them. */
    public abstract static class Printing {
        protected PrintStream out = System.out;
        protected PrintStream err = System.err;
    }

    /**
     * What failed and why, in words: an exception's message, and where that is a file's path alone (a file system's
     * exception without a reason) what kind of failure it was, "(directory not empty)".
     */
    public static String why(Exception e) {
        if (e instanceof java.nio.file.FileSystemException fs && fs.getReason() == null) {
            String kind = fs.getClass().getSimpleName().replace("Exception", "").replaceAll("([a-z])([A-Z])", "$1 $2")
                    .toLowerCase(java.util.Locale.ROOT);
            return fs.getMessage() + " (" + (kind.equals("file system") ? "a file system's error" : kind) + ")";
        }
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }

    /** Runs {@code command} on {@code args}; returns the exit status. */
    public static int run(Object command, PrintStream out, PrintStream err, String... args) {
        return commandLine(command, out, err).execute(args);
    }

    /** The command line of {@code command} (and its subcommands), printing to the given streams. */
    public static CommandLine commandLine(Object command, PrintStream out, PrintStream err) {
        CommandLine line = new CommandLine(command);
        line.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
        line.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
        line.setParameterExceptionHandler((e, args) -> {
            CommandLine failing = e.getCommandLine();
            String name = failing.getCommandSpec().qualifiedName(" ");
            failing.getErr().println(name + ": " + e.getMessage());
            failing.getErr().println("see scripts/" + name + " --help");
            return 2;
        });
        streams(line, out, err);
        return line;
    }

    private static void streams(CommandLine line, PrintStream out, PrintStream err) {
        line.getCommandSpec().versionProvider(Cli::version);
        if (line.getCommand() instanceof Printing printing) {
            printing.out = out;
            printing.err = err;
        }
        for (CommandLine sub : line.getSubcommands().values()) {
            streams(sub, out, err);
        }
    }

    /** What {@code --version} prints, from the build (the jar's manifest; "development build" from classes). */
    static String[] version() {
        String version = Cli.class.getPackage().getImplementationVersion();
        return new String[] {"SPICE " + (version != null ? version : "(development build)") + ", Java "
                + System.getProperty("java.version")};
    }

    /** Checks of option values; each failure is a ParameterException whose message starts with the option. */
    public static final class Checks {
        private final CommandLine line;

        public Checks(CommandSpec spec) {
            this.line = spec.commandLine();
        }

        public ParameterException fail(String message) {
            return new ParameterException(line, message);
        }

        /** A comma-separated list of probe ids, at least one. */
        public List<Probe> probes(List<String> ids) {
            List<String> named = ids.stream().map(String::trim).filter(id -> !id.isEmpty()).toList();
            if (named.isEmpty()) {
                throw fail("--probes: name at least one probe: " + Probe.ids());
            }
            try {
                return Probe.parseList(String.join(",", named));
            } catch (IllegalArgumentException e) {
                throw fail("--probes: " + e.getMessage());
            }
        }

        /** A finite number of 0 or more ({@code zero}) or above 0. */
        public double number(String option, String text, boolean zero) {
            double value;
            try {
                value = Double.parseDouble(text.trim());
            } catch (NumberFormatException e) {
                value = Double.NaN;
            }
            if (Double.isNaN(value) || Double.isInfinite(value) || value < 0 || value == 0 && !zero) {
                throw fail(option + " takes a number " + (zero ? "of 0 or more" : "above 0") + ", not \"" + text + "\"");
            }
            return value;
        }

        public long whole(String option, String text, long min, long max) {
            try {
                long value = Long.parseLong(text.trim());
                if (value < min || value > max) {
                    throw new NumberFormatException();
                }
                return value;
            } catch (NumberFormatException e) {
                throw fail(option + " takes a whole number" + (min > Long.MIN_VALUE ? " from " + min : "")
                        + (max < Long.MAX_VALUE ? " to " + max : "") + ", not \"" + text + "\"");
            }
        }
    }
}
