package org.spice.bench.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.spice.bench.figures.SpiceFigures;

/** The server comparison's ratios on known inputs: the white paper's Table 1 (iWS against Stronghold). */
@Tag("unit")
class ComparisonTest {

    private static SpiceFigures.Summary summary(String probe, double peak, double latencyMs) {
        return new SpiceFigures.Summary(probe, 1, peak, 60, latencyMs, 1, 1, 60, 1, 1, peak, 60, 1, 100, 120,
                SpiceFigures.CpuSource.SERVER, 100, 1);
    }

    @Test
    void timesFasterAgainstTheSlowestServer() {
        Map<String, List<SpiceFigures.Summary>> servers = new LinkedHashMap<>();
        servers.put("iWS", List.of(summary("static", 2759, 8.3), summary("servlet", 1080, 24.9)));
        servers.put("Stronghold", List.of(summary("static", 2282, 15.4)));
        Comparison comparison = new Comparison(servers, 6250);

        double[] rate = comparison.rateTimesSlowest("static");
        assertEquals(1.21, rate[0], 0.005, "Table 1: iWS serves 1.21 times the static rate");
        assertEquals(1.0, rate[1], 1e-12);
        double[] latency = comparison.latencyTimesSlowest("static");
        assertEquals(1.86, latency[0], 0.005, "Table 1: iWS's static latency is 1.86 times shorter");
        assertEquals(1.0, latency[1], 1e-12);

        assertEquals(List.of("static", "servlet"), comparison.probes());
        assertTrue(Double.isNaN(comparison.rateTimesSlowest("servlet")[1]), "a probe a server did not run has no ratio");
        assertArrayEquals(new double[] {1.0, Double.NaN}, comparison.rateTimesSlowest("servlet"));
    }
}
