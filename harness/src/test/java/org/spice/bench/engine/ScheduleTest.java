package org.spice.bench.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.spice.bench.model.Arrivals;
import org.spice.bench.model.Stop;
import org.spice.bench.net.Endpoint;
import org.spice.bench.net.Request;
import org.spice.bench.net.TestServer;
import org.spice.testkit.Bound;

/** When an open loop's requests are due: evenly, or at random as a Poisson process of the same rate. */
@Tag("unit")
class ScheduleTest {

    private static final double RATE = 3000;
    private static final int RUNS = 200;
    private static final long N = (long) RUNS * Schedule.Poisson.RUN;

    @Test
    void evenArrivalsAreOneEveryOneOverTheRate() {
        Schedule even = Schedule.of(Arrivals.EVEN, RATE, 7);
        for (long k : new long[] {0, 1, 2, 2999, 3000, 1_000_000_007L}) {
            assertEquals((long) Math.floor(k * 1e9 / RATE), even.offset(k), "request " + k);
        }
    }

    @Test
    void poissonArrivalsHoldTheRateAndFallAtRandom() {
        Schedule poisson = Schedule.of(Arrivals.POISSON, RATE, 1);
        double runNanos = Schedule.Poisson.RUN * 1e9 / RATE;
        double meanGap = 1e9 / RATE;
        long[] at = new long[(int) N];
        at[0] = poisson.offset(0);
        long shortGaps = 0;
        for (int k = 1; k < N; k++) {
            at[k] = poisson.offset(k);
            assertTrue(at[k] >= at[k - 1], "request " + k + " due before the one ahead of it");
            if (k % Schedule.Poisson.RUN == 0) {
                double edge = k / Schedule.Poisson.RUN * runNanos;
                assertTrue(at[k - 1] < edge && at[k] >= edge, "a run's requests stay in its span: " + k);
            }
            shortGaps += at[k] - at[k - 1] < meanGap / 10 ? 1 : 0;
        }
        Gaps gaps = Gaps.of(at);
        double mean = gaps.mean();
        double cv = gaps.spread();
        Bound.ratio("mean gap over 1 / rate", mean / meanGap, 1, 0.001, "the last request of each run falls within a"
                + " gap of its span's end; over 200 runs that is a part in 200 × 1,024 of the mean");
        Bound.within("gaps' spread over their mean (an exponential's: 1)", cv, 0.98, 1.02, "204,800 draws: the"
                + " estimate's sd is about 0.003 (an even schedule's is 0)");
        Bound.within("share of gaps under a tenth of the mean (exponential: 1 - e^-0.1 = 0.0952)", (double) shortGaps
                / (N - 1), 0.092, 0.098, "binomial sd 0.00065 over 204,799 gaps: the bounds are five of it");
    }

    @Test
    void theSameSeedDrawsTheSameScheduleOnEveryThread() throws Exception {
        Schedule one = Schedule.of(Arrivals.POISSON, RATE, 5);
        Schedule again = Schedule.of(Arrivals.POISSON, RATE, 5);
        Schedule other = Schedule.of(Arrivals.POISSON, RATE, 6);
        long[] picks = {0, 1, 1023, 1024, 50_000, 7, 3_000_000};
        long[] elsewhere = CompletableFuture.supplyAsync(() -> Arrays.stream(picks).map(one::offset)
                .toArray()).get();
        for (int i = 0; i < picks.length; i++) {
            assertEquals(one.offset(picks[i]), again.offset(picks[i]), "request " + picks[i]);
            assertEquals(one.offset(picks[i]), elsewhere[i], "request " + picks[i] + " from another thread");
        }
        assertNotEquals(one.offset(50_000), other.offset(50_000), "another seed, another draw");
    }

    @Test
    void anOpenLoopSendsEveryRequestAtItsRandomTime() throws Exception {
        ConcurrentLinkedQueue<Long> arrivals = new ConcurrentLinkedQueue<>();
        TestServer.Handler ok = (head, socket, out) -> {
            arrivals.add(System.nanoTime());
            answer(out);
            return false;
        };
        try (TestServer server = new TestServer(ok)) {
            Request get = Request.get(Endpoint.parse(server.url()), "/", false, 5);
            OpenPlan plan = new OpenPlan(List.of(get), Schedule.of(Arrivals.POISSON, 500, 1), 2, 100, 1000, 10_000,
                    null);
            OpenStats stats = OpenLoop.run(plan, null, new Stop());
            assertEquals(1000, stats.succeeded(), "every request of the schedule sent and answered");
            Gaps gaps = Gaps.of(arrivals.stream().mapToLong(Long::longValue).sorted().toArray());
            double mean = gaps.mean();
            double cv = gaps.spread();
            System.out.printf("poisson at 500 req/s: arrivals' gaps at the server, mean %.2f ms, spread %.2f of it%n",
                    mean / 1e6, cv);
            Bound.atLeast("the arrivals' gaps at the server, spread over their mean", cv, 0.8, "an exponential's is 1,"
                    + " its estimate over 999 gaps within 0.1 of it; the schedule's own drawn gaps are what the server"
                    + " sees, plus the client's and the server's jitter, which only widen them (an even schedule's"
                    + " would be near 0)");
        }
    }

    /** The gaps between successive {@code times}: their mean, and their spread (standard deviation over mean). */
    private record Gaps(double mean, double spread) {
        static Gaps of(long[] times) {
            double sum = 0;
            double squares = 0;
            for (int i = 1; i < times.length; i++) {
                double gap = times[i] - times[i - 1];
                sum += gap;
                squares += gap * gap;
            }
            double mean = sum / (times.length - 1);
            return new Gaps(mean, Math.sqrt(squares / (times.length - 1) - mean * mean) / mean);
        }
    }

    private static void answer(OutputStream out) throws IOException {
        out.write("HTTP/1.0 200 OK\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello".getBytes(
                StandardCharsets.US_ASCII));
    }
}
