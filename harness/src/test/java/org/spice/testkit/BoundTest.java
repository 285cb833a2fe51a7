package org.spice.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The test kit's bound: its margin's arithmetic, its record, and a failure that says what to do. */
@Tag("unit")
class BoundTest {

    @Test
    void theMarginIsTheNearerSidesDistanceOverTheLargerOfItsBoundAndTheFigure() {
        assertEquals(0.27 / 20.27, Bound.margin(20.27, 20, 40), 1e-12);
        assertEquals(0.1, Bound.margin(1.0, 0.9, Double.POSITIVE_INFINITY), 1e-12);
        assertEquals(1.0, Bound.margin(1.006, 0, Double.POSITIVE_INFINITY), 1e-12, "well above a bound of 0");
        assertEquals(0.5, Bound.margin(0.5, 0, 1), 1e-12, "the nearer side, relative to its bound");
        assertEquals(0.05 / 1.05, Bound.margin(1.0, Double.NEGATIVE_INFINITY, 1.05), 1e-12);
        assertEquals(-0.1 / 1.1, Bound.margin(1.1, 0, 1.0), 1e-12, "outside: negative");
    }

    @Test
    void aFigureInsideItsBoundIsRecordedWithItsDerivation() throws Exception {
        Path record = Path.of("target", "bounds.tsv");
        long before = Files.exists(record) ? Files.readAllLines(record, StandardCharsets.UTF_8).size() : 0;
        Bound.within("a known figure", 0.5, 0, 1, "made up for this test");
        List<String> lines = Files.readAllLines(record, StandardCharsets.UTF_8);
        assertEquals(before + 1, lines.size());
        String[] row = lines.get(lines.size() - 1).split("\t");
        assertEquals(List.of("BoundTest.aFigureInsideItsBoundIsRecordedWithItsDerivation", "a known figure", "0.5000",
                "0", "1", "0.5000"), List.of(row).subList(0, 6));
        assertEquals("made up for this test", row[7]);
    }

    @Test
    void aFigureOutsideItsBoundFailsNamingTheFigureTheBoundItsSourceAndWhatToDo() {
        AssertionError error = assertThrows(AssertionError.class, () -> Bound.ratio("server CPU", 1.2, 1.0, 0.05,
                "4 sd of the ticks"));
        String said = error.getMessage();
        assertTrue(said.startsWith("server CPU / 1 = 1.200, outside its bound [0.9500, 1.050]"), said);
        assertTrue(said.contains("The bound comes from: 4 sd of the ticks."), said);
        assertTrue(said.contains("-Dtest=BoundTest"), said);
        assertThrows(AssertionError.class, () -> Bound.atLeast("a rate", Double.NaN, 1, "NaN is never inside"));
    }
}
