package org.spice.bench.run;

import java.io.IOException;

import org.spice.bench.engine.OpenLoop;
import org.spice.bench.engine.OpenPlan;
import org.spice.bench.engine.OpenStats;
import org.spice.bench.jmeter.JMeterEngine;
import org.spice.bench.mix.Mix;
import org.spice.bench.model.BenchSettings;
import org.spice.bench.model.Failure;
import org.spice.bench.model.LoadEngine;
import org.spice.bench.model.Stop;
import org.spice.bench.proc.ServerCpu;

/**
 * The open loop in the ladder's place (--rate): each probe in turn at the offered rate for the duration, its
 * latencies from the schedule's due times, the server's CPU read around it; each run to the recorder as it ends. On
 * SPICE's engine, {@link OpenLoop}; with --engine jmeter, JMeter's open model ({@link JMeterEngine#runOpen}).
 */
final class OpenRates {

    private final BenchSettings settings;
    private final Preflight.Ready ready;
    private final Stop stop;
    private final Recorder recorder;

    private final LoadEngine engine;

    OpenRates(BenchSettings settings, Preflight.Ready ready, LoadEngine engine, Stop stop, Recorder recorder) {
        this.settings = settings;
        this.engine = engine;
        this.ready = ready;
        this.stop = stop;
        this.recorder = recorder;
    }

    /** @return null when every probe ran, else why the run was cut short */
    Failure run() throws InterruptedException, IOException {
        ServerCpu cpu = ready.serverCpu();
        for (Mix mix : settings.load().mixes()) {
            if (engine instanceof JMeterEngine jmeter) {
                JMeterEngine.Open open = jmeter.runOpen(mix, settings.open().rps());
                if (open.failure() != null) {
                    return open.failure();
                }
                recorder.openLoop(open.run());
                continue;
            }
            double before = cpu.read().serverS();
            OpenStats stats = OpenLoop.run(OpenPlan.of(mix, settings), ready.tls(), stop);
            double after = cpu.read().serverS();
            recorder.openLoop(stats.figures(mix.name(), after - before));
            if (stop.requested()) {
                return stop.failure();
            }
        }
        return null;
    }
}
