package org.spice.bench.model;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * How a run was made, as results.json records it under {@code settings}: written and read by Jackson (names
 * in snake case), every field optional, so that imports (which know little) and older results load alike.
 * A setting not known here is ignored on reading.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record Settings(String profile, List<Integer> clients, List<String> workloads, List<String> workloadSources,
        Double rampUpS, Double durationS, Double rampDownS, Double pauseS, String protocol, Integer repeat,
        Integer timeoutMs, Double latencyBoundMs, String baseline, Double warmUpS, Map<String, Double> mixMeanBytes,
        Double fairnessMin, Long seed, String tlsTarget, Boolean tlsSessionResumption, List<Long> serverPid,
        List<String> serverMetrics, String windowRule, String engine, List<String> jmeterEngines, Boolean jmeterRmiTls, String latencyEnd,
        Integer clientCpus, Long clockTicksPerS, String java, String os, String pinning, String order, String steadyStateRule) {

    public static final Settings NONE = builder().build();

    /** results.json reads a missing number as NaN (its meaning in a run); in the settings it is not set. */
    public Settings {
        rampUpS = set(rampUpS);
        durationS = set(durationS);
        rampDownS = set(rampDownS);
        pauseS = set(pauseS);
        latencyBoundMs = set(latencyBoundMs);
        warmUpS = set(warmUpS);
        fairnessMin = set(fairnessMin);
    }

    private static Double set(Double value) {
        return value == null || value.isNaN() ? null : value;
    }

    /** The latency bound of the useful peak (100 ms where not recorded). */
    public double latencyBound() {
        return latencyBoundMs != null ? latencyBoundMs : 100;
    }

    /** The settings as name → value, in their order, for the report's settings table; unset ones left out. */
    public Map<String, Object> asMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        ResultsJson.MAPPER.convertValue(this, Map.class).forEach((k, v) -> map.put(String.valueOf(k), v));
        return map;
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder().profile(profile).clients(clients).workloads(workloads, workloadSources)
                .timing(rampUpS, durationS, rampDownS, pauseS).protocol(protocol).repeat(repeat).timeoutMs(timeoutMs)
                .latencyBoundMs(latencyBoundMs).baseline(baseline).warmUpS(warmUpS).mixMeanBytes(mixMeanBytes)
                .fairnessMin(fairnessMin).seed(seed).tls(tlsTarget, tlsSessionResumption).serverPid(serverPid)
                .serverMetrics(serverMetrics).windowRule(windowRule).engine(engine).jmeter(jmeterEngines, jmeterRmiTls).latencyEnd(latencyEnd)
                .machine(clientCpus, clockTicksPerS, java, os).pinning(pinning).order(order).steadyStateRule(steadyStateRule);
    }

    /** Settings by name; what is not set is not recorded. */
    public static final class Builder {
        private String profile;
        private List<Integer> clients;
        private List<String> workloads;
        private List<String> workloadSources;
        private Double rampUpS;
        private Double durationS;
        private Double rampDownS;
        private Double pauseS;
        private String protocol;
        private Integer repeat;
        private Integer timeoutMs;
        private Double latencyBoundMs;
        private String baseline;
        private Double warmUpS;
        private Map<String, Double> mixMeanBytes;
        private Double fairnessMin;
        private Long seed;
        private String tlsTarget;
        private Boolean tlsSessionResumption;
        private List<Long> serverPid;
        private List<String> serverMetrics;
        private String windowRule;
        private String engine;
        private List<String> jmeterEngines;
        private Boolean jmeterRmiTls;
        private String latencyEnd;
        private Integer clientCpus;
        private Long clockTicksPerS;
        private String java;
        private String os;
        private String pinning;
        private String order;
        private String steadyStateRule;

        private Builder() {
        }

        public Builder profile(String value) { profile = value; return this; }
        public Builder clients(List<Integer> value) { clients = value; return this; }
        public Builder protocol(String value) { protocol = value; return this; }
        public Builder repeat(Integer value) { repeat = value; return this; }
        public Builder timeoutMs(Integer value) { timeoutMs = value; return this; }
        public Builder latencyBoundMs(Double value) { latencyBoundMs = value; return this; }
        public Builder baseline(String value) { baseline = value; return this; }
        public Builder warmUpS(Double value) { warmUpS = value; return this; }
        public Builder mixMeanBytes(Map<String, Double> value) { mixMeanBytes = value; return this; }
        public Builder fairnessMin(Double value) { fairnessMin = value; return this; }
        public Builder seed(Long value) { seed = value; return this; }
        public Builder serverPid(List<Long> value) { serverPid = value; return this; }
        public Builder serverMetrics(List<String> value) { serverMetrics = value; return this; }
        public Builder windowRule(String value) { windowRule = value; return this; }
        public Builder engine(String value) { engine = value; return this; }
        public Builder latencyEnd(String value) { latencyEnd = value; return this; }
        public Builder pinning(String value) { pinning = value; return this; }
        public Builder order(String value) { order = value; return this; }
        public Builder steadyStateRule(String value) { steadyStateRule = value; return this; }

        public Builder workloads(List<String> names, List<String> sources) {
            workloads = names;
            workloadSources = sources;
            return this;
        }

        public Builder timing(Double rampUp, Double duration, Double rampDown, Double pause) {
            rampUpS = rampUp;
            durationS = duration;
            rampDownS = rampDown;
            pauseS = pause;
            return this;
        }

        public Builder tls(String target, Boolean sessionResumption) {
            tlsTarget = target;
            tlsSessionResumption = sessionResumption;
            return this;
        }

        public Builder jmeter(List<String> engines, Boolean rmiTls) {
            jmeterEngines = engines;
            jmeterRmiTls = rmiTls;
            return this;
        }

        /** The client machine: its CPUs, the kernel's clock ticks, the JVM and the system. */
        public Builder machine(Integer cpus, Long clockTicks, String javaVm, String system) {
            clientCpus = cpus;
            clockTicksPerS = clockTicks;
            java = javaVm;
            os = system;
            return this;
        }

        public Settings build() {
            return new Settings(profile, clients, workloads, workloadSources, rampUpS, durationS, rampDownS, pauseS,
                    protocol, repeat, timeoutMs, latencyBoundMs, baseline, warmUpS, mixMeanBytes, fairnessMin, seed,
                    tlsTarget, tlsSessionResumption, serverPid, serverMetrics, windowRule, engine, jmeterEngines, jmeterRmiTls,
                    latencyEnd, clientCpus, clockTicksPerS, java, os, pinning, order, steadyStateRule);
        }
    }
}
