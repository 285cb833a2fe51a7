package org.spice.fileset;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The published figures of each fileset, computed from the generators without touching the disk. */
@Tag("unit")
class FilesetFiguresTest {

    @Test
    void webBenchMeetsEveryPublishedFigure() {
        Fileset set = WebBench.generate();
        assertEquals(6_000, set.count());
        assertEquals(62_914_560L, set.totalBytes());
        assertEquals(223, set.minBytes());
        assertEquals(541_696, set.maxBytes());
        assertEquals(6_250, set.weightedMean(), 6_250 * 0.005);
        assertEquals(1_000_000_000L, set.totalWeight());
        // "Most accesses to small files": most requests go to files below the mean response.
        assertTrue(set.shareBelow(6_250) > 0.6, "share below 6,250 B: " + set.shareBelow(6_250));
        // Sizes never shrink along the quantiles, and every directory gets 100 files.
        long[] sizes = WebBench.sizes();
        for (int i = 1; i < sizes.length; i++) {
            assertTrue(sizes[i] >= sizes[i - 1], "size " + i);
        }
        assertEquals(60, set.files().stream().map(f -> f.path().substring(0, 5)).distinct().count());
        assertTrue(set.files().stream().allMatch(f -> f.path().matches("dir\\d\\d/file\\d{4}\\.html")));
    }

    @Test
    void webStoneIsFilelistStandard() {
        Fileset set = WebStone.generate();
        assertEquals(1_000, set.count());
        assertEquals(350 * 500L + 500 * 5_125L + 140 * 51_250L + 9 * 512_500L + 5_248_000L, set.totalBytes());
        assertEquals(19_773_000L, set.totalBytes());
        assertEquals(500, set.minBytes());
        assertEquals(5_248_000, set.maxBytes());
        assertEquals(19_773.0, set.weightedMean(), 1e-9);
        assertEquals(1_000, set.totalWeight());
        assertEquals(350, set.files().stream().filter(f -> f.bytes() == 500).count());
        assertEquals(9, set.files().stream().filter(f -> f.bytes() == 512_500).count());
    }

    @Test
    void specWeb99ClassesZipfAndDirectories() {
        assertEquals(31, SpecWeb99.directories(10));
        assertEquals(25, SpecWeb99.directories(1));
        assertEquals(696, SpecWeb99.directories(1024));   // the 3.32 GiB fileset of 1,024 connections
        assertEquals(102, SpecWeb99.size(0, 0));
        assertEquals(921, SpecWeb99.size(0, 8));
        assertEquals(1_024, SpecWeb99.size(1, 0));
        assertEquals(921_600, SpecWeb99.size(3, 8));

        long[][] weights = SpecWeb99.fileWeights();
        long[] classTotals = Arrays.stream(weights).mapToLong(w -> Arrays.stream(w).sum()).toArray();
        assertArrayEquals(new long[] {350_000, 500_000, 140_000, 10_000}, classTotals);
        for (long[] w : weights) {   // rank 1 is file 4, rank 9 is file 0, weights fall with rank as 1/rank
            for (int r = 1; r < 9; r++) {
                assertTrue(w[SpecWeb99.FILE_OF_RANK[r - 1]] > w[SpecWeb99.FILE_OF_RANK[r]]);
            }
            assertEquals(9.0, (double) w[4] / w[0], 0.01);   // whole numbers: class 3's file 0 has only 393
        }

        Fileset set = SpecWeb99.generate(10);
        assertEquals(31 * 36, set.count());
        assertEquals(31 * 5_119_484L, set.totalBytes());   // 36 files, class 0 truncated: 4,604 + 46,080 + ...
        assertEquals(102, set.minBytes());
        assertEquals(921_600, set.maxBytes());
        assertEquals(31_000_000L, set.totalWeight());
        // 35 % of requests to class 0, 1 % to class 3.
        assertEquals(0.35, (double) set.files().stream().filter(f -> f.path().contains("/class0_"))
                .mapToLong(FileSpec::weight).sum() / set.totalWeight(), 1e-12);
        assertEquals(0.01, (double) set.files().stream().filter(f -> f.path().contains("/class3_"))
                .mapToLong(FileSpec::weight).sum() / set.totalWeight(), 1e-12);
        // The same file has the same weight in every directory.
        assertEquals(1, set.files().stream().filter(f -> f.path().endsWith("/class1_4.html"))
                .mapToLong(FileSpec::weight).distinct().count());
        assertEquals(14_726.9, set.weightedMean(), 0.1);
    }

    @Test
    void inverseNormalMatchesKnownQuantiles() {
        assertEquals(0.0, InverseNormal.of(0.5), 1e-12);
        assertEquals(1.959963985, InverseNormal.of(0.975), 1e-8);
        assertEquals(-1.959963985, InverseNormal.of(0.025), 1e-8);
        assertEquals(-2.326347874, InverseNormal.of(0.01), 1e-8);      // lower tail branch
        assertEquals(3.090232306, InverseNormal.of(0.999), 1e-8);       // upper tail branch
        assertEquals(-4.753424309, InverseNormal.of(1e-6), 1e-7);
    }

    @Test
    void apportionIsExactAndProportional() {
        long[] w = Fileset.apportion(new double[] {1, 1, 1}, 100);
        assertArrayEquals(new long[] {34, 33, 33}, w);
        assertEquals(1_000_000, Arrays.stream(Fileset.apportion(new double[] {0.3, 0.2, 0.7, 1e-3}, 1_000_000)).sum());
    }

    @Test
    void pagesAreExactSizedAsciiHtmlWithoutServerSideSyntax() {
        assertTrue(HtmlFiller.MIN_BYTES <= 102, "the skeleton must fit SPECweb99's smallest file");
        for (long size : new long[] {HtmlFiller.MIN_BYTES, 102, 223, 6_250, 541_696}) {
            byte[] page = HtmlFiller.page(size);
            assertEquals(size, page.length);
            String text = new String(page, StandardCharsets.US_ASCII);
            assertTrue(text.startsWith("<!DOCTYPE html>\n<html>"));
            assertTrue(text.endsWith("</body></html>\n"));
            for (byte b : page) {
                assertTrue(b == '\n' || (b >= 0x20 && b < 0x7f), "ASCII text only");
            }
            assertFalse(text.contains("<!--#") || text.contains("<%") || text.contains("${"));
            assertArrayEquals(page, HtmlFiller.page(size));
        }
    }
}
