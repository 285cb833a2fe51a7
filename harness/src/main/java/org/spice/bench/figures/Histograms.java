package org.spice.bench.figures;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;
import java.util.zip.DataFormatException;

import org.HdrHistogram.Histogram;

/** HdrHistograms as results.json keeps them: HdrHistogram's compressed encoding, in base64. */
public final class Histograms {

    private Histograms() {
    }

    /** {@code h} compressed, in base64. */
    public static String encoded(Histogram h) {
        ByteBuffer buffer = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int length = h.encodeIntoCompressedByteBuffer(buffer);
        return Base64.getEncoder().encodeToString(Arrays.copyOf(buffer.array(), length));
    }

    /** The histogram {@link #encoded} wrote; IllegalArgumentException where the text is not one. */
    public static Histogram decoded(String base64) {
        try {
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
        } catch (DataFormatException | RuntimeException e) {
            throw new IllegalArgumentException("not an encoded HdrHistogram: " + e.getMessage(), e);
        }
    }
}
