package org.spice.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.spice.testkit.Text;

/** The answer at a terminal's width: prose broken between words, tables read across as they stand. */
@Tag("unit")
class ProseTest {

    private static final String SENTENCE = "module costs 0.910 × the static file's (0.867 to 0.952); servlet costs 0.930 ×"
            + " the static file's (0.889 to 0.977); jsp costs the same as the static file within ± 4.8 %; shtml costs"
            + " 1.846 × the static file's (1.758 to 1.939), all at 3,700 req/s offered";

    @Test
    void proseIsBrokenBetweenWordsAndReadsBackWhole() {
        String table = "static         3745.0 | 0.27     4825.5 | 0.41     7044.5 | 0.57     7131.0 | 1.12     9358.5 | 1.71"
                + "     9358.5 | 1.71";
        String wrapped = Prose.wrap(SENTENCE + "\n" + table + "\n  " + SENTENCE);
        List<String> lines = wrapped.lines().toList();
        for (String line : lines) {
            assertTrue(line.length() <= Prose.WIDTH || line.equals(table), line.length() + ": " + line);
        }
        assertTrue(lines.contains(table), "a table's row stands: " + wrapped);
        assertTrue(lines.get(1).startsWith("    ") && lines.stream().anyMatch(l -> l.startsWith("      ")),
                "a line goes on indented, under its own indentation: " + wrapped);
        assertEquals(SENTENCE + "\n" + table + "\n  " + SENTENCE, Text.unwrapped(wrapped));
    }

    @Test
    void aLegendIsATermALine() {
        String legend = Prose.legend(List.of(new String[] {"±", "95 % intervals"}, new String[] {"aim", SENTENCE}));
        assertTrue(legend.startsWith("±: 95 % intervals\naim: module costs"), legend);
        assertTrue(legend.lines().allMatch(l -> l.length() <= Prose.WIDTH), legend);
    }
}
