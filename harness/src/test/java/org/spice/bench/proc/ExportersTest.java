package org.spice.bench.proc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** What SPICE reads from the exporters on a server's machine, in Prometheus' text format. */
@Tag("unit")
class ExportersTest {

    private static final String NODE = """
            # TYPE node_cpu_seconds_total counter
            node_cpu_seconds_total{cpu="0",mode="idle"} 900.5
            node_cpu_seconds_total{cpu="0",mode="user"} 10.25
            node_cpu_seconds_total{cpu="0",mode="system"} 4.75
            node_cpu_seconds_total{cpu="0",mode="iowait"} 3
            """;
    private static final String PROCESSES = """
            namedprocess_namegroup_cpu_seconds_total{groupname="spice",mode="system"} 2
            namedprocess_namegroup_cpu_seconds_total{groupname="spice",mode="user"} 3.5
            namedprocess_namegroup_cpu_seconds_total{groupname="spice-exporters",mode="user"} 0.5
            """;
    private static final String CGROUP = """
            # HELP spice_cgroup_cpu_seconds_total CPU seconds of every process in the cgroup
            # TYPE spice_cgroup_cpu_seconds_total counter
            spice_cgroup_cpu_seconds_total{cgroup="/sys/fs/cgroup/system.slice/apache2.service"} 7.125
            """;

    @Test
    void theServersFigureIsItsCgroupsWhereTheAgentServesOneElseItsProcesses() {
        Exporters.Reading without = Exporters.parse(NODE + PROCESSES);
        assertEquals(15.0, without.machineBusyS(), "every mode but idle and iowait");
        assertEquals(5.5, without.serverS(), "the group spice's user and system");
        assertEquals(14.5, without.machineLessExportersS());
        assertTrue(Double.isNaN(without.cgroupS()));
        assertNull(without.cgroup());

        Exporters.Reading with = Exporters.parse(NODE + PROCESSES + CGROUP);
        assertEquals(7.125, with.serverS(), "the cgroup's, CGI programs between scrapes included");
        assertEquals(5.5, with.processesS());
        assertEquals("/sys/fs/cgroup/system.slice/apache2.service", with.cgroup());
    }
}
