package org.spice.bench.model;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.spice.bench.mix.Mix;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * What the load is: the workloads (--probes, --mix, --workload), the page's size, what the efficiencies divide by,
 * the ladder's client counts, how often it runs, and the mean latency bound of the useful peak.
 *
 * @param bytes the canonical page's size, what a probe's body must be
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Load(@JsonIgnore List<Mix> mixes, @JsonIgnore long bytes, Baseline baseline, List<Integer> clients,
        int repeat, double latencyBoundMs) {

    /** {@code mixes} of {@code bytes}-byte pages, once at one client, as a test or a single run wants them. */
    public static Load of(List<Mix> mixes, long bytes) {
        return new Load(mixes, bytes, Baseline.AUTO, List.of(1), 1, 100);
    }

    public Load {
        mixes = List.copyOf(mixes);
        clients = List.copyOf(clients);
    }

    public int maxClients() {
        return clients.stream().mapToInt(Integer::intValue).max().orElse(1);
    }

    @JsonProperty
    List<String> workloads() {
        return mixes.stream().map(Mix::name).toList();
    }

    @JsonProperty
    List<String> workloadSources() {
        return mixes.stream().map(Mix::source).toList();
    }

    /** The weighted mean body size of each workload whose entries differ in size. */
    @JsonProperty
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    Map<String, Double> mixMeanBytes() {
        Map<String, Double> means = new LinkedHashMap<>();
        for (Mix mix : mixes) {
            if (mix.entries().stream().mapToLong(e -> e.bytes() >= 0 ? e.bytes() : bytes).distinct().count() > 1) {
                means.put(mix.name(), mix.weightedMeanBytes(bytes));
            }
        }
        return means;
    }

    /** What the efficiencies divide by. */
    public enum Baseline {
        /** The static fileset if it runs, else the single static file. */
        AUTO,
        FILESET,
        /** The single static file, even when the fileset runs. */
        FILE;

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** As results.json records it: not at all when left to the run. */
        @JsonValue
        String recorded() {
            return this == AUTO ? null : toString();
        }
    }
}
