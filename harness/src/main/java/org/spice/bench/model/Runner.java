package org.spice.bench.model;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * What runs the load and where its results go: the engine (--engine, and JMeter's settings with it), the seed of the
 * clients' draws, of the rounds' order and of random arrivals (--seed), how the open loop's requests fall in time
 * (--arrivals), the results' parent directory (--out).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Runner(Engine engine, @JsonIgnore JMeter jmeter, long seed, Arrivals arrivals, @JsonIgnore Path outDir) {

    /** SPICE's own engine, seed 1, even arrivals, results under {@code outDir}. */
    public static Runner of(Path outDir) {
        return new Runner(Engine.EVENT_LOOP, null, 1, Arrivals.EVEN, outDir);
    }

    @JsonProperty
    List<String> jmeterEngines() {
        return jmeter == null ? null : jmeter.remotes().isEmpty() ? List.of("local") : jmeter.remotes();
    }

    @JsonProperty
    Boolean jmeterRmiTls() {
        return jmeter == null || jmeter.remotes().isEmpty() ? null : jmeter.rmiKeystore() != null;
    }

    /** The load engine. */
    public enum Engine {
        /** Closed-loop clients on event-loop threads, plain HTTP and TLS alike. */
        EVENT_LOOP(true),
        /** Apache JMeter in non-GUI mode, here or on JMeter server engines on other machines. */
        JMETER(false);

        private final boolean windowed;

        Engine(boolean windowed) {
            this.windowed = windowed;
        }

        /**
         * Whether the engine runs windows of any timing (slices to a steady state, a flood's steps): the one place that
         * says so before an engine exists; its class is then a {@link LoadEngine.Windowed} (EnginesTest checks both agree).
         */
        public boolean windowed() {
            return windowed;
        }

        @JsonValue
        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    /**
     * How JMeter runs (engine jmeter only).
     *
     * @param home        JMeter's home (jmeter/target/jmeter, assembled by the build)
     * @param remotes     JMeter server engines, HOST:PORT; empty to run JMeter here
     * @param rmiKeystore the keystore both sides share for RMI over TLS; null when RMI runs without TLS (loopback tests)
     * @param rmiPassword its password
     */
    public record JMeter(Path home, List<String> remotes, Path rmiKeystore, String rmiPassword) {
        public JMeter {
            remotes = List.copyOf(remotes);
        }
    }
}
