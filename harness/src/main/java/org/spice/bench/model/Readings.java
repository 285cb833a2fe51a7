package org.spice.bench.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * What could hold a window of the overload profile back, on each side, read through it (a flood step, a recovery
 * check): the sockets to and from the server's port by state (their most in any reading), the accept queue, what the
 * listening sockets turned away, httpd's scoreboard, the server's CPU. {@link #heldBy} names what did.
 *
 * @param samples         the socket readings taken in the window (one each half second)
 * @param clientSockets   the client's sockets to the server's port, by state, the most in any reading
 * @param serverSockets   the server's connections, likewise (empty: the server is on another machine)
 * @param listenQueueMax  the longest accept queue seen, -1 if the server is not on this machine
 * @param listenOverflows handshakes dropped because the accept queue was full (the machine's count over the window)
 * @param syncookiesSent  SYNs answered with a cookie because the SYN queue was full, likewise
 * @param busyWorkersMax  httpd's busiest scoreboard reading, -1 where the server keeps none or it did not answer
 * @param workers         httpd's workers then (busy and idle), -1 likewise
 * @param stoppingMax     httpd processes stopping, the most in any reading, -1 likewise
 * @param serverCpuS      the server's CPU over the window, s (NaN if not measured)
 * @param cores           the processors the server shares, for its CPU's share
 * @param portRange       the client's ephemeral ports (net.ipv4.ip_local_port_range), -1 if unknown
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"samples", "client_sockets", "server_sockets", "listen_queue_max", "listen_overflows",
    "syncookies_sent", "busy_workers_max", "workers", "stopping_max", "server_cpu_s", "cores", "port_range"})
public record Readings(int samples, Map<String, Integer> clientSockets, Map<String, Integer> serverSockets,
        int listenQueueMax, long listenOverflows, long syncookiesSent, int busyWorkersMax, int workers, int stoppingMax,
        Double serverCpuS, int cores, int portRange) {

    /** The share of the ports in use from which they count as what held a window. */
    public static final double NEAR_LIMIT = 0.9;
    /**
     * The share of the cores the server's CPU must fill to count: less than all, as the client and these readings
     * share the machine (a Tomcat still running a flood's queued CGI requests read 1.6-1.9 s a second of 2 cores).
     */
    public static final double BUSY_CORES = 0.75;

    public Readings {
        clientSockets = clientSockets == null ? Map.of() : Map.copyOf(clientSockets);
        serverSockets = serverSockets == null ? Map.of() : Map.copyOf(serverSockets);
        serverCpuS = serverCpuS == null ? Double.NaN : serverCpuS;   // not measured: written as null, read back as NaN
    }

    /**
     * What held the window back, by the readings, as keys of {@link #words}: the accept queue overflowing, the
     * client's ports, every httpd worker busy, httpd processes stopping, the server's CPU. SYN cookies are not among
     * them: a cookie completes its handshake without delay (and a few are sent at a busy server's peak already).
     */
    public List<String> heldBy(double durationS) {
        List<String> held = new ArrayList<>();
        if (listenOverflows > 0) {
            held.add("listen_queue");
        }
        int clients = clientSockets.values().stream().mapToInt(Integer::intValue).sum();
        if (portRange > 0 && clients >= NEAR_LIMIT * portRange) {
            held.add("client_ports");
        }
        if (workers > 0 && busyWorkersMax >= workers) {
            held.add("workers");
        }
        if (stoppingMax > 0) {
            held.add("stopping");
        }
        if (cores > 0 && durationS > 0 && serverCpuS >= BUSY_CORES * cores * durationS) {
            held.add("server_cpu");
        }
        return held;
    }

    /** A key of {@link #heldBy} in words. */
    public static String words(String key) {
        return switch (key) {
            case "listen_queue" -> "the server's accept queue overflowing (each handshake it drops is retried 1 s or more later)";
            case "client_ports" -> "this client's local ports (nearly all in use)";
            case "workers" -> "every httpd worker busy";
            case "cpu_elsewhere" -> "the server's CPU going to work left from the flood (per answered request, half as much"
                    + " again as before it, or a quarter of the cores with no answer)";
            case "stopping" -> "httpd processes stopping, holding their scoreboard slots";
            case "server_cpu" -> String.format(Locale.ROOT, "the server's CPU (%.0f %% or more of the cores)", 100 * BUSY_CORES);
            default -> key;
        };
    }
}
