package org.spice.commands.shell;

import java.util.Map;

import org.spice.bench.model.Server;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code scripts/spice serve}: the embedded server in the foreground. */
@Command(name = "serve", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Build what is missing, start the embedded Tomcat with every probe, print the URLs; Ctrl-C or"
                + " SIGTERM stops it.")
public final class ServeCommand extends ShellCommand {

    @Option(names = "--host", paramLabel = "ADDR", defaultValue = "127.0.0.1", description = "Default ${DEFAULT-VALUE}.")
    String host;

    @Option(names = "--port", paramLabel = "N", converter = Ports.AnyPort.class,
            description = "Default the embedded server's, 18080.")
    Integer port;

    @Option(names = "--verbose", description = "Tomcat's own log on the console.")
    boolean verbose;

    @Override
    Map<String, Object> assignments() {
        return vars("host", host, "port", port != null ? port : Server.EMBEDDED.defaultPort(), "verbose", verbose ? "--verbose" : "");
    }
}
