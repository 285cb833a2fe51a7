package org.spice.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class MachineSpeedTest {

    private final String saved = System.getProperty("spice.machine.rps");

    @AfterEach
    void restore() {
        if (saved == null) {
            System.clearProperty("spice.machine.rps");
        } else {
            System.setProperty("spice.machine.rps", saved);
        }
    }

    @Test
    void aMachineHalfAsFastIsTwiceAsSlowUpToTheCap() {
        System.setProperty("spice.machine.rps", Double.toString(MachineSpeed.REFERENCE_RPS / 2));
        assertEquals(2.0, MachineSpeed.slowness(3), 1e-9);
        assertEquals(1.5, MachineSpeed.slowness(1.5), 1e-9);
        System.setProperty("spice.machine.rps", Double.toString(MachineSpeed.REFERENCE_RPS / 1.3));
        assertEquals(1.0, MachineSpeed.slowness(3), 1e-9, "within the figure's spread on one machine: the reference");
        System.setProperty("spice.machine.rps", Double.toString(MachineSpeed.REFERENCE_RPS * 3));
        assertEquals(1.0, MachineSpeed.slowness(3), 1e-9, "a faster machine is given no less");
    }

    @Test
    void unmeasuredIsTheReferenceAndNonsenseIsRefused() {
        System.setProperty("spice.machine.rps", "");
        assertEquals(1.0, MachineSpeed.slowness(3));
        System.setProperty("spice.machine.rps", "fast");
        assertThrows(IllegalArgumentException.class, () -> MachineSpeed.slowness(3));
    }
}
