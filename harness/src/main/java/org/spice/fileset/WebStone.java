package org.spice.fileset;

import java.util.ArrayList;
import java.util.List;

/**
 * WebStone 2.0.1's "Silicon Surf" fileset ({@code filelist.standard}, the static fileset of Mindcraft's
 * 1996 WebStone reports): five size classes, 1,000 files in all.
 *
 * <p>Weights: as far as we know WebStone's list, it gives the classes the relative frequencies 350, 500,
 * 140, 9 and 1 — the same numbers as the file counts here — so one file per unit of frequency, each with
 * weight 1 (the mix draws a file uniformly), gives WebStone's class weights: 35 %, 50 %, 14 %, 0.9 %, 0.1 %.
 * What may differ is the number of distinct files behind a class (WebStone may have requested one file per
 * class); here the working set is all 1,000 files, 19.8 MB. Not reconciled: the 1996 reports describe
 * Silicon Surf as "average accessed file roughly 7 KB, 93 % under 30 KB", while this table gives a mean
 * response of 19,773 bytes and 85 % under 30 KB; the table is SPICE-METHOD.md's, and it is the spec.
 */
public final class WebStone {

    /** Size in bytes, number of files (= relative frequency), directory name after WebStone's file names. */
    private static final long[][] CLASSES = {
            {500, 350}, {5_125, 500}, {51_250, 140}, {512_500, 9}, {5_248_000, 1}};
    private static final String[] NAMES = {"file500", "file5k", "file50k", "file500k", "file5m"};

    private WebStone() {
    }

    public static Fileset generate() {
        List<FileSpec> files = new ArrayList<>();
        for (int c = 0; c < CLASSES.length; c++) {
            for (int n = 0; n < CLASSES[c][1]; n++) {
                files.add(new FileSpec(String.format("%s/f%03d.html", NAMES[c], n), CLASSES[c][0], 1));
            }
        }
        return new Fileset("webstone", "WebStone 2.0.1 filelist.standard (Silicon Surf): 500 B x350,"
                + " 5,125 B x500, 51,250 B x140, 512,500 B x9, 5,248,000 B x1, each file weight 1", files);
    }
}
