package org.spice.bench.model;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * One workload past its peak ({@code bench --profile overload}): measured at its peak's client count, then at
 * multiples of it, then watched until it is back. Only counts are kept (each step's whole run, each recovery check's
 * requests); the retention, the error outcomes and the recovery time are computed from them on every write, as the
 * runs' figures are.
 *
 * @param peakClients the client count of the peak: the ladder's useful peak (else its highest rate) or --peak-clients
 * @param peakFrom    where that count came from, in words
 * @param steps       the 1 × step (the rate before the flood), then each multiple, in order
 * @param watch       what followed the largest step (results.json writes it with its figures as "recovery"), or
 *                    null if the run ended before it
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"probe", "peak_clients", "peak_from", "overload_retention", "recovery", "steps"})
public record Overload(String probe, int peakClients, String peakFrom, List<Step> steps,
        @com.fasterxml.jackson.annotation.JsonIgnore Recovery watch) {

    /** A recovery check's window at the peak's clients, s. */
    public static final double CHECK_S = 1;

    /** How close to its rate before the flood a workload must come to count as recovered: within 10 %. */
    public static final double RECOVERED_WITHIN = 0.10;

    /** The share of a step's requests failing on the client's own limits above which the step measures the client. */
    public static final double CLIENT_LIMITED = 0.01;

    public Overload {
        steps = steps == null ? List.of() : List.copyOf(steps);
    }

    /**
     * One client count past the peak.
     *
     * @param multiple the nominal multiple of the peak's client count (1 for the peak itself)
     * @param capped   why the count is less than the multiple asks for (this machine's limits), or null
     * @param readings what was read on each side through the step (its ramps too), or null (not read)
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    @JsonPropertyOrder({"multiple", "clients", "capped", "excluded", "rate_rps", "mean_latency_ms", "p99_latency_ms",
        "fairness_jain", "fairness_by_chance", "outcomes", "held_by", "readings", "run"})
    public record Step(int multiple, int clients, @JsonInclude(JsonInclude.Include.NON_NULL) String capped, RunRecord run,
            @JsonInclude(JsonInclude.Include.NON_NULL) Readings readings) {

        public Step(int multiple, int clients, String capped, RunRecord run) {
            this(multiple, clients, capped, run, null);
        }

        /** What held the step back by its readings (keys of {@link Readings#words}); empty if none or not read. */
        @JsonProperty("held_by")
        @JsonInclude(JsonInclude.Include.NON_EMPTY)
        public List<String> heldBy() {
            return readings == null ? List.of() : readings.heldBy(run.durationS());
        }

        /**
         * Why the step says nothing about the server, or null if it counts: the engine set the pace, or more than
         * {@link #CLIENT_LIMITED} of its requests failed on this client's own descriptors or ports. Such a step is shown
         * but counts in no retention.
         */
        @JsonProperty("excluded")
        @JsonInclude(JsonInclude.Include.NON_NULL)
        public String excluded() {
            if (run.failed() && run.failureKind() == Failure.Kind.ENGINE_BOUND) {
                return run.reason();
            }
            long limited = run.errors().getOrDefault("address_exhausted", 0L);
            long attempts = run.requests() + run.errorTotal();
            if (attempts > 0 && limited > CLIENT_LIMITED * attempts) {
                return String.format(java.util.Locale.ROOT, "client-bound: %d of %d requests failed on this client's own"
                        + " limits (descriptors or local ports); the rate measures the client, not the server", limited, attempts);
            }
            return null;
        }

        @JsonProperty("rate_rps")
        public double rateRps() {
            return run.rateRps();
        }

        @JsonProperty("mean_latency_ms")
        public double meanLatencyMs() {
            return run.latency().meanMs();
        }

        @JsonProperty("p99_latency_ms")
        public double p99LatencyMs() {
            return run.latency().p99Ms();
        }

        @JsonProperty("fairness_jain")
        public double fairness() {
            return run.fairnessJain();
        }

        /**
         * Jain's index that chance alone gives when every client is served alike: with m requests per client in the
         * window, Poisson counts give m / (m + 1). At 10,000 clients and a few requests each, an index of 0.7 can
         * be perfectly fair service.
         */
        @JsonProperty("fairness_by_chance")
        public double fairnessByChance() {
            double m = run.clients() > 0 ? (double) run.requests() / run.clients() : Double.NaN;
            return m > 0 ? m / (m + 1) : Double.NaN;
        }

        /** The failed requests by what the client saw, in the words of overload: refused, reset, timed out, wrong bytes. */
        @JsonProperty("outcomes")
        public Map<String, Long> outcomes() {
            Map<String, Long> outcomes = new LinkedHashMap<>();
            for (String outcome : List.of("refused", "status", "reset", "timed_out", "wrong_bytes", "client_limit", "other")) {
                outcomes.put(outcome, 0L);
            }
            run.errors().forEach((error, count) -> outcomes.merge(outcome(error), count, Long::sum));
            return outcomes;
        }

        /** The overload outcome of an error class ({@code ErrorClass.id()}). */
        static String outcome(String errorClass) {
            return switch (errorClass) {
                case "connect_refused" -> "refused";
                case "status" -> "status";
                case "reset", "closed_early" -> "reset";
                case "timeout" -> "timed_out";
                case "short_body", "long_body", "protocol" -> "wrong_bytes";
                case "address_exhausted" -> "client_limit";
                default -> "other";
            };
        }
    }

    /**
     * One window of the recovery watch: the workload at the peak's client count for about a second, and one GET
     * compared byte for byte with the page.
     *
     * @param exactAtS seconds from the end of the largest step to the GET's answer (it comes first)
     * @param notExact why the GET was not the page byte for byte, or null if it was (or could not be checked: a mix)
     * @param atS      seconds from the end of the largest step to the end of this check's window (before the flood:
     *                 from the start of the checks)
     * @param readings what was read on each side through the check, or null (not read)
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    @JsonPropertyOrder({"exact_at_s", "not_exact", "at_s", "rate_rps", "requests", "errors", "duration_s", "held_by",
        "readings"})
    public record Check(double exactAtS, @JsonInclude(JsonInclude.Include.NON_NULL) String notExact, double atS,
            long requests, long errors, double durationS, @JsonInclude(JsonInclude.Include.NON_NULL) Readings readings) {

        public Check(double exactAtS, String notExact, double atS, long requests, long errors, double durationS) {
            this(exactAtS, notExact, atS, requests, errors, durationS, null);
        }

        /** What held the check back by its readings (keys of {@link Readings#words}); empty if none or not read. */
        @JsonProperty("held_by")
        @JsonInclude(JsonInclude.Include.NON_EMPTY)
        public List<String> heldBy() {
            return readings == null ? List.of() : readings.heldBy(durationS);
        }

        @JsonProperty("rate_rps")
        public double rateRps() {
            return durationS > 0 ? requests / durationS : Double.NaN;
        }
    }

    /**
     * The watch after the largest step.
     *
     * @param limitS   how long it watched at most
     * @param baseline the same checks before the flood, whose median rate the checks after it are held to (empty in
     *                 results written before they were taken: the 1 × step's rate then)
     * @param checks   its windows, in order, up to the first that counted as recovered
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Recovery(double limitS, List<Check> baseline, List<Check> checks) {
        public Recovery {
            baseline = baseline == null ? List.of() : List.copyOf(baseline);
            checks = checks == null ? List.of() : List.copyOf(checks);
        }
    }

    /**
     * The rate a check after the flood must come within {@link #RECOVERED_WITHIN} of: the median of the same checks
     * before it (a one-second window with no ramp, which reads below a ramped one), else the 1 × step's; NaN if none.
     */
    public double referenceRps() {
        if (watch != null && !watch.baseline().isEmpty()) {
            return median(watch.baseline().stream().mapToDouble(Check::rateRps).toArray());
        }
        Step before = before();
        return before == null ? Double.NaN : before.rateRps();
    }

    /**
     * Of the checks that were not yet back, how many each reading held back (keys of {@link Readings#words}): what was
     * near its limit in a check after the flood and not in most checks before it (a CGI's workers all busy and its CPU
     * full at its peak are not what held it), and {@code cpu_elsewhere} where the server's CPU per answered request
     * was {@link #CPU_ELSEWHERE} times or more its median before the flood, or it answered nothing with a quarter of
     * the cores busy: work left from the flood.
     */
    public Map<String, Integer> heldBy() {
        Map<String, Integer> held = new LinkedHashMap<>();
        if (watch == null) {
            return held;
        }
        Map<String, Integer> before = new LinkedHashMap<>();
        watch.baseline().forEach(c -> c.heldBy().forEach(key -> before.merge(key, 1, Integer::sum)));
        double cpuBefore = median(watch.baseline().stream().filter(c -> c.readings() != null && c.requests() > 0)
                .mapToDouble(c -> c.readings().serverCpuS() / c.requests()).filter(Double::isFinite).toArray());
        for (Check check : watch.checks()) {
            if (recovered(check) || check.readings() == null) {
                continue;
            }
            check.heldBy().stream().filter(key -> 2 * before.getOrDefault(key, 0) <= watch.baseline().size())
                    .forEach(key -> held.merge(key, 1, Integer::sum));
            double cpu = check.readings().serverCpuS();
            boolean elsewhere = check.requests() > 0 ? cpu / check.requests() >= CPU_ELSEWHERE * cpuBefore
                    : cpu >= 0.25 * check.readings().cores() * check.durationS();
            if (Double.isFinite(cpu) && (check.requests() == 0 || cpuBefore > 0) && elsewhere) {
                held.merge("cpu_elsewhere", 1, Integer::sum);
            }
        }
        return held;
    }

    /** How many times its CPU per request before the flood a server must spend for its CPU to have gone elsewhere. */
    public static final double CPU_ELSEWHERE = 1.5;

    private static double median(double[] values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /** The 1 × step, whose rate the others are compared with; null if it was not measured. */
    public Step before() {
        return steps.isEmpty() || steps.get(0).multiple() != 1 ? null : steps.get(0);
    }

    /**
     * A step's rate over the 1 × step's; null where the step is {@link Step#excluded} (it says nothing about the
     * server) or where there is no 1 × rate to compare with.
     */
    public Double retention(Step step) {
        Step before = before();
        boolean known = before != null && before.excluded() == null && before.rateRps() > 0 && step.excluded() == null;
        return known ? step.rateRps() / before.rateRps() : null;
    }

    /** {@link #retention(Step)} of every step past the 1 × one, by multiple. */
    @JsonProperty("overload_retention")
    public Map<String, Double> retention() {
        Map<String, Double> retention = new LinkedHashMap<>();
        for (Step step : steps) {
            if (step != before()) {
                retention.put(Integer.toString(step.multiple()), retention(step));
            }
        }
        return retention;
    }

    /** The largest multiple whose retention counts (neither the engine nor the client's limits set its pace), or null. */
    public Step largestCounted() {
        Step largest = null;
        for (Step step : steps) {
            if (step != before() && retention(step) != null) {
                largest = step;
            }
        }
        return largest;
    }

    /** The recovery figures, as results.json writes them: computed from the checks and the 1 × rate. */
    @JsonProperty("recovery")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public Map<String, Object> recovery() {
        if (watch == null) {
            return null;
        }
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("seconds", recoveredAfterS());
        figures.put("recovered", !Double.isNaN(recoveredAfterS()));
        figures.put("first_exact_answer_s", firstExactAnswerS());
        figures.put("within", RECOVERED_WITHIN);
        figures.put("reference_rps", referenceRps());
        figures.put("failed_before", failedBefore());
        figures.put("held_by", heldBy());
        figures.put("limit_s", watch.limitS());
        figures.put("baseline", watch.baseline());
        figures.put("checks", watch.checks());
        return figures;
    }

    /**
     * Seconds from the end of the largest step until a check at the peak's client count ran within
     * {@link #RECOVERED_WITHIN} of {@link #referenceRps}, with no failed request and the page byte for byte; NaN if none did.
     */
    public double recoveredAfterS() {
        if (watch == null || !(referenceRps() > 0)) {
            return Double.NaN;
        }
        for (Check check : watch.checks()) {
            if (recovered(check)) {
                return check.atS();
            }
        }
        return Double.NaN;
    }

    /**
     * The share of requests that failed in the worst of the checks before the flood: a check after it may fail as
     * many and count as back (a server that fails some requests at its peak, as nginx's CGI gateway does, is back
     * when it fails no more than it did). 0 without checks before the flood.
     */
    public double failedBefore() {
        return watch == null ? 0 : watch.baseline().stream().mapToDouble(Overload::failedShare).max().orElse(0);
    }

    private static double failedShare(Check check) {
        long attempts = check.requests() + check.errors();
        return attempts > 0 ? (double) check.errors() / attempts : 0;
    }

    /**
     * Whether a check counts as back: within {@link #RECOVERED_WITHIN} of {@link #referenceRps}, failing no larger
     * share of its requests than {@link #failedBefore}, and its GET the page byte for byte.
     */
    public boolean recovered(Check check) {
        return check.notExact() == null && check.requests() > 0 && failedShare(check) <= failedBefore()
                && check.rateRps() >= (1 - RECOVERED_WITHIN) * referenceRps();
    }

    /** Seconds from the end of the largest step until the first check whose GET was the page byte for byte; NaN if none. */
    public double firstExactAnswerS() {
        if (watch == null) {
            return Double.NaN;
        }
        return watch.checks().stream().filter(c -> c.notExact() == null).mapToDouble(Check::exactAtS).findFirst()
                .orElse(Double.NaN);
    }

    /** An overload read back from results.json: the counts as written (every figure is recomputed). */
    @com.fasterxml.jackson.annotation.JsonCreator
    static Overload fromJson(@JsonProperty("probe") String probe, @JsonProperty("peak_clients") int peakClients,
            @JsonProperty("peak_from") String peakFrom, @JsonProperty("steps") List<Step> steps,
            @JsonProperty("recovery") Map<String, Object> recovery) {
        Recovery watched = null;
        if (recovery != null) {
            Object limit = recovery.get("limit_s");
            var checkList = ResultsJson.MAPPER.getTypeFactory().constructCollectionType(List.class, Check.class);
            List<Check> baseline = ResultsJson.MAPPER.convertValue(recovery.get("baseline"), checkList);
            List<Check> checks = ResultsJson.MAPPER.convertValue(recovery.get("checks"), checkList);
            watched = new Recovery(limit instanceof Number n ? n.doubleValue() : Double.NaN, baseline, checks);
        }
        return new Overload(probe, peakClients, peakFrom, steps, watched);
    }
}
