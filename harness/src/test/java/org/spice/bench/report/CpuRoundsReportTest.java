package org.spice.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.analysis.Summaries;
import org.spice.bench.figures.SpiceFigures;
import org.spice.bench.model.Results;

/** With CPU rounds, the summary, the CPU table, the chart and the answer speak in paired ratios. */
class CpuRoundsReportTest {

    @Test
    void theSummaryCarriesEachProbesRatioItsIntervalAndThePairedEfficiency() {
        Results results = ReportFixture.apacheWithRounds();
        SpiceFigures.Summary servlet = summary(results, "servlet");
        assertEquals(0.97, servlet.rounds().cpuRatio(), 0.002);
        assertTrue(servlet.rounds().cpuRatioCi() > 0 && servlet.rounds().cpuRatioCi() < 0.02, servlet.rounds().toString());
        assertEquals(4, servlet.rounds().cpuClients());
        assertEquals(8, servlet.rounds().cpuRounds());
        assertTrue(servlet.rounds().cpuPrecisionReached());
        assertEquals(1 / 0.97, servlet.cpuEfficiency(), 0.003, "the CPU efficiency from the same pairs");
        assertEquals(servlet.rounds().cpuUsPerReq(), servlet.cpuUs(), 0);
        assertTrue(servlet.cpuDistinguishableFromStatic(), "3 % cheaper, known to ±1 %");
        assertEquals(SpiceFigures.CpuSource.MACHINE, summary(results, "cgi").cpuSource());
        assertEquals(12, summary(results, "cgi").rounds().cpuRatio(), 1e-9);
        assertEquals(1.0, summary(results, "static").rounds().cpuRatio(), 1e-12);
    }

    @Test
    void theAnswerAndTheTablesSpeakInRatios(@TempDir Path dir) throws Exception {
        Results results = ReportFixture.apacheWithRounds();
        String verdict = String.join("\n", Verdict.of(results, null));
        assertTrue(verdict.contains("from 8 rounds at 4 clients"), verdict);
        assertTrue(verdict.contains("At 4 clients each probe ran at its own rate (the static file "), verdict);
        assertTrue(verdict.contains("servlet costs 0.970 × the static file's (± 0.7 %)"), verdict);
        assertTrue(verdict.contains("The CPU of cgi is the whole machine's less the client's"), verdict);
        assertTrue(verdict.contains("cgi costs 12.0 × the static file's"), verdict);
        String table = CpuTable.text(results);
        assertTrue(table.contains("8 paired rounds at 4 clients") && table.contains("reached"), table);
        String text = ReportWriter.write(dir, results);
        assertTrue(text.contains("× the static file's"), text);
        String html = Files.readString(dir.resolve("report.html"));
        assertTrue(html.contains("id=\"cpu-table\""), "the CPU table in the report");
        assertTrue(Files.size(dir.resolve("cpu.png")) > 1000, "the ratio chart");
    }

    @Test
    void aRunWithOnlyTheStaticFilesCpuSaysSoInsteadOfNone() {
        Results apache = ReportFixture.apache();
        Results onlyStatic = new Results(apache.target(), apache.server(), apache.bodyBytes(), apache.settings(),
                apache.startedAt(), apache.finishedAt(), true, "the server process 4242 is gone", List.of(),
                apache.runs().stream().filter(r -> r.probe().equals("static")).toList());
        String verdict = String.join("\n", Verdict.of(onlyStatic, null));
        assertTrue(verdict.contains("Only the static file's server CPU was measured: 100 µs"), verdict);
        assertTrue(verdict.contains("partial: the server process 4242 is gone"), verdict);
    }

    @Test
    void aRunCutShortAfterItsRoundsAnswersWithThem() {
        Results full = ReportFixture.apacheWithRounds();
        Results cut = new Results(full.target(), full.server(), full.bodyBytes(), full.settings(), full.startedAt(),
                full.finishedAt(), true, "the server process 4242 is gone", List.of(), List.of(), null,
                full.runs().stream().filter(r -> r.probe().equals("static") && r.clients() == 1).toList(), List.of(),
                full.cpuRounds());
        String verdict = String.join("\n", Verdict.of(cut, null));
        assertTrue(verdict.contains("the static file costs 100 µs"), verdict);
        assertTrue(verdict.contains("servlet costs 0.970 × the static file's"), "the rounds' figures, though the ladder"
                + " never reached servlet: " + verdict);
        assertTrue(verdict.contains("partial: the server process 4242 is gone"), verdict);
    }

    private static SpiceFigures.Summary summary(Results results, String probe) {
        return Summaries.of(results).stream().filter(s -> s.probe().equals(probe)).findFirst().orElseThrow();
    }
}
