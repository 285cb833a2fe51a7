package org.spice.bench.model;

/**
 * An arm of a run side by side: a server, by the name its results carry ({@code tomcat}, {@code tomcat-2} for a
 * second instance), under one protocol where the run has several. Slices, results and --pairs name it as text,
 * "server" or "server:protocol" ({@link #name}); this is that text read.
 *
 * @param protocol the protocol's id ({@link Protocol#id}), or null where the run has one protocol
 */
public record Arm(String server, String protocol) {

    /** {@code server} under {@code protocol}, the protocol in its name only where the run has several. */
    public static Arm of(String server, Protocol protocol, boolean severalProtocols) {
        return new Arm(server, severalProtocols ? protocol.id() : null);
    }

    /** The arm {@code name} names: "server" or "server:protocol". */
    public static Arm parse(String name) {
        int colon = name.lastIndexOf(':');
        return colon < 0 ? new Arm(name, null) : new Arm(name.substring(0, colon), name.substring(colon + 1));
    }

    /** As slices, results and --pairs name it. */
    public String name() {
        return protocol == null ? server : server + ":" + protocol;
    }

    /**
     * Whether this arm and {@code other} make a comparison: two servers, one server under two protocols, or two servers
     * under one; two servers under two protocols differ in both, and say neither.
     */
    public boolean comparableWith(Arm other) {
        return protocol == null || other.protocol == null || server.equals(other.server)
                || protocol.equals(other.protocol);
    }

    @Override
    public String toString() {
        return name();
    }
}
