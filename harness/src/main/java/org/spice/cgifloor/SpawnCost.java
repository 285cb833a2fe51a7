package org.spice.cgifloor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.spice.bench.analysis.Summaries;
import org.spice.bench.figures.SpiceFigures;
import org.spice.bench.model.Results;
import org.spice.bench.report.CgiFloor;
import org.spice.page.Probe;

/**
 * What starting the CGI program costs on its own (cgi-c/spawn-cost: fork+exec and posix_spawn, per spawn), and that
 * set against the server CPU per CGI request a bench measured: how much of a CGI request is process creation and how
 * much the server's CGI plumbing ({@code spice cgi-floor}).
 */
public final class SpawnCost {

    private static final Pattern LINE = Pattern.compile("(\\w+) wall_us=([0-9.]+) cpu_us=([0-9.]+)");

    /** One way of starting the program, per spawn. */
    public record Spawn(String method, double wallUs, double cpuUs) {
    }

    private SpawnCost() {
    }

    /** The first program's fork+exec+wait CPU: the program as the servers run it (the first --program). */
    public static CgiFloor floor(Map<String, List<Spawn>> measured) {
        for (Map.Entry<String, List<Spawn>> program : measured.entrySet()) {
            for (Spawn spawn : program.getValue()) {
                if (spawn.method().equals("fork_exec")) {
                    return new CgiFloor(program.getKey(), spawn.cpuUs());
                }
            }
            return null;
        }
        return null;
    }

    public static List<Spawn> measure(Path tool, Path program, int spawns) throws IOException {
        Process process = new ProcessBuilder(tool.toString(), program.toString(), Integer.toString(spawns))
                .redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (process.waitFor() != 0) {
                throw new IOException(output.trim());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        }
        return parse(output);
    }

    public static List<Spawn> parse(String output) {
        List<Spawn> spawns = new ArrayList<>();
        Matcher m = LINE.matcher(output);
        while (m.find()) {
            spawns.add(new Spawn(m.group(1), Double.parseDouble(m.group(2)), Double.parseDouble(m.group(3))));
        }
        return spawns;
    }

    public static String table(Map<String, List<Spawn>> measured) {
        StringBuilder out = new StringBuilder("Starting the CGI program, without a server (per spawn, cgi-c/spawn-cost):\n");
        out.append(String.format(Locale.ROOT, "  %-22s %-12s %10s %10s%n", "program", "method", "wall us", "CPU us"));
        measured.forEach((label, spawns) -> spawns.forEach(s -> out.append(String.format(Locale.ROOT,
                "  %-22s %-12s %10.0f %10.0f%n", label, s.method(), s.wallUs(), s.cpuUs()))));
        return out.toString();
    }

    /**
     * The share of process creation in the server's CPU per CGI request, from one bench run: the cheapest
     * measured fork+exec CPU of each program against the server CPU per request of the cgi probe at its peak.
     */
    public static String split(Results results, Map<String, List<Spawn>> measured) {
        StringBuilder out = new StringBuilder();
        String server = results.server() != null ? results.server() : results.target();
        Map<String, SpiceFigures.Summary> byProbe = new LinkedHashMap<>();
        for (SpiceFigures.Summary s : Summaries.of(results)) {
            byProbe.put(s.probe(), s);
        }
        SpiceFigures.Summary cgi = byProbe.get(Probe.CGI.id());
        double machineUs = cgi == null ? Double.NaN : cgi.machineCpuUsPerReqAtPeak();
        double serverUs = cgi == null ? Double.NaN : Math.max(cgi.serverCpuUsPerReqAtPeak(), Double.isNaN(machineUs) ? 0 : machineUs);
        if (cgi == null || Double.isNaN(serverUs) || serverUs == 0) {
            return "  " + server + ": no cgi run with server CPU in this result (bench with --server-pid or a started server)\n";
        }
        out.append(String.format(Locale.ROOT, "%s: server CPU per cgi request at the peak %s us (its process tree %s us,"
                + " the machine less the client %s us)%n", server, us(serverUs), us(cgi.serverCpuUsPerReqAtPeak()),
                us(machineUs)));
        List<String> others = new ArrayList<>();
        for (String other : List.of(Probe.FASTCGI.id(), Probe.MODULE.id(), Probe.STATIC.id())) {
            SpiceFigures.Summary s = byProbe.get(other);
            if (s != null && !Double.isNaN(s.serverCpuUsPerReqAtPeak())) {
                others.add(other + " " + us(s.serverCpuUsPerReqAtPeak()) + " us");
            }
        }
        if (!others.isEmpty()) {
            out.append("  for comparison, per request: ").append(String.join(", ", others)).append('\n');
        }
        measured.forEach((label, spawns) -> spawns.stream().filter(s -> s.method().equals("fork_exec")).findFirst()
                .ifPresent(s -> out.append(String.format(Locale.ROOT,
                        "  starting %s (fork+exec+wait) %.0f us = %.0f%% of it; the server's CGI plumbing and the"
                                + " rest: %.0f us%n", label, s.cpuUs(), 100 * s.cpuUs() / serverUs, serverUs - s.cpuUs()))));
        return out.toString();
    }

    private static String us(double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.0f", value);
    }
}
