package org.spice.bench.jmeter;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.spice.bench.samples.Sample;

/** The window of a run over several JMeter engines starts after the last engine's first sample. */
@Tag("unit")
class JMeterWindowTest {

    private static Sample at(double startMs, String client) {
        return new Sample(startMs, 1, 200, 6250, client, null);
    }

    @Test
    void anEngineThatStartsLateIsInTheWholeWindow() {
        List<Sample> samples = List.of(at(1_000, "a/spice 1-1"), at(1_500, "a/spice 1-2"), at(2_200, "b/spice 1-1"),
                at(2_100, "b/spice 1-2"), at(3_000, "a/spice 1-1"));
        assertEquals(2_100, JMeterEngine.lastEnginesFirstSample(samples), 1e-9, "engine b's first sample, not a's");
        assertEquals(1_000, JMeterEngine.lastEnginesFirstSample(samples.subList(0, 2)), 1e-9, "one engine: its first");
    }
}
