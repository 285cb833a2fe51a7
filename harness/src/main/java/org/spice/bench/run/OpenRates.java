package org.spice.bench.run;

import java.io.IOException;

import org.spice.bench.mix.Mix;
import org.spice.bench.model.BenchSettings;
import org.spice.bench.model.Failure;
import org.spice.bench.model.LoadEngine;
import org.spice.bench.model.Stop;

/**
 * The open loop in the ladder's place (--rate): each probe in turn at the offered rate for the duration, its
 * latencies from the schedule's due times, the server's CPU read around it by the engine ({@link LoadEngine#open}:
 * SPICE's open loop, or with --engine jmeter JMeter's open model); each run to the recorder as it ends.
 */
final class OpenRates {

    private final BenchSettings settings;
    private final Stop stop;
    private final Recorder recorder;

    private final LoadEngine engine;

    OpenRates(BenchSettings settings, LoadEngine engine, Stop stop, Recorder recorder) {
        this.settings = settings;
        this.engine = engine;
        this.stop = stop;
        this.recorder = recorder;
    }

    /** @return null when every probe ran, else why the run was cut short */
    Failure run() throws InterruptedException, IOException {
        for (Mix mix : settings.load().mixes()) {
            LoadEngine.Open open = engine.open(mix, settings.open().rps(), settings.open().maxInFlight(),
                    settings.timing().durationS());
            if (open.failure() != null) {
                return open.failure();
            }
            recorder.openLoop(open.run());
            if (stop.requested()) {
                return stop.failure();
            }
        }
        return null;
    }
}
