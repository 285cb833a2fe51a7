package org.spice.servers;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.spice.bench.model.Server;

/**
 * The embedded default server (server/: Tomcat with spice.war and the Valve in one JVM), started in the background like
 * the real servers; {@code scripts/spice serve} runs the same command in the foreground ({@link #command}).
 */
final class EmbeddedLaunch implements ServerLaunch {

    @Override
    public boolean installed(Site site) {
        return Programs.which("java") != null;
    }

    @Override
    public void install(Site site, PrintStream out) throws IOException {
        out.println("embedded: " + site.built("server/target/spice-server.jar"));
    }

    @Override
    public void launch(Start start) throws IOException {
        Path run = start.run();
        List<String> command = command(start.site, start.tls, start.options.listen(), start.port(), run);
        start.site.user.give(run);
        start.program(command).asServiceUser().ownSession().log(run.resolve("logs/server.log"))
                .background(run.resolve("server.pid"));
    }

    /**
     * The server's command line on {@code port} of {@code host}, from run directory {@code run}: its JVM options, the jar,
     * the WAR and the server's files as the service user reads them, HTTPS on the table's port (its files made first:
     * {@link Tls#ensure}).
     */
    static List<String> command(Site site, Tls tls, String host, int port, Path run) throws IOException {
        // the jar's manifest names its libraries in lib/ beside it: served with it
        site.served(site.root.resolve("server/target/lib"));
        Path jar = site.served(site.built("server/target/spice-server.jar"));
        Path war = site.served(site.built(Site.WAR));
        java.nio.file.Files.createDirectories(site.fileset());
        java.nio.file.Files.createDirectories(run.resolve("logs"));
        List<String> command = new ArrayList<>(List.of("java"));
        command.addAll(site.jvmOptions("SPICE_EMBEDDED_OPTS"));
        command.addAll(List.of("-jar", jar.toString(), "--host", host, "--port", Integer.toString(port), "--war",
                war.toString(), "--fileset", site.fileset().toString(), "--tls-port",
                Integer.toString(Server.EMBEDDED.ports(port).https()), "--tls-cert",
                tls.cert().toString(), "--tls-key", tls.key().toString(), "--base", run.resolve("base").toString()));
        return command;
    }

    @Override
    public List<Path> logs(Path run) {
        return ServerLaunch.existing(run.resolve("logs/server.log"));
    }
}
