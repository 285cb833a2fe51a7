package org.spice.server;

import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.spice.servers.Processes;

/**
 * A stock server laid out in a directory of its own with a deploy bundle installed by the bundle's install.sh, as
 * docs/deploy.md tells it: Debian's httpd and nginx on copies of /etc/apache2 and /etc/nginx, Tomcat and Jetty from
 * their distributions (Maven Central, the versions pom.xml pins) on a fresh base. {@link #up} installs (with {@link
 * StockLayout}'s checks) and starts it; {@link #down} stops it and uninstalls (the layout as it was, nothing of
 * SPICE's left); {@link #close} ends whatever is still running and removes the directory, whatever happened.
 */
abstract class StockServer implements AutoCloseable {

    /** Where the Tomcat and Jetty distributions are unpacked (server/pom.xml, before the integration tests). */
    static final Path DISTRIBUTIONS = Path.of(System.getProperty("spice.stock", "target/stock")).toAbsolutePath();

    final Path dir;
    final String host;
    final int port;
    StockLayout layout;
    String before;

    /** The bundle {@code archive} unpacked into a new directory; the server to listen on {@code host}:{@code port}. */
    StockServer(Path archive, String host, int port) throws IOException {
        this.dir = Files.createTempDirectory("spice-stock-");
        // the servers' workers (www-data) read the probes' files under it
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        this.host = host;
        this.port = port;
        Files.createDirectories(dir.resolve("bundle"));
        Exec.run("tar", "-xzf", archive.toString(), "-C", dir.resolve("bundle").toString(), "--strip-components=1")
                .ok("unpacking " + archive);
    }

    Path installer() {
        return dir.resolve("bundle/install.sh");
    }

    /** Where it serves the probes over HTTP/2 in clear (h2c): its own port, but nginx's a port of its own. */
    int h2cPort() {
        return port;
    }

    /** Lays the stock server out, installs the bundle into it and starts it. */
    abstract void up() throws IOException;

    /** The PID file of the server's main process. */
    abstract Path pidFile();

    /** Stops the server. */
    abstract void stop();

    /** The last lines of its log, for a failure's message. */
    abstract String log();

    /** Its probes answer: the static page is served (within 90 s), unless its process ended first. */
    void awaitServing() throws InterruptedException {
        URI page = URI.create("http://" + host + ":" + port + "/spice/static/spice.html");
        for (int waited = 0; waited < 900; waited++) {
            if (status(page) == 200) {
                return;
            }
            if (waited >= 20 && !pidAlive(pidFile())) {
                break;
            }
            Thread.sleep(100);
        }
        throw new AssertionError(page + " did not answer 200:\n" + log());
    }

    /** Stops the server and uninstalls the bundle: the layout as it was, SPICE's files gone. */
    void down() {
        stop();
        layout.uninstall(before);
        assertFalse(Files.exists(dir.resolve("opt")), "after --uninstall, " + dir.resolve("opt") + " is left");
    }

    @Override
    public void close() {
        Exec.lib("stop_pids", dir.toString());   // DIR/*.pid and DIR/*/*.pid: the server's, httpd's and nginx's in run/
        for (Path helpers : List.of(dir.resolve("opt/spice/apache/bin/spice-helpers"),
                dir.resolve("opt/spice/nginx/bin/spice-helpers"), dir.resolve("base/spice/bin/spice-helpers"))) {
            if (Files.isExecutable(helpers)) {
                Exec.run(helpers.toString(), "stop");
            }
        }
        Exec.run("rm", "-rf", dir.toString());
    }

    static int status(URI uri) {
        try {
            HttpURLConnection connection = (HttpURLConnection) uri.toURL().openConnection();
            connection.setConnectTimeout(1000);
            connection.setReadTimeout(5000);
            try {
                return connection.getResponseCode();
            } finally {
                connection.disconnect();
            }
        } catch (IOException e) {
            return -1;
        }
    }

    static boolean pidAlive(Path pidFile) {
        try {
            return Processes.running(Long.parseLong(Files.readString(pidFile).strip()));
        } catch (IOException | NumberFormatException e) {
            return false;
        }
    }

    static String tail(Path log, int lines) {
        try {
            List<String> all = Files.readAllLines(log);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(no log at " + log + ")";
        }
    }

    /** Waits up to 5 s for {@code pidFile} to go (a server removes it as it stops). */
    static void awaitGone(Path pidFile) {
        for (int waited = 0; waited < 50 && Files.exists(pidFile); waited++) {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    static void copyTree(Path from, Path to) {
        Exec.run("cp", "-a", from.toString(), to.toString()).ok("copying " + from);
    }

    static void emptyDirectory(Path dir) {
        try (Stream<Path> entries = Files.list(dir)) {
            for (Path entry : entries.toList()) {
                Exec.run("rm", "-rf", entry.toString());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void edit(Path file, Map<String, String> replacements) throws IOException {
        String text = Files.readString(file);
        for (Map.Entry<String, String> each : replacements.entrySet()) {
            text = text.replaceAll(each.getKey(), each.getValue());
        }
        Files.writeString(file, text);
    }

    /** Debian's httpd on a copy of /etc/apache2: Listen on host:port, run and log files in the directory, no site. */
    static final class Httpd extends StockServer {

        Httpd(Path archive, String host, int port) throws IOException {
            super(archive, host, port);
        }

        @Override
        void up() throws IOException {
            Path conf = dir.resolve("etc/apache2");
            for (String each : List.of("etc", "run", "lock", "log")) {
                Files.createDirectories(dir.resolve(each));
            }
            copyTree(Path.of("/etc/apache2"), conf);
            Files.writeString(conf.resolve("ports.conf"), "Listen " + host + ":" + port + "\nServerName " + host + "\n");
            emptyDirectory(conf.resolve("sites-enabled"));
            // mod_http2 as a2enmod http2 enables it: Debian's http2.conf then offers h2c on every port
            for (String each : List.of("http2.load", "http2.conf")) {
                Files.createSymbolicLink(conf.resolve("mods-enabled/" + each), Path.of("../mods-available/" + each));
            }
            layout = new StockLayout(installer(), dir.resolve("etc"), List.of("--prefix", dir.toString(), "--fastcgi-port",
                    Integer.toString(port + 90)));
            layout.refusesForeign(conf.resolve("conf-available/spice.conf"));
            before = layout.install();
            apache2("-t").ok("apache2 -t");
            Path helpers = dir.resolve("opt/spice/apache/bin/spice-helpers");
            Exec.run(helpers.toString(), "start").ok("spice-helpers start");
            // a second start finds them running and leaves them (and their sockets) as they are: verify covers it
            Exec.run(helpers.toString(), "start").ok("spice-helpers start, a second time");
            apache2("-k", "start").ok("apache2 -k start");
        }

        Exec apache2(String... args) {
            List<String> command = new ArrayList<>(List.of("apache2", "-d", dir.resolve("etc/apache2").toString()));
            command.addAll(List.of(args));
            return Exec.run(null, Map.of("APACHE_RUN_USER", "www-data", "APACHE_RUN_GROUP", "www-data", "APACHE_PID_FILE",
                    pidFile().toString(), "APACHE_RUN_DIR", dir.resolve("run").toString(), "APACHE_LOCK_DIR",
                    dir.resolve("lock").toString(), "APACHE_LOG_DIR", dir.resolve("log").toString()), 120, command);
        }

        @Override
        Path pidFile() {
            return dir.resolve("run/apache2.pid");
        }

        @Override
        void stop() {
            apache2("-k", "stop");
            awaitGone(pidFile());
        }

        @Override
        String log() {
            return tail(dir.resolve("log/error.log"), 20);
        }
    }

    /** Debian's nginx on a copy of /etc/nginx: its paths, pid and logs in the directory, no default site. */
    static final class Nginx extends StockServer {

        Nginx(Path archive, String host, int port) throws IOException {
            super(archive, host, port);
        }

        @Override
        void up() throws IOException {
            Path conf = dir.resolve("etc/nginx");
            for (String each : List.of("etc", "run", "log")) {
                Files.createDirectories(dir.resolve(each));
            }
            copyTree(Path.of("/etc/nginx"), conf);
            // a target that sets lua_package_path itself: the bundle's lua probe must not set a second (nginx refuses it)
            edit(conf.resolve("nginx.conf"), Map.of("/etc/nginx", conf.toString(), "(?m)^pid .*", "pid " + pidFile() + ";",
                    "/var/log/nginx", dir.resolve("log").toString(),
                    "(?m)^http \\{", "http {\n\tlua_package_path \"/usr/local/share/lua/5.1/?.lua;;\";"));
            emptyDirectory(conf.resolve("sites-enabled"));
            layout = new StockLayout(installer(), dir.resolve("etc"), List.of("--prefix", dir.toString(), "--listen",
                    host + ":" + port, "--fastcgi-port", Integer.toString(port + 90), "--h2c-listen", host + ":" + h2cPort()));
            before = layout.install();
            nginx("-t").ok("nginx -t");
            Path helpers = dir.resolve("opt/spice/nginx/bin/spice-helpers");
            Exec.run(helpers.toString(), "start").ok("spice-helpers start");
            Exec.run(helpers.toString(), "start").ok("spice-helpers start, a second time");
            nginx().ok("nginx");
        }

        /** nginx 1.22 takes h2c (prior knowledge) only on a port of its own: --listen's + 720, the bundle's default. */
        @Override
        int h2cPort() {
            return port + 720;
        }

        Exec nginx(String... args) {
            List<String> command = new ArrayList<>(List.of("nginx", "-c", dir.resolve("etc/nginx/nginx.conf").toString(),
                    "-e", dir.resolve("log/error.log").toString()));
            command.addAll(List.of(args));
            return Exec.run(null, Map.of(), 120, command);
        }

        @Override
        Path pidFile() {
            return dir.resolve("run/nginx.pid");
        }

        @Override
        void stop() {
            nginx("-s", "quit");
            awaitGone(pidFile());
        }

        @Override
        String log() {
            return tail(dir.resolve("log/error.log"), 20);
        }
    }

    /** Tomcat VERSION from its distribution on a fresh CATALINA_BASE: its connector on host:port, no shutdown port. */
    static final class Tomcat extends StockServer {
        private final Path home;

        Tomcat(Path archive, String host, int port, String version) throws IOException {
            super(archive, host, port);
            this.home = DISTRIBUTIONS.resolve("apache-tomcat-" + version);
        }

        @Override
        void up() throws IOException {
            Path base = dir.resolve("base");
            for (String each : List.of("logs", "temp", "webapps", "work", "lib")) {
                Files.createDirectories(base.resolve(each));
            }
            try (Stream<Path> scripts = Files.list(home.resolve("bin"))) {
                for (Path script : scripts.filter(p -> p.toString().endsWith(".sh")).toList()) {
                    script.toFile().setExecutable(true);
                }
            }
            copyTree(home.resolve("conf"), base.resolve("conf"));
            // the connector on host:port, with HTTP/2 (h2c) as the bundle's README tells an administrator to add it
            edit(base.resolve("conf/server.xml"), Map.of("<Server port=\"8005\"", "<Server port=\"-1\"",
                    "<Connector port=\"8080\"([^>]*?)\\s*/>", "<Connector address=\"" + host + "\" port=\"" + port
                            + "\"$1>\n        <UpgradeProtocol className=\"org.apache.coyote.http2.Http2Protocol\" />\n"
                            + "    </Connector>"));
            layout = new StockLayout(installer(), base, List.of("--prefix", base.toString()));
            before = layout.install();
            Exec.run(null, Map.of("CATALINA_HOME", home.toString(), "CATALINA_BASE", base.toString(), "CATALINA_PID",
                    pidFile().toString()), 120, List.of(home.resolve("bin/catalina.sh").toString(), "start"))
                    .ok("catalina.sh start");
        }

        @Override
        Path pidFile() {
            return dir.resolve("tomcat.pid");
        }

        @Override
        void stop() {
            Exec.lib("stop_pids", dir.toString());
            // Tomcat expanded the war: its directory and work files are Tomcat's, not the installer's
            Path base = dir.resolve("base");
            Exec.run("rm", "-rf", base.resolve("webapps/spice").toString());
            for (String each : List.of("work", "logs", "temp")) {
                emptyDirectory(base.resolve(each));
            }
        }

        @Override
        String log() {
            return tail(dir.resolve("base/logs/catalina.out"), 30);
        }
    }

    /** Jetty VERSION from jetty-home on a fresh JETTY_BASE with the http module, on 127.0.0.1:port. */
    static final class Jetty extends StockServer {
        private final Path home;

        Jetty(Path archive, String host, int port, String version) throws IOException {
            super(archive, host, port);
            this.home = DISTRIBUTIONS.resolve("jetty-home-" + version);
        }

        @Override
        void up() throws IOException {
            Path base = dir.resolve("base");
            Files.createDirectories(base);
            Exec.run(base, Map.of(), 120, List.of("java", "-jar", home.resolve("start.jar").toString(), "jetty.home=" + home,
                    "jetty.base=" + base, "--add-modules=http")).ok("jetty's start.jar --add-modules=http");
            layout = new StockLayout(installer(), base, List.of("--prefix", base.toString(), "--jetty-home", home.toString(),
                    "--fastcgi-port", Integer.toString(port + 90)));
            before = layout.install();
            Exec.run(base.resolve("spice/bin/spice-helpers").toString(), "start").ok("spice-helpers start");
            Process jetty = new ProcessBuilder("setsid", "java", "-jar", home.resolve("start.jar").toString(),
                    "jetty.home=" + home, "jetty.base=" + base, "jetty.http.host=" + host, "jetty.http.port=" + port)
                    .directory(base.toFile()).redirectErrorStream(true).redirectOutput(dir.resolve("jetty.log").toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())).start();
            Files.writeString(pidFile(), Long.toString(jetty.pid()));
        }

        @Override
        Path pidFile() {
            return dir.resolve("jetty.pid");
        }

        @Override
        void stop() {
            Exec.lib("stop_pids", dir.toString());
        }

        @Override
        String log() {
            return tail(dir.resolve("jetty.log"), 30);
        }
    }
}
