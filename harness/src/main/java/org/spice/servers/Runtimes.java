package org.spice.servers;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The language runtimes' probes (runtimes/: PHP, Python's WSGI, Lua, Node.js) from Debian's packages: what httpd and
 * nginx need installed for them, their scripts copied into the run directory, PHP-FPM's pool, uWSGI and the Node.js
 * program started beside the server. The ASGI servers, from PyPI, are {@link AsgiServers}'.
 */
final class Runtimes {

    static final Path APACHE_MODULES = Path.of("/usr/lib/apache2/modules");
    static final Path NGINX_MODULES = Path.of("/usr/lib/nginx/modules");

    /**
     * The Unix sockets in RUN of the programs beside httpd and nginx: each one's file, and the word conf/ names it by
     * (httpd's ${SPICE_NODE_SOCKET}, nginx's @SPICE_NODE_SOCKET@).
     */
    enum Socket {
        PHP_FPM("php-fpm.sock"), UWSGI("uwsgi.sock"), UWSGI_HTTP("uwsgi-http.sock"), WASM("wasm.sock"), NODE("node.sock"),
        UVICORN("asgi-uvicorn.sock"), GRANIAN("asgi-granian.sock");

        private final String file;

        Socket(String file) {
            this.file = file;
        }

        Path in(Path run) {
            return run.resolve(file);
        }

        /** Every socket's word and path in {@code run}, for a server's configuration. */
        static Map<String, String> words(Path run) {
            Map<String, String> words = new LinkedHashMap<>();
            for (Socket socket : values()) {
                words.put("SPICE_" + socket.name() + "_SOCKET", socket.in(run).toString());
            }
            return words;
        }
    }

    private Runtimes() {
    }

    /** The logs of what runs beside httpd and nginx both: PHP-FPM, the WebAssembly host, Node.js, the ASGI servers. */
    static List<Path> logs(Path run) {
        return ServerLaunch.existing(run.resolve("logs/php-fpm.log"), run.resolve("logs/php-fpm.out"),
                run.resolve("logs/php.log"), run.resolve("logs/php.out"), run.resolve("logs/wasm.out"),
                run.resolve("logs/node.out"), run.resolve("logs/uvicorn.out"), run.resolve("logs/granian.out"));
    }

    static Path phpFpm() {
        Path named = Programs.which("php-fpm8.2");
        return named != null ? named : newest(Path.of("/usr/sbin"), "php-fpm*");
    }

    static Path uwsgi() {
        return Programs.which("uwsgi-core", "uwsgi");
    }

    static Path node() {
        return Programs.which("node", "nodejs");
    }

    /** PHP's extension folder (/usr/lib/php/2022...), the newest; null where there is none. */
    static Path phpExtensionDir() {
        return newest(Path.of("/usr/lib/php"), "20*");
    }

    /** Debian's mod_php (libphp8.2.so, or the version it has); null where there is none. */
    static Path modPhp() {
        return newest(APACHE_MODULES, "libphp*.so");
    }

    private static Path newest(Path dir, String glob) {
        List<Path> found = new ArrayList<>();
        try (DirectoryStream<Path> all = Files.newDirectoryStream(dir, glob)) {
            all.forEach(found::add);
        } catch (IOException e) {
            return null;
        }
        found.sort(null);
        return found.isEmpty() ? null : found.get(found.size() - 1);
    }

    /** Whether the runtime probes' packages of {@code server} (apache or nginx) are on the machine. */
    static boolean installed(String server) {
        Path extensions = phpExtensionDir();
        if (phpFpm() == null || extensions == null || !Files.isRegularFile(extensions.resolve("opcache.so"))
                || node() == null) {
            return false;
        }
        return server.equals("apache") ? modPhp() != null && Files.isRegularFile(APACHE_MODULES.resolve("mod_wsgi.so"))
                && Files.isRegularFile(APACHE_MODULES.resolve("mod_lua.so"))
                : uwsgi() != null && Files.isRegularFile(Path.of("/usr/lib/uwsgi/plugins/python3_plugin.so"))
                && Files.isRegularFile(NGINX_MODULES.resolve("ngx_http_lua_module.so"));
    }

    /**
     * The packages the runtime probes of {@code server} need, installed with apt where missing. Debian starts the
     * services some of them bring (php8.2-fpm; apache2, which mod_php switches to prefork): SPICE runs its own, so they
     * are stopped again, and Debian's httpd gets back the MPM it had.
     */
    static void install(String server, PrintStream out) throws IOException {
        // nodejs: Debian's, or a newer one installed by other means under the same package name
        List<String> packages = new ArrayList<>(List.of("php8.2-fpm", "php8.2-opcache", "nodejs"));
        packages.addAll(server.equals("apache") ? List.of("libapache2-mod-php8.2", "libapache2-mod-wsgi-py3")
                : List.of("uwsgi-core", "uwsgi-plugin-python3", "libnginx-mod-http-lua"));
        List<String> missing = packages.stream().filter(p -> !Programs.packageInstalled(p)).toList();
        if (missing.isEmpty()) {
            out.println(server + ": the runtime probes' packages are installed (" + String.join(" ", packages) + ")");
            return;
        }
        Companions.needRoot(server, "the php-fpm, wsgi, lua and node probes need " + String.join(" ", missing) + ", and installing",
                missing);
        String mpmBefore = debianMpm();
        Programs.aptInstall(missing, out);
        if (mpmBefore != null && !Files.exists(Path.of("/etc/apache2/mods-enabled/" + mpmBefore + ".load"))
                && Programs.which("a2enmod") != null) {
            Programs.output(List.of("a2dismod", "-q", "-f", "php8.2", "mpm_prefork"));
            if (Programs.output(List.of("a2enmod", "-q", mpmBefore)).ok()) {
                out.println(server + ": Debian's httpd put back on " + mpmBefore + " (mod_php had switched it to prefork)");
            }
        }
        for (String service : List.of("php8.2-fpm", "apache2", "nginx", "uwsgi")) {
            Programs.output(List.of("service", service, "stop"));
            if (Programs.which("systemctl") != null) {
                Programs.output(List.of("systemctl", "disable", "--now", service));
            }
        }
        out.println(server + ": installed " + String.join(" ", missing) + " (the distribution's services stopped: SPICE"
                + " starts its own)");
    }

    /** The MPM Debian's own httpd has enabled (mpm_event), or null. */
    private static String debianMpm() {
        Path loaded = newest(Path.of("/etc/apache2/mods-enabled"), "mpm_*.load");
        return loaded == null ? null : loaded.getFileName().toString().replaceAll("\\.load$", "");
    }

    /** The runtime probes' scripts, generated from the page at build time, copied into RUN/runtimes. */
    static void copy(Site site, Path run) throws IOException {
        Path into = run.resolve("runtimes");
        Trees.delete(into);
        Files.createDirectories(into);
        for (String kind : List.of("php", "wsgi", "asgi", "lua", "node")) {
            Trees.copyInto(site.built("runtimes/target/" + kind), into);
        }
    }

    /**
     * The php-fpm probe's pool (conf/php/php-fpm.conf) on RUN/php-fpm.sock, as the service user, its socket that user's,
     * whom httpd's and nginx's workers run as (as root with no such user, {@link #socketOwner} says how to make one).
     */
    static void startPhpFpm(Start start, Path run) throws IOException {
        Site site = start.site;
        String owner = socketOwner(site.user);
        Path conf = site.served(site.root.resolve("conf/php"));
        List<String> command = List.of(phpFpm().toString(), "-F", "-y", conf.resolve("php-fpm.conf").toString(), "-c",
                conf.resolve("php.ini").toString());
        Map<String, String> env = new LinkedHashMap<>();
        env.put("SPICE_RUN", run.toString());
        env.put("SPICE_SOCKET_OWNER", owner);
        env.put("SPICE_SOCKET_GROUP", ServiceUser.groupOf(owner));
        env.put("PHP_INI_SCAN_DIR", "");
        env.put("TZ", "UTC");
        resident(start, run, "php-fpm", List.of(Socket.PHP_FPM.in(run)), env, command);
    }

    /** Whom the pool's socket belongs to: the service user as root (the server's workers are that user), else the caller. */
    static String socketOwner(ServiceUser user) throws IOException {
        if (!user.root()) {
            return Programs.me();
        }
        if (!user.drops()) {
            throw new IOException("php-fpm: the servers' workers and the pool's socket belong to " + user.name() + ", and"
                    + " there is no such user here: create it (useradd --system --no-create-home " + user.name() + ") or"
                    + " name another (SPICE_SERVICE_USER=USER)");
        }
        return user.name();
    }

    /**
     * uWSGI for the wsgi probe behind nginx (conf/uwsgi/spice.ini) on RUN/uwsgi.sock, its own protocol, and for the
     * wsgi-http probe on RUN/uwsgi-http.sock, HTTP: one runtime, two ways in (the deploy bundle's, from the same file).
     */
    static void startUwsgi(Start start, Path run) throws IOException {
        Path conf = start.site.served(start.site.root.resolve("conf/uwsgi"));
        resident(start, run, "uwsgi", List.of(Socket.UWSGI.in(run), Socket.UWSGI_HTTP.in(run)), Map.of(
                "SPICE_RUN", run.toString(), "SPICE_RUNTIMES", run.resolve("runtimes").toString(), "TZ", "UTC"),
                List.of(uwsgi().toString(), "--ini", conf.resolve("spice.ini").toString()));
    }

    /**
     * The node probe's program (runtimes/target/node/spice.mjs, its own HTTP server) on RUN/node.sock, for the front
     * server's HTTP proxy.
     */
    static void startNode(Start start, Path run) throws IOException {
        Path socket = Socket.NODE.in(run);
        resident(start, run, "node", List.of(socket), Map.of("SPICE_NODE_SOCKET", socket.toString(), "NODE_ENV",
                "production", "TZ", "UTC"), List.of(node().toString(), run.resolve("runtimes/node/spice.mjs").toString()));
    }

    /**
     * {@code command} in the background as the service user, in a session of its own (stopping it ends its workers),
     * in RUN (a folder of the service user's: uvicorn's workers go back to their parent's folder as they start, and
     * died there in a checkout only root can enter), with only {@code env} in its environment, its PID in RUN/NAME.pid,
     * its output in RUN/logs/NAME.out; waits for every one of {@code sockets} to appear (each removed first: one a
     * killed program left would refuse the bind).
     */
    static void resident(Start start, Path run, String name, List<Path> sockets, Map<String, String> env,
            List<String> command) throws IOException {
        for (Path socket : sockets) {
            Files.deleteIfExists(socket);
        }
        start.site.user.give(run);
        Path log = run.resolve("logs/" + name + ".out");
        start.program(command).asServiceUser().ownSession().onlyGivenEnv().env(env).in(run).log(log)
                .background(run.resolve(name + ".pid"));
        Readiness.await(name + " (" + sockets.stream().map(Path::toString).collect(Collectors.joining(", ")) + ")",
                run.resolve(name + ".pid"), log, Readiness.when(() -> sockets.stream().allMatch(Files::exists)),
                start.site.err);
    }
}
