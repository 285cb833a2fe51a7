package org.spice.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.analysis.ResultsFiles;
import org.spice.bench.model.Results;

/**
 * A probe too slow for the static file's rate runs at one of its own, the static file beside it at that rate: its row
 * says what the static file cost there, so that its µs is its ratio times that, as the rows at the rounds' one rate are
 * their ratio times the static file's row. The rounds are a default bench's of 6 Dec 2026 at d62b168 (cgi at 400
 * req/s, shtml at 2,800, the others at 4,500), kept as this test's input.
 */
@Tag("unit")
class SlowRowsTest {

    /** Half the last printed digit of {@code number}: how far its rounding can have moved it. */
    private static double half(String number) {
        int dot = number.indexOf('.');
        return 0.5 * Math.pow(10, dot < 0 ? 0 : -(number.length() - dot - 1));
    }

    @Test
    void aSlowProbesMicrosecondsAreItsRatioTimesTheStaticFilesAtItsRate(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("results.json");
        try (InputStream in = SlowRowsTest.class.getResourceAsStream("/example-2026-12-06.json")) {
            Files.copy(in, file);
        }
        Results results = ResultsFiles.read(file);
        List<String[]> rows = CpuTable.rows(results);
        int slow = 0;
        for (String[] row : rows) {
            double us = Double.parseDouble(row[1].split(" ")[0]);
            if (row[0].equals("static")) {
                continue;
            }
            String[] ratio = row[2].split(" ");
            double times = Double.parseDouble(ratio[0]);
            double base = row[2].contains(" of ") ? Double.parseDouble(ratio[ratio.length - 1])
                    : Double.parseDouble(rows.get(0)[1].split(" ")[0]);
            slow += row[2].contains(" of ") ? 1 : 0;
            // each printed to its last digit: the product within what the rounding of the three leaves
            assertEquals(us, times * base, half(row[1].split(" ")[0]) + half(ratio[0]) * base + times * 0.05,
                    String.join(" | ", row));
        }
        assertEquals(2, slow, "cgi and shtml ran at rates of their own");
        assertTrue(rows.stream().filter(r -> r[0].equals("cgi")).findFirst().orElseThrow()[2].endsWith(" of 230.8"));
    }
}
