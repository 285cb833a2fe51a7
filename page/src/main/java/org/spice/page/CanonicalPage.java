package org.spice.page;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Properties;

/**
 * The canonical SPICE page: valid ASCII HTML of an exact size with one 10-character date slot.
 *
 * <p>This is the single source of the page. The static file, the JSP and SHTML templates, the C
 * probes' buffers, the Java probes' byte arrays and the conformance check all derive from it, so a
 * probe and the static baseline always return the same bytes (the JSP and SHTML probes put today's
 * ISO date in the slot; every other probe carries {@link #FIXED_SLOT} there).
 *
 * <p>The page is deterministic: the same size always renders the same bytes.
 */
public final class CanonicalPage {

    /** The mean response of WebBench's standard static workload, the size the 2000 white paper used. */
    public static final int DEFAULT_BYTES = 6250;

    /** Width of the date slot: an ISO {@code yyyy-mm-dd} date. */
    public static final int SLOT_LENGTH = 10;

    /** What the slot holds in the static file and the probes that insert no date. */
    public static final String FIXED_SLOT = "yyyy-mm-dd";

    /**
     * The one Content-Type every probe sends on every server, spelled as Jasper spells a JSP page's (which
     * always names its charset): the page is ASCII and says so in its meta tag.
     */
    public static final String CONTENT_TYPE = "text/html;charset=US-ASCII";

    /** Lines of filler text are wrapped at this width to keep the page readable. */
    private static final int LINE_WIDTH = 76;

    /** Filler words, cycled; plain words only, so no template language (JSP, EL, SSI, C) sees syntax in them. */
    private static final String[] FILLER_WORDS = ("SPICE probes do the least work that returns the same bytes as the"
            + " static file so that what differs in request rate and latency between a probe and the static"
            + " baseline is the cost of the server side programming interface itself. A servlet writes a"
            + " precomputed array, a JSP page asks a bean for the date, a CGI program is started for every"
            + " request and writes one buffer, an include page is parsed by the server, and a module inside"
            + " the server writes its buffer without leaving the process.").split(" ");

    private final int bytes;
    private final String beforeSlot;
    private final String afterSlot;

    private CanonicalPage(int bytes) {
        this.bytes = bytes;
        this.beforeSlot = "<!DOCTYPE html>\n"
                + "<html lang=\"en\">\n"
                + "<head>\n"
                + "<meta charset=\"us-ascii\">\n"
                + "<title>SPICE probe page</title>\n"
                + "</head>\n"
                + "<body>\n"
                + "<h1>SPICE probe page</h1>\n"
                + "<p>Date: <time>";
        String afterSlotHead = "</time>. This page has exactly " + bytes + " bytes, like every SPICE probe.</p>\n"
                + "<div>\n";
        String tail = "\n</div>\n"
                + "</body>\n"
                + "</html>\n";
        int fillerLength = bytes - beforeSlot.length() - SLOT_LENGTH - afterSlotHead.length() - tail.length();
        if (fillerLength < 0) {
            throw new IllegalArgumentException("spice.bytes=" + bytes + " is too small: the canonical page needs at least "
                    + (bytes - fillerLength) + " bytes");
        }
        this.afterSlot = afterSlotHead + filler(fillerLength) + tail;
    }

    /** The canonical page of {@code bytes} bytes. */
    public static CanonicalPage of(int bytes) {
        return new CanonicalPage(bytes);
    }

    /** The canonical page at the size this build was made for ({@code spice.bytes}, default 6250). */
    public static CanonicalPage built() {
        return new CanonicalPage(builtBytes());
    }

    /** The {@code spice.bytes} this build was made with. */
    public static int builtBytes() {
        Properties properties = new Properties();
        try (InputStream in = CanonicalPage.class.getResourceAsStream("spice-page.properties")) {
            if (in == null) {
                return DEFAULT_BYTES;
            }
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Integer.parseInt(properties.getProperty("spice.bytes", Integer.toString(DEFAULT_BYTES)).trim());
    }

    /** The smallest size a canonical page can have (its markup with no filler). */
    public static int minimumBytes() {
        for (int n = 1; ; n++) {
            try {
                new CanonicalPage(n);
                return n;
            } catch (IllegalArgumentException tooSmall) {
                // keep going: the header's own digit count makes a closed form fiddly
            }
        }
    }

    public int bytes() {
        return bytes;
    }

    /** Byte offset of the 10-character date slot. */
    public int slotOffset() {
        return beforeSlot.length();
    }

    /** The page text before the date slot. */
    public String beforeSlot() {
        return beforeSlot;
    }

    /** The page text after the date slot. */
    public String afterSlot() {
        return afterSlot;
    }

    /** The page with {@code slot} (exactly 10 ASCII characters) in the date slot. */
    public String render(String slot) {
        if (slot.length() != SLOT_LENGTH || !StandardCharsets.US_ASCII.newEncoder().canEncode(slot)) {
            throw new IllegalArgumentException("the date slot takes exactly " + SLOT_LENGTH + " ASCII characters, not \""
                    + slot + "\"");
        }
        return beforeSlot + slot + afterSlot;
    }

    /** The page as served by the static file and every probe that inserts no date. */
    public String fixed() {
        return render(FIXED_SLOT);
    }

    /** {@link #fixed()} as bytes: what a servlet, a Valve or a Handler writes. */
    public byte[] fixedBytes() {
        return fixed().getBytes(StandardCharsets.US_ASCII);
    }

    private static String filler(int length) {
        StringBuilder text = new StringBuilder(length + LINE_WIDTH);
        int lineStart = 0;
        for (int i = 0; text.length() < length; i++) {
            String word = FILLER_WORDS[i % FILLER_WORDS.length];
            if (text.length() > lineStart) {
                if (text.length() - lineStart + 1 + word.length() > LINE_WIDTH) {
                    text.append('\n');
                    lineStart = text.length();
                } else {
                    text.append(' ');
                }
            }
            text.append(word);
        }
        text.setLength(length);
        return text.toString();
    }
}
