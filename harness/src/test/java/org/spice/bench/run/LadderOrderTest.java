package org.spice.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.spice.bench.model.BenchSettings;
import org.spice.commands.BenchCommand;

/** The ladder's order cannot favour a workload: interleaved at each client count, rotated per round. */
@Tag("unit")
class LadderOrderTest {

    @Test
    void everyWorkloadAtAClientCountThenTheNextCountTheFirstRotatingPerRound() {
        BenchSettings settings = BenchCommand.settings("--target", "http://127.0.0.1:1", "--probes", "static,servlet,cgi",
                "--clients", "1,8", "--repeat", "2");
        List<String> order = Ladder.order(settings).stream()
                .map(s -> s.repeat() + ":" + s.clients() + ":" + s.mix().name()).toList();
        assertEquals(List.of("1:1:static", "1:1:servlet", "1:1:cgi", "1:8:static", "1:8:servlet", "1:8:cgi",
                "2:1:servlet", "2:1:cgi", "2:1:static", "2:8:servlet", "2:8:cgi", "2:8:static"), order);
    }
}
