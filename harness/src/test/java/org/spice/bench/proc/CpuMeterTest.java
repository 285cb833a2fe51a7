package org.spice.bench.proc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** The server's processes are a set: each counted once, however often or however nested they are given. */
class CpuMeterTest {

    @Test
    void aPidGivenTwiceOrInsideAnotherGivenTreeCountsOnce() {
        long self = ProcessHandle.current().pid();
        // a master (self) with two workers, the master given twice and one worker given too, as nginx's PID files do
        Map<Long, List<Long>> children = Map.of(self, List.of(-1L, -2L), -2L, List.of(-3L));
        Set<Long> set = CpuMeter.processes(List.of(self, self), children);
        assertEquals(Set.of(self, -1L, -2L, -3L), set);
        assertNull(CpuMeter.processes(List.of(self, Long.MAX_VALUE), children), "a PID that is gone: no figure");
    }

    @Test
    void theSameProcessGivenTwiceHasTheCpuOfOnce() {
        long self = ProcessHandle.current().pid();
        double twice = CpuMeter.treeCpuSeconds(List.of(self, self));
        double once = CpuMeter.treeCpuSeconds(self);
        assertTrue(twice <= once + 0.05 && twice > 0, once + " s once, " + twice + " s given twice");
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void serverCpuIncludesDescendantsAliveOrReaped() throws Exception {
        // The outer shell forks a busy inner shell, waits for it (its CPU moves to the outer's cutime), then sleeps.
        Process outer = new ProcessBuilder("sh", "-c",
                "sh -c 'i=0; while [ $i -lt 400000 ]; do i=$((i+1)); done'; sleep 5").start();
        try {
            Thread.sleep(1500);
            double seconds = CpuMeter.treeCpuSeconds(outer.pid());
            assertTrue(seconds >= 0.05, "tree CPU " + seconds + " s");
        } finally {
            outer.destroyForcibly();
            outer.waitFor();
        }
        assertTrue(Double.isNaN(CpuMeter.treeCpuSeconds(outer.pid())), "a gone process has no CPU time");
        assertTrue(CpuMeter.processCpuNanos() > 0);
        assertTrue(CpuMeter.clockTicks() > 0);
    }
}
