package org.spice.servers;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * nginx from Debian's packages, with conf/nginx/ and its own run directory. Its CGI probe goes through Debian's fcgiwrap
 * (nginx has no CGI); its servlet and JSP probes are proxied to a Tomcat it starts beside itself; its module probe is
 * ngx_http_spice_module, built against Debian's nginx-dev; PHP-FPM and uWSGI run beside it for the runtimes' probes,
 * the WebAssembly host for the wasm probes, the Node.js program for the node probe, uvicorn and granian for the asgi
 * probes.
 */
final class NginxLaunch implements ServerLaunch {

    static final List<String> CONFIGURATION = List.of("nginx.conf", "spice-probes.conf", "spice-wasm.conf",
            "spice-php-fpm.conf", "spice-wsgi.conf", "spice-lua.conf", "spice-node.conf", "spice-asgi.conf");

    static Path binary() {
        return Programs.which("nginx", "/usr/sbin/nginx");
    }

    /** Debian's nginx, its njs module and nginx-dev (the sources the C module is built against). */
    private static boolean packagesInstalled() {
        return binary() != null && Files.isRegularFile(Runtimes.NGINX_MODULES.resolve("ngx_http_js_module.so"))
                && Files.isRegularFile(Path.of("/usr/share/nginx/src/configure"));
    }

    @Override
    public boolean installed(Site site) {
        return packagesInstalled() && Companions.fcgiwrap() != null && Files.isRegularFile(Companions.FCGI_HEADER)
                && WasmHost.installed() && Runtimes.installed("nginx") && AsgiServers.installed(site) && new TomcatLaunch().installed(site);
    }

    @Override
    public void install(Site site, PrintStream out) throws IOException {
        if (packagesInstalled()) {
            out.println("nginx: " + binary() + ", its njs module and nginx-dev are installed");
        } else {
            List<String> packages = List.of("nginx", "nginx-dev", "libnginx-mod-http-js");
            Companions.needRoot("nginx", "installing nginx", packages);
            Programs.aptInstall(packages, out);
            // Debian may start its own nginx service on port 80 after installing it: SPICE runs its own nginx
            if (Files.exists(Path.of("/run/nginx.pid"))) {
                Programs.output(List.of("service", "nginx", "stop"));
            }
            out.println("nginx: installed " + binary() + ", its njs module and nginx-dev");
        }
        Companions.installFcgiwrap("nginx", out);
        Companions.installLibfcgi("nginx", out);
        Runtimes.install("nginx", out);
        AsgiServers.install(site, "nginx", out);
        // its servlet and JSP probes run on a Tomcat behind it
        new TomcatLaunch().install(site, out);
        WasmHost.install("nginx", out);
    }

    /**
     * RUN holds everything nginx reads (its configuration, the module, the njs files, the pages and the CGI program), so
     * that it runs as the service user whatever the checkout's permissions.
     */
    @Override
    public void launch(Start start) throws IOException {
        Site site = start.site;
        Path run = start.run();
        Path module = Companions.cModule(site, "nginx", "ngx_http_spice_module.so");
        for (String dir : List.of("conf", "njs", "webapp", "cgi", "temp")) {
            Trees.delete(run.resolve(dir));
            Files.createDirectories(run.resolve(dir));
        }
        Trees.copy(module, run.resolve("ngx_http_spice_module.so"));
        Trees.copyInto(site.root.resolve("nsapi-like-module/nginx/njs/spice.js"), run.resolve("njs"));
        Trees.copyInto(site.built("nsapi-like-module/nginx/target/generated/spice_page.js"), run.resolve("njs"));
        Trees.copyInto(site.built("webapp/target/spice/static"), run.resolve("webapp"));
        Trees.copyInto(site.built("webapp/target/spice/shtml"), run.resolve("webapp"));
        Trees.copy(site.built("cgi-c/target/spice"), run.resolve("cgi/spice"));
        for (String file : List.of("fastcgi.conf", "proxy.conf", "uwsgi.conf")) {
            Trees.copyInto(site.root.resolve("conf/nginx/" + file), run.resolve("conf"));
        }
        Runtimes.copy(site, run);
        Map<String, String> words = words(start);
        for (String file : CONFIGURATION) {
            Trees.fill(site.root.resolve("conf/nginx/" + file), run.resolve("conf/" + file), words);
        }

        Companions.startFcgiwrap(start, run);
        Companions.startFastcgiProbe(start, run, start.ports.fastcgi());
        WasmHost.start(start, run, "nginx");
        Runtimes.startPhpFpm(start, run);
        Runtimes.startUwsgi(start, run);
        Runtimes.startNode(start, run);
        AsgiServers.start(start, run, "nginx");
        Companions.startTomcatBackend(start, run, start.ports.backend());

        site.user.give(run);
        List<String> nginx = List.of(binary().toString(), "-p", run.toString(), "-c", run.resolve("conf/nginx.conf").toString(),
                "-e", run.resolve("logs/error.log").toString());
        List<String> test = new java.util.ArrayList<>(nginx);
        test.add("-t");
        // a fixed zone, so that the SSI module's DATE_LOCAL does not depend on the machine's settings (nginx keeps TZ)
        String zone = Options.env("TZ", "UTC");
        if (start.program(test).asServiceUser().env("TZ", zone).log(run.resolve("logs/configtest.log")).toEnd() != 0) {
            Readiness.tail(run.resolve("logs/configtest.log"), 50, site.err);
            throw new IOException("nginx's configuration test failed (above)");
        }
        start.program(nginx).asServiceUser().ownSession().env("TZ", zone).log(run.resolve("logs/nginx.out"))
                .background(run.resolve("server.pid"));
    }

    /** The words conf/nginx/ is written with: @SPICE_PORT@ and the rest. */
    static Map<String, String> words(Start start) {
        Path run = start.run();
        Map<String, String> words = new LinkedHashMap<>();
        words.put("SPICE_RUN", run.toString());
        words.put("SPICE_CONF", run.resolve("conf").toString());
        words.put("SPICE_PORT", Integer.toString(start.port()));
        words.put("SPICE_LISTEN", start.options.listen());
        words.put("SPICE_FCGIWRAP_SOCKET", run.resolve("fcgiwrap.sock").toString());
        words.put("SPICE_TLS_PORT", Integer.toString(start.ports.https()));
        words.put("SPICE_TLS_CERT", start.tls.cert().toString());
        words.put("SPICE_TLS_KEY", start.tls.key().toString());
        words.put("SPICE_H2C_PORT", Integer.toString(start.ports.h2c()));
        words.put("SPICE_BACKEND_PORT", Integer.toString(start.ports.backend()));
        words.put("SPICE_FCGI_PORT", Integer.toString(start.ports.fastcgi()));
        words.put("SPICE_WEBAPP", run.resolve("webapp").toString());
        words.put("SPICE_CGI_DIR", run.resolve("cgi").toString());
        words.put("SPICE_FILESET", start.site.fileset().toString());
        words.put("SPICE_WORKERS", start.options.workers());
        words.put("SPICE_ACCESS_LOG", start.options.accessLog() ? run.resolve("logs/access.log").toString() : "off");
        words.put("SPICE_NJS_MODULE", Runtimes.NGINX_MODULES.resolve("ngx_http_js_module.so").toString());
        words.put("SPICE_NGINX_MODULES", Runtimes.NGINX_MODULES.toString());
        words.put("SPICE_RUNTIMES", run.resolve("runtimes").toString());
        words.putAll(Runtimes.Socket.words(run));
        return words;
    }

    @Override
    public List<Path> logs(Path run) {
        List<Path> logs = new java.util.ArrayList<>(ServerLaunch.existing(run.resolve("logs/error.log"),
                run.resolve("logs/fcgiwrap.log"), run.resolve("logs/uwsgi.log"), run.resolve("logs/uwsgi.out")));
        logs.addAll(Runtimes.logs(run));
        logs.addAll(TomcatLaunch.catalinaLogs(run.resolve("tomcat-backend")).stream()
                .filter(l -> !l.getFileName().toString().equals("catalina.out")).toList());
        return logs;
    }
}
