package org.spice.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.spice.bench.model.Arrivals;
import org.spice.bench.model.BenchSettings;
import org.spice.bench.model.RecordedSettings;

import picocli.CommandLine.ParameterException;

/** --arrivals: how the open loop's requests fall in time, recorded, and refused where no open loop runs. */
@Tag("unit")
class ArrivalsOptionTest {

    private static final String T = "http://127.0.0.1:1";
    private static final RecordedSettings.Machine MACHINE = new RecordedSettings.Machine(2, 100L, "17", "Linux");

    @Test
    void evenByDefaultPoissonWhenAskedAndRecordedEitherWay() {
        BenchSettings even = BenchCommand.settings("--target", T);
        assertEquals(Arrivals.EVEN, even.runner().arrivals());
        assertEquals("even", even.recorded(MACHINE, null, "order", "rule").arrivals());
        BenchSettings poisson = BenchCommand.settings("--target", T, "--arrivals", "Poisson", "--seed", "9");
        assertEquals(Arrivals.POISSON, poisson.runner().arrivals());
        assertEquals("poisson", poisson.recorded(MACHINE, null, "order", "rule").arrivals());
        assertEquals(Arrivals.POISSON, BenchCommand.settings("--target", T, "--arrivals", "poisson", "--cpu-time", "0",
                "--probes", "static", "--rate", "100").runner().arrivals());
    }

    @Test
    void randomArrivalsNeedAnOpenLoopOfSpicesOwn() {
        assertBad("Invalid value for option '--arrivals': \"bursts\" is not one of even, poisson", "--target", T,
                "--arrivals", "bursts");
        assertBad("--arrivals poisson paces the open loop, and this run has none", "--target", T, "--arrivals",
                "poisson", "--cpu-time", "0");
        assertBad("--arrivals poisson paces SPICE's own open loop", "--target", T, "--arrivals", "poisson",
                "--engine", "jmeter", "--rate", "100", "--probes", "static");
    }

    private static void assertBad(String expectedStart, String... args) {
        ParameterException e = assertThrows(ParameterException.class, () -> BenchCommand.settings(args));
        assertTrue(e.getMessage().startsWith(expectedStart), e.getMessage());
    }
}
