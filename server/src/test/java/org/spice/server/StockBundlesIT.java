package org.spice.server;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.spice.commands.VerifyCommand;
import org.spice.testkit.CommandRun;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Each deploy bundle installed by its own install.sh into a stock server laid out in a temporary directory, the
 * server started, every probe the bundle serves verified, then stopped and uninstalled: the compatibility matrix the
 * README states, a cell per server and version. {@code scripts/spice test-bundles CELL...} runs some of them
 * (-Dspice.cells); the apache and tomcat cells also run on two hosts (TwoHostsBundlesIT).
 */
class StockBundlesIT {

    /** A cell of the matrix: the bundle, the port, the probes verified (over HTTP/1, then h2c), the server that takes it. */
    record Cell(String name, String bundle, int port, String probes, String h2cProbes) {
        Cell(String name, String bundle, int port, String probes) {
            this(name, bundle, port, probes, probes);
        }

        StockServer server() throws java.io.IOException {
            Path archive = Bundles.archive(bundle);
            String version = name.substring(name.indexOf('-') + 1);
            return switch (name.substring(0, name.indexOf('-'))) {
                case "httpd" -> new StockServer.Httpd(archive, "127.0.0.1", port);
                case "nginx" -> new StockServer.Nginx(archive, "127.0.0.1", port);
                case "tomcat" -> new StockServer.Tomcat(archive, "127.0.0.1", port, version);
                default -> new StockServer.Jetty(archive, "127.0.0.1", port, version);
            };
        }
    }

    private static final String TOMCAT = "static,servlet,jsp,cgi,cgi-stock,shtml,module";
    /** The probes on sockets spice-helpers runs beside httpd and nginx: Node.js, the ASGI servers, the WebAssembly host. */
    private static final String PROGRAMS = ",node,asgi-uvicorn,asgi-granian,wasm,wasm-kept";

    /** The matrix; the Tomcat and Jetty versions are pom.xml's. */
    static List<Cell> cells() {
        return List.of(new Cell("httpd-2.4", "apache", 18601, "static,shtml,cgi,module,fastcgi,php-fpm,wsgi,lua" + PROGRAMS),
                new Cell("nginx-1.22", "nginx", 18602, "static,shtml,cgi,fastcgi,module,njs,php-fpm,wsgi,lua,wsgi-http"
                        + PROGRAMS),
                new Cell("tomcat-" + System.getProperty("spice.tomcat.version"), "tomcat", 18603, TOMCAT),
                new Cell("tomcat-" + System.getProperty("spice.tomcat10.version"), "tomcat", 18604, TOMCAT),
                // Tomcat 9 answers a JSP's HEAD over HTTP/2 with its body in DATA frames (its HTTP/1.1 connector drops it)
                new Cell("tomcat-" + System.getProperty("spice.tomcat9.version"), "tomcat9", 18605, TOMCAT,
                        TOMCAT.replace(",jsp", "")),
                new Cell("jetty-" + System.getProperty("spice.jetty.version"), "jetty", 18606,
                        "static,servlet,jsp,cgi,shtml,module,fastcgi"),
                new Cell("jetty-" + System.getProperty("spice.jetty12.0.version"), "jetty", 18607,
                        "static,servlet,jsp,cgi,shtml,module,fastcgi"));
    }

    /** The first cell of {@code bundle}'s: for tomcat, Tomcat 11 (pom.xml's tomcat.version), as the two hosts run it. */
    static Cell cell(String bundle) {
        return cells().stream().filter(c -> c.bundle().equals(bundle)).findFirst().orElseThrow();
    }

    /** Whether -Dspice.cells names {@code name}, or names none (every cell, two-hosts and readme). */
    static boolean wantedByName(String name) {
        String named = System.getProperty("spice.cells", "");
        return named.isBlank() || Arrays.asList(named.split(",")).contains(name);
    }

    /**
     * The cells -Dspice.cells names (comma-separated), or every one but those two hosts install, verify and uninstall
     * where they can be made (httpd-2.4 and Tomcat 11: TwoHostsBundlesIT); an unknown name fails.
     */
    static List<Cell> wanted() {
        String named = System.getProperty("spice.cells", "");
        if (named.isBlank()) {
            List<String> paired = Netns.possible() ? List.of(cell("apache").name(), cell("tomcat").name()) : List.of();
            return cells().stream().filter(c -> !paired.contains(c.name())).toList();
        }
        List<String> names = Arrays.asList(named.split(","));
        for (String name : names) {
            if (cells().stream().noneMatch(c -> c.name().equals(name)) && !List.of("two-hosts", "readme").contains(name)) {
                throw new IllegalArgumentException("no cell \"" + name + "\": " + cells().stream().map(Cell::name).toList()
                        + ", two-hosts, readme");
            }
        }
        return cells().stream().filter(c -> names.contains(c.name())).toList();
    }

    @TestFactory
    Stream<DynamicTest> eachBundleOnItsStockServer() {
        return wanted().stream().map(cell -> DynamicTest.dynamicTest(cell.name(), () -> {
            try (StockServer server = cell.server()) {
                server.up();
                server.awaitServing();
                CommandRun verified = CommandRun.of(new VerifyCommand(), "http://127.0.0.1:" + cell.port(), "--probes",
                        cell.probes());
                assertEquals(0, verified.status(), cell.name() + ": verify\n" + verified.console() + "\n" + server.log());
                CommandRun overH2c = CommandRun.of(new VerifyCommand(), "http://127.0.0.1:" + server.h2cPort(), "--http2",
                        "--probes", cell.h2cProbes());
                assertEquals(0, overH2c.status(), cell.name() + ": verify --http2\n" + overH2c.console() + "\n" + server.log());
                server.down();
                System.err.println("  " + cell.name() + ": installed, verified (" + cell.probes() + "; over h2c "
                        + cell.h2cProbes() + ") and uninstalled");
            }
        }));
    }
}
