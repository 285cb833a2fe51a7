package org.spice.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.HdrHistogram.Histogram;
import org.spice.bench.analysis.Summaries;
import org.spice.bench.figures.LatencySummary;
import org.spice.bench.model.Cpu;
import org.spice.bench.model.CpuRounds;
import org.spice.bench.model.CpuSlice;
import org.spice.bench.model.Failure;
import org.spice.bench.model.Results;
import org.spice.bench.model.RunRecord;
import org.spice.bench.model.RunRecordBuilder;
import org.spice.bench.model.RecordedSettings;

/**
 * A run with known figures for the report's tests: static, servlet and cgi at 1, 2 and 4 clients on
 * "apache" (whose CGI children only the machine's CPU sees), servlet client-bound at 2 and 4 clients,
 * cgi failed at 4. Server CPU per request: static 100 µs, servlet 150 µs; cgi 300 µs in the process tree
 * but 1,200 µs on the machine.
 */
final class ReportFixture {

    static final double DURATION_S = 10;

    private ReportFixture() {
    }

    static Results apache() {
        List<RunRecord> runs = new ArrayList<>();
        int[] clients = {1, 2, 4};
        double[] staticRates = {1000, 1800, 2000};
        double[] servletRates = {800, 1500, 1400};
        double[] cgiRates = {200, 300, 250};
        for (int i = 0; i < clients.length; i++) {
            runs.add(run("static", clients[i], staticRates[i], 100, 100, 0.5, false));
        }
        for (int i = 0; i < clients.length; i++) {
            runs.add(run("servlet", clients[i], servletRates[i], 150, 150, i > 0 ? 0.95 : 0.5, false));
        }
        for (int i = 0; i < clients.length; i++) {
            runs.add(run("cgi", clients[i], cgiRates[i], 300, 1200, 0.3, i == 2));
        }
        RecordedSettings settings = RecordedSettings.builder().latencyBoundMs(100.0).engine("event-loop").clients(List.of(1, 2, 4))
                .pinning("x".repeat(400)).build();
        return Summaries.conclude(new Results("http://127.0.0.1:18081", "apache", 6250, settings, "2026-11-23T00:00:00Z",
                "2026-11-23T00:05:00Z", false, null, List.of("a note the engine wrote"), runs));
    }

    /**
     * The same runs with the kernel's counters per request: cgi 1 process, 41 page faults; the others none and 0.1;
     * 3 context switches each; 6,300 bytes read and 6,500 written per request.
     */
    static Results apacheWithCounters() {
        Results apache = apache();
        List<RunRecord> runs = apache.runs().stream().map(r -> r.toBuilder().kernel(new org.spice.bench.proc.KernelCounters(
                2 * r.requests(), r.requests(), r.probe().equals("cgi") ? 41 * r.requests() : r.requests() / 10, 0,
                6_300 * r.requests(), 6_500 * r.requests(), r.probe().equals("cgi") ? r.requests() : 0)).build()).toList();
        return Summaries.conclude(new Results(apache.target(), "apache", 6250, apache.settings(), apache.startedAt(), apache.finishedAt(),
                false, null, List.of(), runs));
    }

    /** One mix: rate, CPU per request (process tree, machine), the client's cores, and a real latency histogram. */
    static RunRecord run(String probe, int clients, double rate, double serverUs, double machineUs, double clientCores,
            boolean failed) {
        long requests = (long) (rate * DURATION_S);
        long[] perClient = new long[clients];
        double[] meanMs = new double[clients];
        double mean = clients * 1000.0 / rate;
        for (int i = 0; i < clients; i++) {
            // uneven on purpose: client i does (1 + i/10) shares
            perClient[i] = Math.round(requests * (1 + i / 10.0) / (clients + clients * (clients - 1) / 20.0));
            meanMs[i] = mean;
        }
        Histogram histogram = new Histogram(3);
        Random random = new Random(clients * 31L + probe.hashCode());
        for (int i = 0; i < 20_000; i++) {
            histogram.recordValue((long) (mean * 1e6 * (0.5 + random.nextDouble() + (i % 1000 == 0 ? 20 : 0))));
        }
        LatencySummary latency = new LatencySummary(mean, mean, mean * 1.4, mean * 3, mean * 10, mean * 20,
                LatencySummary.distribution(histogram));
        RunRecordBuilder run = RunRecord.builder(probe, clients, 1).durationS(DURATION_S).requests(requests)
                .errors(Map.of("connect_refused", failed ? 5L : 0L)).bytes(requests * 200, requests * 6250)
                .expectedBodyBytes(6250).latency(latency).perClient(perClient, meanMs, new long[clients])
                .cpu(new Cpu(clientCores * DURATION_S, serverUs * requests / 1e6, machineUs * requests / 1e6));
        return (failed ? run.failed(Failure.of(Failure.Kind.SERVER_DOWN, "the server stopped answering")) : run).build();
    }

    /**
     * The apache fixture with CPU rounds at 4 clients: static at 100 µs ± 2 %, servlet 0.97 × it, give or take a
     * percent by round, cgi 12 × (read on the machine, as apache's CGI programs are reaped by the kernel).
     */
    static Results apacheWithRounds() {
        return apacheWithRounds(0.97);
    }

    /** The same, servlet at {@code servletRatio} × the static file's CPU. */
    static Results apacheWithRounds(double servletRatio) {
        Results apache = apache();
        CpuRounds rounds = new CpuRounds(4, 0.05, 90, "every probe within its precision", List.of());
        for (int r = 0; r < 8; r++) {
            double staticUs = 100 * (1 + (r % 2 == 0 ? 0.02 : -0.02));
            rounds = rounds.with(new CpuRounds.Round(r + 1, List.of(taken("servlet", servletRatio * staticUs * (1 + (r % 3 - 1) * 0.01)),
                    taken("static", staticUs), taken("cgi", 12 * staticUs))), "every probe within its precision");
        }
        return Summaries.conclude(new Results(apache.target(), apache.server(), apache.bodyBytes(), apache.settings(), apache.startedAt(),
                apache.finishedAt(), false, null, apache.notes(), List.of(), null, apache.runs(), List.of(), rounds));
    }

    private static CpuSlice taken(String probe, double cpuUs) {
        return new CpuSlice(probe, 2000, 0, 1.0, cpuUs * 2000 / 1e6, cpuUs * 2000 / 1e6, 0.4, Double.NaN);
    }

    /**
     * A bench at one page size, as a sweep reads it: static and cgi at 4 clients on "embedded", server CPU per
     * request static 50 + 10 x KB µs and cgi 1,000 + 12 x KB µs (KB = 1,024 bytes), exactly.
     */
    static Results sized(int bytes) {
        double kb = bytes / 1024.0;
        List<RunRecord> runs = List.of(run("static", 4, 2000, 50 + 10 * kb, 50 + 10 * kb, 0.5, false),
                run("cgi", 4, 300, 1000 + 12 * kb, 1000 + 12 * kb, 0.3, false));
        RecordedSettings settings = RecordedSettings.builder().latencyBoundMs(100.0).engine("event-loop").clients(List.of(4)).build();
        return Summaries.conclude(new Results("http://127.0.0.1:18080", "embedded", bytes, settings, "2026-11-24T00:00:00Z",
                "2026-11-24T00:01:00Z", false, null, List.of(), runs));
    }

    /** The probes of httpd on prefork and nginx's njs: a dozen, as a report of today's interfaces has them. */
    static final List<String> DOZEN = List.of("static", "servlet", "jsp", "cgi", "shtml", "module", "fastcgi", "php-fpm",
            "mod-php", "wsgi", "lua", "njs");

    /** A dozen probes at 1, 2 and 4 clients, with CPU rounds: probe i costs 1 + i / 4 × the static file. */
    static Results dozenWithRounds() {
        List<RunRecord> runs = new ArrayList<>();
        for (int p = 0; p < DOZEN.size(); p++) {
            for (int clients : new int[] {1, 2, 4}) {
                runs.add(run(DOZEN.get(p), clients, 2000.0 * clients / (1 + p / 4.0), 100 * (1 + p / 4.0),
                        100 * (1 + p / 4.0), 0.5, false));
            }
        }
        CpuRounds rounds = new CpuRounds(4, 0.05, 90, "every probe within its precision", List.of());
        for (int r = 0; r < 8; r++) {
            List<CpuSlice> slices = new ArrayList<>();
            for (int p = 0; p < DOZEN.size(); p++) {
                slices.add(taken(DOZEN.get(p), 100 * (1 + p / 4.0) * (1 + (r % 2 == 0 ? 0.01 : -0.01))));
            }
            rounds = rounds.with(new CpuRounds.Round(r + 1, slices), "every probe within its precision");
        }
        RecordedSettings settings = RecordedSettings.builder().latencyBoundMs(100.0).engine("event-loop").clients(List.of(1, 2, 4)).build();
        return Summaries.conclude(new Results("http://127.0.0.1:18081", "apache-prefork", 6250, settings, "2026-11-24T00:00:00Z",
                "2026-11-24T00:05:00Z", false, null, List.of(), List.of(), null, runs, List.of(), rounds));
    }
}
