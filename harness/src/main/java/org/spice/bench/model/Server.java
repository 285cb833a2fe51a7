package org.spice.bench.model;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import org.spice.page.Probe;

/**
 * The servers SPICE starts from {@code conf/}, in one table: each one's default port, the ports of what runs
 * beside it (all derived from its port), the probes it serves, and whether its CGI programs' CPU reaches its
 * process tree. {@code scripts/spice} reads this table ({@code spice servers}); it keeps no copy.
 */
public enum Server {
    EMBEDDED(18080, false, false, false, EnumSet.of(Probe.STATIC, Probe.SERVLET, Probe.JSP, Probe.CGI, Probe.SHTML,
            Probe.MODULE, Probe.CGI_STOCK)),
    /** Servlets and JSPs through a Tomcat beside it; mod_cgid leaves its CGI children to the kernel. */
    APACHE(18081, true, true, true, EnumSet.of(Probe.STATIC, Probe.SERVLET, Probe.JSP, Probe.CGI, Probe.SHTML,
            Probe.MODULE, Probe.FASTCGI)),
    TOMCAT(18082, false, false, false, EnumSet.of(Probe.STATIC, Probe.SERVLET, Probe.JSP, Probe.CGI, Probe.SHTML,
            Probe.MODULE, Probe.CGI_STOCK)),
    /** CGI through fcgiwrap, which leaves its children to the kernel. */
    JETTY(18083, false, true, true, EnumSet.of(Probe.STATIC, Probe.SERVLET, Probe.JSP, Probe.CGI, Probe.SHTML,
            Probe.MODULE, Probe.FASTCGI)),
    /** Servlets and JSPs through a Tomcat beside it; CGI through fcgiwrap. */
    NGINX(18084, true, true, true, EnumSet.of(Probe.STATIC, Probe.SERVLET, Probe.JSP, Probe.CGI, Probe.SHTML,
            Probe.MODULE, Probe.FASTCGI, Probe.NJS));

    /** Every server's HTTPS listener is its port + this. */
    public static final int HTTPS_OFFSET = 360;
    /** The Tomcat behind a front server listens on its port + this. */
    public static final int BACKEND_OFFSET = 1000;
    /** The resident FastCGI probe beside a server listens on its port + this. */
    public static final int FASTCGI_OFFSET = 2000;

    private final int defaultPort;
    private final boolean backend;
    private final boolean fastcgi;
    private final boolean cgiChildrenUncounted;
    private final Set<Probe> probes;

    Server(int defaultPort, boolean backend, boolean fastcgi, boolean cgiChildrenUncounted, Set<Probe> probes) {
        this.defaultPort = defaultPort;
        this.backend = backend;
        this.fastcgi = fastcgi;
        this.cgiChildrenUncounted = cgiChildrenUncounted;
        this.probes = probes;
    }

    /** The ports of one instance; -1 for what the server does not run beside itself. */
    public record Ports(int http, int https, int backend, int fastcgi) {
        /** Every port the instance listens on. */
        public List<Integer> all() {
            return Arrays.stream(new int[] {http, https, backend, fastcgi}).filter(p -> p > 0).boxed().toList();
        }
    }

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    public int defaultPort() {
        return defaultPort;
    }

    public Ports ports(int port) {
        return new Ports(port, port + HTTPS_OFFSET, backend ? port + BACKEND_OFFSET : -1,
                fastcgi ? port + FASTCGI_OFFSET : -1);
    }

    /** The probes it serves, in the probes' order. */
    public List<Probe> probes() {
        return Arrays.stream(Probe.values()).filter(probes::contains).toList();
    }

    /**
     * What bench measures on it unless told: its probes less cgi-stock (Tomcat's stock CGI servlet sleeps half a
     * second at a time; ask for it by name).
     */
    public List<Probe> benchProbes() {
        return probes().stream().filter(p -> p != Probe.CGI_STOCK).toList();
    }

    /**
     * True when its CGI programs are reaped by the kernel, not by a process of the server (httpd's mod_cgid and
     * fcgiwrap ignore SIGCHLD), so their CPU shows only in the machine's total.
     */
    public boolean cgiChildrenUncounted() {
        return cgiChildrenUncounted;
    }

    /** The real servers, the ones {@code all} names (the embedded default is not among them). */
    public static List<Server> real() {
        return Arrays.stream(values()).filter(s -> s != EMBEDDED).toList();
    }

    /** The server of that name, if SPICE knows one. */
    public static Optional<Server> find(String name) {
        return Arrays.stream(values()).filter(s -> s.id().equals(name)).findFirst();
    }

    /** Every name, comma-separated. */
    public static String ids() {
        return Arrays.stream(values()).map(Server::id).collect(Collectors.joining(", "));
    }
}
