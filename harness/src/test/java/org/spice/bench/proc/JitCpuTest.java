package org.spice.bench.proc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** The JIT compiler threads of a JVM, found by name in /proc and followed by thread id. */
@Tag("process")
class JitCpuTest {

    @Test
    void aThreadStartedSinceCountsWholeAndOneThatEndedIsNotTakenOff() {
        long ticks = CpuMeter.clockTicks();
        JitCpu.Reading before = new JitCpu.Reading(Map.of(1L, 10 * ticks, 2L, 5 * ticks));
        // thread 1 worked 2 s more, thread 2 ended (retired), thread 3 started and worked 1 s
        JitCpu.Reading after = new JitCpu.Reading(Map.of(1L, 12 * ticks, 3L, ticks));
        assertEquals(3.0, after.secondsSince(before), 1e-9);
        assertEquals(0.0, before.secondsSince(before), 1e-12);
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void thisJvmsCompilerThreadsAreFoundAndAProcessWithNoJvmHasNone() throws Exception {
        long self = ProcessHandle.current().pid();
        JitCpu.Reading before = JitCpu.read(List.of(self));
        assertFalse(before.ticksByThread().isEmpty(), "HotSpot keeps a C1 and a C2 compiler thread at least");
        JitCpu.Reading after = JitCpu.read(List.of(self, Long.MAX_VALUE));
        assertTrue(after.secondsSince(before) >= 0, "a process that is gone adds nothing");
        Process sleeper = new ProcessBuilder("sleep", "5").start();
        try {
            assertTrue(JitCpu.read(List.of(sleeper.pid())).ticksByThread().isEmpty(), "sleep is no JVM");
        } finally {
            sleeper.destroy();
        }
    }
}
