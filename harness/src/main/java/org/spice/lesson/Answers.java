package org.spice.lesson;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.spice.bench.analysis.ResultsFiles;
import org.spice.bench.figures.PairedRatio;
import org.spice.bench.model.Reference;
import org.spice.bench.model.Results;
import org.spice.bench.model.SteadyState;
import org.spice.bench.report.BarChart;
import org.spice.bench.report.Format;

/**
 * How each question's answer is read from its run: the rows of its table, its figures, its chart and its sentence,
 * every number from the run's results. Questions that share a run read it each their own way.
 */
final class Answers {

    /** The probes a run of one server's interfaces may hold, in the order the tables list them. */
    static final List<String> INTERFACES = List.of("static", "module", "njs", "lua", "servlet", "jsp", "shtml", "mod-php",
            "php-fpm", "wsgi", "asgi-uvicorn", "asgi-granian", "fastcgi", "wasm-kept", "wasm", "cgi");

    private Answers() {
    }

    /** Question 1: a process per request against a resident one, cgi against fastcgi on one server. */
    static Answer processPerRequest(Path dir) throws IOException {
        RunFigures run = RunFigures.in(dir);
        RunFigures.Ratio headline = run.ratio("cgi", "fastcgi");
        return interfaces(run, headline, String.format(Locale.ROOT, "cgi costs %s on %s (%s): one C program, started"
                + " for every request against kept running.", headline.costs("fastcgi"), server(run), headline.interval()),
                "cgi / fastcgi");
    }

    /** Question 11: one C program as a process, a WebAssembly instance, a kept instance and a resident process. */
    static Answer cgiBack(Path dir) throws IOException {
        RunFigures run = RunFigures.in(dir);
        RunFigures.Ratio headline = run.ratio("wasm", "cgi");
        RunFigures.Ratio kept = run.ratio("wasm-kept", "fastcgi");
        Answer answer = interfaces(run, headline, String.format(Locale.ROOT, "wasm costs %s on %s (%s): the CGI program"
                + " in a fresh WebAssembly instance for every request against a process; kept, its instance costs %s (%s).",
                headline.costs("cgi"), server(run), headline.interval(), kept.costs("fastcgi"), kept.interval()),
                "wasm / cgi");
        return withSecond(answer, Cells.figure("wasm-kept / fastcgi", kept));
    }

    /**
     * Question 6: a runtime behind a socket against one inside the server; Python's asynchronous interface (ASGI, in
     * uvicorn) against its synchronous one (WSGI), where the run has it.
     */
    static Answer runtimes(Path dir) throws IOException {
        RunFigures run = RunFigures.in(dir);
        RunFigures.Ratio headline = run.ratio("php-fpm", "lua");
        RunFigures.Ratio wsgi = run.ratio("wsgi", "lua");
        String sentence = String.format(Locale.ROOT, "php-fpm costs %s on %s (%s), wsgi %s (%s): a runtime in a resident"
                + " pool behind a socket against one inside the server's own process.", headline.costs("lua"), server(run),
                headline.interval(), wsgi.costs("lua"), wsgi.interval());
        if (!run.has("asgi-uvicorn")) {
            return withSecond(interfaces(run, headline, sentence, "php-fpm / lua"), Cells.figure("wsgi / lua", wsgi));
        }
        RunFigures.Ratio asgi = run.ratio("asgi-uvicorn", "wsgi");
        sentence += String.format(Locale.ROOT, " The same page as an ASGI application in uvicorn costs %s (%s).",
                asgi.costs("wsgi"), asgi.interval());
        Answer answer = withSecond(interfaces(run, headline, sentence, "php-fpm / lua"), Cells.figure("asgi-uvicorn / wsgi",
                asgi));
        return withSecond(answer, Cells.figure("wsgi / lua", wsgi));
    }

    /** Question 3: a template engine against the servlet, on the embedded server. */
    static Answer templates(Path dir) throws IOException {
        RunFigures run = RunFigures.in(dir);
        RunFigures.Ratio jsp = run.ratio("jsp", "servlet");
        RunFigures.Ratio shtml = run.ratio("shtml", Reference.STATIC);
        Answer answer = interfaces(run, jsp, String.format(Locale.ROOT, "A JSP page costs %s on the %s server (%s); SSI"
                + " costs %s (%s).", jsp.costs("the servlet"), server(run), jsp.interval(), shtml.costs("the static file"),
                shtml.interval()), "jsp / servlet");
        return withSecond(answer, Cells.figure("shtml / static", shtml));
    }

    /** {@code answer} with {@code figure} second among its figures, after the headline. */
    private static Answer withSecond(Answer answer, Answer.Figure figure) {
        List<Answer.Figure> figures = new ArrayList<>(answer.figures());
        figures.add(1, figure);
        return new Answer(answer.sentence(), answer.header(), answer.rows(), answer.notes(), figures, answer.chart());
    }

    /** One server's probes against its static file: the table, the chart, the headline first among the figures. */
    private static Answer interfaces(RunFigures run, RunFigures.Ratio headline, String sentence, String headlineName) {
        List<List<String>> rows = new ArrayList<>();
        List<Answer.Figure> figures = new ArrayList<>(List.of(Cells.figure(headlineName, headline)));
        List<String> probes = new ArrayList<>();
        List<RunFigures.Ratio> ratios = new ArrayList<>();
        for (String probe : INTERFACES) {
            if (!run.has(probe)) {
                continue;
            }
            RunFigures.Cpu cpu = run.cpu(probe);
            boolean isStatic = probe.equals(Reference.STATIC);
            RunFigures.Ratio ratio = run.ratio(probe, Reference.STATIC);
            rows.add(List.of(probe, Cells.cpu(cpu), isStatic ? "1" : Cells.ratio(ratio), cpu.load()));
            figures.add(Cells.figure(probe + " CPU per request", cpu));
            if (!isStatic) {
                figures.add(Cells.figure(probe + " / static", ratio));
                probes.add(probe);
                ratios.add(ratio);
            }
        }
        BarChart.Figures chart = new BarChart.Figures("Server CPU per request, × the static file's (95 % intervals)",
                "× the static file's", probes, List.of(Cells.bars("× static", ratios)), 1.0);
        List<String> notes = new ArrayList<>(notes(run));
        if (!headline.b().equals(Reference.STATIC) && headline.sameLoad() && !run.sameRate(headline.a(), headline.b())) {
            notes.add(1, "The headline's two probes are paired at one load, the slower one's rate: "
                    + run.faster(headline.a(), headline.b()) + "'s slices ran there too, beside its own. Each row is a probe at its own rate, against the static"
                    + " file at that rate, so one row over another is not the headline's ratio.");
        }
        return new Answer(sentence, List.of("probe", "server CPU µs/request", "× static (paired)", "load"), rows,
                notes, figures, chart);
    }

    /** Question 4: the warm-up's slices from a fresh start, as the run recorded them. */
    static Answer jit(Path dir) throws IOException {
        Path file = RunFigures.resultsIn(dir);
        Results results = ResultsFiles.read(file);
        if (results.steadyState().isEmpty()) {
            throw new IOException(file + " has no warm-up record (the run had --warm-up 0)");
        }
        List<List<String>> rows = new ArrayList<>();
        List<Answer.Figure> figures = new ArrayList<>();
        List<String> workloads = new ArrayList<>();
        List<Double> firsts = new ArrayList<>();
        List<Double> lasts = new ArrayList<>();
        String headline = null;
        for (SteadyState warm : results.steadyState()) {
            List<Double> cpu = warm.cpuUsPerReq();
            if (cpu.isEmpty()) {
                continue;
            }
            double first = cpu.get(0);
            double last = cpu.get(cpu.size() - 1);
            String jitFirst = warm.jitShare().isEmpty() ? "-" : Format.percentWords(warm.jitShare().get(0));
            String jitLast = warm.jitShare().isEmpty() ? "-" : Format.percentWords(warm.jitShare().get(warm.jitShare().size() - 1));
            rows.add(List.of(warm.workload(), Integer.toString(cpu.size()), Format.words(first), Format.words(last),
                    Cells.times(first / last), jitFirst, jitLast, warm.settled() ? "yes" : "no"));
            figures.add(Cells.unpaired(warm.workload() + " first / last slice", first / last, "×",
                    "one-second warm-up slices", Cells.times(first / last)));
            workloads.add(warm.workload());
            firsts.add(first);
            lasts.add(last);
            if (headline == null || warm.workload().equals("servlet")) {
                headline = String.format(Locale.ROOT, "From a fresh start the %s's first one-second slice cost %s its"
                        + " last (%s against %s µs per request, one slice each, not paired), its JIT compiler threads"
                        + " taking %s of the server's CPU in the first and %s in the last.", warm.workload(),
                        Cells.times(first / last), Format.words(first), Format.words(last), jitFirst, jitLast);
                figures.add(0, figures.remove(figures.size() - 1));
            }
        }
        List<Double> none = workloads.stream().map(w -> Double.NaN).toList();
        BarChart.Figures chart = new BarChart.Figures("Server CPU per request in the warm-up's first and last slice", "µs per request",
                workloads, List.of(new BarChart.Figures.Series("first slice", firsts, none), new BarChart.Figures.Series("last slice", lasts, none)),
                null);
        return new Answer(headline, List.of("workload", "slices", "first slice, µs", "last slice, µs", "first / last",
                "JIT share, first", "JIT share, last", "steady"), rows,
                List.of("Each slice is one second's reading, not paired with another: its figures carry no interval."),
                figures, chart);
    }

    private static List<String> notes(RunFigures run) {
        // the run is named by its command, which the page gives: its results folder is the lesson's, not the page's
        List<String> notes = new ArrayList<>(List.of("Every ratio is paired round by round (the results.json of the"
                + " command above); its load says the rate each side was taken at."));
        notes.addAll(fewRounds(run));
        return notes;
    }

    /** A note where the rounds counted are too few for an interval, and what gives them more. */
    static List<String> fewRounds(RunFigures run) {
        return run.counted() >= PairedRatio.MIN_FOR_INTERVAL ? List.of() : List.of("Only " + run.counted() + " of the rounds"
                + " counted (a round the JIT compiled through is left out), fewer than " + PairedRatio.MIN_FOR_INTERVAL
                + ": no interval. A longer run gives them more: the full lesson, or SPICE_LESSON_OPTIONS=\"--cpu-time S\".");
    }

    /** The server a run of one server measured, as its results name it. */
    private static String server(RunFigures run) {
        return run.single() == null ? "this" : run.single().server();
    }
}
