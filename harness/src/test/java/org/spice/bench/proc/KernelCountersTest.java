package org.spice.bench.proc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The kernel's counters, read from /proc for this very process: they move when the process does what they count. */
@Tag("process")
class KernelCountersTest {

    private static final List<Long> SELF = List.of(ProcessHandle.current().pid());

    @Test
    void startingAProcessIsCountedOnceAndItsFaultsReachTheParent() throws Exception {
        KernelCounters before = KernelCounters.read(SELF);
        assertTrue(before.voluntarySwitches() >= 0 && before.minorFaults() > 0 && before.forks() > 0, before.toString());
        for (int i = 0; i < 5; i++) {
            Process child = new ProcessBuilder("true").start();
            assertEquals(0, child.waitFor());
        }
        KernelCounters window = KernelCounters.read(SELF).since(before);
        // Java starts a program through jspawnhelper, which execs it: one process each (exec starts none); other
        // processes on the machine may start meanwhile, so at least five.
        assertTrue(window.forks() >= 5, window.toString());
        assertTrue(window.minorFaults() > 0, "the reaped children's faults count: " + window);
        assertTrue(window.voluntarySwitches() > 0, "waiting for a child blocks: " + window);
    }

    @Test
    void unknownCountersStayUnknown() {
        KernelCounters none = KernelCounters.read(List.of());
        assertEquals(-1, none.minorFaults());
        assertTrue(none.forks() > 0, "the machine's forks are read without a server");
        assertEquals(-1, KernelCounters.NONE.since(none).forks());
        assertEquals(-1, KernelCounters.read(List.of(Long.MAX_VALUE)).voluntarySwitches(), "no such process");
    }
}
