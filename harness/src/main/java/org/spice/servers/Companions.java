package org.spice.servers;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What runs beside a server, started and stopped with it (its PID files are in the server's run directory, so its CPU
 * is the server's): the resident FastCGI probe, Debian's fcgiwrap for servers without CGI of their own, the Tomcat behind
 * a front server; and the C module probes, built against the server's development files.
 */
final class Companions {

    /** The FastCGI probe's header, from libfcgi-dev (httpd, Jetty and nginx serve that probe). */
    static final Path FCGI_HEADER = Path.of("/usr/include/fcgiapp.h");

    private Companions() {
    }

    static Path fcgiwrap() {
        return Programs.which("fcgiwrap", "/usr/sbin/fcgiwrap");
    }

    /** libfcgi-dev, where missing (root only). */
    static void installLibfcgi(String server, PrintStream out) throws IOException {
        if (Files.isRegularFile(FCGI_HEADER)) {
            return;
        }
        needRoot(server, "the FastCGI probe needs libfcgi-dev, and installing it", List.of("libfcgi-dev"));
        Programs.aptInstall(List.of("libfcgi-dev"), out);
    }

    /** Debian's fcgiwrap: the CGI probe's FastCGI bridge on servers without CGI of their own (Jetty, nginx). */
    static void installFcgiwrap(String server, PrintStream out) throws IOException {
        if (fcgiwrap() != null) {
            out.println(server + ": " + fcgiwrap() + " is installed (the CGI probe's FastCGI bridge)");
            return;
        }
        needRoot(server, "the CGI probe needs fcgiwrap, and installing it", List.of("fcgiwrap"));
        Programs.aptInstall(List.of("fcgiwrap"), out);
        out.println(server + ": installed " + fcgiwrap());
    }

    /**
     * Unless this is root, an IOException: "{@code server}: {@code what} needs root (apt-get install {@code packages}):
     * sudo scripts/spice server install {@code server}", which installs the rest it needs too.
     */
    static void needRoot(String server, String what, List<String> packages) throws IOException {
        if (!Programs.root()) {
            throw new IOException(server + ": " + what + " needs root (apt-get install " + String.join(" ", packages)
                    + "): sudo scripts/spice server install " + server);
        }
    }

    /**
     * The resident FastCGI probe (cgi-c/spice-fcgi) on 127.0.0.1:{@code port}, as the service user, in a session of its
     * own; its PID in RUN/fcgi.pid. Built first where the build had no libfcgi-dev and it came later.
     */
    static void startFastcgiProbe(Start start, Path run, int port) throws IOException {
        Site site = start.site;
        Path program = site.root.resolve("cgi-c/target/spice-fcgi");
        if (!Files.isExecutable(program)) {
            if (!Files.isRegularFile(FCGI_HEADER)) {
                throw new IOException("the FastCGI probe needs libfcgi-dev: apt-get install libfcgi-dev");
            }
            make(site, site.root.resolve("cgi-c"), "fcgi");
        }
        if (Servers.listens("127.0.0.1", port)) {
            throw new IOException("port " + port + " for the FastCGI probe is in use: stop what listens there, or choose"
                    + " another --port");
        }
        program = site.served(program);
        site.user.give(run);
        Path log = run.resolve("logs/fcgi.log");
        start.program(program.toString(), "127.0.0.1:" + port).asServiceUser().ownSession().log(log)
                .background(run.resolve("fcgi.pid"));
        Readiness.await("the FastCGI probe (127.0.0.1:" + port + ")", run.resolve("fcgi.pid"), log,
                Readiness.when(() -> Servers.listens("127.0.0.1", port)), site.err);
    }

    /**
     * fcgiwrap on RUN/fcgiwrap.sock, as the service user, in a session of its own so that stopping it also ends its
     * workers (the CGI programs it forks, which it reaps itself: their CPU counts in the server's process tree).
     */
    static void startFcgiwrap(Start start, Path run) throws IOException {
        Path socket = run.resolve("fcgiwrap.sock");
        Files.deleteIfExists(socket);
        start.site.user.give(run);
        Path log = run.resolve("logs/fcgiwrap.log");
        start.program(fcgiwrap().toString(), "-c", "64", "-s", "unix:" + socket).asServiceUser().ownSession().log(log)
                .background(run.resolve("fcgiwrap.pid"));
        Readiness.await("fcgiwrap (" + socket + ")", run.resolve("fcgiwrap.pid"), log,
                Readiness.when(() -> Files.exists(socket)), start.site.err);
    }

    /**
     * The Tomcat that serves the servlet and JSP probes behind a front server (httpd, nginx), on 127.0.0.1:{@code port}
     * from RUN/tomcat-backend, on platform threads whatever the front server was started with (--threads is Tomcat's and
     * Jetty's own); it stops with the front server (its PID file is under RUN).
     */
    static void startTomcatBackend(Start start, Path run, int port) throws IOException {
        if (Servers.listens("127.0.0.1", port)) {
            throw new IOException("port " + port + " for the Tomcat backend is in use: stop what listens there, or choose"
                    + " another --port");
        }
        Path backend = run.resolve("tomcat-backend");
        Files.createDirectories(backend);
        Options options = new Options("127.0.0.1", start.options.accessLog(), start.options.mpm(), "platform",
                start.options.workers());
        TomcatLaunch.start(start, backend, port, options);
        if (!Readiness.answers("127.0.0.1", port, "/spice/servlet", backend.resolve("server.pid"), TomcatLaunch::failed)) {
            // its logs' last lines follow: the front server's logs name them
            throw new IOException("the Tomcat backend did not answer on port " + port);
        }
    }

    /**
     * A server's C module probe, nsapi-like-module/SERVER/target/FILE: Maven builds it when the server's development
     * files are installed; if they came later, it is built now.
     */
    static Path cModule(Site site, String server, String file) throws IOException {
        Path dir = site.root.resolve("nsapi-like-module/" + server);
        Path module = dir.resolve("target/" + file);
        if (!Files.isRegularFile(module)) {
            make(site, dir);
        }
        if (!Files.isRegularFile(module)) {
            throw new IOException(server + ": " + file + " was not built (are the server's development files installed?)");
        }
        return module;
    }

    /** make in {@code dir} (OUT=dir/target), its output said; an IOException where it fails. */
    static void make(Site site, Path dir, String... targets) throws IOException {
        List<String> command = new java.util.ArrayList<>(List.of("make", "--no-print-directory", "-C", dir.toString(),
                "OUT=" + dir.resolve("target")));
        command.addAll(List.of(targets));
        if (Programs.said(command, Map.of(), site.err) != 0) {
            throw new IOException("building in " + site.root.relativize(dir) + " failed (make's output is above)");
        }
    }
}
