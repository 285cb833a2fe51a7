package org.spice.bench.proc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The kernel's socket table and counters, read from known lines and from sockets this test opens. */
@Tag("unit")
class SocketsTest {

    private static final List<String> TCP = List.of(
            "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode",
            "   0: 0100007F:46A1 00000000:0000 0A 00000000:000001FF 00:00000000 00000000  1000        0 1 1",   // listen, 511 queued
            "   1: 0100007F:46A1 0100007F:AA2A 06 00000000:00000000 03:00000E0B 00000000     0        0 0 3",   // server TIME_WAIT
            "   2: 0100007F:46A1 0100007F:AA2B 03 00000000:00000000 01:00000E0B 00000002  1000        0 0 0",   // server half-open
            "   3: 0100007F:AA2B 0100007F:46A1 01 00000000:00000000 00:00000000 00000000  1000        0 7 1",   // its client
            "   4: 0100007F:AA2C 0100007F:46A1 02 00000001:00000000 01:00000E0B 00000001  1000        0 8 1",   // client SYN_SENT
            "   5: 0100007F:1F90 0100007F:AA2D 01 00000000:00000000 00:00000000 00000000  1000        0 9 1");  // another port

    @Test
    void eachSocketCountsOnItsSideOfThePort() {
        Map<String, Integer> client = new TreeMap<>();
        Map<String, Integer> server = new TreeMap<>();
        int[] queue = {0, 0};
        Sockets.count(TCP, 0x46A1, client, server, queue);
        assertEquals(Map.of("ESTABLISHED", 1, "SYN_SENT", 1), client);
        assertEquals(Map.of("TIME_WAIT", 1, "SYN_RECV", 1), server);
        assertEquals(511, queue[0]);
        assertEquals(1, queue[1]);
    }

    @Test
    void aLiveListenerAndItsConnectionShowOnBothSides() throws IOException {
        try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
                Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), listener.getLocalPort()));
            Sockets now = Sockets.of(listener.getLocalPort());
            assertTrue(now.listening());
            assertEquals(1, now.listenQueue(), "connected, not yet accepted: " + now);
            // an earlier connection to a port of this number (another test's, closed) may linger in TIME_WAIT for a
            // minute, and the kernel gives the number to this listener all the same: one CI run saw it on the client side
            assertEquals(Map.of("ESTABLISHED", 1), withoutTimeWait(now.client()), now.toString());
            assertEquals(Map.of("ESTABLISHED", 1), withoutTimeWait(now.server()), now.toString());
        }
    }

    private static Map<String, Integer> withoutTimeWait(Map<String, Integer> states) {
        Map<String, Integer> live = new TreeMap<>(states);
        live.remove("TIME_WAIT");
        return live;
    }

    @Test
    void theRefusedCountersComeFromTheirNamedColumns() {
        Sockets.Refused before = Sockets.Refused.parse(List.of("TcpExt: SyncookiesSent SyncookiesRecv ListenOverflows ListenDrops",
                "TcpExt: 7 1 100 100", "IpExt: InNoRoutes", "IpExt: 0"));
        assertEquals(new Sockets.Refused(100, 7), before);
        Sockets.Refused after = new Sockets.Refused(130, 7);
        assertEquals(new Sockets.Refused(30, 0), after.since(before));
        assertEquals(new Sockets.Refused(-1, -1), Sockets.Refused.parse(List.of("Ip: Forwarding", "Ip: 1")));
        assertEquals(-1, new Sockets.Refused(-1, 3).since(before).listenOverflows());
    }

    @Test
    void httpdsScoreboardIsReadFromItsAutoPage() {
        Scoreboard s = Scoreboard.parse(List.of("ServerMPM: event", "BusyWorkers: 400", "IdleWorkers: 0", "Processes: 16",
                "Stopping: 2", "ConnsAsyncClosing: 37", "Scoreboard: WWWW"));
        assertEquals(new Scoreboard(400, 0, 16, 2, 37), s);
        assertNull(Scoreboard.parse(List.of("<html>not httpd's status</html>")));
    }
}
