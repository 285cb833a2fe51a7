package org.spice.bench.mix;

/**
 * One line of a mix: a path requested with a relative weight.
 *
 * @param bytes the expected body size, or -1 for the run's {@code --bytes}
 */
public record MixEntry(double weight, String path, boolean tls, long bytes) {

    public MixEntry {
        if (!(weight > 0) || Double.isInfinite(weight)) {
            throw new IllegalArgumentException("weight must be a number above 0, not " + weight);
        }
        if (path == null || !path.startsWith("/")) {
            throw new IllegalArgumentException("path must start with /, not \"" + path + "\"");
        }
    }
}
