package org.spice.commands.shell;

import java.util.Map;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code scripts/spice jmeter-server} (scripts/lib/jmeter.sh runs it). */
@Command(name = "jmeter-server", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"A JMeter server engine on this client machine, for bench --engine jmeter --jmeter-remote HOST:PORT.",
            "RMI listens on ADDR only, on PORT (the registry) and PORT + 1 (its objects), over TLS with the keystore in"
                + " run/jmeter/ (made on first use: copy rmi.p12 and rmi.p12.password to the machine that runs bench)."})
public final class JMeterServerCommand extends ShellCommand {

    @Option(names = "--port", paramLabel = "N", defaultValue = "1099", converter = Ports.RmiPort.class,
            description = "Default ${DEFAULT-VALUE}.")
    int port;

    @Option(names = "--host", paramLabel = "ADDR", defaultValue = "127.0.0.1",
            description = "Default ${DEFAULT-VALUE}; give the machine's address to serve a bench elsewhere.")
    String host;

    @Option(names = "--no-tls", description = "RMI in the clear: for engines and bench on one machine only.")
    boolean noTls;

    @Override
    Map<String, Object> assignments() {
        return vars("port", port, "host", host, "tls", noTls ? "no" : "yes");
    }
}
