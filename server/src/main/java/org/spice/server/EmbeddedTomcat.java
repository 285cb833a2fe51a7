package org.spice.server;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.logging.Logger;

import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.LifecycleState;
import org.apache.catalina.Wrapper;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.servlets.DefaultServlet;
import org.apache.catalina.startup.Tomcat;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.http2.Http2Protocol;
import org.apache.tomcat.util.net.SSLHostConfig;
import org.apache.tomcat.util.net.SSLHostConfigCertificate;
import org.apache.tomcat.util.scan.StandardJarScanner;
import org.spice.module.tomcat.GetHeadOnlyValve;
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

    /**
     * The settings of both connectors, as conf/tomcat/conf/server.xml has them (ConnectorSettingsTest
     * fails when the two differ): the listen backlog every SPICE server uses (httpd's default), so they
     * queue alike; what decides a flood past the peak, stated (Tomcat's defaults: 200 threads, 8,192 open
     * connections whose requests wait for one); keep-alive runs not cut at Tomcat's default of 100 requests
     * per connection; Tomcat's stock 20 s for a request to arrive.
     */
    public static final Map<String, String> CONNECTOR_SETTINGS = Map.of(
            "maxThreads", "200",
            "maxConnections", "8192",
            "acceptCount", "511",
            "maxKeepAliveRequests", "-1",
            "connectionTimeout", "20000");

    /** The UpgradeProtocol both connectors of server.xml carry (ConnectorSettingsTest holds it to this). */
    public static final String UPGRADE_PROTOCOL = Http2Protocol.class.getName();

    /** Kept strongly reachable: java.util.logging holds loggers weakly, and a collected one loses its level. */
    static final Logger TOMCAT_LOG = Logger.getLogger("org.apache");

    /**
     * CGIServlet logs "I/O problems with stderr: Stream closed" when its stderr reader thread loses a race
     * with the end of the request; the response is complete and correct, but under load the warning
     * would flood the console and cost the server time that is not the CGI probe's.
     */
    static final Logger CGI_LOG = Logger.getLogger("org.apache.catalina.servlets.CGIServlet");

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

        Connector connector = connector(host, port);
        tomcat.setConnector(connector);
        if (tls != null) {
            tomcat.getService().addConnector(httpsConnector(host, tls));
        }

        StandardHost standardHost = (StandardHost) tomcat.getHost();
        standardHost.setAutoDeploy(false);
        standardHost.setDeployOnStartup(false);
        standardHost.setUnpackWARs(true);
        standardHost.getPipeline().addValve(new GetHeadOnlyValve());
        standardHost.getPipeline().addValve(new SpiceProbeValve());
        // Error pages without Tomcat's version and without stack traces, as conf/tomcat has them.
        ErrorReportValve errors = new ErrorReportValve();
        errors.setShowReport(false);
        errors.setShowServerInfo(false);
        standardHost.getPipeline().addValve(errors);

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
        Connector connector = connector(host, tls.port());
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

    /**
     * A connector with the settings every SPICE Tomcat has ({@link #CONNECTOR_SETTINGS}) and HTTP/2 (h2c here with
     * prior knowledge or by Upgrade; h2 by ALPN where TLS is on), as server.xml's {@link #UPGRADE_PROTOCOL}.
     */
    private static Connector connector(String host, int port) {
        Connector connector = new Connector("HTTP/1.1");
        connector.setProperty("address", host);
        connector.setPort(port);
        CONNECTOR_SETTINGS.forEach(connector::setProperty);
        connector.addUpgradeProtocol(new Http2Protocol());
        connector.setThrowOnFailure(true);
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

    /** The embedded server's command line: {@link ServeCommand}. */
    public static void main(String[] args) {
        System.exit(new picocli.CommandLine(new ServeCommand()).execute(args));
    }

    static void printUrls(EmbeddedTomcat server, String serverInfo) {
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

    static void deleteQuietly(Path file) {
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                System.err.println("could not remove " + file + ": " + e.getMessage());
            }
        }
    }
}
