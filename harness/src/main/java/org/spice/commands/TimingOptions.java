package org.spice.commands;

import org.spice.bench.model.Load;
import org.spice.bench.model.Timing;

import picocli.CommandLine.Option;

/** The timing of a bench's mixes: a profile, and what of it the options change, in seconds. */
final class TimingOptions {

    @Option(names = "--profile", paramLabel = "NAME", converter = Converters.ProfileName.class, description = "Timing:"
            + " quick (0.5 s ramp-up, 2 s window, at most 0.5 s ramp-down, no pause; default), webbench (30/240/30/30 s, the white"
            + " paper's), or overload (the quick ladder, then each workload at 2, 4, 8 and 16 times its peak's clients and"
            + " its recovery), or latency (the quick ladder for each probe's peak, then every probe open loop at common"
            + " rates in paired rounds, and each along its own curve: --common-rates, --curve), or cost (the quick ladder"
            + " for each probe's peak, then each probe's server CPU per request at fractions of it in rounds, and its"
            + " marginal cost, the CPU of one more request: --cost-rates, --cost-rounds).")
    Timing.Profile profile = Timing.Profile.QUICK;

    @Option(names = "--duration", paramLabel = "S", converter = Converters.Seconds.class,
            description = "The measured window of each mix, seconds.")
    Double duration;

    @Option(names = "--ramp-up", paramLabel = "S", converter = Converters.Seconds.class,
            description = "Unmeasured load before each window, seconds.")
    Double rampUp;

    @Option(names = "--ramp-down", paramLabel = "S", converter = Converters.Seconds.class,
            description = "Load kept on after each window until every request started in it has ended, at most S"
                    + " seconds.")
    Double rampDown;

    @Option(names = "--pause", paramLabel = "S", converter = Converters.Seconds.class,
            description = "Rest between mixes, seconds.")
    Double pause;

    @Option(names = "--warm-up", paramLabel = "S", converter = Converters.Seconds.class, description = "Before the"
            + " measurements, every workload runs unmeasured, a one-second slice each in turn, until the server's CPU per"
            + " request is steady (3 slices within 5 %% of their mean, or no longer falling), its JIT quiet and, on a JVM,"
            + " each JSP page past its C2 compile threshold; at the CPU rounds' load (--cpu-clients) when they follow, else"
            + " at the ladder's largest client count (up to 64). S seconds per workload make one budget for them all"
            + " (a workload that is steady leaves, the others take its time); a Java server warms at least S seconds in"
            + " all, 2 S where no CPU rounds follow (default 30; 0: no warm-up and no idle measurement).")
    double warmUp = 30;

    /** The timing these options give: the profile's, each value the options name changed. */
    Timing timing() {
        return new Timing(profile, rampUp != null ? rampUp : profile.rampUpS, duration != null ? duration
                : profile.durationS, rampDown != null ? rampDown : profile.rampDownS, pause != null ? pause
                : profile.pauseS, warmUp);
    }
}
