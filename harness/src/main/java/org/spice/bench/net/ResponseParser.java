package org.spice.bench.net;

/**
 * Parses one HTTP/1.x response from bytes pushed in as they arrive, in pieces of any size: the event
 * loop cannot block for the rest of a head or a chunk, so every step of {@link ResponseReader}'s framing
 * (Content-Length, chunked, close-delimited, RFC 9112 section 6.3) is a state here that a piece may end
 * in. The head is parsed by {@link ResponseHead}, as in the blocking reader, so both engines judge a
 * response alike; the body is counted and thrown away.
 *
 * <p>Once the response has ended, further bytes are counted as {@link #extra()}: a client that never
 * pipelines must receive none, so any turns a correct response into a long body.
 */
public final class ResponseParser {

    /** Chunk sizes above this are treated as garbage rather than risking overflow (as ResponseReader does). */
    private static final long MAX_CHUNK = 1L << 40;

    private enum State { HEAD, LENGTH, TO_EOF, CHUNK_SIZE, CHUNK_EXT, CHUNK_DATA, CHUNK_CR, CHUNK_LF, TRAILER, ENDED }

    /** The head is collected here until its empty line; the same limit as the blocking reader's buffer. */
    private final byte[] head = new byte[ResponseReader.BUFFER_BYTES];
    private int headLim;
    private int scan;
    private int lineStart;

    private State state;
    private ResponseHead parsed;
    private long expectedBody;
    private long received;
    private long headerBytes;
    private long bodyBytes;
    private long extra;
    /** Body bytes left in the Content-Length body or the current chunk. */
    private long remaining;
    private long chunkSize;
    private int chunkDigits;
    private int trailerLength;
    private boolean reusable;
    private boolean sawEof;
    private ErrorClass outcome;

    /** Starts a new response whose correct body has {@code expectedBody} bytes. */
    public void reset(long expectedBody) {
        this.expectedBody = expectedBody;
        headLim = 0;
        scan = 0;
        lineStart = 0;
        state = State.HEAD;
        parsed = null;
        received = 0;
        headerBytes = 0;
        bodyBytes = 0;
        extra = 0;
        reusable = false;
        sawEof = false;
        outcome = null;
    }

    /**
     * Consumes {@code b[off, off + len)}.
     *
     * @return true once the response has ended, complete or not ({@link #outcome} says which)
     */
    public boolean feed(byte[] b, int off, int len) {
        int end = off + len;
        received += len;
        while (off < end) {
            switch (state) {
                case HEAD -> off = feedHead(b, off, end);
                case LENGTH, CHUNK_DATA -> {
                    int take = (int) Math.min(remaining, end - off);
                    off += take;
                    bodyBytes += take;
                    remaining -= take;
                    if (remaining == 0) {
                        if (state == State.LENGTH) {
                            finish(true);
                        } else {
                            state = State.CHUNK_CR;
                        }
                    }
                }
                case TO_EOF -> {
                    bodyBytes += end - off;
                    off = end;
                }
                case ENDED -> {
                    extra += end - off;
                    off = end;
                }
                default -> chunkByte(b[off++] & 0xff);
            }
        }
        return state == State.ENDED;
    }

    /** The server closed the connection: a response still under way ends here, complete only if framed by the close. */
    public void eof() {
        sawEof = true;
        switch (state) {
            case ENDED -> { }
            case HEAD -> fail(ErrorClass.CLOSED_EARLY);
            case TO_EOF -> finish(true);
            default -> finish(false);
        }
    }

    public boolean ended() {
        return state == State.ENDED;
    }

    /** Null for a 200 with exactly the expected body, else the error class; meaningful once {@link #ended}. */
    public ErrorClass outcome() {
        return outcome;
    }

    /** True if the response was complete and the server did not ask to close. */
    public boolean reusable() {
        return reusable;
    }

    /** True if the connection closed before the first byte (a stale keep-alive connection). */
    public boolean gotNothing() {
        return sawEof && received == 0;
    }

    /** True once the whole head has arrived. */
    public boolean headComplete() {
        return headerBytes > 0;
    }

    /** Bytes received after the end of the response. */
    public long extra() {
        return extra;
    }

    public int status() {
        return parsed == null ? -1 : parsed.status;
    }

    public long headerBytes() {
        return headerBytes;
    }

    public long bodyBytes() {
        return bodyBytes;
    }

    /** Copies head bytes and looks for the empty line; returns the offset in {@code b} of the first byte not consumed. */
    private int feedHead(byte[] b, int off, int end) {
        int n = Math.min(end - off, head.length - headLim);
        System.arraycopy(b, off, head, headLim, n);
        int before = headLim;
        headLim += n;
        for (; scan < headLim; scan++) {
            if (head[scan] == '\n') {
                int lineEnd = scan > lineStart && head[scan - 1] == '\r' ? scan - 1 : scan;
                if (lineEnd == lineStart && lineStart > 0) {
                    int headEnd = scan + 1;
                    startBody(headEnd);
                    return off + (headEnd - before);   // what followed the empty line is body
                }
                lineStart = scan + 1;
            }
        }
        if (headLim == head.length) {
            fail(ErrorClass.PROTOCOL);   // a bigger head is a protocol error, not a reason to grow
            return end;
        }
        return off + n;
    }

    private void startBody(int headEnd) {
        headerBytes = headEnd;
        parsed = ResponseHead.parse(head, headEnd);
        if (parsed == null) {
            fail(ErrorClass.PROTOCOL);
        } else if (parsed.bodiless()) {
            finish(true);
        } else if (parsed.chunked) {
            startChunk();
        } else if (parsed.contentLength >= 0) {
            remaining = parsed.contentLength;
            state = State.LENGTH;
            if (remaining == 0) {
                finish(true);
            }
        } else {
            parsed.close = true;   // the close is the only end of this body
            state = State.TO_EOF;
        }
    }

    private void startChunk() {
        chunkSize = 0;
        chunkDigits = 0;
        state = State.CHUNK_SIZE;
    }

    /** One byte of chunk framing: the size line, the CR LF after the data, or a trailer line. */
    private void chunkByte(int c) {
        switch (state) {
            case CHUNK_SIZE -> {
                int digit = Character.digit(c, 16);
                if (digit >= 0) {
                    chunkSize = chunkSize * 16 + digit;
                    chunkDigits++;
                    if (chunkSize > MAX_CHUNK) {
                        fail(ErrorClass.PROTOCOL);
                    }
                } else if (c == '\n') {
                    sizeLineEnd();
                } else {
                    state = State.CHUNK_EXT;   // chunk extensions, skipped up to the line end
                }
            }
            case CHUNK_EXT -> {
                if (c == '\n') {
                    sizeLineEnd();
                }
            }
            case CHUNK_CR -> {
                if (c == '\r') {
                    state = State.CHUNK_LF;
                } else if (c == '\n') {
                    startChunk();
                } else {
                    fail(ErrorClass.PROTOCOL);
                }
            }
            case CHUNK_LF -> {
                if (c == '\n') {
                    startChunk();
                } else {
                    fail(ErrorClass.PROTOCOL);
                }
            }
            case TRAILER -> {
                if (c == '\n') {
                    if (trailerLength == 0) {
                        finish(true);
                    }
                    trailerLength = 0;
                } else if (c != '\r') {
                    trailerLength++;
                }
            }
            default -> throw new IllegalStateException(state.toString());
        }
    }

    private void sizeLineEnd() {
        if (chunkDigits == 0) {
            fail(ErrorClass.PROTOCOL);
        } else if (chunkSize == 0) {
            trailerLength = 0;
            state = State.TRAILER;
        } else {
            remaining = chunkSize;
            state = State.CHUNK_DATA;
        }
    }

    /** The response ended; the same verdict, in the same order, as ResponseReader.read. */
    private void finish(boolean complete) {
        state = State.ENDED;
        reusable = complete && !parsed.close;
        if (parsed.status != 200) {
            outcome = ErrorClass.STATUS;
        } else if (!complete || bodyBytes < expectedBody) {
            outcome = ErrorClass.SHORT_BODY;
        } else {
            outcome = bodyBytes > expectedBody ? ErrorClass.LONG_BODY : null;
        }
    }

    private void fail(ErrorClass error) {
        state = State.ENDED;
        reusable = false;
        outcome = error;
    }
}
