package org.spice.server;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.logging.Level;
import java.util.logging.Logger;

import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.LifecycleState;
import org.apache.catalina.Wrapper;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.servlets.DefaultServlet;
import org.apache.catalina.startup.Tomcat;
import org.apache.catalina.util.ServerInfo;
import org.apache.tomcat.util.net.SSLHostConfig;
import org.apache.tomcat.util.net.SSLHostConfigCertificate;
import org.apache.tomcat.util.scan.StandardJarScanner;
import org.spice.module.tomcat.SpiceProbeValve;
import org.spice.page.CanonicalPage;
import org.spice.page.Probe;

/**
 * The embedded default server: one Tomcat process with every SPICE probe — spice.war (static, servlet,
 * JSP, SHTML, CGI) at {@code /spice} and the module Valve in the Host pipeline — on 127.0.0.1.
 *
 * <p>Its connector is the one conf/tomcat uses: NIO, backlog 511, no access log, no default webapps,
 * no auto-deployment.
 */
public final class EmbeddedTomcat implements AutoCloseable {

    /** The listen backlog every SPICE server configuration uses (httpd's default), so they queue alike. */
    public static final int ACCEPT_COUNT = 511;

    /** Kept strongly reachable: java.util.logging holds loggers weakly, and a collected one loses its level. */
    private static final Logger TOMCAT_LOG = Logger.getLogger("org.apache");

    /**
     * CGIServlet logs "I/O problems with stderr: Stream closed" when its stderr reader thread loses a race
     * with the end of the request; the response is complete and correct, but under load the warning
     * would flood the console and cost the server time that is not the CGI probe's.
     */
    private static final Logger CGI_LOG = Logger.getLogger("org.apache.catalina.servlets.CGIServlet");

    private final Tomcat tomcat;
    private final Connector connector;
    private final String host;

    private EmbeddedTomcat(Tomcat tomcat, Connector connector, String host) {
        this.tomcat = tomcat;
        this.connector = connector;
        this.host = host;
    }

    /**
     * Starts Tomcat on host:port (port 0 picks a free one) with the WAR, working in {@code baseDir}.
     *
     * @throws PortInUseException when something already listens there
     */
    public static EmbeddedTomcat start(String host, int port, Path war, Path baseDir) throws LifecycleException, IOException {
        return start(host, port, war, baseDir, null);
    }

    /**
     * As {@link #start(String, int, Path, Path)}, also serving the static fileset directory (spice fileset)
     * at {@code /spice/fileset} when {@code fileset} is not null.
     */
    public static EmbeddedTomcat start(String host, int port, Path war, Path baseDir, Path fileset)
            throws LifecycleException, IOException {
        return start(host, port, war, baseDir, fileset, null);
    }

    /** An HTTPS connector: its port and the PEM certificate and key it serves. */
    public record Tls(int port, Path certificate, Path key) {
    }

    /** As above, with an HTTPS connector too when {@code tls} is not null (the e-commerce workload). */
    public static EmbeddedTomcat start(String host, int port, Path war, Path baseDir, Path fileset, Tls tls)
            throws LifecycleException, IOException {
        if (!Files.isRegularFile(war)) {
            throw new IOException("no WAR at " + war + ": build it with mvn -B package");
        }
        if (port != 0) {
            ensurePortFree(host, port);
        }
        Files.createDirectories(baseDir.resolve("webapps"));
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(baseDir.toString());

        Connector connector = new Connector("HTTP/1.1");
        connector.setProperty("address", host);
        connector.setPort(port);
        connector.setProperty("acceptCount", Integer.toString(ACCEPT_COUNT));
        // Keep-alive runs (--keepalive) must not be cut at Tomcat's default of 100 requests per connection.
        connector.setProperty("maxKeepAliveRequests", "-1");
        connector.setThrowOnFailure(true);
        tomcat.setConnector(connector);
        if (tls != null) {
            tomcat.getService().addConnector(httpsConnector(host, tls));
        }

        StandardHost standardHost = (StandardHost) tomcat.getHost();
        standardHost.setAutoDeploy(false);
        standardHost.setDeployOnStartup(false);
        standardHost.setUnpackWARs(true);
        standardHost.getPipeline().addValve(new SpiceProbeValve());

        Context context = tomcat.addWebapp("/spice", war.toAbsolutePath().toString());
        // The server's own classpath holds no tag libraries: skip scanning it at every start.
        ((StandardJarScanner) context.getJarScanner()).setScanClassPath(false);
        if (fileset != null) {
            addStaticContext(tomcat, "/spice/fileset", fileset);
        }

        try {
            tomcat.start();
        } catch (LifecycleException e) {
            tomcat.destroy();
            throw e;
        }
        if (context.getState() != LifecycleState.STARTED) {
            tomcat.stop();
            tomcat.destroy();
            throw new LifecycleException("the /spice web application failed to start: see the log above");
        }
        return new EmbeddedTomcat(tomcat, connector, host);
    }

    private static Connector httpsConnector(String host, Tls tls) throws IOException {
        if (tls.port() != 0) {
            ensurePortFree(host, tls.port());
        }
        Connector connector = new Connector("HTTP/1.1");
        connector.setProperty("address", host);
        connector.setPort(tls.port());
        connector.setProperty("acceptCount", Integer.toString(ACCEPT_COUNT));
        connector.setProperty("maxKeepAliveRequests", "-1");
        connector.setProperty("SSLEnabled", "true");
        connector.setScheme("https");
        connector.setSecure(true);
        connector.setThrowOnFailure(true);
        SSLHostConfig config = new SSLHostConfig();
        SSLHostConfigCertificate certificate = new SSLHostConfigCertificate(config, SSLHostConfigCertificate.Type.RSA);
        certificate.setCertificateFile(tls.certificate().toAbsolutePath().toString());
        certificate.setCertificateKeyFile(tls.key().toAbsolutePath().toString());
        config.addCertificate(certificate);
        connector.addSslHostConfig(config);
        return connector;
    }

    /** A context of static files only: the default servlet, no listings, no JSP. */
    private static void addStaticContext(Tomcat tomcat, String path, Path dir) throws IOException {
        Files.createDirectories(dir);
        Context context = tomcat.addContext(path, dir.toAbsolutePath().toString());
        Wrapper files = Tomcat.addServlet(context, "default", new DefaultServlet());
        files.addInitParameter("listings", "false");
        context.addServletMappingDecoded("/", "default");
        context.addMimeMapping("html", "text/html");
    }

    /** The port it listens on (the chosen one when started with port 0). */
    public int port() {
        return connector.getLocalPort();
    }

    /** The HTTPS port, or -1 without an HTTPS connector. */
    public int httpsPort() {
        for (Connector each : tomcat.getService().findConnectors()) {
            if (each.getSecure()) {
                return each.getLocalPort();
            }
        }
        return -1;
    }

    /** The base URL, e.g. {@code http://127.0.0.1:18080}. */
    public String baseUrl() {
        String hostPart = host.contains(":") ? "[" + host + "]" : host;
        return "http://" + hostPart + ":" + port();
    }

    @Override
    public void close() throws LifecycleException {
        tomcat.stop();
        tomcat.destroy();
    }

    /** Tells a port in use apart from every other start failure, so the user gets one clear line. */
    public static final class PortInUseException extends IOException {
        private static final long serialVersionUID = 1L;

        PortInUseException(String message) {
            super(message);
        }
    }

    private static void ensurePortFree(String host, int port) throws IOException {
        try (ServerSocket probe = new ServerSocket()) {
            probe.setReuseAddress(true);
            probe.bind(new InetSocketAddress(InetAddress.getByName(host), port));
        } catch (IOException e) {
            throw new PortInUseException("port " + port + " on " + host + " is in use (" + e.getMessage()
                    + "): stop what listens there or choose another with --port N");
        }
    }

    /**
     * {@code EmbeddedTomcat [--host 127.0.0.1] [--port 18080] [--war spice.war] [--base DIR] [--fileset DIR]
     * [--tls-port N --tls-cert PEM --tls-key PEM] [--pid-file F] [--verbose]}.
     */
    public static void main(String[] args) throws Exception {
        String host = "127.0.0.1";
        int port = 18080;
        Path war = Path.of("server/target/webapps/spice.war");
        Path base = null;
        Path pidFile = null;
        Path fileset = null;
        int tlsPort = -1;
        Path tlsCert = null;
        Path tlsKey = null;
        boolean verbose = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--host" -> host = argument(args, ++i);
                case "--port" -> port = portNumber(argument(args, ++i));
                case "--war" -> war = Path.of(argument(args, ++i));
                case "--base" -> base = Path.of(argument(args, ++i));
                case "--pid-file" -> pidFile = Path.of(argument(args, ++i));
                case "--fileset" -> fileset = Path.of(argument(args, ++i));
                case "--tls-port" -> tlsPort = portNumber(argument(args, ++i));
                case "--tls-cert" -> tlsCert = Path.of(argument(args, ++i));
                case "--tls-key" -> tlsKey = Path.of(argument(args, ++i));
                case "--verbose" -> verbose = true;
                default -> fail("unknown option " + args[i]);
            }
        }
        if (base == null) {
            base = Path.of(System.getProperty("java.io.tmpdir"), "spice-tomcat-" + port);
        }
        TOMCAT_LOG.setLevel(verbose ? Level.INFO : Level.WARNING);
        CGI_LOG.setLevel(verbose ? Level.INFO : Level.SEVERE);

        EmbeddedTomcat server;
        try {
            Tls tls = null;
            if (tlsPort >= 0) {
                if (tlsCert == null || tlsKey == null) {
                    fail("--tls-port needs --tls-cert and --tls-key (PEM files)");
                }
                tls = new Tls(tlsPort, tlsCert, tlsKey);
            }
            server = start(host, port, war, base, fileset, tls);
        } catch (PortInUseException e) {
            fail(e.getMessage());
            return;
        } catch (IOException | LifecycleException e) {
            fail("Tomcat did not start: " + e.getMessage());
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Path pid = pidFile;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.close();
            } catch (LifecycleException e) {
                System.err.println("stopping Tomcat: " + e.getMessage());
            }
            deleteQuietly(pid);
            stopped.countDown();
        }, "spice-shutdown"));
        if (pidFile != null) {
            Files.writeString(pidFile, ProcessHandle.current().pid() + "\n", StandardCharsets.US_ASCII);
        }
        printUrls(server, ServerInfo.getServerInfo());
        stopped.await();
    }

    private static void printUrls(EmbeddedTomcat server, String serverInfo) {
        String base = server.baseUrl();
        System.out.printf("SPICE embedded server (%s) on %s, %d-byte page, pid %d%n", serverInfo, base,
                CanonicalPage.builtBytes(), ProcessHandle.current().pid());
        for (Probe probe : Probe.standard()) {
            System.out.printf("  %-8s %s%n", probe.id(), probe.describeUrl(base));
        }
        if (server.httpsPort() > 0) {
            System.out.printf("  https    https://%s:%d/spice/...%n", server.host, server.httpsPort());
        }
        System.out.println("ready: Ctrl-C or SIGTERM stops it; check it with scripts/spice verify " + base);
        System.out.flush();
    }

    private static int portNumber(String text) {
        try {
            int port = Integer.parseInt(text);
            if (port >= 0 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        fail("--port takes a port number from 0 to 65535, not \"" + text + "\"");
        return -1;
    }

    private static String argument(String[] args, int i) {
        if (i >= args.length) {
            fail(args[i - 1] + " needs a value");
        }
        return args[i];
    }

    private static void fail(String message) {
        System.err.println("spice serve: " + message);
        System.exit(1);
    }

    private static void deleteQuietly(Path file) {
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                System.err.println("could not remove " + file + ": " + e.getMessage());
            }
        }
    }
}
