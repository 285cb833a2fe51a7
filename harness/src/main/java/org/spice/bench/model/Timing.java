package org.spice.bench.model;

import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * The timing of a ladder's mixes (--profile, --ramp-up, --duration, --ramp-down, --pause) and of the warm-up before
 * them (--warm-up), seconds.
 */
public record Timing(Profile profile, double rampUpS, double durationS, double rampDownS, double pauseS,
        double warmUpS) {

    /** {@code profile}'s own timing, and a warm-up of {@code warmUpS}. */
    public static Timing of(Profile profile, double warmUpS) {
        return new Timing(profile, profile.rampUpS, profile.durationS, profile.rampDownS, profile.pauseS, warmUpS);
    }

    /** The timing of a ladder's mixes. */
    public enum Profile {
        /**
         * Enough to see a curve in a couple of minutes: the default ladder of 6 probes x 7 client counts in about 2
         * minutes. Half a second of ramp-up and no pause between mixes: measured here after the warm-up (embedded and
         * Tomcat, 1 to 64 clients, 70 windows run with no ramp-up and no pause), a window's first second ran at 0.99 and
         * 1.01 × the rate of its next two, within their own second-to-second spread (6 %), where a 1 s ramp-up and a
         * 0.5 s pause had given 0.96; the CPU rounds' slices have neither. Windows of 2 s, not 3: the CPU figure comes
         * from the rounds, which need the time more (a default bench's rounds stopped at ±5.0 % after 29 rounds with
         * 3 s windows), and a rate over 2 s spreads √1.5 times what it does over 3, some 5 % here.
         */
        QUICK(0.5, 2, 0.5, 0),
        /** The timing of the 1999 and 2000 reports. */
        WEBBENCH(30, 240, 30, 30),
        /** The quick ladder to find each workload's peak, then the flood past it ({@link FloodPlan}). */
        OVERLOAD(0.5, 2, 0.5, 0),
        /**
         * The quick ladder to find each probe's peak, then every probe open loop at common rates in paired rounds of
         * 2 s slices, and each along its own curve ({@link LatencyPlan}).
         */
        LATENCY(0.5, 2, 0.5, 0),
        /** The quick ladder to find each probe's peak, then each probe's CPU along its rates ({@link CostPlan}). */
        COST(0.5, 2, 0.5, 0);

        public final double rampUpS;
        public final double durationS;
        public final double rampDownS;
        public final double pauseS;

        Profile(double rampUpS, double durationS, double rampDownS, double pauseS) {
            this.rampUpS = rampUpS;
            this.durationS = durationS;
            this.rampDownS = rampDownS;
            this.pauseS = pauseS;
        }

        @JsonValue
        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }
    }
}
