package org.spice.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.spice.bench.model.BenchSettings;
import org.spice.bench.model.RecordedSettings;
import org.spice.bench.model.ResultsJson;

import com.fasterxml.jackson.core.type.TypeReference;

/**
 * The settings results.json records are mapped from the run's settings by name: every setting the mapping writes
 * comes back when read (none is dropped on the way), and the values are those of the options.
 */
@Tag("unit")
class RecordedSettingsTest {

    private static final RecordedSettings.Machine MACHINE = new RecordedSettings.Machine(2, 100L, "OpenJDK 17", "Linux");

    @Test
    void everySettingTheRunMapsComesBackFromResultsJson() throws Exception {
        BenchSettings settings = BenchCommand.settings("--target", "https://127.0.0.1:18443", "--server-pid", "1,2",
                "--baseline", "file", "--keepalive");
        Map<String, Object> mapped = ResultsJson.MAPPER.convertValue(settings, new TypeReference<>() { });
        RecordedSettings recorded = settings.recorded(MACHINE, "pinned", "order", "rule");
        RecordedSettings read = ResultsJson.MAPPER.readValue(ResultsJson.MAPPER.writeValueAsString(recorded),
                RecordedSettings.class);
        assertEquals(recorded, read, "written and read back, the same settings");
        Set<String> lost = new TreeSet<>(mapped.keySet());
        lost.removeAll(read.asMap().keySet());
        assertEquals(Set.of(), lost, "settings the run records that results.json drops");
        assertEquals(List.of(1, 2), read.asMap().get("server_pid"));
        assertTrue(mapped.size() > 20, "the groups' settings, by name: " + mapped.keySet());
    }

    @Test
    void theRecordedValuesAreTheOptions() {
        RecordedSettings recorded = BenchCommand.settings("--target", "http://127.0.0.1:1", "--probes", "static,cgi",
                "--clients", "1,8", "--duration", "2", "--timeout", "5000").recorded(MACHINE, null, "order", "rule");
        Map<String, Object> map = recorded.asMap();
        assertEquals("quick", map.get("profile"));
        assertEquals("event-loop", recorded.engine());
        assertEquals(List.of(1, 8), map.get("clients"));
        assertEquals(List.of("static", "cgi"), map.get("workloads"));
        assertEquals(2.0, map.get("duration_s"));
        assertEquals(5000, map.get("timeout_ms"));
        assertEquals("HTTP/1.0, one connection per request", recorded.protocol());
        assertEquals(2, map.get("client_cpus"));
        assertEquals("rule", map.get("steady_state_rule"));
        assertNull(map.get("baseline"), "left to the run: not recorded");
        assertNull(map.get("server_pid"), "none given: not recorded");
        assertFalse(map.containsKey("jmeter_engines"));
        for (String secret : List.of("rmi_password", "jmeter", "trust_cert", "out_dir")) {
            assertFalse(map.containsKey(secret), secret);
        }
        assertTrue(map.containsKey("tls_session_resumption"));
        assertEquals(300.0, map.get("cpu_time_with_warm_up_s"), "the default: the rounds share a bound with the warm-up,"
                + " 50 s per workload, counting at least six");
        Map<String, Object> given = BenchCommand.settings("--target", "http://127.0.0.1:1", "--cpu-time", "90")
                .recorded(MACHINE, null, "order", "rule").asMap();
        assertEquals(90.0, given.get("cpu_time_s"));
        assertNull(given.get("cpu_time_with_warm_up_s"), "--cpu-time given: the rounds' bound is its own");
    }

    @Test
    void aSettingWithoutAComponentIsKeptAndWrittenBack() throws Exception {
        Map<String, Object> values = Map.of("engine", "ab", "flavour", "vanilla");
        RecordedSettings read = ResultsJson.MAPPER.convertValue(values, RecordedSettings.class);
        assertEquals("ab", read.engine());
        assertEquals("vanilla", read.asMap().get("flavour"));
        Map<String, Object> written = ResultsJson.MAPPER.readValue(ResultsJson.MAPPER.writeValueAsString(read),
                new TypeReference<>() { });
        assertEquals("vanilla", written.get("flavour"), "written back in its place: " + written);
    }
}
