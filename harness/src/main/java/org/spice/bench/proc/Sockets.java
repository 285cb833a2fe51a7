package org.spice.bench.proc;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * This machine's TCP sockets to and from one port, by state, as the kernel lists them in /proc/net/tcp and tcp6 (what
 * {@code ss -tan} reads): a socket whose peer is the port is a client's, one whose own end is the port the server's.
 * On one machine both sides show; against a server elsewhere only the client's do, and the server's come back empty.
 *
 * @param client      the clients' sockets to the port, by state (ESTABLISHED, SYN_SENT, TIME_WAIT ...)
 * @param server      the server's connections on the port, by state; SYN_RECV counts the half-open ones, whose
 *                    handshake the server's kernel has not finished (its accept queue full, or the last ACK lost)
 * @param listenQueue connections waiting in the accept queue of the port's listening sockets, summed over them
 * @param listening   whether a socket of this machine listens on the port (false: the server is elsewhere)
 */
public record Sockets(Map<String, Integer> client, Map<String, Integer> server, int listenQueue, boolean listening) {

    /** The states as /proc/net/tcp numbers them (include/net/tcp_states.h), 1 to 12. */
    private static final List<String> STATES = List.of("ESTABLISHED", "SYN_SENT", "SYN_RECV", "FIN_WAIT1", "FIN_WAIT2",
            "TIME_WAIT", "CLOSE", "CLOSE_WAIT", "LAST_ACK", "LISTEN", "CLOSING", "NEW_SYN_RECV");
    private static final int LISTEN = 10;

    public Sockets {
        client = Map.copyOf(client);
        server = Map.copyOf(server);
    }

    /** The sockets of {@code port} now; empty (and not listening) where /proc/net cannot be read. */
    public static Sockets of(int port) {
        Map<String, Integer> client = new TreeMap<>();
        Map<String, Integer> server = new TreeMap<>();
        int[] queue = {0, 0};
        for (String file : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            List<String> lines;
            try {
                lines = Files.readAllLines(Path.of(file), StandardCharsets.US_ASCII);
            } catch (IOException e) {
                continue;   // no IPv6 here, or no /proc: what the other file says is all there is
            }
            count(lines, port, client, server, queue);
        }
        return new Sockets(client, server, queue[0], queue[1] > 0);
    }

    /** Adds each line's socket to its side; {@code queue} gathers the accept queues and the listening sockets. */
    static void count(List<String> lines, int port, Map<String, Integer> client, Map<String, Integer> server, int[] queue) {
        for (int i = 1; i < lines.size(); i++) {
            String[] f = lines.get(i).trim().split("\\s+", 7);
            if (f.length < 6) {
                continue;
            }
            int local = port(f[1]);
            int remote = port(f[2]);
            int state = Integer.parseInt(f[3], 16);
            if (state == LISTEN) {
                if (local == port) {
                    queue[0] += Integer.parseInt(f[4].substring(f[4].indexOf(':') + 1), 16);   // rx_queue: the accept queue
                    queue[1]++;
                }
            } else if (remote == port) {
                client.merge(name(state), 1, Integer::sum);
            } else if (local == port) {
                server.merge(name(state), 1, Integer::sum);
            }
        }
    }

    /** The clients' sockets in all states. */
    public int clientTotal() {
        return client.values().stream().mapToInt(Integer::intValue).sum();
    }

    private static int port(String address) {
        return Integer.parseInt(address.substring(address.indexOf(':') + 1), 16);
    }

    private static String name(int state) {
        return state >= 1 && state <= STATES.size() ? STATES.get(state - 1) : "STATE_" + state;
    }

    /**
     * The machine's counters of what the listening sockets turned away (/proc/net/netstat's TcpExt), -1 where unknown.
     *
     * @param listenOverflows handshakes finished while the accept queue was full (their last ACK dropped)
     * @param syncookiesSent  SYNs answered with a cookie because the SYN queue was full
     */
    public record Refused(long listenOverflows, long syncookiesSent) {

        /** The counters now. */
        public static Refused now() {
            try {
                return parse(Files.readAllLines(Path.of("/proc/net/netstat"), StandardCharsets.US_ASCII));
            } catch (IOException e) {
                return new Refused(-1, -1);
            }
        }

        /** From the lines of /proc/net/netstat: a line of TcpExt names, then one of their values. */
        static Refused parse(List<String> lines) {
            for (int i = 0; i + 1 < lines.size(); i++) {
                if (lines.get(i).startsWith("TcpExt:") && lines.get(i + 1).startsWith("TcpExt:")) {
                    List<String> names = List.of(lines.get(i).split("\\s+"));
                    String[] values = lines.get(i + 1).split("\\s+");
                    return new Refused(value(names, values, "ListenOverflows"), value(names, values, "SyncookiesSent"));
                }
            }
            return new Refused(-1, -1);
        }

        private static long value(List<String> names, String[] values, String name) {
            int k = names.indexOf(name);
            return k > 0 && k < values.length ? Long.parseLong(values[k]) : -1;
        }

        /** What was turned away between {@code earlier} and these counters; -1 where either is unknown. */
        public Refused since(Refused earlier) {
            return new Refused(minus(listenOverflows, earlier.listenOverflows), minus(syncookiesSent, earlier.syncookiesSent));
        }

        private static long minus(long later, long earlier) {
            return later < 0 || earlier < 0 ? -1 : later - earlier;
        }
    }
}
