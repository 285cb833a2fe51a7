package org.spice.commands;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

import org.spice.bench.model.ResultsJson;
import org.spice.bench.model.Server;
import org.spice.bench.net.Endpoint;
import org.spice.bench.net.ResponseParser;
import org.spice.bench.plan.PlanCommands;
import org.spice.bench.proc.CpuMeter;
import org.spice.bench.proc.Strace;
import org.spice.bench.report.ReportWriter;
import org.spice.bench.run.Recorder;
import org.spice.cli.Cli;
import org.spice.page.CanonicalPage;
import org.spice.page.Probe;
import org.spice.servers.Servers;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code spice explain PROBE[,PROBE...]}: the system calls the server makes per request, by name, for each probe
 * side by side. A fixed count of requests (HTTP/1.0, a connection each) runs with the server's processes traced
 * by strace; the calls strace counted, divided by the requests that succeeded, are the result (explain.json).
 */
@Command(name = "explain", sortOptions = false, mixinStandardHelpOptions = true,
        description = "The system calls per request of each probe, by name (strace -f -c attached to the server's"
                + " processes during a fixed count of requests). Tracing slows the server many times: the counts are"
                + " the result, not the times.")
public final class ExplainCommand extends Cli.Printing implements Callable<Integer> {

    /** Requests sent untraced first, so that what is counted is the server's steady path, not its first calls. */
    private static final int WARM_REQUESTS = 500;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "PROBE[,PROBE...]", description = "The probes, in the table's order.")
    String probes;

    @Option(names = "--server", paramLabel = "NAME", description = "Start this server and trace it: embedded (default),"
            + " apache, tomcat, jetty or nginx.")
    String server = Server.EMBEDDED.id();

    @Option(names = "--target", paramLabel = "BASE_URL", description = "A server already running on this machine"
            + " instead (with --server-pid).")
    String target;

    @Option(names = "--server-pid", split = ",", paramLabel = "LIST", description = "With --target: its processes.")
    List<Long> serverPids = new ArrayList<>();

    @Option(names = "--clients", paramLabel = "N", description = "Concurrent connections (default 4).")
    int clients = 4;

    @Option(names = "--requests", paramLabel = "M", description = "Requests traced per probe (default 2000).")
    int requests = 2000;

    @Option(names = "--out", paramLabel = "DIR", description = "Where explain.json goes (default results/explain-TIME);"
            + " a bench results directory, and scripts/spice report DIR shows the table in its report.")
    Path outDir;

    @Override
    public Integer call() throws Exception {
        Cli.Checks check = new Cli.Checks(spec);
        List<Probe> list = check.probes(List.of(probes.split(",")));
        if (clients < 1 || clients > 256) {
            throw check.fail("--clients takes a whole number from 1 to 256, not " + clients);
        }
        if (requests < clients || requests > 1_000_000) {
            throw check.fail("--requests takes a whole number from --clients (" + clients + ") to 1000000, not " + requests);
        }
        Server named = PlanCommands.server(check, server);
        if ((target == null) != serverPids.isEmpty()) {
            throw check.fail("--target and --server-pid go together: strace attaches to the server's processes");
        }
        if (!Strace.installed()) {
            err.println("spice explain: strace is not installed: apt-get install strace");
            return 1;
        }
        Path dir = outDir != null ? outDir : Path.of("results", "explain-" + Recorder.stamp());
        Files.createDirectories(dir);
        if (target != null) {
            return explain(Endpoint.parse(target), serverPids, list, dir);
        }
        Servers life = new Servers(PlanCommands.projectRoot(), err, err);
        int port = named.defaultPort();
        life.start(named, port);
        try {
            return explain(Endpoint.parse("http://127.0.0.1:" + port), life.pids(named, port), list, dir);
        } finally {
            life.stop(named, port);
        }
    }

    private int explain(Endpoint base, List<Long> pids, List<Probe> list, Path dir) throws Exception {
        for (long pid : pids) {
            if (!CpuMeter.processExists(pid)) {
                err.println("spice explain: --server-pid: no process " + pid + " on this machine");
                return 2;
            }
        }
        Map<String, Map<String, Double>> perRequest = new LinkedHashMap<>();
        Map<String, Long> counted = new LinkedHashMap<>();
        for (Probe probe : list) {
            long warm = load(base, probe, Math.min(WARM_REQUESTS, requests));
            if (warm == 0) {
                err.println("spice explain: " + probe.id() + " answered no request with the page at " + base);
                return 1;
            }
            Map<String, Long> calls;
            long ok;
            try (Strace strace = Strace.attach(pids, dir.resolve("strace-" + probe.id() + ".txt"))) {
                ok = load(base, probe, requests);
                calls = strace.stop();
            }
            Map<String, Double> each = new LinkedHashMap<>();
            calls.forEach((name, n) -> each.put(name, ok > 0 ? n / (double) ok : Double.NaN));
            perRequest.put(probe.id(), each);
            counted.put(probe.id(), ok);
            err.printf(Locale.ROOT, "explain: %s, %d of %d requests answered with the page while traced%n", probe.id(), ok,
                    requests);
        }
        out.print(table(perRequest));
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("schema", "spice-explain/1");
        json.put("target", base.toString());
        json.put("server_pid", pids);
        json.put("clients", clients);
        json.put("requests", requests);
        json.put("requests_counted", counted);
        json.put("method", "strace -f -c attached to the server's processes during the requests; calls / requests"
                + " answered with the page. Tracing slows the server: the counts are the result, not the times");
        json.put("syscalls_per_request", perRequest);
        Path file = dir.resolve(ReportWriter.EXPLAIN_FILE);
        ResultsJson.MAPPER.writerWithDefaultPrettyPrinter().writeValue(file.toFile(), json);
        out.println("explain: " + file.toAbsolutePath() + (Files.exists(dir.resolve(ResultsJson.FILE))
                ? " (scripts/spice report " + dir + " puts it in the report)" : ""));
        return 0;
    }

    /** Calls per request by name, a column per probe, the calls ordered by their largest count. */
    static String table(Map<String, Map<String, Double>> perRequest) {
        Set<String> names = new LinkedHashSet<>();
        perRequest.values().forEach(m -> names.addAll(m.keySet()));
        List<String> ordered = new ArrayList<>(names);
        ordered.sort((a, b) -> Double.compare(largest(perRequest, b), largest(perRequest, a)));
        StringBuilder out = new StringBuilder("system calls per request (strace -f -c; the counts, not the times)\n");
        out.append(String.format(Locale.ROOT, "%-20s", "syscall"));
        perRequest.keySet().forEach(p -> out.append(String.format(Locale.ROOT, " %10s", p)));
        out.append('\n');
        for (String name : ordered) {
            out.append(String.format(Locale.ROOT, "%-20s", name));
            for (Map<String, Double> calls : perRequest.values()) {
                Double n = calls.get(name);
                out.append(String.format(Locale.ROOT, " %10s", n == null ? "-" : String.format(Locale.ROOT, "%.2f", n)));
            }
            out.append('\n');
        }
        out.append(String.format(Locale.ROOT, "%-20s", "total"));
        for (Map<String, Double> calls : perRequest.values()) {
            out.append(String.format(Locale.ROOT, " %10.1f", calls.values().stream().mapToDouble(Double::doubleValue).sum()));
        }
        return out.append('\n').toString();
    }

    private static double largest(Map<String, Map<String, Double>> perRequest, String name) {
        return perRequest.values().stream().mapToDouble(m -> m.getOrDefault(name, 0.0)).max().orElse(0);
    }

    /** {@code count} GETs of the probe, HTTP/1.0, {@link #clients} at a time; returns how many had the page. */
    private long load(Endpoint base, Probe probe, int count) throws InterruptedException {
        List<String> paths = probe.paths();
        long expected = CanonicalPage.builtBytes();
        AtomicLong next = new AtomicLong();
        AtomicLong ok = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                running.add(pool.submit(() -> {
                    for (long i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
                        if (get(base, base.prefix() + paths.get((int) (i % paths.size())), expected)) {
                            ok.incrementAndGet();
                        }
                    }
                }));
            }
            for (Future<?> f : running) {
                try {
                    f.get();
                } catch (java.util.concurrent.ExecutionException e) {
                    throw new IllegalStateException(e.getCause());
                }
            }
        } finally {
            pool.shutdownNow();
        }
        return ok.get();
    }

    /** One GET over its own connection; true when the answer is a 200 with exactly the page's size. */
    private static boolean get(Endpoint base, String path, long expected) {
        try (Socket socket = new Socket()) {
            socket.connect(base.address(), 10_000);
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + path + " HTTP/1.0\r\nHost: " + base.host() + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            ResponseParser parser = new ResponseParser();
            parser.reset(expected);
            byte[] buffer = new byte[16384];
            while (!parser.ended()) {
                int n = in.read(buffer);
                if (n < 0) {
                    parser.eof();
                } else {
                    parser.feed(buffer, 0, n);
                }
            }
            return parser.outcome() == null;
        } catch (IOException e) {
            return false;
        }
    }
}
