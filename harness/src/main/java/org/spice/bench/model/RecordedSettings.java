package org.spice.bench.model;

import java.io.IOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.core.type.TypeReference;

/**
 * How a run was made, as results.json holds it under {@code settings}: {@link BenchSettings}' groups by name, flat, as
 * the run wrote them ({@link BenchSettings#recorded}), or what an import knew. It keeps every setting as written, in
 * its order, a newer SPICE's too, and reads by name the few that the figures and the report need; it has no field of
 * its own per setting, so a setting the run records is never dropped on the way back (RecordedSettingsTest).
 */
public final class RecordedSettings {

    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {
    };

    public static final RecordedSettings NONE = new RecordedSettings(Map.of());

    private final Map<String, Object> values;

    /**
     * {@code values} as JSON holds them (numbers as JSON reads them back, so that a run written and read is equal to
     * itself); a setting without a value (null, or a number not measured) left out.
     */
    @JsonCreator
    public RecordedSettings(Map<String, Object> values) {
        Map<String, Object> set = new LinkedHashMap<>();
        values.forEach((name, value) -> {
            if (value != null && !(value instanceof Double d && d.isNaN())) {
                set.put(name, value);
            }
        });
        try {
            // through JSON and back (convertValue would hand a map back as it is: a Long where JSON reads an Integer)
            this.values = Collections.unmodifiableMap(ResultsJson.MAPPER.readValue(ResultsJson.MAPPER.writeValueAsBytes(set), MAP));
        } catch (IOException e) {
            throw new IllegalArgumentException("settings JSON cannot hold: " + set, e);
        }
    }

    /** The settings as name → value, in their order, for the report's settings table and for results.json. */
    @JsonValue
    public Map<String, Object> asMap() {
        return values;
    }

    /** The engine that measured: SPICE's own ({@code event-loop}), {@code jmeter}, or the imported tool's name. */
    public String engine() {
        return string("engine");
    }

    /** How the load spoke (HTTP/1.0, a connection per request; keep-alive; TLS), as the run recorded it. */
    public String protocol() {
        return string("protocol");
    }

    /** How the open loop's requests fell in time ({@code even}, {@code poisson}); null where not recorded. */
    public String arrivals() {
        return string("arrivals");
    }

    /** What the efficiencies divide by, as asked ({@code file}, {@code fileset}, {@code auto}); null where not recorded. */
    public String baseline() {
        return string("baseline");
    }

    /** The latency bound of the useful peak (100 ms where not recorded). */
    public double latencyBound() {
        return values.get("latency_bound_ms") instanceof Number n ? n.doubleValue() : 100;
    }

    /** The exporters' URLs the server's CPU was read from (--server-metrics); empty where it was read here or not. */
    public List<String> serverMetrics() {
        return values.get("server_metrics") instanceof List<?> list ? list.stream().map(String::valueOf).toList() : List.of();
    }

    /** The cgroup the server's CPU was read from on its own machine, through the exporters there; else null. */
    public String serverCgroup() {
        return string("server_cgroup");
    }

    /** Each mix's mean response size in bytes (a mixed workload's), by its name; empty where none ran. */
    public Map<String, Double> mixMeanBytes() {
        return values.get("mix_mean_bytes") instanceof Map<?, ?> map ? ResultsJson.MAPPER.convertValue(map,
                new TypeReference<Map<String, Double>>() { }) : Map.of();
    }

    /** The CPUs of the machine the load ran on ({@code client_cpus}: the server's too, where it ran here); 0 where not recorded. */
    public int clientCpus() {
        return values.get("client_cpus") instanceof Number n ? n.intValue() : 0;
    }

    private String string(String name) {
        return values.get(name) instanceof String s ? s : null;
    }

    /**
     * These settings with {@code server_cgroup} set: where the server's CPU was read from its cgroup on its own
     * machine, through the exporters there (metrics-agent's cgroup exporter).
     */
    public RecordedSettings withServerCgroup(String path) {
        return toBuilder().set("server_cgroup", path).build();
    }

    /** The client machine, as recorded: its CPUs, the kernel's clock ticks, the JVM and the system. */
    public record Machine(Integer clientCpus, Long clockTicksPerS, String java, String os) {
    }

    public static Builder builder() {
        return new Builder(new LinkedHashMap<>());
    }

    public Builder toBuilder() {
        return new Builder(new LinkedHashMap<>(values));
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RecordedSettings that && values.equals(that.values);
    }

    @Override
    public int hashCode() {
        return Objects.hash(values);
    }

    @Override
    public String toString() {
        return "RecordedSettings" + values;
    }

    /** Settings by name, for what imports and tests set by hand; a run's come from {@code BenchSettings.recorded}. */
    public static final class Builder {
        private final Map<String, Object> values;

        private Builder(Map<String, Object> values) {
            this.values = values;
        }

        Builder set(String name, Object value) {
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

        public RecordedSettings build() {
            return new RecordedSettings(values);
        }
    }
}
