package org.spice.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.logging.Level;

import org.apache.catalina.LifecycleException;
import org.apache.catalina.util.ServerInfo;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code scripts/spice serve}: the embedded Tomcat with every probe, until Ctrl-C or SIGTERM. */
@Command(name = "serve", sortOptions = false, mixinStandardHelpOptions = true,
        description = "Start the embedded Tomcat with every probe on 127.0.0.1 and print the URLs; Ctrl-C or SIGTERM"
                + " stops it.")
public final class ServeCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--host", paramLabel = "ADDRESS", description = "The address to listen on (default 127.0.0.1).")
    String host = "127.0.0.1";

    @Option(names = "--port", paramLabel = "N", description = "The HTTP port (default 18080; 0 for any free one).")
    int port = 18080;

    @Option(names = "--war", paramLabel = "FILE", description = "spice.war (default: server/target/webapps/spice.war).")
    Path war = Path.of("server/target/webapps/spice.war");

    @Option(names = "--base", paramLabel = "DIR", description = "Tomcat's base directory (default: a temporary one per port).")
    Path base;

    @Option(names = "--fileset", paramLabel = "DIR", description = "Serve this static fileset at /spice/fileset/.")
    Path fileset;

    @Option(names = "--tls-port", paramLabel = "N", description = "Also listen for HTTPS on this port.")
    Integer tlsPort;

    @Option(names = "--tls-cert", paramLabel = "PEM", description = "The HTTPS certificate.")
    Path tlsCert;

    @Option(names = "--tls-key", paramLabel = "PEM", description = "The HTTPS certificate's key.")
    Path tlsKey;

    @Option(names = "--pid-file", paramLabel = "FILE", description = "Write the process id here; removed at the stop.")
    Path pidFile;

    @Option(names = "--verbose", description = "Tomcat's INFO log.")
    boolean verbose;

    @Override
    public Integer call() throws Exception {
        checkPort("--port", port);
        EmbeddedTomcat.Tls tls = null;
        if (tlsPort != null) {
            checkPort("--tls-port", tlsPort);
            if (tlsCert == null || tlsKey == null) {
                throw new ParameterException(spec.commandLine(), "--tls-port needs --tls-cert and --tls-key (PEM files)");
            }
            tls = new EmbeddedTomcat.Tls(tlsPort, tlsCert, tlsKey);
        }
        Path dir = base != null ? base : Path.of(System.getProperty("java.io.tmpdir"), "spice-tomcat-" + port);
        EmbeddedTomcat.TOMCAT_LOG.setLevel(verbose ? Level.INFO : Level.WARNING);
        EmbeddedTomcat.CGI_LOG.setLevel(verbose ? Level.INFO : Level.SEVERE);
        EmbeddedTomcat server;
        try {
            server = EmbeddedTomcat.start(host, port, war, dir, fileset, tls);
        } catch (EmbeddedTomcat.PortInUseException e) {
            System.err.println("spice serve: " + e.getMessage());
            return 1;
        } catch (IOException | LifecycleException e) {
            System.err.println("spice serve: Tomcat did not start: " + e.getMessage());
            return 1;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.close();
            } catch (LifecycleException e) {
                System.err.println("stopping Tomcat: " + e.getMessage());
            }
            EmbeddedTomcat.deleteQuietly(pidFile);
            stopped.countDown();
        }, "spice-shutdown"));
        if (pidFile != null) {
            Files.writeString(pidFile, ProcessHandle.current().pid() + "\n", StandardCharsets.US_ASCII);
        }
        EmbeddedTomcat.printUrls(server, ServerInfo.getServerInfo());
        stopped.await();
        return 0;
    }

    private void checkPort(String option, int value) {
        if (value < 0 || value > 65535) {
            throw new ParameterException(spec.commandLine(), option + " takes a port number from 0 to 65535, not " + value);
        }
    }
}
