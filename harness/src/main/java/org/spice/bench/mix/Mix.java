package org.spice.bench.mix;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.spice.bench.net.Endpoint;
import org.spice.page.Probe;

/**
 * A workload: what fraction of requests goes to which path. The built-in mixes send 100% of the requests
 * to one probe, as every test of the white paper did; a mix file can describe anything else, such as
 * the e-commerce mix (2% dynamic over TLS, 6% static over TLS, 17% dynamic, 75% static).
 *
 * <p>Drawing is by cumulative weight and a per-client generator, so a given seed gives every client the
 * same sequence of paths in every run.
 */
public final class Mix {

    private static final String PROBE = "probe ";

    private final String name;
    private final String source;
    private final List<MixEntry> entries;
    private final double[] cumulative;
    private final String server;
    private final Endpoint target;
    private final boolean keepAlive;
    private final boolean h2;

    public Mix(String name, String source, List<MixEntry> entries) {
        this(name, source, entries, null, null, false, false);
    }

    private Mix(String name, String source, List<MixEntry> entries, String server, Endpoint target, boolean keepAlive,
            boolean h2) {
        if (entries.isEmpty()) {
            throw new IllegalArgumentException("mix \"" + name + "\" has no entries");
        }
        this.name = name;
        this.source = source;
        this.entries = List.copyOf(entries);
        this.cumulative = new double[entries.size()];
        double sum = 0;
        for (int i = 0; i < entries.size(); i++) {
            sum += entries.get(i).weight();
            cumulative[i] = sum;
        }
        this.server = server;
        this.target = target;
        this.keepAlive = keepAlive;
        this.h2 = h2;
    }

    /**
     * This mix as one arm of several measured side by side: its requests go to {@code target} (HTTP or HTTPS, the
     * whole mix), with keep-alive or a connection each, and its slices are named for {@code arm} (a server, or a
     * server under one protocol).
     */
    public Mix on(String arm, Endpoint target, boolean keepAlive) {
        return on(arm, target, keepAlive, false);
    }

    /** As {@link #on}, its requests as streams of HTTP/2 connections to {@code target}: h2 over TLS, else h2c. */
    public Mix onHttp2(String arm, Endpoint target) {
        return on(arm, target, true, true);
    }

    private Mix on(String arm, Endpoint target, boolean keepAlive, boolean h2) {
        if (hasTls()) {
            throw new IllegalArgumentException("mix \"" + name + "\" has TLS entries of its own: an arm side by side"
                    + " goes to one endpoint");
        }
        return new Mix(name, source, entries, arm, target, keepAlive, h2);
    }

    /** Whether an arm side by side sends its requests as HTTP/2 streams ({@link #onHttp2}). */
    public boolean http2() {
        return h2;
    }

    /** The server this mix loads where several run side by side ({@link #on}); null: the run's one target. */
    public String server() {
        return server;
    }

    /** Where this mix's requests go where several arms run side by side; null: the run's target. */
    public Endpoint target() {
        return target;
    }

    /** Whether an arm side by side keeps its connections ({@link #on}). */
    public boolean keepAlive() {
        return keepAlive;
    }

    /**
     * The mix of one probe: its single path, or for JSP its 100 pages with equal weight, so that the
     * server cannot answer every request from one compiled page's cache line.
     */
    public static Mix of(Probe probe) {
        List<MixEntry> entries = new ArrayList<>();
        for (String path : probe.paths()) {
            entries.add(new MixEntry(1, path, false, -1));
        }
        return new Mix(probe.id(), PROBE + probe.id(), entries);
    }

    /**
     * How many of its pages are code of their own on a Java server: each JSP page compiles to a class of its own,
     * whose methods HotSpot's JIT compiles apart; 0 when it has none.
     */
    public int jspPages() {
        return (int) entries.stream().map(e -> e.path().replaceFirst("[?#].*$", "")).filter(p -> p.endsWith(".jsp"))
                .distinct().count();
    }

    /**
     * The white paper's e-commerce mix (its Table 9): 75 % static and 6 % static over TLS, both drawn from
     * {@code fileset} by its weights, 17 % the {@code dynamic} probe and 2 % the dynamic probe over TLS.
     */
    public static Mix ecommerce(Mix fileset, Probe dynamic) {
        double sum = fileset.entries.stream().mapToDouble(MixEntry::weight).sum();
        List<MixEntry> entries = new ArrayList<>();
        for (MixEntry file : fileset.entries) {
            entries.add(new MixEntry(75 * file.weight() / sum, file.path(), false, file.bytes()));
            entries.add(new MixEntry(6 * file.weight() / sum, file.path(), true, file.bytes()));
        }
        entries.add(new MixEntry(17, dynamic.path(), false, -1));
        entries.add(new MixEntry(2, dynamic.path(), true, -1));
        return new Mix("ecommerce-" + dynamic.id(), "the white paper's e-commerce mix over " + fileset.source()
                + " and probe " + dynamic.id(), entries);
    }

    /** The name in results and reports: the probe id, or the mix file's name. */
    public String name() {
        return name;
    }

    /** Where the mix came from: "probe static" or the file path. */
    public String source() {
        return source;
    }

    /** True for a probe's own mix ({@link #of}): what verify can check and a server's probe list replaces. */
    public boolean isProbe() {
        return source.equals(PROBE + name);
    }

    public List<MixEntry> entries() {
        return entries;
    }

    /** The mean body size a response of this mix should have, given each entry's weight and size. */
    public double weightedMeanBytes(long defaultBytes) {
        double weights = 0;
        double bytes = 0;
        for (MixEntry entry : entries) {
            weights += entry.weight();
            bytes += entry.weight() * (entry.bytes() >= 0 ? entry.bytes() : defaultBytes);
        }
        return bytes / weights;
    }

    public boolean hasTls() {
        return entries.stream().anyMatch(MixEntry::tls);
    }

    public boolean hasPlain() {
        return entries.stream().anyMatch(entry -> !entry.tls());
    }

    /** The index of the next entry for a client drawing from {@code random}. */
    public int draw(SplittableRandom random) {
        if (cumulative.length == 1) {
            return 0;
        }
        double u = random.nextDouble() * cumulative[cumulative.length - 1];
        int low = 0;
        int high = cumulative.length - 1;
        while (low < high) {   // the first entry whose cumulative weight exceeds u
            int mid = (low + high) >>> 1;
            if (cumulative[mid] > u) {
                high = mid;
            } else {
                low = mid + 1;
            }
        }
        return low;
    }
}
