package org.spice.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.model.Arrivals;
import org.spice.bench.model.BenchSettings;
import org.spice.bench.model.LoadEngine;
import org.spice.bench.model.Runner;
import org.spice.bench.model.Stop;
import org.spice.bench.proc.ServerCpu;
import org.spice.commands.BenchCommand;

/** What an engine can do is said once, by {@link Runner.Engine#windowed}, and its class agrees. */
@Tag("unit")
class EnginesTest {

    @Test
    void eachEnginesClassIsWindowedExactlyWhenItsNameSaysSo(@TempDir Path dir) {
        for (Runner.Engine engine : Runner.Engine.values()) {
            BenchSettings settings = BenchCommand.settings("--target", "http://127.0.0.1:1", "--probes", "static");
            LoadEngine made = Engines.start(settings.with(new Runner(engine, null, 1, Arrivals.EVEN, dir)), null,
                    new ServerCpu(List.of(), true, List.of(), null), dir, new Stop(), System.err);
            assertEquals(engine.windowed(), made instanceof LoadEngine.Windowed, engine.toString());
        }
    }
}
