package org.spice.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.model.Overload;
import org.spice.bench.model.Readings;
import org.spice.bench.model.Results;
import org.spice.bench.model.ResultsJson;
import org.spice.commands.BenchCommand;
import org.spice.page.CanonicalPage;
import org.spice.testkit.Bound;
import org.spice.testkit.CommandRun;

/**
 * Past the peak on the real Apache from conf/ (the acceptance check of the overload profile): bench --profile overload
 * starts httpd, floods static and cgi with 16 × a peak of 625 clients (10,000: the kind of flood that once left httpd
 * answering no one for minutes) and stops it. results.json holds each probe's retention and recovery, and static
 * answers the page byte for byte within 5 s of the flood's end. The JVM raises its open-files limit to the hard one,
 * and httpd, started from it, inherits that. Run once, with the default page (the flood is about the server, not the
 * size). Steps of 2 s up, 3 s measured, 1 s down after 1 s of pause (the default is 3,5,1,2): two probes, each at its
 * peak, flooded and recovering, with httpd's start and stop, take 60-62 s here (recovery 1.1-2.2 s for static, 1.3-4.3
 * s for cgi; it took up to 44 s while the flood's unanswered connections were closed rather than reset, and the
 * server's kernel completed them into the accept queue for a minute of SYN-ACK retries). Every step and check carries
 * its readings of both sides (sockets by state, the accept queue, httpd's scoreboard).
 */
class ApacheOverloadTest {

    private static final double EXACT_WITHIN_S = 5;

    @Test
    void apacheHoldsAndRecoversFromTenThousandClients(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(CanonicalPage.builtBytes() == CanonicalPage.DEFAULT_BYTES,
                "the flood runs once, with the default page (this build's is " + CanonicalPage.builtBytes() + " bytes)");
        CommandRun ran = CommandRun.of(new BenchCommand(), "--server", "apache", "--profile", "overload", "--probes",
                "static,cgi", "--peak-clients", "625", "--multiples", "16", "--flood-timing", "2,3,1,1", "--warm-up", "0", "--cpu-time", "0",
                "--out", dir.toString());
        int status = ran.status();
        String said = ran.console();
        assertEquals(0, status, said);
        Results results;
        try (Stream<Path> files = Files.walk(dir)) {
            results = ResultsJson.read(files.filter(p -> p.getFileName().toString().equals(ResultsJson.FILE)).findFirst()
                    .orElseThrow(() -> new AssertionError("no results.json: " + said)));
        }
        for (String probe : new String[] {"static", "cgi"}) {
            Overload o = results.overload().stream().filter(x -> x.probe().equals(probe)).findFirst()
                    .orElseThrow(() -> new AssertionError(probe + " was not flooded: " + said));
            Map<String, Double> retention = o.retention();
            Map<String, Object> recovery = o.recovery();
            assertTrue(retention.containsKey("16"), probe + ": no retention at 16 ×: " + retention);
            assertNotNull(recovery, probe + ": no recovery");
            Overload.Step largest = o.steps().get(o.steps().size() - 1);
            Readings flood = largest.readings();
            assertNotNull(flood, probe + ": the flood's step has no readings");
            assertTrue(flood.clientSockets().getOrDefault("ESTABLISHED", 0) > 1_000 && flood.listenQueueMax() >= 0
                    && flood.workers() > 0, probe + ": the flood's readings miss a side: " + flood);
            assertTrue(o.watch().baseline().size() == 3 && o.watch().checks().stream().allMatch(c -> c.readings() != null
                    && c.readings().samples() >= 2), probe + ": a check without its readings: " + o.watch());
            System.out.printf("overload: apache %s at %d clients%s: retention %s, recovery %s s (held by %s), the page exact"
                    + " after %s s%n", probe, largest.clients(), largest.capped() != null ? " (capped: " + largest.capped() + ")" : "",
                    retention.get("16"), recovery.get("seconds"), o.heldBy(), recovery.get("first_exact_answer_s"));
        }
        Overload flooded = results.overload().stream().filter(x -> x.probe().equals("static")).findFirst().orElseThrow();
        Bound.atMost("static: first exact answer after the flood, s", flooded.firstExactAnswerS(), EXACT_WITHIN_S,
                "httpd sheds 10,000 connections and answers within a second here; 5 s is the issue's bound for a"
                + " server that recovers (once it answered no one for minutes)");
    }
}
