package org.spice.servers;

import java.util.List;
import java.util.stream.Collectors;

import org.spice.bench.model.Server;
import org.spice.page.Probe;

/**
 * The server table as the shell reads it ({@code spice servers}), one line per
 * server, fields separated by one space:
 * <pre>
 * NAME DEFAULT_PORT HTTPS_OFFSET BACKEND_OFFSET FASTCGI_OFFSET PROBES BENCH_PROBES BASE START_OPTION H2C_OFFSET
 * </pre>
 * An instance on port P listens for HTTPS on P + HTTPS_OFFSET, runs its Tomcat backend on P + BACKEND_OFFSET and
 * its FastCGI probe on P + FASTCGI_OFFSET, and takes HTTP/2 in clear on P + H2C_OFFSET (0: on P itself); {@code -}
 * where the server runs no such thing. The probes are comma-separated; BENCH_PROBES are those bench measures unless
 * told. A variant names the server it is started as (BASE) and the one option that makes it the variant
 * ({@code --mpm=prefork}); a base server has {@code -} in both.
 */
public final class ServerTable {

    private ServerTable() {
    }

    /** The table, a line per server. */
    public static String text() {
        StringBuilder table = new StringBuilder();
        for (Server server : Server.values()) {
            Server.Ports p = server.ports(0);
            table.append(String.join(" ", server.id(), Integer.toString(server.defaultPort()), offset(p.https()),
                    offset(p.backend()), offset(p.fastcgi()), ids(server.probes()), ids(server.benchProbes()),
                    server.base() == server ? "-" : server.base().id(), server.startOption().orElse("-"),
                    offset(p.h2c()))).append('\n');
        }
        return table.toString();
    }

    private static String offset(int port) {
        return port >= 0 ? Integer.toString(port) : "-";
    }

    private static String ids(List<Probe> probes) {
        return probes.stream().map(Probe::id).collect(Collectors.joining(","));
    }
}
