package org.spice.bench.model;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.spice.bench.figures.SpiceFigures;
import org.spice.bench.mix.Mix;
import org.spice.bench.net.Endpoint;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.core.type.TypeReference;

/**
 * What one bench run does, fixed before it starts, in the groups the bench command's options come in: each option
 * mixin (or group of options) makes its own record, and the command puts them together here, once, checking every
 * value ({@code BenchCommand.settings}). results.json records the groups' components by name, flat under
 * {@code settings} ({@link #recorded}); a component marked {@code @JsonIgnore} is recorded elsewhere or not at all.
 *
 * @param target  where the load goes and how it speaks
 * @param load    the workloads, the page's size, the ladder's client counts
 * @param timing  the ladder's timing and the warm-up's
 * @param server  the server's name and where its CPU is read
 * @param runner  the engine, the seed, where the results go
 * @param cpu     how the CPU figure is taken: paired rounds at one load, to a precision, within a time
 * @param open    the open loop in the ladder's place (--rate), else null
 * @param latency the latency profile's rounds and curves, else null
 * @param cost    the cost curve, else null
 * @param flood   what goes past the peak (profile overload), else null
 * @param more    what options the run does not read give to record, each a record whose components results.json
 *                keeps by name beside the groups' ({@code BenchCommand.Recorded})
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record BenchSettings(@JsonUnwrapped Target target, @JsonUnwrapped Load load, @JsonUnwrapped Timing timing,
        @JsonUnwrapped ServerSide server, @JsonUnwrapped Runner runner, @JsonUnwrapped CpuPlan cpu,
        @JsonIgnore OpenRate open, @JsonIgnore LatencyPlan latency, @JsonIgnore CostPlan cost,
        @JsonIgnore FloodPlan flood, @JsonIgnore List<Record> more) {

    /** The CPU rounds unless told otherwise: at 8 clients, to ±5 %, none (--cpu-time 0). */
    public static final CpuPlan NO_ROUNDS = new CpuPlan(CpuPlan.CLIENTS, CpuPlan.PRECISION, 0, null);

    /**
     * A run of {@code mixes} on {@code target} with every other setting at its default: the quick profile, 6,250-byte
     * pages, one client, no CPU rounds, SPICE's own engine (what a test of an engine or a phase starts from).
     */
    public static BenchSettings of(Endpoint target, List<Mix> mixes) {
        return new BenchSettings(Target.of(target), Load.of(mixes, 6_250), Timing.of(Timing.Profile.QUICK, 0),
                ServerSide.named(null), Runner.of(null), NO_ROUNDS, null, null, null, null, List.of());
    }

    public BenchSettings {
        more = List.copyOf(more);
    }

    /** These settings with {@code value} as the load. */
    public BenchSettings with(Target value) {
        return new BenchSettings(value, load, timing, server, runner, cpu, open, latency, cost, flood, more);
    }

    public BenchSettings with(Load value) {
        return new BenchSettings(target, value, timing, server, runner, cpu, open, latency, cost, flood, more);
    }

    /** These settings with {@code value} as the server's side. */
    public BenchSettings with(ServerSide value) {
        return new BenchSettings(target, load, timing, value, runner, cpu, open, latency, cost, flood, more);
    }

    /** These settings with {@code value} as what runs the load. */
    public BenchSettings with(Runner value) {
        return new BenchSettings(target, load, timing, server, value, cpu, open, latency, cost, flood, more);
    }

    /**
     * Whether the CPU rounds run: asked for (--cpu-time above 0), on an engine that runs slices (its class is then a
     * {@link LoadEngine.Windowed}: EnginesTest), and not in the latency profile, which reads the CPU at each rate.
     */
    public boolean cpuRoundsRun() {
        return cpu.timeS() > 0 && runner.engine().windowed() && latency == null;
    }

    /**
     * The settings as results.json records them: Jackson maps every component not marked {@code @JsonIgnore} by its
     * name, with what is derived from the others (the protocol, the workloads' names), the machine's facts, the
     * pinning, the ladder's order and the steady-state rule, each by name ({@link RecordedSettings}).
     */
    public RecordedSettings recorded(RecordedSettings.Machine machine, String pinning, String order, String steadyStateRule) {
        Map<String, Object> values = new LinkedHashMap<>();
        values.putAll(ResultsJson.MAPPER.convertValue(this, MAP));
        more.forEach(group -> values.putAll(ResultsJson.MAPPER.convertValue(group, MAP)));
        values.putAll(ResultsJson.MAPPER.convertValue(machine, MAP));
        values.put("pinning", pinning);
        values.put("order", order);
        values.put("steady_state_rule", steadyStateRule);
        return new RecordedSettings(values);
    }

    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {
    };

    @JsonProperty
    String windowRule() {
        return "requests that start in the window, completed even if in the ramp-down";
    }

    @JsonProperty
    double fairnessMin() {
        return SpiceFigures.FAIR;
    }
}
