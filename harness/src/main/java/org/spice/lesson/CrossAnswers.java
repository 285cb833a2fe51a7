package org.spice.lesson;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import org.spice.bench.figures.Judge;
import org.spice.bench.model.Reference;
import org.spice.bench.report.BarChart;
import org.spice.bench.report.Format;

/** The answers read from servers measured side by side: every ratio across them paired in the same rounds. */
final class CrossAnswers {

    /** The servers question 2 and 8's run holds, in the order their tables list them. */
    static final List<String> SERVERS = List.of("nginx", "apache", "tomcat", "jetty");
    static final String PER_CONNECTION = "http1.0";
    static final String KEPT = "keepalive";

    private CrossAnswers() {
    }

    /** Question 2: a module and a servlet against the static file, on every server, a connection per request. */
    static Answer modules(Path dir) throws IOException {
        RunFigures run = RunFigures.in(dir);
        List<List<String>> rows = new ArrayList<>();
        List<Answer.Figure> figures = new ArrayList<>();
        List<String> servers = new ArrayList<>();
        List<RunFigures.Ratio> modules = new ArrayList<>();
        List<RunFigures.Ratio> servlets = new ArrayList<>();
        List<RunFigures.Cpu> statics = new ArrayList<>();
        for (String server : SERVERS) {
            String arm = arm(run, server, PER_CONNECTION);
            if (arm == null) {
                continue;
            }
            RunFigures.Cpu cpu = run.cpu(arm + "/" + Reference.STATIC);
            RunFigures.Ratio module = run.ratio(arm + "/module", arm + "/" + Reference.STATIC);
            RunFigures.Ratio servlet = run.ratio(arm + "/servlet", arm + "/" + Reference.STATIC);
            rows.add(List.of(server, Cells.cpu(cpu), Cells.ratio(module), Cells.ratio(servlet), loads(cpu, module, servlet)));
            figures.add(Cells.figure(server + " module / static", module));
            figures.add(Cells.figure(server + " servlet / static", servlet));
            figures.add(Cells.figure(server + " static CPU per request", cpu));
            servers.add(server);
            modules.add(module);
            servlets.add(servlet);
            statics.add(cpu);
        }
        if (servers.size() < 2) {
            throw new IOException(run.file() + " holds fewer than two servers");
        }
        int cheapest = indexOf(statics, Comparator.naturalOrder());
        int dearest = indexOf(statics, Comparator.reverseOrder());
        RunFigures.Ratio across = run.ratio(arm(run, servers.get(dearest), PER_CONNECTION) + "/" + Reference.STATIC,
                arm(run, servers.get(cheapest), PER_CONNECTION) + "/" + Reference.STATIC);
        figures.add(0, Cells.figure(servers.get(dearest) + " static / " + servers.get(cheapest) + " static", across));
        double low = modules.stream().mapToDouble(RunFigures.Ratio::value).min().orElse(Double.NaN);
        double high = modules.stream().mapToDouble(RunFigures.Ratio::value).max().orElse(Double.NaN);
        String sentence = String.format(Locale.ROOT, "A module costs %s to %s × its own server's static file on the %d"
                + " servers here; %s: %s's static file costs %s (%s).", Format.ratio(low),
                Format.ratio(high), servers.size(), differ(across, low, high), servers.get(dearest), across.costs(servers.get(cheapest) + "'s"),
                across.interval());
        BarChart.Figures chart = new BarChart.Figures("Server CPU per request, × each server's static file (95 % intervals)",
                "× the static file's", servers, List.of(Cells.bars("module", modules), Cells.bars("servlet", servlets)), 1.0);
        return new Answer(sentence, List.of("server", "static, µs/request", "module × static", "servlet × static", "load"),
                rows, notes("Every ratio is paired round by round, the servers side by side in the same rounds; a"
                        + " servlet behind httpd or nginx is a Tomcat behind a proxy.", run), figures, chart);
    }

    /**
     * Whether the servers differ more than the modules do (the farthest of their ratios from 1, {@code low} to
     * {@code high}): said only where the servers' ratio's interval lies wholly beyond it, or wholly short of it.
     */
    private static String differ(RunFigures.Ratio across, double low, double high) {
        double spread = Math.max(high, 1 / low);
        Judge.Interval servers = across.paired().interval();
        return !servers.known() ? "too few rounds to say whether the servers differ more"
                : servers.low() > spread ? "the servers differ more than that"
                : servers.high() < spread ? "the servers differ less than that"
                : "the servers differ about as much (the interval reaches the modules' farthest ratio)";
    }

    /**
     * The load column of question 2's row: the static file's load, and each ratio's where it was taken at another (a
     * probe too slow for the static file's rate is held at a rate of its own, its static slices with it).
     */
    private static String loads(RunFigures.Cpu cpu, RunFigures.Ratio module, RunFigures.Ratio servlet) {
        List<String> others = new ArrayList<>();
        for (RunFigures.Ratio r : List.of(module, servlet)) {
            if (!r.sameLoad() || !r.loadA().equals(cpu.load())) {
                others.add(r.a().substring(r.a().lastIndexOf('/') + 1) + " at " + r.loadA()
                        + (r.sameLoad() ? "" : " against " + r.loadB()));
            }
        }
        return others.isEmpty() ? cpu.load() : cpu.load() + "; " + String.join("; ", others);
    }

    /** Question 8: a connection per request against a kept one, each server's probes in the same rounds. */
    static Answer connection(Path dir) throws IOException {
        RunFigures run = RunFigures.in(dir);
        List<List<String>> rows = new ArrayList<>();
        List<Answer.Figure> figures = new ArrayList<>();
        List<String> categories = new ArrayList<>();
        List<RunFigures.Ratio> ratios = new ArrayList<>();
        for (String server : List.of("tomcat", "jetty", "nginx", "apache")) {
            String each = arm(run, server, PER_CONNECTION);
            String kept = arm(run, server, KEPT);
            if (each == null || kept == null) {
                continue;
            }
            for (String probe : List.of(Reference.STATIC, "servlet", "module")) {
                if (!run.has(each + "/" + probe)) {
                    continue;
                }
                RunFigures.Ratio ratio = run.ratio(each + "/" + probe, kept + "/" + probe);
                rows.add(List.of(server, probe, Cells.cpu(run.cpu(each + "/" + probe)), Cells.cpu(run.cpu(kept + "/" + probe)),
                        Cells.ratio(ratio)));
                figures.add(Cells.figure(server + " " + probe + " connection / kept", ratio));
                categories.add(server + " " + probe);
                ratios.add(ratio);
            }
        }
        if (ratios.isEmpty()) {
            throw new IOException(run.file() + " has no server under both " + PER_CONNECTION + " and " + KEPT);
        }
        RunFigures.Ratio headline = ratios.get(0);
        List<String> others = new ArrayList<>();
        for (int i = 1; i < ratios.size(); i++) {
            if (categories.get(i).endsWith(" " + Reference.STATIC)) {
                others.add(categories.get(i).replace(" static", "'s") + " " + ratios.get(i).times()
                        + " (" + Cells.interval(ratios.get(i).relativeCi()) + ")");
            }
        }
        String sentence = String.format(Locale.ROOT, "A connection per request costs %s's static file %s (%s): opening"
                + " and closing it is %s of that request's server CPU%s.",
                categories.get(0).replace(" static", ""), headline.costs("a kept connection"), headline.interval(),
                share(headline), others.isEmpty() ? "" : "; " + Format.list(others));
        BarChart.Figures chart = new BarChart.Figures("Server CPU per request, a connection each / kept (95 % intervals)",
                "a connection each / kept", categories, List.of(Cells.bars("connection / kept", ratios)), 1.0);
        return new Answer(sentence, List.of("server", "probe", "a connection each, µs", "kept, µs", "each / kept (paired)"),
                rows, notes("Each server under each protocol is an arm of its own in the same rounds, so the"
                        + " difference is the connection and nothing else.", run), figures, chart);
    }

    /**
     * Question 10: HTTP/2 (h2 over TLS, h2c in clear), many requests as streams of a few connections, against HTTP/1.1
     * keeping its connections, each server's probes in the same rounds.
     */
    static Answer multiplexing(Path dir) throws IOException {
        RunFigures run = RunFigures.in(dir);
        List<List<String>> rows = new ArrayList<>();
        List<Answer.Figure> figures = new ArrayList<>();
        List<String> categories = new ArrayList<>();
        List<RunFigures.Ratio> overH2 = new ArrayList<>();
        List<RunFigures.Ratio> overH2c = new ArrayList<>();
        for (String server : List.of("tomcat", "nginx", "jetty", "apache")) {
            String kept = arm(run, server, KEPT);
            String h2 = arm(run, server, "h2");
            String h2c = arm(run, server, "h2c");
            if (kept == null || h2 == null || h2c == null) {
                continue;
            }
            for (String probe : List.of(Reference.STATIC, "servlet", "module")) {
                if (!run.has(kept + "/" + probe)) {
                    continue;
                }
                RunFigures.Ratio tls = run.ratio(h2 + "/" + probe, kept + "/" + probe);
                RunFigures.Ratio clear = run.ratio(h2c + "/" + probe, kept + "/" + probe);
                rows.add(List.of(server, probe, Cells.cpu(run.cpu(kept + "/" + probe)), Cells.cpu(run.cpu(h2 + "/"
                        + probe)), Cells.cpu(run.cpu(h2c + "/" + probe)), Cells.ratio(tls), Cells.ratio(clear)));
                figures.add(Cells.figure(server + " " + probe + " h2c / kept", clear));
                figures.add(Cells.figure(server + " " + probe + " h2 / kept", tls));
                categories.add(server + " " + probe);
                overH2.add(tls);
                overH2c.add(clear);
            }
        }
        if (categories.isEmpty()) {
            throw new IOException(run.file() + " has no server under " + KEPT + ", h2 and h2c");
        }
        BarChart.Figures chart = new BarChart.Figures("Server CPU per request, HTTP/2 / HTTP/1.1 kept (95 % intervals)",
                "HTTP/2 / kept", categories, List.of(Cells.bars("h2c / kept", overH2c),
                Cells.bars("h2 / kept", overH2)), 1.0);
        return new Answer(multiplexed(categories, overH2, overH2c), List.of("server", "probe", "kept, µs", "h2, µs",
                "h2c, µs", "h2 / kept (paired)", "h2c / kept (paired)"), rows, notes("Each server under each protocol"
                        + " is an arm of its own in the same rounds; HTTP/2's requests are streams of a few connections"
                        + " (--connections, --streams).", run), figures, chart);
    }

    /** Question 10's sentence: the first server's static file over h2c and h2 against kept, then each other's. */
    private static String multiplexed(List<String> categories, List<RunFigures.Ratio> overH2,
            List<RunFigures.Ratio> overH2c) {
        List<String> others = new ArrayList<>();
        for (int i = 1; i < categories.size(); i++) {
            if (categories.get(i).endsWith(" " + Reference.STATIC)) {
                others.add(categories.get(i).replace(" static", "'s") + " " + overH2c.get(i).times() + " ("
                        + Cells.interval(overH2c.get(i).relativeCi()) + ") and " + overH2.get(i).times());
            }
        }
        return String.format(Locale.ROOT, "Over h2c, %s's static file costs %s (%s); over h2, %s (%s)%s.",
                categories.get(0).replace(" static", ""), overH2c.get(0).costs("a kept HTTP/1.1 connection"),
                overH2c.get(0).interval(), overH2.get(0).times(), overH2.get(0).interval(),
                others.isEmpty() ? "" : "; " + Format.list(others));
    }

    /**
     * The connection's share of a request's server CPU, 1 - kept / each, with its interval's ends from the ratio's:
     * "38 % (33-42 %)".
     */
    static String share(RunFigures.Ratio each) {
        Judge.Interval ratio = each.paired().interval();
        double low = 1 - 1 / ratio.low();
        double high = 1 - 1 / ratio.high();
        return !ratio.known() || ratio.low() <= 0
                ? String.format(Locale.ROOT, "%.0f %%", 100 * (1 - 1 / each.value()))
                : String.format(Locale.ROOT, high - low < 0.02 ? "%.0f %% (%.1f to %.1f %%)" : "%.0f %% (%.0f to %.0f %%)",
                        100 * (1 - 1 / each.value()), 100 * low, 100 * high);
    }

    /** Question 7: a pool of platform threads against a virtual thread per request, on Tomcat and Jetty. */
    static Answer threads(Path dir) throws IOException {
        RunFigures run = RunFigures.in(dir);
        List<List<String>> rows = new ArrayList<>();
        List<Answer.Figure> figures = new ArrayList<>();
        List<String> probes = new ArrayList<>();
        List<RunFigures.Ratio> tomcat = new ArrayList<>();
        List<RunFigures.Ratio> jetty = new ArrayList<>();
        for (String probe : List.of(Reference.STATIC, "servlet", "jsp", "module")) {
            if (!run.has("tomcat/" + probe) || !run.has("jetty/" + probe)) {
                continue;
            }
            RunFigures.Ratio t = run.ratio("tomcat/" + probe, "tomcat-vt/" + probe);
            RunFigures.Ratio j = run.ratio("jetty/" + probe, "jetty-vt/" + probe);
            rows.add(List.of(probe, Cells.ratio(t), Cells.ratio(j), Cells.cpu(run.cpu("tomcat/" + probe)),
                    Cells.cpu(run.cpu("tomcat-vt/" + probe)), Cells.cpu(run.cpu("jetty/" + probe)),
                    Cells.cpu(run.cpu("jetty-vt/" + probe))));
            figures.add(Cells.figure("jetty " + probe + " pool / virtual", j));
            figures.add(Cells.figure("tomcat " + probe + " pool / virtual", t));
            probes.add(probe);
            tomcat.add(t);
            jetty.add(j);
        }
        if (probes.isEmpty()) {
            throw new IOException(run.file() + " does not hold tomcat, tomcat-vt, jetty and jetty-vt");
        }
        // the headline is the servlet's, the interface the question is about, where it ran (else the first probe's)
        int told = Math.max(0, probes.indexOf("servlet"));
        String sentence = String.format(Locale.ROOT, "Jetty's %s on a pool of platform threads against a virtual thread"
                + " per request: %s (%s); Tomcat's: %s (%s).",
                probes.get(told).equals(Reference.STATIC) ? "static file" : probes.get(told), jetty.get(told).times(),
                jetty.get(told).interval(), tomcat.get(told).times(), tomcat.get(told).interval());
        BarChart.Figures chart = new BarChart.Figures("Server CPU per request, platform threads / virtual threads (95 % intervals)",
                "pool / virtual", probes, List.of(Cells.bars("Tomcat", tomcat), Cells.bars("Jetty", jetty)), 1.0);
        return new Answer(sentence, List.of("probe", "Tomcat pool / virtual", "Jetty pool / virtual", "tomcat µs",
                "tomcat-vt µs", "jetty µs", "jetty-vt µs"), rows, notes("All four servers ran on one JDK, side by"
                        + " side in the same rounds: each ratio is paired round by round.", run), figures, chart);
    }

    private static List<String> notes(String note, RunFigures run) {
        List<String> notes = new ArrayList<>(List.of(note));
        notes.addAll(Answers.fewRounds(run));
        return notes;
    }

    /** The arm of {@code server} under {@code protocol} in the run ("apache:http1.0"), or null where it has none. */
    private static String arm(RunFigures run, String server, String protocol) {
        for (String name : List.of(server + ":" + protocol, server)) {
            if (run.has(name + "/" + Reference.STATIC)) {
                return name;
            }
        }
        return null;
    }

    private static int indexOf(List<RunFigures.Cpu> cpus, Comparator<Double> order) {
        int best = 0;
        for (int i = 1; i < cpus.size(); i++) {
            if (order.compare(cpus.get(i).us(), cpus.get(best).us()) < 0) {
                best = i;
            }
        }
        return best;
    }
}
