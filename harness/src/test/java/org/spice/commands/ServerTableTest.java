package org.spice.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.spice.bench.mix.Mix;
import org.spice.bench.mix.MixEntry;
import org.spice.bench.mix.MixFile;
import org.spice.bench.model.Server;
import org.spice.cli.Cli;
import org.spice.commands.shell.ServersCommand;
import org.spice.page.Probe;

/**
 * The server table lives in Java alone: the shell reads it through {@code spice servers} in its documented
 * format and keeps no copy of the names, ports, offsets or probe lists; the white paper's e-commerce mix is built
 * from the fileset by {@link Mix#ecommerce}.
 */
@Tag("unit")
class ServerTableTest {

    private static final Path SCRIPTS = Path.of("../scripts");

    @Test
    void theTableIsPrintedOneDocumentedLinePerServer() {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(text, true, StandardCharsets.UTF_8);
        assertEquals(0, Cli.run(new ServersCommand(), out, out));
        List<String> lines = text.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(Server.values().length, lines.size());
        assertEquals("embedded 18080 360 - - static,servlet,jsp,cgi,shtml,module,cgi-stock static,servlet,jsp,cgi,shtml,module"
                + " - - 0", lines.get(0));
        String apache = "static,servlet,jsp,cgi,shtml,module,fastcgi,wasm,wasm-kept,php-fpm,wsgi,lua,node,asgi-uvicorn,"
                + "asgi-granian";
        assertEquals("apache 18081 360 1000 2000 " + apache + " " + apache + " - - 0", lines.get(1));
        String prefork = apache.replace("php-fpm,", "php-fpm,mod-php,");
        assertEquals("apache-prefork 18081 360 1000 2000 " + prefork + " " + prefork + " apache --mpm=prefork -",
                lines.get(5));
        assertEquals("tomcat-vt 18082 360 - - static,servlet,jsp,cgi,shtml,module,cgi-stock static,servlet,jsp,cgi,shtml,module"
                + " tomcat --threads=virtual 0", lines.get(6));
        assertEquals("nginx 18084 360 1000 2000", lines.get(4).substring(0, 25));
        assertTrue(lines.get(4).endsWith(" - - 720"), "nginx 1.22 takes h2c on a port of its own: " + lines.get(4));
        assertEquals(List.of(Server.APACHE, Server.TOMCAT, Server.JETTY, Server.NGINX), Server.real());
        assertEquals(new Server.Ports(18083, 18443, -1, 20083, 18083), Server.JETTY.ports(18083));
        assertEquals(List.of(18084, 18444, 19084, 20084, 18804), Server.NGINX.ports(18084).all());
        assertEquals(Server.JETTY.ports(18083), Server.JETTY_VT.ports(18083), "a variant has its base's ports");
        assertEquals(Server.JETTY, Server.JETTY_VT.base());
        assertEquals(Server.JETTY, Server.JETTY.base());
    }

    @Test
    void theShellKeepsNoCopyOfTheTable() throws IOException {
        List<String> copies = new ArrayList<>();
        Pattern copy = Pattern.compile("\\b180[89][0-4]\\b|\\+ ?(360|1000|2000)\\b|apache tomcat jetty nginx|\\b(apache|tomcat|jetty|nginx|embedded)_probes\\(\\)"
                + "|echo static servlet");
        try (Stream<Path> files = Files.walk(SCRIPTS)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                List<String> lines = Files.readAllLines(file);
                for (int i = 0; i < lines.size(); i++) {
                    if (!lines.get(i).trim().startsWith("#") && copy.matcher(lines.get(i)).find()) {
                        copies.add(file + ":" + (i + 1) + ": " + lines.get(i).trim());
                    }
                }
            }
        }
        assertEquals(List.of(), copies, "the server table written again in the shell");
    }

    @Test
    void theEcommerceMixIsTheWhitePapersShares() {
        Mix fileset = MixFile.parse("fileset", "test", "3 /spice/fileset/a bytes=1000\n1 /spice/fileset/b bytes=3000\n");
        Mix mix = Mix.ecommerce(fileset, Probe.CGI);
        assertEquals("ecommerce-cgi", mix.name());
        double total = mix.entries().stream().mapToDouble(MixEntry::weight).sum();
        assertEquals(100, total, 1e-9);
        assertEquals(8, mix.entries().stream().filter(MixEntry::tls).mapToDouble(MixEntry::weight).sum(), 1e-9);
        assertEquals(19, mix.entries().stream().filter(e -> e.path().equals(Probe.CGI.path()))
                .mapToDouble(MixEntry::weight).sum(), 1e-9);
        assertEquals(75 * 0.75, mix.entries().get(0).weight(), 1e-9);   // a's share of the plain static 75 %
        assertEquals(1000, mix.entries().get(0).bytes());
        assertTrue(mix.hasTls() && mix.hasPlain());
    }
}
