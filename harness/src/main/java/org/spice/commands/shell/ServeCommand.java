package org.spice.commands.shell;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.Callable;

import org.spice.bench.model.Server;
import org.spice.cli.Cli;
import org.spice.servers.Checkout;
import org.spice.servers.Servers;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code scripts/spice serve}: the embedded server in the foreground. The harness makes it ready (its run directory,
 * the TLS files, the copies the service user reads) and prints its command line, a word a line; the script then runs
 * it in its own place (exec), so that the server itself receives Ctrl-C and SIGTERM.
 */
@Command(name = "serve", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Build what is missing, start the embedded Tomcat with every probe, print the URLs; Ctrl-C or"
                + " SIGTERM stops it.")
public final class ServeCommand extends Cli.Printing implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--host", paramLabel = "ADDR", defaultValue = "127.0.0.1", description = "Default ${DEFAULT-VALUE}.")
    String host;

    @Option(names = "--port", paramLabel = "N", converter = Ports.AnyPort.class,
            description = "Default the embedded server's, 18080.")
    Integer port;

    @Option(names = "--verbose", description = "Tomcat's own log on the console.")
    boolean verbose;

    @Override
    public Integer call() {
        if (!"1".equals(System.getenv("SPICE_SHELL"))) {
            throw new ParameterException(spec.commandLine(), "is scripts/spice's own command: run scripts/spice "
                    + String.join(" ", spec.root().commandLine().getParseResult().originalArgs()));
        }
        try {
            List<String> command = new Servers(Checkout.root(), err, err).foreground(host,
                    port != null ? port : Server.EMBEDDED.defaultPort(), verbose);
            command.forEach(out::println);
            return 0;
        } catch (IOException e) {
            err.println("spice serve: " + Cli.why(e));
            return 1;
        }
    }
}
