package org.spice.servers;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import java.util.regex.Pattern;

import org.spice.bench.model.Server;

/** Tomcat 11, the distribution from Maven Central, with a CATALINA_BASE from conf/tomcat/ per run. */
final class TomcatLaunch implements ServerLaunch {

    /** Tomcat lives on when a connector cannot bind: read from its log instead of waiting. */
    private static final Pattern FAILED = Pattern.compile(
            "Failed to (initialize|start) (component \\[Connector|connector)|BindException");

    static Path home(Site site) throws IOException {
        return site.cache().resolve("tomcat/apache-tomcat-" + site.pomProperty("tomcat.version"));
    }

    @Override
    public boolean installed(Site site) {
        try {
            return Files.isRegularFile(home(site).resolve("bin/catalina.sh")) && Programs.which("java") != null;
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public void install(Site site, PrintStream out) throws IOException {
        Path home = home(site);
        if (installed(site)) {
            out.println("tomcat: " + home + " is installed");
            return;
        }
        Maven.unpack(site, "org.apache.tomcat:tomcat:" + site.pomProperty("tomcat.version") + ":zip",
                site.cache().resolve("tomcat"), out);
        // the zip records no execute bits for the scripts
        try (var scripts = Files.newDirectoryStream(home.resolve("bin"), "*.sh")) {
            for (Path script : scripts) {
                var modes = new java.util.HashSet<>(Files.getPosixFilePermissions(script));
                modes.addAll(List.of(PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.GROUP_EXECUTE,
                        PosixFilePermission.OTHERS_EXECUTE));
                Files.setPosixFilePermissions(script, modes);
            }
        }
        out.println("tomcat: installed " + home);
    }

    @Override
    public void launch(Start start) throws IOException {
        start(start, start.run(), start.port(), start.options);
    }

    /**
     * Tomcat on {@code port} with {@code options}, from {@code run} as CATALINA_BASE: SPICE's server.xml and logging, the
     * distribution's global web.xml, spice.war, the static fileset's context, and in lib/ the module Valve with the
     * page it serves. Also the Tomcat behind httpd and nginx ({@link Companions#startTomcatBackend}).
     */
    static void start(Start start, Path run, int port, Options options) throws IOException {
        Site site = start.site;
        // the distribution is read by Tomcat as the service user (as root): a copy where the checkout is out of its reach
        Path home = site.served(home(site));
        for (String dir : List.of("webapps", "work", "conf", "lib")) {
            Trees.delete(run.resolve(dir));
        }
        for (String dir : List.of("conf/Catalina/localhost", "lib", "temp", "webapps", "work")) {
            Files.createDirectories(run.resolve(dir));
        }
        Trees.freshLogs(run);
        Path conf = site.root.resolve("conf/tomcat/conf");
        Trees.copyInto(conf.resolve("server.xml"), run.resolve("conf"));
        Trees.copyInto(conf.resolve("logging.properties"), run.resolve("conf"));
        Trees.copyInto(home.resolve("conf/web.xml"), run.resolve("conf"));
        Trees.copy(site.built(Site.WAR), run.resolve("webapps/spice.war"));
        // the static fileset at /spice/fileset: a context descriptor, deployed at start like the WAR
        Files.createDirectories(site.fileset());
        Files.writeString(run.resolve("conf/Catalina/localhost/spice#fileset.xml"),
                "<Context docBase=\"" + site.fileset() + "\"/>\n");
        Trees.copyInto(site.builtJar("nsapi-like-module/tomcat/target", "spice-tomcat-valve"), run.resolve("lib"));
        Trees.copyInto(site.builtJar("page/target", "spice-page"), run.resolve("lib"));
        site.user.give(run);
        Path javaHome = Jdks.serverJavaHome("tomcat", options.threads(), site.err);
        String catalinaOptions = String.join(" ", "-Dspice.listen=" + options.listen(), "-Dspice.port=" + port,
                "-Dspice.tlsPort=" + Server.TOMCAT.ports(port).https(),
                "-Dspice.tlsCert=" + start.tls.cert(), "-Dspice.tlsKey=" + start.tls.key(),
                "-Dspice.accessLog=" + options.accessLog(), "-Dspice.virtualThreads=" + options.threads().equals("virtual"),
                String.join(" ", site.jvmOptions("SPICE_TOMCAT_OPTS")));
        int status = start.program(home.resolve("bin/catalina.sh").toString(), "start").asServiceUser()
                .env("JAVA_HOME", javaHome == null ? "" : javaHome.toString()).env("CATALINA_HOME", home.toString())
                .env("CATALINA_BASE", run.toString()).env("CATALINA_PID", run.resolve("server.pid").toString())
                .env("CATALINA_OUT", run.resolve("logs/catalina.out").toString()).env("CATALINA_OPTS", catalinaOptions)
                .log(run.resolve("logs/start.out")).toEnd();
        if (status != 0) {
            Readiness.tail(run.resolve("logs/start.out"), 20, site.err);
            throw new IOException("catalina.sh start (CATALINA_BASE " + run + ") ended with status " + status);
        }
    }

    @Override
    public boolean startFailed(Path run) {
        return failed(run);
    }

    static boolean failed(Path run) {
        try (var logs = Files.newDirectoryStream(run.resolve("logs"), "catalina.*.log")) {
            for (Path log : logs) {
                if (Trees.says(log, FAILED)) {
                    return true;
                }
            }
        } catch (IOException e) {
            return false;
        }
        return false;
    }

    @Override
    public List<Path> logs(Path run) {
        return catalinaLogs(run);
    }

    /** RUN/logs/catalina.*.log and catalina.out, those there are. */
    static List<Path> catalinaLogs(Path run) {
        List<Path> logs = new java.util.ArrayList<>();
        try (var dated = Files.newDirectoryStream(run.resolve("logs"), "catalina.*.log")) {
            dated.forEach(logs::add);
        } catch (IOException e) {
            // no logs yet
        }
        logs.sort(null);
        logs.addAll(ServerLaunch.existing(run.resolve("logs/catalina.out")));
        return logs;
    }
}
