package org.spice.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

import org.junit.jupiter.api.Test;
import org.spice.testkit.CommandRun;

/** verify's options are checked before it connects; a port that nothing serves is said as such. */
class VerifyCommandTest {

    @Test
    void badInputOverHttp2IsRefusedBeforeAnyConnection() throws IOException {
        try (ServerSocket listening = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CommandRun run = CommandRun.of(new VerifyCommand(), "http://127.0.0.1:" + listening.getLocalPort(),
                    "--http2", "--bad-input");
            assertEquals(2, run.status(), run.toString());
            assertTrue(run.err().contains("--bad-input sends malformed HTTP/1 requests: run it without --http2"), run.err());
            listening.setSoTimeout(200);
            assertTrue(accepted(listening) == null, "verify connected before refusing its options");
        }
    }

    @Test
    void h2WithoutTheCertificateToTrustIsRefused() {
        CommandRun run = CommandRun.of(new VerifyCommand(), "https://127.0.0.1:1", "--http2");
        assertEquals(2, run.status(), run.toString());
        assertTrue(run.err().contains("--trust-cert"), run.err());
    }

    private static Object accepted(ServerSocket listening) {
        try {
            return listening.accept();
        } catch (IOException e) {
            return null;
        }
    }
}
