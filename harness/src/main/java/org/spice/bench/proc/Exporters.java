package org.spice.bench.proc;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The server's CPU read on the server's machine, from the Prometheus exporters {@code scripts/spice metrics-agent}
 * runs there: node_exporter's {@code node_cpu_seconds_total} (every mode but idle and iowait, as /proc/stat is read
 * here) is the machine's busy time; process-exporter's {@code namedprocess_namegroup_cpu_seconds_total} of the group
 * {@value #GROUP} (the servers, their CGI and FastCGI programs) is the server's, and of {@value #OWN} (the two
 * exporters) what measuring costs, taken off the machine's. Where the agent also serves the server's cgroup (its
 * {@value #CGROUP_METRIC}, every process in the cgroup counted once, CGI programs reaped between two scrapes included),
 * that is the server's figure. Each reading scrapes every URL once; each exporter reads the kernel when scraped, so a
 * reading is of that instant.
 */
public final class Exporters {

    /** The process-exporter group of the server's processes (metrics-agent's configuration names them). */
    public static final String GROUP = "spice";
    /** The group of the exporters themselves. */
    public static final String OWN = "spice-exporters";
    /** The cgroup exporter's counter (harness cgroup-exporter), as the text format names it. */
    public static final String CGROUP_METRIC = "spice_cgroup_cpu_seconds_total";

    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)})?\\s+(\\S+)(\\s+-?\\d+)?$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final List<URI> urls;
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

    /**
     * The CPU seconds one reading found; NaN for what no URL exposed: the machine's busy time, the process group's,
     * the exporters' own, the server's cgroup's ({@code cgroup} its path there, or null).
     */
    public record Reading(double machineBusyS, double processesS, double exportersS, double cgroupS, String cgroup) {

        /** The server's CPU seconds: its cgroup's where the agent serves one, else its process group's. */
        public double serverS() {
            return Double.isNaN(cgroupS) ? processesS : cgroupS;
        }

        /** The machine's busy time less the exporters' own: what the machine spent besides measuring. */
        public double machineLessExportersS() {
            return Double.isNaN(exportersS) ? machineBusyS : machineBusyS - exportersS;
        }
    }

    public Exporters(List<URI> urls) {
        this.urls = List.copyOf(urls);
    }

    public List<URI> urls() {
        return urls;
    }

    /**
     * Scrapes every URL once, all at once, and adds up what they expose. At once, because a reading stands for the
     * instant of a slice's edge: one after the other, the cgroup's counter (3 ms to scrape here) was read after
     * process-exporter's (30-100 ms, it walks /proc), as late into the next slice, and a side-by-side A/A of one httpd
     * read through the agent against its cgroup read here spread ±38 % over 6 rounds.
     */
    public Reading read() throws IOException {
        List<CompletableFuture<HttpResponse<String>>> sent = new ArrayList<>();
        for (URI url : urls) {
            sent.add(client.sendAsync(HttpRequest.newBuilder(url).timeout(TIMEOUT).header("Accept", "text/plain").GET()
                    .build(), HttpResponse.BodyHandlers.ofString()));
        }
        double machine = Double.NaN;
        double server = Double.NaN;
        double own = Double.NaN;
        double cgroupS = Double.NaN;
        String cgroup = null;
        for (int i = 0; i < urls.size(); i++) {
            Reading one = parse(body(urls.get(i), sent.get(i)));
            machine = plus(machine, one.machineBusyS());
            server = plus(server, one.processesS());
            own = plus(own, one.exportersS());
            cgroupS = plus(cgroupS, one.cgroupS());
            cgroup = cgroup != null ? cgroup : one.cgroup();
        }
        return new Reading(machine, server, own, cgroupS, cgroup);
    }

    private static String body(URI url, CompletableFuture<HttpResponse<String>> sent) throws IOException {
        try {
            HttpResponse<String> response = sent.get();
            if (response.statusCode() != 200) {
                throw new IOException(url + " answered " + response.statusCode() + ", not 200");
            }
            return response.body();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reading " + url, e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(url + ": " + e.getCause(), e.getCause());
        }
    }

    /** The CPU seconds in one exporter's text exposition (Prometheus' text format, version 0.0.4). */
    static Reading parse(String text) {
        double machine = Double.NaN;
        double server = Double.NaN;
        double own = Double.NaN;
        double cgroupS = Double.NaN;
        String cgroup = null;
        for (String line : text.split("\n")) {
            line = line.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            Matcher sample = SAMPLE.matcher(line);
            if (!sample.matches()) {
                continue;
            }
            String name = sample.group(1);
            if (!name.equals("node_cpu_seconds_total") && !name.equals("namedprocess_namegroup_cpu_seconds_total")
                    && !name.equals(CGROUP_METRIC)) {
                continue;
            }
            Map<String, String> labels = labels(sample.group(3));
            double value = Double.parseDouble(sample.group(4));
            if (name.equals(CGROUP_METRIC)) {
                cgroupS = plus(cgroupS, value);
                cgroup = labels.get("cgroup");
            } else if (name.equals("node_cpu_seconds_total")) {
                String mode = labels.getOrDefault("mode", "");
                if (!mode.equals("idle") && !mode.equals("iowait")) {
                    machine = plus(machine, value);
                }
            } else if (GROUP.equals(labels.get("groupname"))) {
                server = plus(server, value);
            } else if (OWN.equals(labels.get("groupname"))) {
                own = plus(own, value);
            }
        }
        return new Reading(machine, server, own, cgroupS, cgroup);
    }

    private static Map<String, String> labels(String text) {
        Map<String, String> labels = new LinkedHashMap<>();
        if (text != null) {
            Matcher label = LABEL.matcher(text);
            while (label.find()) {
                labels.put(label.group(1), label.group(2).replace("\\\"", "\"").replace("\\\\", "\\"));
            }
        }
        return labels;
    }

    private static double plus(double sum, double value) {
        return Double.isNaN(sum) ? value : Double.isNaN(value) ? sum : sum + value;
    }
}
