package org.spice.bench.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.type.TypeReference;

/**
 * How a run was made, as results.json records it under {@code settings}: written and read by Jackson (names
 * in snake case), every field optional, so that imports (which know little) and older results load alike.
 * A setting this record has no component for is kept as it was ({@link #more}), written back in its place.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record Settings(String profile, List<Integer> clients, List<String> workloads, List<String> workloadSources,
        Double rampUpS, Double durationS, Double rampDownS, Double pauseS, String protocol, Integer repeat,
        Integer timeoutMs, Double latencyBoundMs, String baseline, Double warmUpS, Map<String, Double> mixMeanBytes,
        Double fairnessMin, Long seed, String tlsTarget, Boolean tlsSessionResumption, List<Long> serverPid,
        List<String> serverMetrics, String windowRule, String engine, List<String> jmeterEngines, Boolean jmeterRmiTls, String latencyEnd,
        Integer clientCpus, Long clockTicksPerS, String java, String os, String pinning, String order, String steadyStateRule,
        String serverCgroup, Integer cpuClients, Double cpuPrecision, Double cpuTimeS,
        Double cpuTimeWithWarmUpS, Double cpuRateRps, Double cpuRateFraction, Boolean cpuFarApart,
        @JsonAnySetter @JsonIgnore Map<String, Object> more) {

    public static final Settings NONE = builder().build();

    /** results.json reads a missing number as NaN (its meaning in a run); in the settings it is not set. */
    public Settings {
        more = more == null ? new LinkedHashMap<>() : new LinkedHashMap<>(more);
        rampUpS = set(rampUpS);
        durationS = set(durationS);
        rampDownS = set(rampDownS);
        pauseS = set(pauseS);
        latencyBoundMs = set(latencyBoundMs);
        warmUpS = set(warmUpS);
        fairnessMin = set(fairnessMin);
    }

    /**
     * The settings this record has no component for, as results.json holds them: an option a mixin records without a
     * component here ({@code BenchCommand.Recorded}), or a setting of a newer SPICE, kept as it was.
     */
    @JsonAnyGetter
    public Map<String, Object> more() {
        return Collections.unmodifiableMap(more);
    }

    private static Double set(Double value) {
        return value == null || value.isNaN() ? null : value;
    }

    /** The latency bound of the useful peak (100 ms where not recorded). */
    public double latencyBound() {
        return latencyBoundMs != null ? latencyBoundMs : 100;
    }

    /**
     * These settings with {@code server_cgroup} set: where the server's CPU was read from its cgroup on its own
     * machine, through the exporters there (metrics-agent's cgroup exporter).
     */
    public Settings withServerCgroup(String path) {
        Map<String, Object> values = new LinkedHashMap<>(asMap());
        values.put("server_cgroup", path);
        return ResultsJson.MAPPER.convertValue(values, Settings.class);
    }

    /** The settings as name → value, in their order, for the report's settings table; unset ones left out. */
    public Map<String, Object> asMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        ResultsJson.MAPPER.convertValue(this, Map.class).forEach((k, v) -> map.put(String.valueOf(k), v));
        return map;
    }

    /** The client machine, as recorded: its CPUs, the kernel's clock ticks, the JVM and the system. */
    public record Machine(Integer clientCpus, Long clockTicksPerS, String java, String os) {
    }

    public static Builder builder() {
        return new Builder(new LinkedHashMap<>());
    }

    public Builder toBuilder() {
        return new Builder(ResultsJson.MAPPER.convertValue(this, MAP));
    }

    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {
    };

    /**
     * Settings by name, for what imports and tests set by hand; a run's settings come from {@code
     * BenchSettings.recorded}. Jackson makes the record, so a component added above needs nothing here.
     */
    public static final class Builder {
        private final Map<String, Object> values;

        private Builder(Map<String, Object> values) {
            this.values = values;
        }

        private Builder set(String name, Object value) {
            values.put(name, value);
            return this;
        }

        public Builder clients(List<Integer> value) { return set("clients", value); }
        public Builder protocol(String value) { return set("protocol", value); }
        public Builder latencyBoundMs(Double value) { return set("latency_bound_ms", value); }
        public Builder windowRule(String value) { return set("window_rule", value); }
        public Builder engine(String value) { return set("engine", value); }
        public Builder pinning(String value) { return set("pinning", value); }

        public Builder workloads(List<String> names, List<String> sources) {
            return set("workloads", names).set("workload_sources", sources);
        }

        public Settings build() {
            return ResultsJson.MAPPER.convertValue(values, Settings.class);
        }
    }
}
