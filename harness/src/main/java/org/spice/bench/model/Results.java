package org.spice.bench.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.spice.bench.figures.ArmRatio;
import org.spice.bench.figures.SpiceFigures;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * Everything one bench run produced: what was measured (runs), how (settings), and whether it finished. Counts only:
 * the figures are computed from them (bench.analysis), and results.json writes the summary beside them.
 *
 * @param partial true if the run was cut short (Ctrl-C, the server died); runs holds what was measured
 * @param notes   warnings raised during the run (client saturation, pinning, ...)
 * @param steadyState how each workload was warmed to steady state before the ladder (empty: not recorded)
 * @param idle    the server's CPU at idle before the ladder, or null
 * @param overload each workload past its peak ({@code --profile overload}); empty otherwise
 * @param openLoop each probe at an offered rate, open loop ({@code --rate}); empty otherwise
 * @param latencyProfile every probe open loop at common rates and along its curve ({@code --profile latency}), or null
 * @param costCurve each probe's CPU per request along its rates, and its marginal cost ({@code --profile cost}), or null
 * @param arms     the servers the run measured, each with where its CPU was read and its own results: one for one server
 *                 (its {@code cpu_rounds} name probes), several side by side (their {@code cpu_rounds} name arms, and
 *                 each server's ladder is in its own results)
 * @param protocols the protocols each server's arms ran under, by their ids ({@link Protocol}); empty for one server's
 *                 run, whose settings say in words how it spoke ({@code settings.protocol})
 * @param earlierStarts the rounds of the earlier starts of the servers ({@code --restarts}), whose figures the last
 *                 start's ({@code cpu_rounds}) join
 * @param summary  the figures the run concluded from these counts, one per workload ({@code Summaries.conclude}, the
 *                 one function that computes them, at the run's end and when a file is read); null until then: every
 *                 table, sentence and page reads them, none computes them
 * @param pairRatios the CPU rounds' other pairs of probes, each probe against each later one, paired by round (null
 *                 until concluded, as {@code summary})
 * @param across   what the rounds concluded across several servers' arms ({@link Across#NONE} for one server; null until
 *                 concluded, as {@code summary})
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"schema", "arms", "protocols", "target", "server", "body_bytes", "started_at", "finished_at", "partial", "partial_reason",
    "settings", "notes", "steady_state", "idle", "cpu_rounds", "earlier_starts", "runs", "overload", "open_loop", "latency_profile", "cost_curve"})
public record Results(@JsonProperty("target") String target, @JsonProperty("server") String server,
        @JsonProperty("body_bytes") long bodyBytes, @JsonProperty("settings") RecordedSettings settings,
        @JsonProperty("started_at") String startedAt, @JsonProperty("finished_at") String finishedAt,
        @JsonProperty("partial") boolean partial,
        @JsonProperty("partial_reason") @JsonInclude(JsonInclude.Include.NON_NULL) String partialReason,
        @JsonProperty("notes") List<String> notes,
        @JsonProperty("steady_state") @JsonInclude(JsonInclude.Include.NON_EMPTY) List<SteadyState> steadyState,
        @JsonProperty("idle") @JsonInclude(JsonInclude.Include.NON_NULL) IdleCpu idle,
        @JsonProperty("runs") List<RunRecord> runs,
        @JsonProperty("overload") @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Overload> overload,
        @JsonProperty("cpu_rounds") @JsonInclude(JsonInclude.Include.NON_NULL) CpuRounds cpuRounds,
        @JsonProperty("open_loop") @JsonInclude(JsonInclude.Include.NON_EMPTY) List<OpenLoopRun> openLoop,
        @JsonProperty("latency_profile") @JsonInclude(JsonInclude.Include.NON_NULL) LatencyProfile latencyProfile,
        @JsonProperty("cost_curve") @JsonInclude(JsonInclude.Include.NON_NULL) CostCurve costCurve,
        @JsonProperty("arms") List<Member> arms, @JsonProperty("protocols") List<String> protocols,
        @JsonProperty("earlier_starts") @JsonInclude(JsonInclude.Include.NON_EMPTY) List<CpuRounds> earlierStarts,
        @JsonIgnore List<SpiceFigures.Summary> summary, @JsonIgnore List<ArmRatio> pairRatios, @JsonIgnore Across across) {

    /**
     * One server of the run: the name its arms carry (an arm is the name, or "name:protocol"), which server it is
     * (scripts/spice's name), where its CPU was read, and its own results directory (null: these results are its own).
     */
    @JsonPropertyOrder({"name", "server", "cpu_from", "results"})
    public record Member(String name, String server, CpuFrom cpuFrom, String results) {
    }

    /**
     * The format results.json is written in. 3: one shape for one server and for several side by side ({@code arms});
     * 2: every CPU slice keeps the rate it was offered ({@code offered_rps}), a
     * far probe's static slices ran at its rate, the summary's {@code rate_rps} is one number; 1 (before 2026-11-28)
     * read as it was written (a far probe's ratio then carries two rates, and the answer says so).
     */
    public static final String SCHEMA = "spice-results/3";
    /** The formats this version reads. */
    public static final List<String> READS = List.of("spice-results/1", "spice-results/2", SCHEMA);

    public Results {
        settings = settings == null ? RecordedSettings.NONE : settings;
        notes = notes == null ? List.of() : notes;
        runs = runs == null ? List.of() : runs;
        steadyState = steadyState == null ? List.of() : steadyState;
        overload = overload == null ? List.of() : List.copyOf(overload);
        openLoop = openLoop == null ? List.of() : List.copyOf(openLoop);
        protocols = protocols == null ? List.of() : List.copyOf(protocols);
        earlierStarts = earlierStarts == null ? List.of() : List.copyOf(earlierStarts);
        arms = arms == null || arms.isEmpty() ? List.of(new Member(server, server, cpuFrom(settings), null))
                : List.copyOf(arms);
        // several servers' results name them all (a file of the format 2 side by side has no name of its own)
        server = server == null && arms.size() > 1 ? String.join(",", arms.stream().map(Member::name).toList()) : server;
        summary = summary == null ? null : List.copyOf(summary);
        pairRatios = pairRatios == null ? null : List.copyOf(pairRatios);
    }

    /** Results of every kind of run, before their figures are concluded. */
    public Results(String target, String server, long bodyBytes, RecordedSettings settings, String startedAt, String finishedAt,
            boolean partial, String partialReason, List<String> notes, List<SteadyState> steadyState, IdleCpu idle,
            List<RunRecord> runs, List<Overload> overload, CpuRounds cpuRounds, List<OpenLoopRun> openLoop,
            LatencyProfile latencyProfile, CostCurve costCurve) {
        this(target, server, bodyBytes, settings, startedAt, finishedAt, partial, partialReason, notes, steadyState, idle,
                runs, overload, cpuRounds, openLoop, latencyProfile, costCurve, null, null, null, null, null, null);
    }

    /**
     * Servers side by side: who they are, the protocols they ran under, and their rounds, every start's (the last one
     * is {@code cpu_rounds}); each server's own results hold its ladder.
     */
    public static Results sideBySide(List<Member> arms, List<String> protocols, List<CpuRounds> starts,
            RecordedSettings settings, long bodyBytes, String startedAt, String finishedAt, boolean partial,
            String partialReason) {
        return new Results(null, null, bodyBytes, settings,
                startedAt, finishedAt, partial, partialReason, List.of(), List.of(), null, List.of(), List.of(),
                starts.get(starts.size() - 1), List.of(), null, null, arms, protocols, starts.subList(0, starts.size() - 1),
                null, null, null);
    }

    /**
     * Whether the rounds measured several arms side by side (servers, or one server's protocols): their slices name
     * their arms, and the figures across them are in {@link #across()}; else one server's, its probes' slices alone.
     */
    @JsonIgnore
    public boolean severalArms() {
        return cpuRounds != null && cpuRounds.ofSeveralArms();
    }

    /** The rounds of every start, the last ({@code cpu_rounds}) last; empty without rounds. */
    @JsonIgnore
    public List<CpuRounds> starts() {
        if (cpuRounds == null) {
            return List.of();
        }
        List<CpuRounds> starts = new ArrayList<>(earlierStarts);
        starts.add(cpuRounds);
        return starts;
    }

    /**
     * The figures these results concluded, a summary per workload in the order they ran.
     *
     * @throws IllegalStateException where they were not concluded ({@code Summaries.conclude}): a reader never computes
     *                               them itself
     */
    @Override
    @JsonIgnore
    public List<SpiceFigures.Summary> summary() {
        if (summary == null) {
            throw new IllegalStateException("the results' figures were not concluded (Summaries.conclude)");
        }
        return summary;
    }

    /** What the rounds concluded across several servers (as {@link #summary()}, which says when it throws). */
    @Override
    @JsonIgnore
    public Across across() {
        summary();
        return across;
    }

    /** The pairs of probes the CPU rounds concluded (as {@link #summary()}, which says when they throw). */
    @Override
    @JsonIgnore
    public List<ArmRatio> pairRatios() {
        summary();
        return pairRatios;
    }

    /**
     * {@code a}'s CPU per request against {@code b}'s among the {@link #pairRatios()}, whichever way round the rounds
     * concluded it (each probe against each later one): the reciprocal where they concluded b against a. Empty where
     * they concluded neither.
     */
    @JsonIgnore
    public Optional<ArmRatio> pairRatio(String a, String b) {
        List<ArmRatio> all = pairRatios() == null ? List.of() : pairRatios();
        return all.stream().filter(r -> r.a().equals(a) && r.b().equals(b)).findFirst()
                .or(() -> all.stream().filter(r -> r.a().equals(b) && r.b().equals(a)).map(ArmRatio::inverse).findFirst());
    }

    /** Whether the figures were concluded. */
    @JsonIgnore
    public boolean concluded() {
        return summary != null;
    }

    /** These results with the figures concluded from them. */
    public Results concluded(List<SpiceFigures.Summary> figures, List<ArmRatio> pairs, Across acrossArms) {
        return new Results(target, server, bodyBytes, settings, startedAt, finishedAt, partial, partialReason, notes,
                steadyState, idle, runs, overload, cpuRounds, openLoop, latencyProfile, costCurve, arms, protocols,
                earlierStarts, figures, pairs, acrossArms);
    }

    /** Results of the closed loop alone. */
    public Results(String target, String server, long bodyBytes, RecordedSettings settings, String startedAt, String finishedAt,
            boolean partial, String partialReason, List<String> notes, List<SteadyState> steadyState, IdleCpu idle,
            List<RunRecord> runs, List<Overload> overload, CpuRounds cpuRounds) {
        this(target, server, bodyBytes, settings, startedAt, finishedAt, partial, partialReason, notes, steadyState, idle,
                runs, overload, cpuRounds, List.of(), null, null);
    }

    /** Results with an open loop and a latency profile, and no cost curve. */
    public Results(String target, String server, long bodyBytes, RecordedSettings settings, String startedAt, String finishedAt,
            boolean partial, String partialReason, List<String> notes, List<SteadyState> steadyState, IdleCpu idle,
            List<RunRecord> runs, List<Overload> overload, CpuRounds cpuRounds, List<OpenLoopRun> openLoop,
            LatencyProfile latencyProfile) {
        this(target, server, bodyBytes, settings, startedAt, finishedAt, partial, partialReason, notes, steadyState, idle,
                runs, overload, cpuRounds, openLoop, latencyProfile, null);
    }

    /** Results without a warm-up record or an idle measurement (imports, tests). */
    public Results(String target, String server, long bodyBytes, RecordedSettings settings, String startedAt, String finishedAt,
            boolean partial, String partialReason, List<String> notes, List<RunRecord> runs) {
        this(target, server, bodyBytes, settings, startedAt, finishedAt, partial, partialReason, notes, List.of(), null,
                runs, List.of(), null);
    }

    /** These results with {@code overload} as what went past the peak. */
    public Results withOverload(List<Overload> overload) {
        return new Results(target, server, bodyBytes, settings, startedAt, finishedAt, partial, partialReason, notes,
                steadyState, idle, runs, overload, cpuRounds, openLoop, latencyProfile, costCurve, arms, protocols,
                earlierStarts, null, null, null);
    }

    /** These results with {@code runs} in place of theirs (compare-tools: a tool's runs at every client count). */
    public Results withRuns(List<RunRecord> runs) {
        return new Results(target, server, bodyBytes, settings, startedAt, finishedAt, partial, partialReason, notes,
                steadyState, idle, runs, overload, cpuRounds, openLoop, latencyProfile, costCurve, arms, protocols,
                earlierStarts, null, null, null);
    }

    /** These results with {@code costCurve} in place of theirs. */
    public Results withCostCurve(CostCurve costCurve) {
        return new Results(target, server, bodyBytes, settings, startedAt, finishedAt, partial, partialReason, notes,
                steadyState, idle, runs, overload, cpuRounds, openLoop, latencyProfile, costCurve, arms, protocols,
                earlierStarts, null, null, null);
    }

    @JsonProperty("schema")
    String schema() {
        return SCHEMA;
    }

    /** The latency bound of the useful peak, from the settings (100 ms if absent). */
    public double latencyBoundMs() {
        return settings.latencyBound();
    }

    /**
     * The workload the efficiencies divide by: the settings' baseline ("fileset" or "file", the single static
     * file) when given; else the fileset if it ran, else the static probe.
     */
    public String baseline() {
        boolean filesetRan = runs.stream().anyMatch(r -> r.probe().equals(Reference.FILESET));
        if ("file".equals(settings.baseline()) || !filesetRan) {
            return Reference.STATIC;
        }
        return Reference.FILESET;
    }

    /** The CPU figure that stands for {@code probe}'s cost in these results. */
    public SpiceFigures.CpuSource cpuSource(String probe) {
        return cpuFrom().sourceFor(server, probe);
    }

    /** Why the server's processes miss its CGI programs here, in words (where {@link #cpuSource} is the machine's). */
    public String cgiUnseenBecause() {
        return cpuFrom() == CpuFrom.EXPORTERS ? "the exporters see a CGI program only if it runs while they are read, and each lives"
                + " a millisecond" : server + "'s CGI programs are reaped by the kernel, outside the server's process tree,"
                + " which would miss them";
    }

    /** Where the server's CPU was read, as the settings record it. */
    public CpuFrom cpuFrom() {
        return cpuFrom(settings);
    }

    private static CpuFrom cpuFrom(RecordedSettings settings) {
        RecordedSettings recorded = settings == null ? RecordedSettings.NONE : settings;
        return CpuFrom.of(recorded.serverMetrics() != null && !recorded.serverMetrics().isEmpty(),
                recorded.serverCgroup() != null);
    }
}
