package org.spice.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.model.CpuRounds;
import org.spice.bench.model.Results;
import org.spice.bench.model.ResultsJson;
import org.spice.commands.BenchCommand;
import org.spice.page.CanonicalPage;
import org.spice.testkit.Bound;
import org.spice.testkit.CommandRun;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Servers side by side, for real: {@code bench --server apache,apache} starts two httpd at once (the second on the
 * first's port + 10, each in its own cgroup), verifies and warms both, measures them in the same rounds and stops
 * both, twice. The A/A: every cross ratio is near 1; each slice's CPU is its own server's, and the idle one's meanwhile
 * is a small part of it; each server's results hold its own rounds, as a bench of it alone. Run once, with the default
 * page. Each test starts its servers, warms them and runs rounds of every arm: about 40 s (three protocols, one httpd)
 * and 78-110 s (two starts of two httpd). Two embedded servers beside each other (66-70 s) are no longer run here: a
 * Java server's A/A is AaCheckTest's, a deployment's A/A ExportersAgainstProcTest's, and the JIT's rounds left out side
 * by side CrossFiguresTest's.
 */
class SideBySideTest {

    /**
     * How many of its own 95 % half-widths an A/A ratio may stand from 1: the interval is 1.96 sd of the paired mean
     * (between starts included), so 1.7 of them are 3.3 sd, one miss in a thousand for a true A/A. A fixed bound from
     * the per-slice noise (0.08 at most with resident servers, warmed) did not hold for six servers on 2 cores after a
     * short warm-up: Jetty's A/A read 0.828 over 7 rounds with a quarter of its variance between the two starts.
     */
    private static final double AA_HALF_WIDTHS = 1.7;
    /** The idle server's CPU beside the measured one's, at most (median over the slices). */
    private static final double IDLE_SHARE = 0.05;

    /**
     * httpd beside a second instance of itself, over two starts: the second starts them in the reverse order with their
     * ports traded, so that what goes with a position (a port, being started first) and not with the server shows
     * between starts. The A/A ratio holds 1 over both starts. httpd alone, and the static file alone: the test is about
     * position, and a native server needs no JIT's warm-up (with Tomcat's pair beside it the test took 293 s, with
     * Jetty's too 595 s). Two starts of two servers, warmed and measured each time, are why it takes about 105 s (6
     * rounds a start in 8 s of rounds a server). Each slice's CPU is its own server's, the idle one's a small part of
     * it, and each instance's results hold its own rounds.
     */
    @Test
    void httpdCostsWhatASecondInstanceOfItselfCostsInEitherPosition(@TempDir Path dir) throws Exception {
        String said = bench(dir, 3, "--server", "apache,apache", "--probes", "static", "--pairs", "apache/apache-2",
                "--restarts", "2", "--cpu-time", "8");
        JsonNode side;
        List<JsonNode> servers = new ArrayList<>();
        List<Results> each = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path file : walk.filter(p -> p.getFileName().toString().equals(ResultsJson.FILE)).toList()) {
                servers.add(ResultsJson.MAPPER.readTree(file.toFile()));
                if (servers.get(servers.size() - 1).path("arms").size() < 2) {
                    each.add(ResultsJson.read(file));
                }
            }
        }
        side = servers.stream().filter(j -> j.path("arms").size() > 1).findFirst().orElseThrow(() -> new AssertionError(said));
        // what the rounds said of themselves (one CI run counted 2 over two starts: why is then in its output)
        said.lines().filter(l -> l.contains("round") || l.contains("left out") || l.contains("steal")).limit(40)
                .forEach(l -> System.out.println("side by side, the bench: " + l));
        assertEquals(1, side.get("earlier_starts").size(), "two starts: one earlier");
        assertEquals(1, side.get("cross_ratios").size(), "one pair, one probe: " + side.get("cross_ratios"));
        for (JsonNode cross : side.get("cross_ratios")) {
            System.out.printf("side by side: A/A over 2 starts %s %s/%s %.3f (between starts %.2f)%n",
                    cross.get("probe").asText(), cross.get("a").asText(), cross.get("b").asText(),
                    cross.get("ratio").asDouble(), cross.get("between_restarts").asDouble());
            assertEquals("apache/apache-2", cross.get("a").asText() + "/" + cross.get("b").asText(), cross.toString());
            // A slice the hypervisor took over a tenth of a CPU through is left out, and its round with it: on a
            // machine whose neighbours steal through most slices (7 Dec: 4 of 5 rounds a start, the A/A left with 2 or
            // 6 rounds over two starts) the rounds' bound ends before six count. That is the machine, said as such.
            Assumptions.assumeTrue(cross.get("rounds").asInt() >= 6 || !said.contains("the hypervisor taking over"),
                    "the hypervisor took over a tenth of a CPU through most slices: " + cross.get("rounds").asInt()
                    + " rounds counted over two starts, too few to judge the A/A");
            aa(cross);
        }
        // each instance's own results name its port: the first start's apache on 18081, the second's on 18091
        List<String> apaches = servers.stream().filter(j -> j.path("arms").size() < 2 && j.get("server").asText().equals("apache"))
                .map(j -> j.get("target").asText()).sorted().toList();
        assertEquals(2, apaches.size(), apaches.toString());
        assertTrue(apaches.stream().anyMatch(t -> t.contains(":18081")) && apaches.stream().anyMatch(t -> t.contains(
                ":18091")), "the instance named apache on each port once: " + apaches);
        assertTrue(said.contains("checks: a slice after another server's / after its own:"), said);
        List<Double> idleShares = new ArrayList<>();
        for (JsonNode round : side.get("cpu_rounds").get("rounds")) {
            for (JsonNode slice : round.get("slices")) {
                idleShares.add(slice.get("others_cpu_s").asDouble() / slice.get("server_cpu_s").asDouble());
            }
        }
        double[] sorted = idleShares.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        double median = sorted[sorted.length / 2];
        System.out.printf("side by side: the idle server's CPU beside the measured one's, median %.4f, max %.4f%n",
                median, sorted[sorted.length - 1]);
        Bound.atMost("the idle server's CPU over the measured one's, median of the slices", median, IDLE_SHARE, "an idle"
                + " server takes a few thousandths of the measured one's CPU per slice (an idle JVM 0.13-0.2 % beside"
                + " 50-90 %); 0.05 is a server that did not stop between its slices");
        assertEquals(4, each.size(), "each instance's results, in each start");
        for (Results results : each) {
            CpuRounds rounds = results.cpuRounds();
            assertTrue(rounds != null && !rounds.rounds().isEmpty(), results.server() + " has its rounds");
            assertTrue(rounds.rounds().stream().allMatch(r -> r.slices().stream().allMatch(t -> t.server() == null)),
                    "a server's own rounds are its slices alone");
        }
    }

    /**
     * One server under three protocols in the same rounds: keeping the connection costs httpd's static file less than
     * a connection per request (2.2-3.7 × here), and a full TLS handshake per connection far more (the ratio 0.12-0.17):
     * each arm's requests went out as its protocol says, and each ratio is paired by round. httpd, a native server, has
     * no JIT to wait for: on the embedded server TLS's handshakes kept its JIT compiling through 40 s of warm-up and half
     * of 45 s of rounds (113 s in all; 40-48 s here). A round a JIT compiled through is left out side by side:
     * CrossFiguresTest.
     */
    @Test
    void theProtocolsAreArmsOfTheSameRounds(@TempDir Path dir) throws Exception {
        // at 8 clients, as before --cpu-rate: at one offered rate (half TLS's) 15 s held one round, and none once; 10 s
        // a protocol made 8 rounds of the three (24 s: 6, on 2026-12-04)
        String said = bench(dir, 3, "--server", "apache", "--protocols", "http1.0,keepalive,tls", "--probes", "static",
                "--cpu-time", "10", "--cpu-clients", "8");
        JsonNode side;
        try (Stream<Path> walk = Files.walk(dir)) {
            side = ResultsJson.MAPPER.readTree(walk.filter(p -> p.getFileName().toString().equals(ResultsJson.FILE))
                    .filter(p -> p.getParent().getFileName().toString().startsWith("compare-")).findFirst()
                    .orElseThrow(() -> new AssertionError("no side-by-side results: " + said)).toFile());
        }
        assertEquals(List.of("http1.0", "keepalive", "tls"), List.of(side.get("protocols").get(0).asText(),
                side.get("protocols").get(1).asText(), side.get("protocols").get(2).asText()));
        double perConnectionOverKept = Double.NaN;
        double keptLowerEnd = Double.NaN;
        double perConnectionOverTls = Double.NaN;
        for (JsonNode cross : side.get("cross_ratios")) {
            System.out.printf("side by side: %s %s/%s %.3f ± %.3f over %d rounds%n", cross.get("probe").asText(),
                    cross.get("a").asText(), cross.get("b").asText(), cross.get("ratio").asDouble(),
                    cross.get("ratio_ci").asDouble(), cross.get("rounds").asInt());
            String pair = cross.get("a").asText() + "/" + cross.get("b").asText();
            assertTrue(cross.get("rounds").asInt() > 0, pair + ": every round left out (the lines above say why)\n"
                    + said);
            if (pair.equals("apache:http1.0/apache:keepalive")) {
                perConnectionOverKept = cross.get("ratio").asDouble();
                keptLowerEnd = cross.get("ratio").asDouble() - cross.get("ratio_ci").asDouble();
            } else if (pair.equals("apache:http1.0/apache:tls")) {
                perConnectionOverTls = cross.get("ratio").asDouble() + cross.get("ratio_ci").asDouble();
            }
        }
        Bound.atLeast("static, a connection per request over kept alive", perConnectionOverKept, 1.2,
                "httpd 2.19-3.72 × here (2026-12-04), its lower 95 % end 1.81 at the least; the embedded server's 2.07-3.70");
        // At six rounds, the fewest that give an interval, Wilcoxon's 95 % interval reaches the extreme Walsh averages:
        // 2.688 ± 1.513 in a suite run on 2026-11-29, whose lower end (1.174) a bound of 1.2 on it did not hold.
        Bound.atLeast("static, a connection per request over kept alive (lower 95 % end, where rounds gave one)",
                keptLowerEnd, 1.0, "above 1: a connection per request costs more; 1.17 at the least measured, six"
                        + " rounds");
        Bound.atMost("static, a connection per request over TLS (upper 95 % end)", perConnectionOverTls, 0.5,
                "httpd 0.142 ± 18 % here (a full handshake a request; the embedded server's about 1/30)");
    }

    /**
     * An A/A cross ratio stands within {@link #AA_HALF_WIDTHS} of its own 95 % half-widths from 1; six rounds at least,
     * the fewest that give a paired interval.
     */
    static void aa(JsonNode cross) {
        int rounds = cross.get("rounds").asInt();
        String what = "A/A " + cross.get("probe").asText() + " " + cross.get("a").asText() + "/" + cross.get("b").asText();
        Bound.atLeast(what + ": rounds", rounds, 6, "the fewest for a paired interval");
        double halfWidth = cross.get("ratio_ci").asDouble();
        double bound = Math.max(AA_HALF_WIDTHS * halfWidth, AA_RUN_SDS * AA_BETWEEN_RUNS_SD);
        Bound.within(what + ": cross ratio", cross.get("ratio").asDouble(), 1 - bound, 1 + bound, String.format(
                "1.7 × its own 95 %% half-width (±%.3f over %d rounds): 3.3 sd of the paired mean, and at least 3.3 ×"
                        + " an A/A's spread from run to run (log sd %.3f)", halfWidth, rounds, AA_BETWEEN_RUNS_SD));
    }

    /**
     * How far an A/A cross ratio moved from run to run here, log sd: httpd against a second instance over two starts
     * read 0.9967, 0.9375 and 1.021 in three runs on 28 Nov 2026 (the second outside 1.7 × its own half-width, ±0.033:
     * over two starts the half-width is Student's with one degree of freedom and swings from ±3 % to ±27 %).
     */
    static final double AA_BETWEEN_RUNS_SD = 0.035;
    static final double AA_RUN_SDS = 3.3;

    /**
     * A short bench (the ladder at 8 clients, a 1 s window, {@code warmUp} s of warm-up a workload) with {@code args}
     * into {@code dir}, on the default page only; what it printed, once it has exited 0.
     */
    private static String bench(Path dir, int warmUp, String... args) {
        Assumptions.assumeTrue(CanonicalPage.builtBytes() == CanonicalPage.DEFAULT_BYTES,
                "run once, with the default page (this build's is " + CanonicalPage.builtBytes() + " bytes)");
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--clients", "8", "--ramp-up", "0.5", "--duration", "1", "--ramp-down", "0.2", "--pause",
                "0", "--warm-up", Integer.toString(warmUp), "--out", dir.toString()));
        CommandRun ran = CommandRun.of(new BenchCommand(), all.toArray(String[]::new));
        int status = ran.status();
        String said = ran.console();
        assertEquals(0, status, said);
        return said;
    }
}
