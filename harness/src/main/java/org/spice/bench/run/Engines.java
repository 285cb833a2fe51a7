package org.spice.bench.run;

import java.io.PrintStream;
import java.nio.file.Path;

import org.spice.bench.engine.EventLoopEngine;
import org.spice.bench.jmeter.JMeterEngine;
import org.spice.bench.model.BenchSettings;
import org.spice.bench.model.LoadEngine;
import org.spice.bench.model.Stop;
import org.spice.bench.net.TlsConfig;
import org.spice.bench.proc.ServerCpu;

/** The load engine --engine names: SPICE's event loops (windowed: slices and floods) or JMeter (the ladder only). */
final class Engines {

    private Engines() {
    }

    static LoadEngine start(BenchSettings settings, TlsConfig tls, ServerCpu serverCpu, Path dir, Stop stop,
            PrintStream err) {
        return switch (settings.runner().engine()) {
            case JMETER -> new JMeterEngine(settings, dir.resolve("jmeter"), stop, err, serverCpu);
            case EVENT_LOOP -> new EventLoopEngine(settings, tls, stop, serverCpu);
        };
    }
}
