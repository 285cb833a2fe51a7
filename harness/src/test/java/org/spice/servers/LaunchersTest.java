package org.spice.servers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.model.Server;

/**
 * The launchers' own arithmetic, on known inputs and no process: every server has one, a program's command line drops
 * to the service user before it runs, conf/nginx/ is written with every word it has, a template's
 * unknown word is an error naming it, Jetty's web.xml loses what is Tomcat's alone, the JVM options come from
 * conf/java/jvm.options, the ASGI servers' arguments from conf/asgi/.
 */
@Tag("unit")
class LaunchersTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @TempDir
    Path run;

    private Site site(boolean drops) {
        ServiceUser user = new ServiceUser("www-data", drops, drops);
        return new Site(ROOT, run, user, new PrintStream(new ByteArrayOutputStream()));
    }

    @Test
    void everyServerHasALauncherThatNamesNoLogBeforeItsStart() {
        for (Server server : Server.values()) {
            assertEquals(List.of(), ServerLaunch.of(server).logs(run), server.id() + ": no logs in an empty run directory");
        }
    }

    @Test
    void aProgramDropsToTheUserInASessionOfItsOwn() {
        Start start = new Start(site(true), Instance.of(run, Server.NGINX, 18084), Options.fromEnvironment(), null);
        assertEquals(List.of("setpriv", "--reuid=www-data", "--regid=www-data", "--clear-groups", "--", "setsid", "fcgiwrap",
                "-c", "64"), start.program("fcgiwrap", "-c", "64").asServiceUser().ownSession().command());
        Start plain = new Start(site(false), Instance.of(run, Server.NGINX, 18084), Options.fromEnvironment(), null);
        assertEquals(List.of("nginx", "-t"), plain.program("nginx", "-t").asServiceUser().command(),
                "no user to drop to: the program alone");
    }

    @Test
    void nginxsConfigurationIsWrittenWithEveryWordItHas() throws IOException {
        Start start = new Start(site(false), Instance.of(run, Server.NGINX, 18084), new Options("127.0.0.1", true, "event",
                "platform", "3"), null);
        Map<String, String> words = NginxLaunch.words(start);
        for (String file : NginxLaunch.CONFIGURATION) {
            Trees.fill(ROOT.resolve("conf/nginx/" + file), run.resolve(file), words);
        }
        String conf = Files.readString(run.resolve("nginx.conf"));
        assertTrue(conf.contains("worker_processes 3;"), conf);
        assertTrue(conf.contains(start.run().resolve("logs/access.log").toString()), "the access log where it was asked for");
        assertEquals(18084 + 720, start.ports.h2c(), "h2c on a port of its own");
    }

    @Test
    void aTemplatesUnknownWordIsAnErrorNamingIt() throws IOException {
        Path template = run.resolve("t.conf");
        Files.writeString(template, "listen @SPICE_PORT@;\nroot @SPICE_NOWHERE@;\n");
        IOException unknown = assertThrows(IOException.class,
                () -> Trees.fill(template, run.resolve("out.conf"), Map.of("SPICE_PORT", "18084")));
        assertTrue(unknown.getMessage().endsWith("@SPICE_NOWHERE@"), unknown.getMessage());
        Files.writeString(template, "listen @SPICE_PORT@; # @SPICE_PORT@\n");
        Trees.fill(template, run.resolve("out.conf"), Map.of("SPICE_PORT", "18084"));
        assertEquals("listen 18084; # 18084\n", Files.readString(run.resolve("out.conf")));
    }

    @Test
    void jettysWebXmlLosesWhatIsTomcatsAlone() {
        String webXml = "<web-app>\n<a/>\n<!-- tomcat-only:begin -->\n<b/>\n<!-- tomcat-only:end -->\n<c/>\n</web-app>\n";
        assertEquals("<web-app>\n<a/>\n<c/>\n</web-app>\n", JettyLaunch.withoutTomcatOnly(webXml));
    }

    @Test
    void theJavaServersOptionsComeFromTheirFile() throws IOException {
        List<String> options = site(false).jvmOptions("SPICE_NO_SUCH_OPTS");
        assertTrue(options.contains("-XX:CompileCommand=quiet"), options.toString());
        assertTrue(options.stream().noneMatch(o -> o.startsWith("#") || o.isBlank()), options.toString());
    }

    /** conf/asgi/'s files, which spice-helpers reads too: a word an argument, comments left out, both words filled in. */
    @Test
    void theAsgiServersArgumentsComeFromTheirFiles() throws IOException {
        Path app = Path.of("/r u n/runtimes/asgi");
        Path socket = Path.of("/r u n/asgi-uvicorn.sock");
        List<String> uvicorn = AsgiServers.arguments(ROOT.resolve("conf/asgi/uvicorn.args"), app, socket);
        assertEquals(List.of("-m", "uvicorn", "--app-dir", app.toString(), "--uds", socket.toString()), uvicorn.subList(0, 6));
        assertEquals("spice_asgi:application", uvicorn.get(uvicorn.size() - 1));
        assertTrue(uvicorn.containsAll(List.of("--workers", "2")), uvicorn.toString());
        List<String> granian = AsgiServers.arguments(ROOT.resolve("conf/asgi/granian.args"), app, socket);
        assertEquals(List.of("-m", "granian", "--interface", "asgi", "--working-dir", app.toString(), "--uds",
                socket.toString()), granian.subList(0, 8));
        assertTrue(granian.stream().noneMatch(w -> w.startsWith("#") || w.contains("@")), granian.toString());
    }
}
