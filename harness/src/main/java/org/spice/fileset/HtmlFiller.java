package org.spice.fileset;

import java.nio.charset.StandardCharsets;

/**
 * The content of a fileset file: a valid ASCII HTML page of exactly the requested size. A minimal
 * doctype/html/head/body skeleton, and between its halves a filler of lower-case words and newlines.
 *
 * <p>The filler holds letters, spaces and newlines only, so no server mistakes a file for a server-side
 * include ({@code <!--#}), a template ({@code <%}, {@code ${}) or anything but plain static text; the
 * same size always gives the same bytes. The skeleton is small enough for SPECweb99's 102-byte files.
 */
public final class HtmlFiller {

    private static final byte[] HEAD =
            "<!DOCTYPE html>\n<html><head><title>SPICE fileset</title></head><body>\n<p>\n"
                    .getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TAIL = "\n</p>\n</body></html>\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] WORDS = "static file of the spice fileset, filler text for an exact size "
            .getBytes(StandardCharsets.US_ASCII);
    /** A newline every this many filler bytes keeps lines short for anyone who opens a file. */
    private static final int LINE = 72;

    /** The smallest page: the skeleton with no filler. */
    public static final int MIN_BYTES = HEAD.length + TAIL.length;

    private HtmlFiller() {
    }

    /** The page of exactly {@code size} bytes. */
    public static byte[] page(long size) {
        if (size < MIN_BYTES || size > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("an HTML page of " + size + " bytes cannot be made (at least "
                    + MIN_BYTES + ")");
        }
        byte[] page = new byte[(int) size];
        System.arraycopy(HEAD, 0, page, 0, HEAD.length);
        int fillEnd = page.length - TAIL.length;
        for (int i = HEAD.length, k = 0; i < fillEnd; i++, k++) {
            page[i] = k % (LINE + 1) == LINE ? (byte) '\n' : WORDS[k % WORDS.length];
        }
        System.arraycopy(TAIL, 0, page, fillEnd, TAIL.length);
        return page;
    }
}
