package org.spice.harness;

import java.util.List;
import java.util.concurrent.Callable;

import org.spice.cli.Cli;
import org.spice.commands.BenchCommand;
import org.spice.commands.CgiFloorCommand;
import org.spice.commands.CgroupExporterCommand;
import org.spice.commands.CheckResultsCommand;
import org.spice.commands.CompareCommand;
import org.spice.commands.CompareToolsCommand;
import org.spice.commands.ExplainCommand;
import org.spice.commands.FilesetCommand;
import org.spice.commands.ImportCommand;
import org.spice.commands.LessonCommand;
import org.spice.commands.ReportCommand;
import org.spice.commands.RmiPropertiesCommand;
import org.spice.commands.SweepCommand;
import org.spice.commands.VerifyCommand;
import org.spice.commands.shell.BuildCommand;
import org.spice.commands.shell.BundleCommand;
import org.spice.commands.shell.JMeterServerCommand;
import org.spice.commands.shell.MetricsAgentCommand;
import org.spice.commands.shell.ServeCommand;
import org.spice.commands.shell.ServerCommand;
import org.spice.commands.shell.ServersCommand;
import org.spice.commands.shell.TestBundlesCommand;
import org.spice.commands.shell.TestCommand;
import org.spice.page.Probe;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * Entry point of the harness jar; {@code scripts/spice} calls it with a command and its options.
 * Every command is a picocli class of its own; {@code spice help} and {@code spice COMMAND --help}
 * print what picocli generates from them.
 */
@Command(name = "spice", mixinStandardHelpOptions = true, synopsisSubcommandLabel = "COMMAND",
        description = "SPICE: what a server-side programming interface costs against a static file.",
        subcommands = {
            BenchCommand.class,
            VerifyCommand.class,
            ReportCommand.class,
            CompareCommand.class,
            CompareToolsCommand.class,
            FilesetCommand.class,
            CgiFloorCommand.class,
            ImportCommand.class,
            ExplainCommand.class,
            SweepCommand.class,
            LessonCommand.class,
            ServeCommand.class,
            ServerCommand.class,
            BundleCommand.class,
            MetricsAgentCommand.class,
            JMeterServerCommand.class,
            BuildCommand.class,
            TestCommand.class,
            TestBundlesCommand.class,
            RmiPropertiesCommand.class,
            ServersCommand.class,
            CheckResultsCommand.class,
            CgroupExporterCommand.class,
            Main.Urls.class,
            CommandLine.HelpCommand.class})
public final class Main implements Runnable {

    @Spec
    CommandSpec spec;

    public static void main(String[] args) {
        // Jetty's HTTP/2 client (verify --http2, bench's HTTP/2 arms) logs through SLF4J: no provider is shipped, and
        // saying so is not news. slf4j-api's own no-op provider, named, without its note that it was named.
        if (System.getProperty("slf4j.provider") == null) {
            System.setProperty("slf4j.provider", "org.slf4j.helpers.NOP_FallbackServiceProvider");
            System.setProperty("slf4j.internal.verbosity", "WARN");
        }
        System.exit(Cli.run(new Main(), System.out, System.err, args));
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "give a command (scripts/spice help lists them)");
    }

    /** {@code urls BASE_URL [PROBE...]}: the probes' URLs on a server, for the scripts' banners. */
    @Command(name = "urls", hidden = true, description = "The probes' URLs on a server.")
    static final class Urls extends Cli.Printing implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "BASE_URL")
        String base;

        @Parameters(index = "1..*", paramLabel = "PROBE")
        List<String> probes;

        @Override
        public Integer call() {
            List<Probe> list = new Cli.Checks(spec).probes(probes == null ? List.of(Probe.ids().split(",")) : probes);
            for (Probe probe : list) {
                out.printf("  %-8s %s%n", probe.id(), probe.describeUrl(base));
            }
            return 0;
        }
    }
}
