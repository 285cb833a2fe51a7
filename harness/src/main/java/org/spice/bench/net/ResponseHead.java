package org.spice.bench.net;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The few fields of a response head the client needs, parsed in place from bytes (no strings, no
 * allocation: the {@link ResponseParser} reuses one instance per connection). {@link #fields} lists every
 * header as text for verify, which must see them all.
 */
public final class ResponseHead {

    private static final byte[] CONTENT_LENGTH = ascii("content-length");
    private static final byte[] TRANSFER_ENCODING = ascii("transfer-encoding");
    private static final byte[] CONNECTION = ascii("connection");
    private static final byte[] CHUNKED = ascii("chunked");
    private static final byte[] CLOSE = ascii("close");
    private static final byte[] KEEP_ALIVE = ascii("keep-alive");

    int status;
    long contentLength = -1;
    boolean chunked;
    /** The connection ends after this response: "Connection: close", or HTTP/1.0 without keep-alive. */
    boolean close;

    /**
     * Parses the head in {@code buf[0, headEnd)} into this instance.
     *
     * @return null for an HTTP/1.x response head, else what is wrong with it
     */
    String parse(byte[] buf, int headEnd) {
        status = 0;
        contentLength = -1;
        chunked = false;
        close = false;
        int lineEnd = lineEnd(buf, 0, headEnd);
        // "HTTP/1.x SSS reason": the status code is the three digits after the first space; the reason may be absent.
        if (lineEnd < 12 || buf[0] != 'H' || buf[1] != 'T' || buf[2] != 'T' || buf[3] != 'P' || buf[4] != '/' || buf[8] != ' ') {
            return "not an HTTP/1.x status line: \"" + text(buf, 0, lineEnd) + "\"";
        }
        for (int i = 9; i < 12; i++) {
            int digit = buf[i] - '0';
            if (digit < 0 || digit > 9) {
                return "not an HTTP/1.x status line: \"" + text(buf, 0, lineEnd) + "\"";
            }
            status = status * 10 + digit;
        }
        // HTTP/1.0 responses close unless they say keep-alive; HTTP/1.1 responses persist unless they say close.
        boolean http10 = buf[5] == '1' && buf[6] == '.' && buf[7] == '0';
        boolean keepAlive = false;
        for (int start = nextLine(buf, lineEnd, headEnd); start < headEnd; start = nextLine(buf, lineEnd, headEnd)) {
            lineEnd = lineEnd(buf, start, headEnd);
            int colon = indexOf(buf, start, lineEnd, (byte) ':');
            if (lineEnd == start) {
                continue;   // the empty line that ends the head
            }
            if (colon <= start) {
                return "malformed header line \"" + text(buf, start, lineEnd) + "\"";
            }
            int valueStart = colon + 1;
            while (valueStart < lineEnd && (buf[valueStart] == ' ' || buf[valueStart] == '\t')) {
                valueStart++;
            }
            if (nameIs(buf, start, colon, CONTENT_LENGTH)) {
                contentLength = parseDecimal(buf, valueStart, lineEnd);
                if (contentLength < 0) {
                    return "bad Content-Length \"" + text(buf, valueStart, lineEnd) + "\"";
                }
            } else if (nameIs(buf, start, colon, TRANSFER_ENCODING)) {
                chunked |= contains(buf, valueStart, lineEnd, CHUNKED);
            } else if (nameIs(buf, start, colon, CONNECTION)) {
                close |= contains(buf, valueStart, lineEnd, CLOSE);
                keepAlive |= contains(buf, valueStart, lineEnd, KEEP_ALIVE);
            }
        }
        if (http10 && !keepAlive) {
            close = true;
        }
        return null;
    }

    /** The status line of the head in {@code buf[0, headEnd)}, as text. */
    static String statusLine(byte[] buf, int headEnd) {
        return text(buf, 0, lineEnd(buf, 0, headEnd));
    }

    /** Every header field of the head in {@code buf[0, headEnd)}, in order, as {name, value} with blanks trimmed. */
    static List<String[]> fields(byte[] buf, int headEnd) {
        List<String[]> fields = new ArrayList<>();
        int lineEnd = lineEnd(buf, 0, headEnd);
        for (int start = nextLine(buf, lineEnd, headEnd); start < headEnd; start = nextLine(buf, lineEnd, headEnd)) {
            lineEnd = lineEnd(buf, start, headEnd);
            int colon = indexOf(buf, start, lineEnd, (byte) ':');
            if (colon > start) {
                fields.add(new String[] {text(buf, start, colon).trim(), text(buf, colon + 1, lineEnd).trim()});
            }
        }
        return fields;
    }

    private static String text(byte[] buf, int from, int to) {
        return new String(buf, from, Math.max(0, to - from), StandardCharsets.ISO_8859_1);
    }

    /** True for the statuses that never carry a body (RFC 9112 section 6.3). */
    boolean bodiless() {
        return status / 100 == 1 || status == 204 || status == 304;
    }

    /** The end of the line starting at {@code start}, before its CR LF. */
    private static int lineEnd(byte[] buf, int start, int limit) {
        int i = indexOf(buf, start, limit, (byte) '\n');
        int end = i < 0 ? limit : i;
        return end > start && buf[end - 1] == '\r' ? end - 1 : end;
    }

    private static int nextLine(byte[] buf, int lineEnd, int limit) {
        int i = indexOf(buf, lineEnd, limit, (byte) '\n');
        return i < 0 ? limit : i + 1;
    }

    private static int indexOf(byte[] buf, int from, int to, byte b) {
        for (int i = from; i < to; i++) {
            if (buf[i] == b) {
                return i;
            }
        }
        return -1;
    }

    private static boolean nameIs(byte[] buf, int start, int end, byte[] lowerName) {
        if (end - start != lowerName.length) {
            return false;
        }
        for (int i = 0; i < lowerName.length; i++) {
            if (lower(buf[start + i]) != lowerName[i]) {
                return false;
            }
        }
        return true;
    }

    private static boolean contains(byte[] buf, int start, int end, byte[] lowerWord) {
        outer:
        for (int i = start; i + lowerWord.length <= end; i++) {
            for (int j = 0; j < lowerWord.length; j++) {
                if (lower(buf[i + j]) != lowerWord[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    private static long parseDecimal(byte[] buf, int start, int end) {
        while (end > start && (buf[end - 1] == ' ' || buf[end - 1] == '\t')) {
            end--;
        }
        if (start == end || end - start > 18) {
            return -1;
        }
        long value = 0;
        for (int i = start; i < end; i++) {
            int digit = buf[i] - '0';
            if (digit < 0 || digit > 9) {
                return -1;
            }
            value = value * 10 + digit;
        }
        return value;
    }

    private static byte lower(byte b) {
        return b >= 'A' && b <= 'Z' ? (byte) (b + 32) : b;
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
