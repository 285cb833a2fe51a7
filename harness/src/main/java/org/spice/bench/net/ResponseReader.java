package org.spice.bench.net;

import java.io.IOException;
import java.io.InputStream;

/**
 * Reads one HTTP/1.x response from a stream into a buffer that is reused for every request: the head is
 * parsed in place as bytes (no strings), the body is counted and thrown away. It frames the body by
 * Content-Length, chunked transfer coding, or the close of the connection, as RFC 9112 section 6.3 says.
 *
 * <p>After {@link #read} the caller finds the status, the head and body sizes, whether the connection
 * can carry another request, and how many bytes arrived after the end of the body.
 */
public final class ResponseReader {

    /** Large enough for any sane response head; a bigger head is a protocol error, not a reason to grow. */
    public static final int BUFFER_BYTES = 16 * 1024;

    /** Chunk sizes above this are treated as garbage rather than risking overflow. */
    private static final long MAX_CHUNK = 1L << 40;

    private final byte[] buf = new byte[BUFFER_BYTES];
    private InputStream in;
    private int pos;
    private int lim;

    private int status;
    private long headerBytes;
    private long bodyBytes;
    private boolean reusable;
    private boolean sawEof;

    /** Starts reading a new response from {@code stream}; bytes left from a previous response are dropped. */
    public void attach(InputStream stream) {
        this.in = stream;
        this.pos = 0;
        this.lim = 0;
        this.status = -1;
        this.headerBytes = 0;
        this.bodyBytes = 0;
        this.reusable = false;
        this.sawEof = false;
    }

    /**
     * Reads one complete response.
     *
     * @param expectedBody the body size a correct 200 response has
     * @return null for a 200 with exactly the expected body, else the error class
     * @throws IOException on a socket error (reset, timeout), which the caller classifies
     */
    public ErrorClass read(long expectedBody) throws IOException {
        int headEnd = readHead();
        if (headEnd < 0) {
            return headEnd == HEAD_TOO_LARGE ? ErrorClass.PROTOCOL : ErrorClass.CLOSED_EARLY;
        }
        headerBytes = headEnd;
        ResponseHead head = ResponseHead.parse(buf, headEnd);
        if (head == null) {
            return ErrorClass.PROTOCOL;
        }
        pos = headEnd;
        status = head.status;
        boolean complete;
        if (head.bodiless()) {
            complete = true;
        } else if (head.chunked) {
            complete = readChunked();
        } else if (head.contentLength >= 0) {
            complete = skip(head.contentLength);
        } else {
            complete = skipToEof();
            head.close = true;
        }
        if (status == PROTOCOL_STATUS) {
            return ErrorClass.PROTOCOL;
        }
        reusable = complete && !head.close;
        if (status != 200) {
            return ErrorClass.STATUS;
        }
        if (!complete || bodyBytes < expectedBody) {
            return ErrorClass.SHORT_BODY;
        }
        return bodyBytes > expectedBody ? ErrorClass.LONG_BODY : null;
    }

    /** True if the connection closed before the first byte of the response (a stale keep-alive connection). */
    public boolean gotNothing() {
        return sawEof && lim == 0 && headerBytes == 0;
    }

    public int status() {
        return status;
    }

    public long headerBytes() {
        return headerBytes;
    }

    public long bodyBytes() {
        return bodyBytes;
    }

    /** True if the response was complete and the server did not ask to close: the connection may carry another request. */
    public boolean reusable() {
        return reusable;
    }

    /** True if the end of the stream has been seen. */
    public boolean sawEof() {
        return sawEof;
    }

    /** Bytes received after the end of the response: there must be none, as the client never pipelines. */
    public int buffered() {
        return lim - pos;
    }

    /**
     * Reads and counts what else the server sends until it closes. Used after an HTTP/1.0 response, so the
     * server closes first (and keeps the TIME_WAIT state, as in 1999) and stray bytes are seen.
     *
     * @return the number of bytes that arrived after the response
     * @throws IOException including a SocketTimeoutException if the server never closes
     */
    public long drainToEof() throws IOException {
        long extra = lim - pos;
        pos = lim;
        while (!sawEof) {
            int n = in.read(buf, 0, buf.length);
            if (n < 0) {
                sawEof = true;
            } else {
                extra += n;
            }
        }
        return extra;
    }

    // ---- head -------------------------------------------------------------------------------------

    private static final int HEAD_EOF = -1;
    private static final int HEAD_TOO_LARGE = -2;
    private static final int PROTOCOL_STATUS = -3;

    /** Reads until the empty line; returns the offset just after it, or a negative code. */
    private int readHead() throws IOException {
        int lineStart = 0;
        int scan = 0;
        while (true) {
            for (; scan < lim; scan++) {
                if (buf[scan] == '\n') {
                    int end = scan > lineStart && buf[scan - 1] == '\r' ? scan - 1 : scan;
                    if (end == lineStart && lineStart > 0) {
                        return scan + 1;
                    }
                    lineStart = scan + 1;
                }
            }
            if (lim == buf.length) {
                return HEAD_TOO_LARGE;
            }
            int n = in.read(buf, lim, buf.length - lim);
            if (n < 0) {
                sawEof = true;
                return HEAD_EOF;
            }
            lim += n;
        }
    }

    // ---- body -------------------------------------------------------------------------------------

    /** Counts {@code n} body bytes; false if the stream ends first. */
    private boolean skip(long n) throws IOException {
        while (n > 0) {
            if (pos == lim && !fill()) {
                return false;
            }
            int take = (int) Math.min(n, lim - pos);
            pos += take;
            n -= take;
            bodyBytes += take;
        }
        return true;
    }

    private boolean skipToEof() throws IOException {
        do {
            bodyBytes += lim - pos;
            pos = lim;
        } while (fill());
        return true;
    }

    /** Decodes chunked transfer coding, counting only chunk data as body. False if the stream ends early. */
    private boolean readChunked() throws IOException {
        while (true) {
            long size = 0;
            int digits = 0;
            int c;
            while ((c = readByte()) >= 0) {
                int digit = Character.digit(c, 16);
                if (digit < 0) {
                    break;
                }
                size = size * 16 + digit;
                digits++;
                if (size > MAX_CHUNK) {
                    status = PROTOCOL_STATUS;
                    return false;
                }
            }
            while (c >= 0 && c != '\n') {   // chunk extensions, then the line end
                c = readByte();
            }
            if (c < 0) {
                return false;
            }
            if (digits == 0) {
                status = PROTOCOL_STATUS;
                return false;
            }
            if (size == 0) {
                return skipTrailers();
            }
            if (!skip(size)) {
                return false;
            }
            c = readByte();
            if (c == '\r') {
                c = readByte();
            }
            if (c != '\n') {
                if (c >= 0) {
                    status = PROTOCOL_STATUS;
                }
                return false;
            }
        }
    }

    private boolean skipTrailers() throws IOException {
        while (true) {
            int length = 0;
            int c;
            while ((c = readByte()) != '\n') {
                if (c < 0) {
                    return false;
                }
                if (c != '\r') {
                    length++;
                }
            }
            if (length == 0) {
                return true;
            }
        }
    }

    private int readByte() throws IOException {
        if (pos == lim && !fill()) {
            return -1;
        }
        return buf[pos++] & 0xff;
    }

    /** Refills the empty buffer from the start; false at the end of the stream. */
    private boolean fill() throws IOException {
        if (sawEof) {
            return false;
        }
        pos = 0;
        lim = 0;
        int n = in.read(buf, 0, buf.length);
        if (n < 0) {
            sawEof = true;
            return false;
        }
        lim = n;
        return true;
    }
}
