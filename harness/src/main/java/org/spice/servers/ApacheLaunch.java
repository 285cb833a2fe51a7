package org.spice.servers;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Apache httpd 2.4 from Debian's packages, with conf/apache/httpd.conf (which reads its settings from the environment)
 * and its own run directory. Its servlet and JSP probes are proxied to a Tomcat it starts beside itself; its FastCGI and
 * PHP-FPM probes go to the programs it starts beside itself too.
 */
final class ApacheLaunch implements ServerLaunch {

    /** httpd's daemon, once detached, logs why it stops before it ever writes its PID file. */
    private static final Pattern FAILED = Pattern.compile("no listening sockets available|AH00015|Configuration Failed");

    static Path binary() {
        return Programs.which("apache2", "httpd", "/usr/sbin/apache2");
    }

    static Path apxs() {
        return Programs.which("apxs", "apxs2");
    }

    @Override
    public boolean installed(Site site) {
        return binary() != null && Files.isRegularFile(Runtimes.APACHE_MODULES.resolve("mod_mpm_event.so")) && apxs() != null
                && Files.isRegularFile(Companions.FCGI_HEADER) && WasmHost.installed() && Runtimes.installed("apache") && AsgiServers.installed(site)
                && new TomcatLaunch().installed(site);
    }

    @Override
    public void install(Site site, PrintStream out) throws IOException {
        if (binary() != null && apxs() != null) {
            out.println("apache: " + binary() + " and " + apxs() + " are installed");
        } else {
            Companions.needRoot("apache", "installing httpd", List.of("apache2", "apache2-dev"));
            Programs.aptInstall(List.of("apache2", "apache2-dev", "libfcgi-dev"), out);
            // Debian starts its own apache2 service on port 80 after installing it: SPICE runs its own httpd
            if (Files.exists(Path.of("/var/run/apache2/apache2.pid"))) {
                Programs.output(List.of("service", "apache2", "stop"));
            }
            out.println("apache: installed " + binary() + " and " + apxs());
        }
        Companions.installLibfcgi("apache", out);
        Runtimes.install("apache", out);
        AsgiServers.install(site, "apache", out);
        // its servlet and JSP probes run on a Tomcat behind it
        new TomcatLaunch().install(site, out);
        WasmHost.install("apache", out);
    }

    @Override
    public void launch(Start start) throws IOException {
        Site site = start.site;
        Path run = start.run();
        // httpd maps the module file into every child: a copy in the run directory, so that a rebuild (mvn package
        // rewrites target/mod_spice.so) cannot crash a running server
        Trees.copy(Companions.cModule(site, "apache", "mod_spice.so"), run.resolve("mod_spice.so"));
        // the language runtimes' scripts, which its workers read
        Runtimes.copy(site, run);
        Programs.output(List.of("chmod", "-R", "a+rX", run.resolve("runtimes").toString()));
        Files.createDirectories(site.fileset());
        Map<String, String> env = environment(start);
        List<String> defines = new ArrayList<>();
        if (start.options.mpm().equals("prefork")) {
            defines.addAll(List.of("-D", "SPICE_PREFORK"));
        }
        defines.addAll(List.of("-D", "SPICE_PHP_FPM", "-D", "SPICE_WASM", "-D", "SPICE_NODE", "-D", "SPICE_ASGI"));
        if (start.options.accessLog()) {
            defines.addAll(List.of("-D", "SPICE_ACCESS_LOG"));
        }

        Companions.startFastcgiProbe(start, run, start.ports.fastcgi());
        WasmHost.start(start, run, "apache");
        Runtimes.startPhpFpm(start, run);
        Runtimes.startNode(start, run);
        AsgiServers.start(start, run, "apache");
        Companions.startTomcatBackend(start, run, start.ports.backend());

        List<String> httpd = new ArrayList<>(List.of(binary().toString(), "-f",
                site.root.resolve("conf/apache/httpd.conf").toString()));
        httpd.addAll(defines);
        List<String> test = new ArrayList<>(httpd);
        test.add("-t");
        if (start.program(test).env(env).log(run.resolve("logs/configtest.log")).toEnd() != 0) {
            Readiness.tail(run.resolve("logs/configtest.log"), 50, site.err);
            throw new IOException("httpd's configuration test failed (above)");
        }
        httpd.addAll(List.of("-k", "start"));
        if (start.program(httpd).env(env).log(run.resolve("logs/start.out")).toEnd() != 0) {
            throw new IOException("httpd -k start failed: see " + run.resolve("logs/start.out"));
        }
        // httpd forks, and writes its PID file when ready
        Readiness.await("httpd", null, run.resolve("logs/error.log"), () -> ready(run), site.err);
    }

    /** What conf/apache/httpd.conf reads: the ports, the run directory, the module, the probes' files, its user. */
    private static Map<String, String> environment(Start start) throws IOException {
        Site site = start.site;
        Path run = start.run();
        Map<String, String> env = new LinkedHashMap<>();
        env.put("SPICE_RUN", run.toString());
        env.put("SPICE_PORT", Integer.toString(start.port()));
        env.put("SPICE_BACKEND_PORT", Integer.toString(start.ports.backend()));
        env.put("SPICE_FCGI_PORT", Integer.toString(start.ports.fastcgi()));
        env.put("SPICE_LISTEN", start.options.listen());
        env.put("SPICE_TLS_PORT", Integer.toString(start.ports.https()));
        env.put("SPICE_TLS_CERT", start.tls.cert().toString());
        env.put("SPICE_TLS_KEY", start.tls.key().toString());
        env.put("SPICE_APACHE_MODULES", Runtimes.APACHE_MODULES.toString());
        env.put("SPICE_MOD_SPICE", run.resolve("mod_spice.so").toString());
        env.put("SPICE_CONF_DIR", site.root.resolve("conf/apache").toString());
        // its workers and the CGI program read these as the service user (as root): copies where the checkout is out
        // of that user's reach
        env.put("SPICE_WEBAPP", site.served(site.built("webapp/target/spice")).toString());
        env.put("SPICE_CGI_DIR", site.served(site.built("cgi-c/target")).toString());
        env.put("SPICE_FILESET", site.fileset().toString());
        // a fixed zone, so that mod_include's DATE_LOCAL does not depend on the machine's settings
        env.put("TZ", Options.env("TZ", "UTC"));
        // httpd will not run its workers as root: they, and the CGI program, run as the service user
        String user = site.user.root() ? site.user.name() : Programs.me();
        env.put("SPICE_USER", user);
        env.put("SPICE_GROUP", site.user.root() ? site.user.name() : ServiceUser.groupOf(user));
        env.put("SPICE_RUNTIMES", run.resolve("runtimes").toString());
        env.putAll(Runtimes.Socket.words(run));
        env.put("SPICE_PHP_INI_DIR", site.served(site.root.resolve("conf/php")).toString());
        Path modPhp = Runtimes.modPhp();
        env.put("SPICE_MOD_PHP", modPhp == null ? "" : modPhp.toString());
        env.put("PHP_INI_SCAN_DIR", "");
        return env;
    }

    /** httpd's PID file is written, or its log says it gave up, or neither yet. */
    private static Readiness.State ready(Path run) {
        try {
            if (Files.isRegularFile(run.resolve("server.pid")) && Files.size(run.resolve("server.pid")) > 0) {
                return Readiness.State.READY;
            }
        } catch (IOException e) {
            // not yet
        }
        return failed(run) ? Readiness.State.FAILED : Readiness.State.WAITING;
    }

    private static boolean failed(Path run) {
        return Trees.says(run.resolve("logs/error.log"), FAILED);
    }

    @Override
    public boolean startFailed(Path run) {
        return failed(run);
    }

    @Override
    public List<Path> logs(Path run) {
        List<Path> logs = new ArrayList<>(ServerLaunch.existing(run.resolve("logs/start.out"), run.resolve("logs/error.log")));
        logs.addAll(Runtimes.logs(run));
        logs.addAll(TomcatLaunch.catalinaLogs(run.resolve("tomcat-backend")).stream()
                .filter(l -> !l.getFileName().toString().equals("catalina.out")).toList());
        return logs;
    }
}
