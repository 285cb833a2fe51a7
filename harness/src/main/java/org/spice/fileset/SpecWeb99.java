package org.spice.fileset;

import java.util.ArrayList;
import java.util.List;

/**
 * SPECweb99's static fileset: directories of 36 files each, 4 classes of 9 files. File n of class c has
 * 1024·10^c·(n+1)/10 bytes (102 B … 921,600 B); the classes get 35, 50, 14 and 1 % of the requests, and
 * within a class the files follow Zipf's law (α = 1) over ranks that SPECweb99 mapped to files
 * {4, 3, 5, 2, 6, 1, 7, 8, 0}: the middle size is the most popular, the smallest the least.
 *
 * <p>Choices where our memory of SPECweb99 is not certain, stated so they can be checked:
 * <ul>
 * <li>Sizes: class-0 sizes are not whole numbers (102.4·(n+1)); we truncate (integer division), giving 102,
 *     204, 307, 409, 512, 614, 716, 819, 921. SPECweb96's published table shows 922 as the last one, so
 *     SPEC's generator may have rounded some of them; the difference is at most a byte.</li>
 * <li>Directories: dirs = 25 + (400000/122000)·connections/5, truncated (computed in integers as
 *     25 + 40·connections/61). This is the run rules' formula as we recall it; it agrees with the
 *     ~3.3 GB fileset for 1,024 connections of the SEDA/Haboob study (again from memory): 696 directories
 *     of 5,119,484 bytes = 3.32 GiB.</li>
 * <li>Directory choice: SPECweb99 also picked the directory by a Zipf distribution; here, as SPICE's brief
 *     asks, each file's weight is spread uniformly over the directories (every copy of a file has the
 *     same weight), which makes the working set the whole fileset.</li>
 * <li>Names: {@code dirNNNNN/classC_N} as in SPECweb99, with {@code .html} added so every server sends
 *     {@code text/html}.</li>
 * </ul>
 */
public final class SpecWeb99 {

    static final int CLASSES = 4;
    static final int FILES_PER_CLASS = 9;
    static final int DEFAULT_CONNECTIONS = 10;
    /** The class shares 35/50/14/1 % in parts per million, so each class total is exact in the mix. */
    static final long[] CLASS_WEIGHT = {350_000, 500_000, 140_000, 10_000};
    /** FILE_OF_RANK[r] is the file with Zipf rank r+1. */
    static final int[] FILE_OF_RANK = {4, 3, 5, 2, 6, 1, 7, 8, 0};

    private SpecWeb99() {
    }

    static int directories(int connections) {
        if (connections < 1) {
            throw new IllegalArgumentException("connections must be 1 or more, not " + connections);
        }
        return 25 + (int) (40L * connections / 61);
    }

    static long size(int c, int n) {
        long base = 1024;
        for (int i = 0; i < c; i++) {
            base *= 10;
        }
        return base * (n + 1) / 10;
    }

    /** The weight of each of the 36 files, [class][file]: the class share split by Zipf, exact per class. */
    static long[][] fileWeights() {
        double[] zipf = new double[FILES_PER_CLASS];
        for (int r = 0; r < FILES_PER_CLASS; r++) {
            zipf[FILE_OF_RANK[r]] = 1.0 / (r + 1);
        }
        long[][] weights = new long[CLASSES][];
        for (int c = 0; c < CLASSES; c++) {
            weights[c] = Fileset.apportion(zipf, CLASS_WEIGHT[c]);
        }
        return weights;
    }

    public static Fileset generate(int connections) {
        int dirs = directories(connections);
        long[][] weights = fileWeights();
        List<FileSpec> files = new ArrayList<>(dirs * CLASSES * FILES_PER_CLASS);
        for (int d = 0; d < dirs; d++) {
            for (int c = 0; c < CLASSES; c++) {
                for (int n = 0; n < FILES_PER_CLASS; n++) {
                    String path = String.format("dir%05d/class%d_%d.html", d, c, n);
                    files.add(new FileSpec(path, size(c, n), weights[c][n]));
                }
            }
        }
        return new Fileset("specweb99", "SPECweb99 static fileset for " + connections + " connections: " + dirs
                + " directories x 36 files, classes 35/50/14/1 %, Zipf within a class", files);
    }
}
