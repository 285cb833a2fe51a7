package org.spice.fileset;

import java.util.List;

/**
 * A generated fileset: which files, how big, how often each is requested. Its figures (count, total, min,
 * max, weighted mean response) are the ones the benchmarks that defined it published, so they are what the
 * tests check and what {@code spice fileset} prints.
 *
 * @param kind  the generator's name, e.g. {@code webbench}
 * @param about one line on where the figures come from, written at the top of the mix file
 */
public record Fileset(String kind, String about, List<FileSpec> files) {

    /** The kinds of fileset there are, in words. */
    public static final String KINDS = "webbench, webstone or specweb99";

    /**
     * The fileset of {@code kind} (webbench, webstone, specweb99; SPECweb99's sized for {@code connections} simultaneous
     * connections); IllegalArgumentException for another kind.
     */
    public static Fileset of(String kind, int connections) {
        return switch (kind) {
            case "webbench" -> WebBench.generate();
            case "webstone" -> WebStone.generate();
            case "specweb99" -> SpecWeb99.generate(connections);
            default -> throw new IllegalArgumentException("--kind \"" + kind + "\" is not known: " + KINDS);
        };
    }

    /** The fileset of {@code kind}, SPECweb99's at its default connections. */
    public static Fileset of(String kind) {
        return of(kind, SpecWeb99.DEFAULT_CONNECTIONS);
    }

    public Fileset {
        files = List.copyOf(files);
        if (files.isEmpty()) {
            throw new IllegalArgumentException(kind + ": no files");
        }
    }

    public int count() {
        return files.size();
    }

    public long totalBytes() {
        return files.stream().mapToLong(FileSpec::bytes).sum();
    }

    public long minBytes() {
        return files.stream().mapToLong(FileSpec::bytes).min().orElseThrow();
    }

    public long maxBytes() {
        return files.stream().mapToLong(FileSpec::bytes).max().orElseThrow();
    }

    public long totalWeight() {
        return files.stream().mapToLong(FileSpec::weight).sum();
    }

    /** The mean body size of a request drawn by weight: what a client of the mix receives on average. */
    public double weightedMean() {
        double sum = 0;
        for (FileSpec file : files) {
            sum += (double) file.weight() * file.bytes();
        }
        return sum / totalWeight();
    }

    /** The fraction of requests that go to files smaller than {@code bytes}. */
    public double shareBelow(long bytes) {
        long below = files.stream().filter(f -> f.bytes() < bytes).mapToLong(FileSpec::weight).sum();
        return (double) below / totalWeight();
    }

    /**
     * Whole-number weights proportional to {@code shares} that add up to exactly {@code total}: each gets the
     * floor of its exact share, and the units left over go to the largest fractional parts (ties to the
     * lower index), so the result is deterministic and as close to the shares as whole numbers allow.
     */
    static long[] apportion(double[] shares, long total) {
        double sum = 0;
        for (double share : shares) {
            sum += share;
        }
        long[] result = new long[shares.length];
        double[] rest = new double[shares.length];
        long given = 0;
        for (int i = 0; i < shares.length; i++) {
            double exact = shares[i] / sum * total;
            result[i] = (long) Math.floor(exact);
            rest[i] = exact - result[i];
            given += result[i];
        }
        if (given > total) {   // only if rounding pushed a floor over a whole number; never with sane shares
            throw new IllegalStateException("apportion: " + given + " given out of " + total);
        }
        for (long left = total - given; left > 0; left--) {
            int best = 0;
            for (int i = 1; i < rest.length; i++) {
                if (rest[i] > rest[best]) {
                    best = i;
                }
            }
            result[best]++;
            rest[best] = -1;
        }
        return result;
    }
}
