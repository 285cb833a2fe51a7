package org.spice.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.analysis.CrossResults;
import org.spice.bench.analysis.Summaries;
import org.spice.bench.model.CpuFrom;
import org.spice.bench.model.CpuRounds;
import org.spice.bench.model.CpuSlice;
import org.spice.bench.model.Protocol;
import org.spice.bench.model.RecordedSettings;
import org.spice.bench.model.Results;
import org.spice.testkit.CommandRun;

/** What the deploy checks hold a bench's results to, read the way check-results reads them. */
@Tag("unit")
class CheckResultsCommandTest {

    private static CpuRounds rounds(List<String> servers) {
        CpuRounds all = new CpuRounds(8, 0.05, 100, "every ratio within its precision", List.of(), servers);
        for (int r = 0; r < 8; r++) {
            List<CpuSlice> slices = new ArrayList<>();
            double machine = 1 + 0.05 * Math.sin(r);
            for (String server : servers.isEmpty() ? java.util.Collections.<String>singletonList(null) : servers) {
                slices.add(new CpuSlice(server, "static", 1000, 0, 1, 0.1 * machine, Double.NaN, 0.3, Double.NaN, 0.0));
                slices.add(new CpuSlice(server, "cgi", 100, 0, 1, 0.2 * machine * (1 + 0.01 * Math.cos(3 * r)),
                        Double.NaN, 0.3, Double.NaN, 0.0));
            }
            all = all.with(new CpuRounds.Round(r + 1, slices), "every ratio within its precision");
        }
        return all;
    }

    private static Path own(Path dir, String cgroup) throws Exception {
        RecordedSettings settings = RecordedSettings.builder().build();
        Results results = new Results("http://127.0.0.1:1", "embedded", 6250, cgroup == null ? settings
                : settings.withServerCgroup(cgroup), "2026-01-01T00:00:00Z", "2026-01-01T00:01:00Z", false, null,
                List.of(), List.of(), null, List.of(), List.of(), rounds(List.of()));
        Summaries.write(dir, results);
        return dir;
    }

    @Test
    void oneServersResultsPassWithEveryProbeFromItsCgroupAndEachRatioWithAnInterval(@TempDir Path dir) throws Exception {
        CommandRun ran = CommandRun.of(new CheckResultsCommand(), own(dir.resolve("a"), "/sys/fs/cgroup/x").toString(),
                "--label", "readme", "--probes", "static,cgi");
        assertEquals(0, ran.status(), ran.console());
        assertTrue(ran.err().matches("(?s)readme: cgi 20\\.\\d+ × static ± \\d+\\.\\d % \\(cgroup\\).*"), ran.err());
        assertTrue(ran.err().contains("readme: every probe's CPU from the cgroup, with its interval"), ran.err());

        CommandRun proc = CommandRun.of(new CheckResultsCommand(), own(dir.resolve("b"), null).toString(),
                "--label", "readme", "--probes", "static,cgi,module");
        assertEquals(1, proc.status(), proc.console());
        assertTrue(proc.err().contains("readme: static: CPU from srv, not the server's cgroup"), proc.err());
        assertTrue(proc.err().contains("readme: module: not measured"), proc.err());
    }

    @Test
    void serversSideBySideNeedTheirCgroupsTheirIntervalsAndTheirOwnResults(@TempDir Path dir) throws Exception {
        Path httpd = own(dir.resolve("httpd"), "/sys/fs/cgroup/httpd");
        CrossResults.write(dir.resolve("side"), List.of(new Results.Member("httpd", "apache", CpuFrom.CGROUP,
                httpd.toString()), new Results.Member("tomcat", "tomcat", CpuFrom.EXPORTERS, null)),
                List.of(Protocol.HTTP10), List.of(rounds(List.of("httpd", "tomcat"))));
        CommandRun ran = CommandRun.of(new CheckResultsCommand(), dir.resolve("side").toString(), "--label", "two hosts");
        assertEquals(1, ran.status(), ran.console());
        assertTrue(ran.err().startsWith("two hosts: static httpd/tomcat 1.000 ± 0.0 % over 8 rounds at [1000.0, 1000.0]"
                + " req/s"), ran.err());
        // through exporters a CGI program is the machine's CPU, which these slices do not hold: no figure, said so
        assertTrue(ran.err().contains("two hosts: cgi httpd/tomcat: no interval"), ran.err());
        assertTrue(ran.err().contains("two hosts: tomcat: CPU from EXPORTERS, not its cgroup"), ran.err());
        assertTrue(ran.err().contains("two hosts: tomcat: no results of its own"), ran.err());
        assertTrue(ran.err().contains("two hosts: httpd cgi "), "httpd's own results held too: " + ran.err());
    }
}
