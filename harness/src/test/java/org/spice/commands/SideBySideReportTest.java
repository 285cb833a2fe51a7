package org.spice.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.analysis.CrossResults;
import org.spice.bench.analysis.ResultsFiles;
import org.spice.bench.model.Across;
import org.spice.bench.model.CpuFrom;
import org.spice.bench.model.CpuRounds;
import org.spice.bench.model.CpuSlice;
import org.spice.bench.model.Protocol;
import org.spice.bench.model.Results;
import org.spice.bench.model.ResultsJson;
import org.spice.testkit.CommandRun;

import com.fasterxml.jackson.databind.JsonNode;

/** {@code report DIR} on servers side by side: the tables and report.html again, from the rounds alone. */
@Tag("unit")
class SideBySideReportTest {

    /** Two starts of two servers: on "tomcat" the servlet costs 0.9 × its static file, on "jetty" static 1.2 × tomcat's. */
    private static CpuRounds start(int rounds, double wobble) {
        CpuRounds all = new CpuRounds(8, 0.05, 100, "in progress", List.of(), List.of("tomcat", "jetty"));
        for (int r = 0; r < rounds; r++) {
            double machine = 1 + wobble * Math.sin(r);
            List<CpuSlice> slices = new ArrayList<>();
            slices.add(taken("tomcat", "static", 100 * machine));
            slices.add(taken("tomcat", "servlet", 90 * machine * (1 + 0.01 * Math.cos(3 * r))));
            slices.add(taken("jetty", "static", 120 * machine));
            slices.add(taken("jetty", "servlet", 120 * machine * (1 + 0.01 * Math.sin(5 * r))));
            all = all.with(new CpuRounds.Round(r + 1, slices), "every ratio within its precision");
        }
        return all;
    }

    private static CpuSlice taken(String server, String probe, double us) {
        return new CpuSlice(server, probe, 1000, 0, 1, us / 1000, Double.NaN, 0.3, Double.NaN, 0.001);
    }

    @Test
    void theReportOfServersSideBySideComesFromTheirRounds(@TempDir Path dir) throws Exception {
        CrossResults.write(dir, List.of(new Results.Member("tomcat", "tomcat", CpuFrom.CGROUP, null),
                new Results.Member("jetty", "jetty", CpuFrom.CGROUP, null)), List.of(Protocol.HTTP10),
                List.of(start(8, 0.1), start(8, 0.2)));
        CommandRun ran = CommandRun.of(new ReportCommand(), dir.toString());
        assertEquals(0, ran.status(), ran.console());
        String text = ran.console();
        assertTrue(text.matches("(?s).*servlet on tomcat costs 0\\.7[45]\\d × what it costs on jetty \\(0\\.7.*"), text);
        assertTrue(text.contains("over 2 starts"), text);
        assertTrue(text.contains("Each against its own static file, over the 2 starts"), text);
        String html = Files.readString(dir.resolve("report.html"));
        assertTrue(html.contains("tomcat / jetty") && html.contains("data:image/png;base64,"), "tables and chart");
    }

    @Test
    void compareGatesOnTheCrossRatioOfTheLaterServerAgainstTheFirst(@TempDir Path dir) throws Exception {
        CrossResults.write(dir, List.of(new Results.Member("tomcat", "tomcat", CpuFrom.CGROUP, null),
                new Results.Member("jetty", "jetty", CpuFrom.CGROUP, null)), List.of(Protocol.HTTP10),
                List.of(start(10, 0.1)));
        // jetty's servlet costs 1.33 × tomcat's, its static file 1.2 ×, each known to a percent or two from its rounds:
        // the gate sees the servlet's low end past 1.25, the static file's short of it
        CommandRun gated = CommandRun.of(new CompareCommand(), dir.toString(), "--fail-above", "25");
        assertEquals(1, gated.status(), gated.console());
        String text = gated.console();
        assertTrue(text.contains("servlet: jetty costs 1.33") && !text.contains("static: jetty"), text);
        assertEquals(0, CommandRun.of(new CompareCommand(), dir.toString(), "--fail-above", "40").status());
    }

    @Test
    void aSideBySideFileFromANewerFormatIsRefusedSayingWhichItIs(@TempDir Path dir) throws Exception {
        CrossResults.write(dir, List.of(new Results.Member("tomcat", "tomcat", CpuFrom.CGROUP, null),
                new Results.Member("jetty", "jetty", CpuFrom.CGROUP, null)), List.of(Protocol.HTTP10),
                List.of(start(8, 0.1)));
        Path file = dir.resolve(ResultsJson.FILE);
        assertTrue(Files.readString(file).contains("\"schema\" : \"" + org.spice.bench.model.Results.SCHEMA + "\""));
        Files.writeString(file, Files.readString(file).replace(org.spice.bench.model.Results.SCHEMA, "spice-results/9"));
        CommandRun ran = CommandRun.of(new CompareCommand(), dir.toString());
        assertEquals(1, ran.status(), ran.console());
        assertTrue(ran.err().contains("is in the format spice-results/9, which this SPICE does not read"), ran.err());
    }

    /**
     * A side-by-side results.json in its own shape of format 2 (a tomcat and jetty run of 6 Dec 2026, as bench wrote it)
     * reads through the one reader as several servers, its figures concluded again equal to those it wrote; without its
     * format said, as the first.
     */
    @Test
    void aSideBySideFileOfTheSecondFormatReadsAsItsRunConcludedIt(@TempDir Path dir) throws Exception {
        Path file = dir.resolve(ResultsJson.FILE);
        try (var in = SideBySideReportTest.class.getResourceAsStream("/side-by-side-2026-12-06.json")) {
            Files.copy(in, file);
        }
        JsonNode written = ResultsJson.MAPPER.readTree(file.toFile());
        Results read = ResultsFiles.read(file);
        assertTrue(read.severalArms());
        assertEquals(List.of("tomcat", "jetty"), read.arms().stream().map(Results.Member::name).toList());
        List<Across.Cross> cross = read.across().cross();
        assertEquals(written.get("cross_ratios").size(), cross.size());
        for (int i = 0; i < cross.size(); i++) {
            JsonNode was = written.get("cross_ratios").get(i);
            assertEquals(was.get("probe").asText(), cross.get(i).probe());
            assertEquals(was.get("ratio").asDouble(), cross.get(i).ratio(), 1e-12, was.toString());
            assertEquals(was.get("ratio_ci").asDouble(), cross.get(i).ratioCi(), 1e-12, was.toString());
        }
        Files.writeString(file, Files.readString(file).replace("  \"schema\" : \"spice-results/2\",\n", ""));
        assertEquals(0, CommandRun.of(new CompareCommand(), dir.toString()).status(), "no format said: the first, read");
    }
}
