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
 *
 * <p>A variant is the same server started with one setting changed (its start options): httpd on the prefork MPM,
 * where mod_php runs; Tomcat and Jetty with their request threads virtual. It has the base server's ports, run
 * directory and start script, and its own name in results, so that both are measured and told apart.
 */
public enum Server {
    EMBEDDED(18080, false, false, false, EnumSet.of(Probe.STATIC, Probe.SERVLET, Probe.JSP, Probe.CGI, Probe.SHTML,
            Probe.MODULE, Probe.CGI_STOCK)),
    /** Servlets and JSPs through a Tomcat beside it; mod_cgid leaves its CGI children to the kernel. */
    APACHE(18081, true, true, true, EnumSet.of(Probe.STATIC, Probe.SERVLET, Probe.JSP, Probe.CGI, Probe.SHTML,
            Probe.MODULE, Probe.FASTCGI, Probe.WASM, Probe.WASM_KEPT, Probe.PHP_FPM, Probe.WSGI, Probe.LUA, Probe.NODE,
            Probe.ASGI_UVICORN, Probe.ASGI_GRANIAN)),
    TOMCAT(18082, false, false, false, EnumSet.of(Probe.STATIC, Probe.SERVLET, Probe.JSP, Probe.CGI, Probe.SHTML,
            Probe.MODULE, Probe.CGI_STOCK)),
    /** CGI through fcgiwrap, which leaves its children to the kernel. */
    JETTY(18083, false, true, true, EnumSet.of(Probe.STATIC, Probe.SERVLET, Probe.JSP, Probe.CGI, Probe.SHTML,
            Probe.MODULE, Probe.FASTCGI)),
    /** Servlets and JSPs through a Tomcat beside it; CGI through fcgiwrap. */
    NGINX(18084, true, true, true, EnumSet.of(Probe.STATIC, Probe.SERVLET, Probe.JSP, Probe.CGI, Probe.SHTML,
            Probe.MODULE, Probe.FASTCGI, Probe.WASM, Probe.WASM_KEPT, Probe.NJS, Probe.PHP_FPM, Probe.WSGI, Probe.LUA,
            Probe.WSGI_HTTP, Probe.NODE, Probe.ASGI_UVICORN, Probe.ASGI_GRANIAN)),
    /** httpd on the prefork MPM: mod_php in process (Debian builds PHP for prefork only) beside PHP-FPM and the rest. */
    APACHE_PREFORK(APACHE, "prefork", "--mpm=prefork", Probe.MOD_PHP),
    /** Tomcat's connectors on virtual threads (a JDK 21 or later): the servlet and JSP on a thread per request. */
    TOMCAT_VT(TOMCAT, "vt", "--threads=virtual"),
    /** Jetty's thread pool running blocking work (the servlet, JSP) on virtual threads (a JDK 21 or later). */
    JETTY_VT(JETTY, "vt", "--threads=virtual");

    /** Every server's HTTPS listener is its port + this. */
    public static final int HTTPS_OFFSET = 360;
    /** The Tomcat behind a front server listens on its port + this. */
    public static final int BACKEND_OFFSET = 1000;
    /** The resident FastCGI probe beside a server listens on its port + this. */
    public static final int FASTCGI_OFFSET = 2000;
    /**
     * HTTP/2 in clear (h2c, prior knowledge) on a port of its own, where a server cannot take it and HTTP/1 on one
     * (nginx 1.22): its port + this. The others take h2c on their HTTP port; h2 by ALPN is on every HTTPS port.
     */
    public static final int H2C_OFFSET = 720;

    private final int defaultPort;
    private final boolean backend;
    private final boolean fastcgi;
    private final boolean cgiChildrenUncounted;
    private final Set<Probe> probes;
    private final Server base;
    private final String suffix;
    private final String startOption;

    Server(int defaultPort, boolean backend, boolean fastcgi, boolean cgiChildrenUncounted, Set<Probe> probes) {
        this.defaultPort = defaultPort;
        this.backend = backend;
        this.fastcgi = fastcgi;
        this.cgiChildrenUncounted = cgiChildrenUncounted;
        this.probes = probes;
        this.base = null;
        this.suffix = null;
        this.startOption = null;
    }

    /** A variant of {@code base}: its name is the base's and {@code suffix}, it starts with {@code startOption}. */
    Server(Server base, String suffix, String startOption, Probe... more) {
        this.defaultPort = base.defaultPort;
        this.backend = base.backend;
        this.fastcgi = base.fastcgi;
        this.cgiChildrenUncounted = base.cgiChildrenUncounted;
        EnumSet<Probe> all = EnumSet.copyOf(base.probes);
        all.addAll(List.of(more));
        this.probes = all;
        this.base = base;
        this.suffix = suffix;
        this.startOption = startOption;
    }

    /**
     * The ports of one instance; -1 for what the server does not run beside itself. {@code h2c} is where it takes
     * HTTP/2 in clear with prior knowledge: its HTTP port, one of its own, or -1 (httpd's prefork MPM, which mod_http2
     * cannot run on).
     */
    public record Ports(int http, int https, int backend, int fastcgi, int h2c) {
        /** Every port the instance listens on. */
        public List<Integer> all() {
            return Arrays.stream(new int[] {http, https, backend, fastcgi, h2c}).filter(p -> p > 0).distinct().boxed()
                    .toList();
        }
    }

    /** Its name: {@code apache}, or for a variant the base's and the variant's, {@code apache-prefork}. */
    public String id() {
        return base == null ? name().toLowerCase(Locale.ROOT) : base.id() + "-" + suffix;
    }

    /** The server this one is a variant of, or itself. */
    public Server base() {
        return base == null ? this : base;
    }

    /** The option {@code scripts/spice server start} takes for the variant ({@code --mpm=prefork}); empty for a base. */
    public Optional<String> startOption() {
        return Optional.ofNullable(startOption);
    }

    public int defaultPort() {
        return defaultPort;
    }

    public Ports ports(int port) {
        int h2c = this == APACHE_PREFORK ? -1 : this == NGINX ? port + H2C_OFFSET : port;
        return new Ports(port, port + HTTPS_OFFSET, backend ? port + BACKEND_OFFSET : -1,
                fastcgi ? port + FASTCGI_OFFSET : -1, h2c);
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

    /** The real servers, the ones {@code all} names (the embedded default is not among them, nor the variants). */
    public static List<Server> real() {
        return Arrays.stream(values()).filter(s -> s != EMBEDDED && s.base == null).toList();
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
