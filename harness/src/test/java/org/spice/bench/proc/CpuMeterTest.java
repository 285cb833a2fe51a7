package org.spice.bench.proc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import org.spice.testkit.Bound;

/** The server's processes are a set: each counted once, however often or however nested they are given. */
@Tag("process")
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
        assertTrue(twice > 0, "this JVM has used CPU: " + twice);
        // read one after the other, so "once" is later by the second read's own CPU: a few ms of /proc scanning
        Bound.atMost("CPU of this JVM given twice, s", twice, once + 0.05, "read first, so never above once but for"
                + " the ticks' truncation (1 tick, 0.01 s) and a JIT thread between the reads; 0.05 s is 5 ticks");
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
            Bound.atLeast("tree CPU with a reaped child, s", seconds, 0.05, "400,000 shell iterations cost 0.3-0.6 s"
                    + " here (dash); 0.05 s is 5 ticks, so the reaped child's time was counted");
        } finally {
            outer.destroyForcibly();
            outer.waitFor();
        }
        assertTrue(Double.isNaN(CpuMeter.treeCpuSeconds(outer.pid())), "a gone process has no CPU time");
        assertTrue(CpuMeter.processCpuNanos() > 0);
        assertTrue(CpuMeter.clockTicks() > 0);
    }
}
