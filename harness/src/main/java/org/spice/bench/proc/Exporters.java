package org.spice.bench.proc;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The server's CPU read on the server's machine, from the Prometheus exporters {@code scripts/spice metrics-agent}
 * runs there: node_exporter's {@code node_cpu_seconds_total} (every mode but idle and iowait, as /proc/stat is read
 * here) is the machine's busy time; process-exporter's {@code namedprocess_namegroup_cpu_seconds_total} of the group
 * {@value #GROUP} (the servers, their CGI and FastCGI programs) is the server's, and of {@value #OWN} (the two
 * exporters) what measuring costs, taken off the machine's. Each reading scrapes every URL once; process-exporter reads
 * /proc when scraped, so a reading is of that instant.
 */
public final class Exporters {

    /** The process-exporter group of the server's processes (metrics-agent's configuration names them). */
    public static final String GROUP = "spice";
    /** The group of the exporters themselves. */
    public static final String OWN = "spice-exporters";

    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)})?\\s+(\\S+)(\\s+-?\\d+)?$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final List<URI> urls;
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

    /** The CPU seconds one reading found; NaN for what no URL exposed. */
    public record Reading(double machineBusyS, double serverS, double exportersS) {

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

    /** Scrapes every URL once and adds up what they expose. */
    public Reading read() throws IOException {
        double machine = Double.NaN;
        double server = Double.NaN;
        double own = Double.NaN;
        for (URI url : urls) {
            Reading one = parse(scrape(url));
            machine = plus(machine, one.machineBusyS());
            server = plus(server, one.serverS());
            own = plus(own, one.exportersS());
        }
        return new Reading(machine, server, own);
    }

    private String scrape(URI url) throws IOException {
        HttpRequest request = HttpRequest.newBuilder(url).timeout(TIMEOUT).header("Accept", "text/plain").GET().build();
        try {
            HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IOException(url + " answered " + response.statusCode() + ", not 200");
            }
            return response.body();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reading " + url, e);
        }
    }

    /** The CPU seconds in one exporter's text exposition (Prometheus' text format, version 0.0.4). */
    static Reading parse(String text) {
        double machine = Double.NaN;
        double server = Double.NaN;
        double own = Double.NaN;
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
            if (!name.equals("node_cpu_seconds_total") && !name.equals("namedprocess_namegroup_cpu_seconds_total")) {
                continue;
            }
            Map<String, String> labels = labels(sample.group(3));
            double value = Double.parseDouble(sample.group(4));
            if (name.equals("node_cpu_seconds_total")) {
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
        return new Reading(machine, server, own);
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
