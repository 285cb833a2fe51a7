package org.spice.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.spice.testkit.CommandRun;

/** verify's options are checked before it connects. */
@Tag("unit")
class VerifyCommandTest {

    @Test
    void h2WithoutTheCertificateToTrustIsRefused() {
        CommandRun run = CommandRun.of(new VerifyCommand(), "https://127.0.0.1:1", "--http2");
        assertEquals(2, run.status(), run.toString());
        assertTrue(run.err().contains("--trust-cert"), run.err());
    }

}
