package org.spice.fileset;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * WebBench's standard static fileset, rebuilt from its published figures: 6,000 files, 60 MB in all, from
 * 223 bytes to 529 KB, requested with frequencies whose weighted mean response is 6,250 bytes (the
 * SPICE page size). WebBench's own class table was never published, so this is a model that meets
 * every published figure, not a copy.
 *
 * <p>The model: sizes at the 6,000 mid-quantiles of a log-normal distribution (median e^8.71862 ≈ 6,118
 * bytes, σ = 1.035279), clipped to [223, 541,696] with the first and last file set to those bounds, and
 * access weights proportional to size^-0.480496 — a mild preference for small files that brings the
 * mean response down from the 10.5 KB mean file to 6,250 bytes, with about 70 % of requests going to files
 * smaller than that. The two parameters were fitted so that the total and the weighted mean come out right;
 * rounding to whole bytes leaves the total a few hundred bytes short, which is added one byte at a time to
 * files spread evenly through the middle of the range, so the total is exact and no file moves by more
 * than a byte.
 */
public final class WebBench {

    static final int FILES = 6_000;
    static final long TOTAL = 60L * 1024 * 1024;
    static final long MIN = 223;
    static final long MAX = 529L * 1024;
    static final double TARGET_MEAN = 6_250;
    /** 60 directories of 100 files: no directory is large enough to slow a server's lookups. */
    static final int DIRS = 60;

    private static final double MU = 8.71862;
    private static final double SIGMA = 1.035279;
    private static final double WEIGHT_EXPONENT = -0.480496;
    /** The weights add up to a billion: whole numbers fine enough that rounding moves the mean by ~1e-6. */
    private static final long WEIGHT_TOTAL = 1_000_000_000L;

    private WebBench() {
    }

    public static Fileset generate() {
        long[] sizes = sizes();
        double[] shares = new double[FILES];
        for (int i = 0; i < FILES; i++) {
            shares[i] = StrictMath.pow(sizes[i], WEIGHT_EXPONENT);
        }
        long[] weights = Fileset.apportion(shares, WEIGHT_TOTAL);
        List<FileSpec> files = new ArrayList<>(FILES);
        for (int i = 0; i < FILES; i++) {
            // File i goes to directory i mod 60, so every directory holds small and large files alike.
            String path = String.format("dir%02d/file%04d.html", i % DIRS, i);
            files.add(new FileSpec(path, sizes[i], weights[i]));
        }
        return new Fileset("webbench", "WebBench standard static fileset (model): 6,000 files, 60 MB,"
                + " 223 B to 529 KB, weighted mean response 6,250 B", files);
    }

    /** The sizes, smallest first, adding up to exactly {@link #TOTAL}. */
    static long[] sizes() {
        long[] sizes = new long[FILES];
        long sum = 0;
        for (int i = 0; i < FILES; i++) {
            double z = InverseNormal.of((i + 0.5) / FILES);
            long size = Math.round(StrictMath.exp(MU + SIGMA * z));
            sizes[i] = Math.max(MIN, Math.min(MAX, size));
        }
        sizes[0] = MIN;
        sizes[FILES - 1] = MAX;
        for (long size : sizes) {
            sum += size;
        }
        long diff = TOTAL - sum;
        if (Math.abs(diff) > FILES - 2) {
            throw new IllegalStateException("webbench model is " + diff + " bytes off its total");
        }
        // One byte to (or from) each of |diff| files evenly spaced over indices 1 .. FILES-2; the bounds stay.
        long step = Long.signum(diff);
        for (long k = 0; k < Math.abs(diff); k++) {
            int i = 1 + (int) (k * (FILES - 2) / Math.abs(diff));
            sizes[i] += step;
            if (sizes[i] < MIN || sizes[i] > MAX) {
                throw new IllegalStateException("webbench model: file " + i + " left the size range");
            }
        }
        // A byte added beside a run of equal (clipped) sizes can put a file above its successor; sorting
        // restores the order and still leaves every position within a byte of its unadjusted size.
        Arrays.sort(sizes);
        return sizes;
    }
}
