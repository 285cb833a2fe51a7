package org.spice.bench.engine;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.spice.bench.model.Cpu;

/**
 * For a server on another machine the machine's CPU is not read: it would be the client's machine, and the
 * figure that counts would fall back to it. (A real remote target cannot be loaded from a test: this is the
 * reading the engine takes when the target is not local.)
 */
class RemoteCpuTest {

    @Test
    void theMachinesCpuIsReadOnlyWhenTheServerIsHere() throws Exception {
        EventLoopEngine.CpuReading before = EventLoopEngine.CpuReading.now(List.of(), false);
        Thread.sleep(20);
        Cpu remote = EventLoopEngine.CpuReading.now(List.of(), false).since(before);
        assertTrue(Double.isNaN(remote.machineS()), "no machine figure for a server elsewhere: " + remote);
        assertTrue(Double.isNaN(remote.serverS()), "no server figure without its processes: " + remote);
        assertFalse(Double.isNaN(remote.clientS()), "the client's own CPU is still this process's");

        EventLoopEngine.CpuReading here = EventLoopEngine.CpuReading.now(List.of(), true);
        Thread.sleep(20);
        assertFalse(Double.isNaN(EventLoopEngine.CpuReading.now(List.of(), true).since(here).machineS()));
    }
}
