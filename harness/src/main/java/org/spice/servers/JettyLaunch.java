package org.spice.servers;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Jetty 12.1, jetty-home from Maven Central, with a JETTY_BASE from conf/jetty/ per run, and Debian's fcgiwrap behind
 * Jetty's FastCGI proxy for the CGI probe.
 */
final class JettyLaunch implements ServerLaunch {

    /** Jetty keeps running when a context fails to start: read from its log instead of waiting. */
    private static final Pattern FAILED = Pattern.compile("Failed startup of context|BindException|FAILED ServerConnector");

    static Path home(Site site) throws IOException {
        return site.cache().resolve("jetty/jetty-home-" + site.pomProperty("jetty.version"));
    }

    @Override
    public boolean installed(Site site) {
        try {
            return Files.isRegularFile(home(site).resolve("start.jar")) && Companions.fcgiwrap() != null
                    && Files.isRegularFile(Companions.FCGI_HEADER) && Programs.which("java") != null;
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public void install(Site site, PrintStream out) throws IOException {
        Path home = home(site);
        if (Files.isRegularFile(home.resolve("start.jar"))) {
            out.println("jetty: " + home + " is installed");
        } else {
            Maven.unpack(site, "org.eclipse.jetty:jetty-home:" + site.pomProperty("jetty.version") + ":tar.gz",
                    site.cache().resolve("jetty"), out);
            out.println("jetty: installed " + home);
        }
        Companions.installFcgiwrap("jetty", out);
        Companions.installLibfcgi("jetty", out);
    }

    @Override
    public void launch(Start start) throws IOException {
        Site site = start.site;
        Path run = start.run();
        // jetty-home and the SSI context's Tomcat classes are read by Jetty as the service user (as root): copies where
        // the checkout is out of its reach
        Path home = site.served(home(site));
        layOut(site, run);

        Companions.startFcgiwrap(start, run);
        int fcgiPort = start.ports.fastcgi();
        Companions.startFastcgiProbe(start, run, fcgiPort);

        Files.createDirectories(site.fileset());
        // HTTPS from the generated PKCS#12 keystore; its password goes in a start file only the owner reads
        Path secret = run.resolve("start.d/ssl-secret.ini");
        Files.deleteIfExists(secret);
        Files.createFile(secret, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(secret, "jetty.sslContext.keyStorePassword=" + Files.readString(start.tls.passwordFile()).strip()
                + "\n");
        List<String> options = new ArrayList<>(List.of("spice.fcgi.port=" + fcgiPort, "spice.fcgiwrap.socket="
                + run.resolve("fcgiwrap.sock"), "spice.fileset.dir=" + site.fileset(),
                // Jetty's list of modules: h2 by ALPN on HTTPS
                "--module=ssl,https,http2", "jetty.http.host=" + start.options.listen(),
                "jetty.ssl.host=" + start.options.listen(), "jetty.ssl.port=" + start.ports.https(),
                "jetty.ssl.acceptQueueSize=511", "jetty.sslContext.keyStorePath=" + start.tls.keystore(),
                "jetty.sslContext.keyStoreType=PKCS12", "jetty.ssl.sniHostCheck=false"));
        if (start.options.accessLog()) {
            options.add("--module=requestlog");
        }
        // --threads virtual: the thread pool runs blocking work (the servlet, JSP, the handlers) on virtual threads, on a
        // JDK 21 or later
        Path javaHome = Jdks.serverJavaHome("jetty", start.options.threads(), site.err);
        if (start.options.threads().equals("virtual")) {
            options.add("--module=threadpool-virtual");
        }
        site.user.give(run);
        List<String> command = new ArrayList<>(List.of(javaHome == null ? "java" : javaHome.resolve("bin/java").toString()));
        command.addAll(site.jvmOptions("SPICE_JETTY_OPTS"));
        command.addAll(List.of("-jar", home.resolve("start.jar").toString(), "jetty.home=" + home, "jetty.base=" + run,
                "jetty.http.port=" + start.port()));
        command.addAll(options);
        start.program(command).asServiceUser().ownSession().in(run).log(run.resolve("logs/jetty.log"))
                .background(run.resolve("server.pid"));
    }

    /**
     * JETTY_BASE in {@code run}: conf/jetty's start.d, modules and etc; the module Handler and the page in lib/; the CGI
     * program; spice.war with its web.xml less what is Tomcat's alone; the SSI context with Tomcat's classes on its
     * classpath; the two context descriptors.
     */
    private static void layOut(Site site, Path run) throws IOException {
        for (String dir : List.of("start.d", "modules", "etc", "webapps", "lib", "cgi-root", "ssi-webapp", "work")) {
            Trees.delete(run.resolve(dir));
        }
        for (String dir : List.of("start.d", "modules", "etc")) {
            Trees.copyInto(site.root.resolve("conf/jetty/" + dir), run);
        }
        for (String dir : List.of("webapps", "lib/spice", "cgi-root/spice/cgi-bin", "work", "ssi-webapp/WEB-INF/lib")) {
            Files.createDirectories(run.resolve(dir));
        }
        Trees.copyInto(site.builtJar("nsapi-like-module/jetty/target", "spice-jetty-handler"), run.resolve("lib/spice"));
        Trees.copyInto(site.builtJar("page/target", "spice-page"), run.resolve("lib/spice"));
        Trees.copy(site.built("cgi-c/target/spice"), run.resolve("cgi-root/spice/cgi-bin/spice"));
        Trees.copy(site.built(Site.WAR), run.resolve("spice.war"));
        List<String> ssiClasspath = new ArrayList<>();
        ssiClasspath.add(site.served(site.builtJar("tomcat-ssi/target", "spice-tomcat-ssi")).toString());
        ssiClasspath.add(site.served(site.built("server/target/lib/tomcat-embed-core-" + site.pomProperty("tomcat.version")
                + ".jar")).toString());
        // the SSI context: the SHTML page, its web.xml, SPICE's SSI servlet; Tomcat's classes on its extra classpath
        Trees.copyInto(site.root.resolve("conf/jetty/ssi-webapp/WEB-INF/web.xml"), run.resolve("ssi-webapp/WEB-INF"));
        Trees.copyInto(site.builtJar("shtml/target", "spice-shtml"), run.resolve("ssi-webapp/WEB-INF/lib"));
        Trees.copyInto(site.built("shtml/target/generated-webapp/shtml/spice.shtml"), run.resolve("ssi-webapp"));
        Files.writeString(run.resolve("spice-web.xml"), withoutTomcatOnly(
                Files.readString(site.root.resolve("webapp/src/main/webapp/WEB-INF/web.xml"))));
        Map<String, String> words = Map.of("SPICE_WAR", run.resolve("spice.war").toString(), "SPICE_SSI_WEBAPP",
                run.resolve("ssi-webapp").toString(), "SPICE_WEB_XML", run.resolve("spice-web.xml").toString(),
                "SPICE_SSI_CLASSPATH", String.join(",", ssiClasspath));
        for (String descriptor : List.of("spice.xml", "spice-shtml.xml")) {
            Trees.fill(site.root.resolve("conf/jetty/webapps/" + descriptor), run.resolve("webapps/" + descriptor), words);
        }
    }

    /** web.xml without what is Tomcat's alone (between its tomcat-only:begin and tomcat-only:end lines). */
    static String withoutTomcatOnly(String webXml) {
        StringBuilder kept = new StringBuilder();
        boolean skipping = false;
        for (String line : webXml.split("\n", -1)) {
            if (line.contains("tomcat-only:begin")) {
                skipping = true;
            }
            if (!skipping) {
                kept.append(line).append('\n');
            }
            if (line.contains("tomcat-only:end")) {
                skipping = false;
            }
        }
        return kept.substring(0, Math.max(0, kept.length() - 1));
    }

    @Override
    public boolean startFailed(Path run) {
        return Trees.says(run.resolve("logs/jetty.log"), FAILED);
    }

    @Override
    public List<Path> logs(Path run) {
        return ServerLaunch.existing(run.resolve("logs/jetty.log"), run.resolve("logs/fcgiwrap.log"));
    }
}
