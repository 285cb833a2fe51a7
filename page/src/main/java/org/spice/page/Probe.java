package org.spice.page;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The probes and the one URL layout they have on every server, so one load definition and one
 * conformance check run anywhere. Server configurations and the embedded server follow this table.
 */
public enum Probe {
    STATIC("/spice/static/spice.html", false, true),
    SERVLET("/spice/servlet", false, true),
    JSP("/spice/jsp/", true, true),
    CGI("/spice/cgi-bin/spice", false, true),
    SHTML("/spice/shtml/spice.shtml", true, true),
    MODULE("/spice/module", false, true),
    /** The CGI program kept resident (cgi-c/spice-fcgi.c); Tomcat has no FastCGI client, so not everywhere. */
    FASTCGI("/spice/fcgi/spice", false, false),
    /**
     * The CGI program built for WebAssembly (wasm32-wasi), a fresh instance per request from a module compiled once,
     * CGI's environment in and its output out (WAGI's contract), through a host the front server reaches over FastCGI
     * (wasm/): httpd and nginx.
     */
    WASM("/spice/wasm/spice", false, false),
    /** The same program as a WebAssembly reactor: one instance kept, its exported function called per request. */
    WASM_KEPT("/spice/wasm-kept/spice", false, false),
    /**
     * The CGI program through Tomcat's stock CGIServlet, which sleeps 500 ms whenever the program has not
     * been reaped right after its output (the cgi probe on Tomcat waits for the exit instead): Tomcat only.
     */
    CGI_STOCK("/spice/cgi-stock/spice", false, false),
    /** nginx's JavaScript module (njs, {@code js_content}) answering the page from a string built once: nginx only. */
    NJS("/spice/njs", false, false),
    /** A PHP script echoing the page held in a constant, through a PHP-FPM pool beside httpd or nginx (FastCGI). */
    PHP_FPM("/spice/php-fpm/spice.php", false, false),
    /** The same PHP script inside httpd (mod_php), which needs the prefork MPM: httpd started with --mpm prefork only. */
    MOD_PHP("/spice/mod-php/spice.php", false, false),
    /** A WSGI application returning the page's bytes: mod_wsgi's daemon process under httpd, uWSGI behind nginx. */
    WSGI("/spice/wsgi/spice", false, false),
    /** A Lua handler writing the page from a string made once: mod_lua in httpd, lua-nginx-module in nginx. */
    LUA("/spice/lua/spice", false, false),
    /**
     * The WSGI application of the wsgi probe in the same uWSGI, reached over HTTP (its http-socket, nginx's
     * proxy_pass) rather than uWSGI's own protocol: the proxy's cost beside the protocol's, one runtime. nginx only.
     */
    WSGI_HTTP("/spice/wsgi-http/spice", false, false),
    /** A Node.js program that is its own HTTP server (node:http), behind httpd's or nginx's HTTP proxy. */
    NODE("/spice/node/spice", false, false),
    /**
     * An ASGI application (async Python) returning the page's bytes, in uvicorn's workers, behind httpd's or nginx's
     * HTTP proxy: beside wsgi, Python's asynchronous interface.
     */
    ASGI_UVICORN("/spice/asgi-uvicorn/spice", false, false),
    /** The same ASGI application in granian's workers (its HTTP server in Rust), behind the same HTTP proxy. */
    ASGI_GRANIAN("/spice/asgi-granian/spice", false, false);

    /** The JSP probe is 100 identical pages, as in the white paper, so a server cannot serve one page from a cache. */
    public static final int JSP_PAGES = 100;

    private final String path;
    private final boolean dated;
    private final boolean everywhere;

    Probe(String path, boolean dated, boolean everywhere) {
        this.path = path;
        this.dated = dated;
        this.everywhere = everywhere;
    }

    /** The probes every SPICE server configuration serves: what verify and bench take when none are named. */
    public static List<Probe> standard() {
        return Arrays.stream(values()).filter(p -> p.everywhere).toList();
    }

    /** The name used on command lines, in reports and in results: {@code static}, {@code servlet}, {@code cgi-stock}, ... */
    public String id() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** True when the probe puts today's date in the slot (JSP, SHTML); the others carry the fixed slot text. */
    public boolean dated() {
        return dated;
    }

    /** Every path of the probe, absolute from the server root: one, or the 100 JSP pages. */
    public List<String> paths() {
        if (this != JSP) {
            return List.of(path);
        }
        List<String> paths = new ArrayList<>(JSP_PAGES);
        for (String name : jspPageNames()) {
            paths.add(path + name);
        }
        return paths;
    }

    /** The first (for most probes, the only) path. */
    public String path() {
        return paths().get(0);
    }

    /** Where the probe is on a server, for banners: its URL, or the first ... last JSP page. */
    public String describeUrl(String baseUrl) {
        List<String> all = paths();
        String first = baseUrl + all.get(0);
        if (all.size() == 1) {
            return first;
        }
        String last = all.get(all.size() - 1);
        return first + " ... " + last.substring(last.lastIndexOf('/') + 1);
    }

    /** File names of the JSP pages: {@code spice00.jsp} ... {@code spice99.jsp}. */
    public static List<String> jspPageNames() {
        List<String> names = new ArrayList<>(JSP_PAGES);
        for (int i = 0; i < JSP_PAGES; i++) {
            names.add(String.format(Locale.ROOT, "spice%02d.jsp", i));
        }
        return names;
    }

    /** The probe named {@code id}, or an error that lists the valid names. */
    public static Probe byId(String id) {
        for (Probe probe : values()) {
            if (probe.id().equals(id.trim().toLowerCase(Locale.ROOT))) {
                return probe;
            }
        }
        throw new IllegalArgumentException("unknown probe \"" + id + "\": choose from " + ids());
    }

    /**
     * The probe a URL or path asks for (a prefix before {@code /spice/} and a query string allowed), or null
     * when it is no probe's path: what another tool's own output says it measured.
     */
    public static Probe ofPath(String urlOrPath) {
        String path = urlOrPath.strip().replaceFirst("^[a-zA-Z][a-zA-Z0-9+.-]*://[^/]*", "").replaceFirst("[?#].*$", "");
        for (Probe probe : values()) {
            boolean match = probe == JSP ? path.matches(".*" + java.util.regex.Pattern.quote(JSP.path) + "spice\\d{2}\\.jsp")
                    : path.endsWith(probe.path);
            if (match) {
                return probe;
            }
        }
        return null;
    }

    /** A comma-separated list such as {@code static,cgi} as probes, in the order given. */
    public static List<Probe> parseList(String commaSeparated) {
        List<Probe> probes = new ArrayList<>();
        for (String id : commaSeparated.split(",")) {
            if (!id.isBlank()) {
                Probe probe = byId(id);
                if (!probes.contains(probe)) {
                    probes.add(probe);
                }
            }
        }
        if (probes.isEmpty()) {
            throw new IllegalArgumentException("no probe named: choose from " + ids());
        }
        return probes;
    }

    /** All probe names, comma-separated. */
    public static String ids() {
        return Arrays.stream(values()).map(Probe::id).collect(Collectors.joining(","));
    }
}
