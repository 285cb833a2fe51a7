package org.spice.commands;

import java.util.List;

import org.spice.bench.model.Multiplex;
import org.spice.bench.model.Protocol;
import org.spice.cli.Cli;

import picocli.CommandLine.Option;

/** How the HTTP/2 arms (--protocols h2, h2c) carry their requests: connections to each server, streams on each. */
final class Http2Options {

    @Option(names = "--connections", paramLabel = "N", description = "HTTP/2 arms: the connections to each server"
            + " (default " + Multiplex.DEFAULT_CONNECTIONS + ", 1 to " + Multiplex.MAX_CONNECTIONS + ").")
    Integer connections;

    @Option(names = "--streams", paramLabel = "N", description = "HTTP/2 arms: the requests under way on each"
            + " connection at most (default " + Multiplex.DEFAULT_STREAMS + ", 1 to " + Multiplex.MAX_STREAMS
            + ", under every server's own limit); a request that finds them all busy waits for one.")
    Integer streams;

    /** The HTTP/2 arms' connections and streams; null where {@code protocols} has none (neither option then given). */
    Multiplex multiplex(Cli.Checks check, List<Protocol> protocols) {
        boolean http2 = protocols.stream().anyMatch(Protocol::http2);
        if (!http2) {
            if (connections != null || streams != null) {
                throw check.fail("--connections and --streams: for the HTTP/2 arms, with --protocols h2 or h2c");
            }
            return null;
        }
        int c = connections != null ? connections : Multiplex.DEFAULT_CONNECTIONS;
        int s = streams != null ? streams : Multiplex.DEFAULT_STREAMS;
        if (c < 1 || c > Multiplex.MAX_CONNECTIONS) {
            throw check.fail("--connections: a whole number from 1 to " + Multiplex.MAX_CONNECTIONS + ", not " + c);
        }
        if (s < 1 || s > Multiplex.MAX_STREAMS) {
            throw check.fail("--streams: a whole number from 1 to " + Multiplex.MAX_STREAMS + " (the servers here allow"
                    + " 100 at once), not " + s);
        }
        return new Multiplex(c, s);
    }
}
