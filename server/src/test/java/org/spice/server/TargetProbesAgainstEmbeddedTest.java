package org.spice.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.spice.bench.model.Results;
import org.spice.bench.model.ResultsJson;
import org.spice.bench.model.Server;
import org.spice.commands.BenchCommand;
import org.spice.page.Probe;
import org.spice.testkit.CommandRun;

/**
 * bench --target with no probes named measures what the server serves byte for byte, as a user who installed a bundle
 * runs it: here the embedded server's probes (no FastCGI, PHP, WSGI, Lua or njs), said with those it lacks; and a base
 * URL that already carries /spice, which serves no probe, is refused with the reason before any load.
 */
class TargetProbesAgainstEmbeddedTest extends StartedEmbeddedTomcat {

    @Test
    void theProbesTheTargetServesAreTheOnesMeasured() throws Exception {
        Path out = base.resolve("served");
        String printed = bench("--target", server.baseUrl(), "--clients", "1", "--ramp-up", "0.2", "--duration", "0.5",
                "--ramp-down", "0", "--pause", "0", "--warm-up", "0", "--cpu-time", "0", "--out", out.toString());
        assertTrue(printed.startsWith("0\n"), printed);
        Path file;
        try (Stream<Path> files = Files.walk(out)) {
            file = files.filter(p -> p.getFileName().toString().equals(ResultsJson.FILE)).findFirst().orElseThrow();
        }
        Results results = ResultsJson.read(file);
        List<String> measured = results.runs().stream().map(r -> r.probe()).distinct().toList();
        assertEquals(Server.EMBEDDED.benchProbes().stream().map(Probe::id).toList(), measured, printed);
        assertTrue(printed.contains("spice bench: measuring static, servlet, jsp, cgi, shtml, module; not fastcgi,"), printed);
        assertTrue(results.notes().stream().anyMatch(n -> n.contains("does not serve byte for byte, not measured:")
                && n.contains("php-fpm") && n.contains("(not there: 404)") && !n.contains("cgi-stock")),
                results.notes().toString());
    }

    @Test
    void aBaseWithTheProbesPrefixIsRefusedBeforeAnyLoad() throws Exception {
        Path out = base.resolve("prefixed");
        String printed = bench("--target", server.baseUrl() + "/spice", "--clients", "1", "--out", out.toString());
        assertTrue(printed.startsWith("1\n"), printed);
        assertTrue(printed.contains("does not serve the static file byte for byte") && printed.contains("without /spice"),
                printed);
        assertTrue(!Files.exists(out) || Files.list(out).findAny().isEmpty(), "no results: nothing was measured");
    }

    /** bench's exit status on the first line, then everything it printed. */
    private static String bench(String... args) {
        CommandRun ran = CommandRun.of(new BenchCommand(), args);
        int status = ran.status();
        return status + "\n" + ran.console();
    }
}
