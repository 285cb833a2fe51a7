package org.spice.cgifloor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The CGI floor reads cgi-c/spawn-cost's lines and lays them out per program and method. */
@Tag("unit")
class SpawnCostTest {

    @Test
    void parsesTheSpawnCostLines() {
        List<SpawnCost.Spawn> spawns = SpawnCost.parse(
                "fork_exec wall_us=614.8 cpu_us=606.4\nposix_spawn wall_us=572.0 cpu_us=550.9\n");
        assertEquals(List.of(new SpawnCost.Spawn("fork_exec", 614.8, 606.4),
                new SpawnCost.Spawn("posix_spawn", 572.0, 550.9)), spawns);
    }

    @Test
    void tableHasOneRowPerProgramAndMethod() {
        Map<String, List<SpawnCost.Spawn>> measured = new LinkedHashMap<>();
        measured.put("dynamic", List.of(new SpawnCost.Spawn("fork_exec", 740, 700)));
        measured.put("static", List.of(new SpawnCost.Spawn("fork_exec", 490, 470)));
        String table = SpawnCost.table(measured);
        assertTrue(table.contains("dynamic                fork_exec           740        700"), table);
        assertTrue(table.contains("static                 fork_exec           490        470"), table);
    }
}
