package org.spice.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.spice.bench.model.ResultsJson;
import org.spice.bench.model.RunRecord;
import org.spice.commands.CompareToolsCommand;
import org.spice.testkit.CommandRun;

/**
 * compare-tools against the embedded server, as a user runs it, shortened: each of the five tools (SPICE's engine and
 * JMeter in a JVM of their own, wrk, ab, h2load) once at 2 clients for a second, a row each with its rate and its whole
 * process's CPU per request, its results kept, and one comparison of the five. Some 15 s here.
 */
class CompareToolsAgainstEmbeddedTest extends StartedEmbeddedTomcat {

    private static final Path JMETER = Path.of(System.getProperty("spice.jmeter.home", "../jmeter/target/jmeter"));

    @Test
    void everyToolMeasuresTheSameUrlAndOneComparisonHoldsThem() throws Exception {
        Path out = base.resolve("tools");
        CommandRun ran = CommandRun.of(new CompareToolsCommand(), server.baseUrl() + "/spice/static/spice.html", "1", "1", "2",
                "--warm-up", "0", "--jmeter-home", JMETER.toString(), "--out", out.toString());
        assertEquals(0, ran.status(), ran.console());
        List<String> rows = ran.out().lines().filter(l -> l.matches("(engine|jmeter|wrk|ab|h2load) +2 +1 .*")).toList();
        assertEquals(5, rows.size(), "a row per tool: " + ran.out());
        for (String row : rows) {
            String[] cells = row.trim().split("\\s+");
            // h2load counts nothing against Tomcat (docs/tools.md, "Which tool works on which server"): its row stands
            boolean counted = !cells[0].equals("h2load");
            assertTrue(!counted || Double.parseDouble(cells[3]) > 0 && Double.parseDouble(cells[4]) > 0,
                    "a rate and a CPU per request: " + row);
        }
        for (String tool : List.of("engine", "jmeter", "wrk", "ab", "h2load")) {
            List<RunRecord> runs = ResultsJson.read(out.resolve(tool).resolve(ResultsJson.FILE)).runs();
            assertEquals(1, runs.size(), tool + ": one run, at 2 clients");
            assertEquals(2, runs.get(0).clients(), tool);
            assertTrue(tool.equals("h2load") || runs.get(0).requests() > 0 && runs.get(0).errorTotal() == 0,
                    tool + ": " + runs.get(0).errors());
        }
        assertTrue(Files.isRegularFile(out.resolve("compare.html")), "one comparison, a column per tool");
    }

    @Test
    void aUrlThatIsNoProbeIsRefusedBeforeAnyLoad() {
        CommandRun ran = CommandRun.of(new CompareToolsCommand(), server.baseUrl() + "/elsewhere");
        assertEquals(2, ran.status());
        assertTrue(ran.err().contains("give a probe URL"), ran.err());
    }
}
