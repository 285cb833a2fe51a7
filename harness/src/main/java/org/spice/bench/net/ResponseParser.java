package org.spice.bench.net;

import java.io.ByteArrayOutputStream;
import java.util.List;

/**
 * The one HTTP/1.x response parser of the harness: the load engine and verify both push bytes in as
 * they arrive, in pieces of any size, and every step of the framing (Content-Length, chunked,
 * close-delimited, RFC 9112 section 6.3) is a state a piece may end in. The engine only counts the
 * body; verify asks it to {@link #capture} the body too, de-chunked, and reads the header fields.
 *
 * <p>Once the response has ended, further bytes are counted as {@link #extra()}: a client that never
 * pipelines must receive none, so any turns a correct response into a long body.
 */
public final class ResponseParser {

    /** A longer head is a protocol error rather than a reason to grow further. */
    public static final int MAX_HEAD_BYTES = 16 * 1024;
    /** Where the head buffer starts: every probe's head fits; 20,000 clients must not cost 16 KiB each. */
    private static final int FIRST_HEAD_BYTES = 1024;
    /** Chunk sizes above this are treated as garbage rather than risking overflow. */
    private static final long MAX_CHUNK = 1L << 40;

    /** How the response delimited its body. */
    public enum Framing { CONTENT_LENGTH, CHUNKED, CLOSE, NONE }

    private enum State { HEAD, LENGTH, TO_EOF, CHUNK_SIZE, CHUNK_EXT, CHUNK_DATA, CHUNK_CR, CHUNK_LF, TRAILER, ENDED }

    private final ResponseHead parsed = new ResponseHead();
    /** The head is collected here until its empty line. */
    private byte[] head = new byte[FIRST_HEAD_BYTES];
    private int headLim;
    private int scan;
    private int lineStart;

    private State state;
    private boolean headRequest;
    private ByteArrayOutputStream body;
    private Framing framing;
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
    private String problem;
    /** The parsed status code, -1 until a valid head has arrived. */
    private int status;

    /** Starts a new response to a GET whose correct body has {@code expectedBody} bytes. */
    public void reset(long expectedBody) {
        reset(expectedBody, false);
    }

    /** Starts a new response; the response to a HEAD request ends with its head. */
    public void reset(long expectedBody, boolean headRequest) {
        this.expectedBody = expectedBody;
        this.headRequest = headRequest;
        headLim = 0;
        scan = 0;
        lineStart = 0;
        state = State.HEAD;
        framing = Framing.NONE;
        received = 0;
        headerBytes = 0;
        bodyBytes = 0;
        extra = 0;
        reusable = false;
        sawEof = false;
        outcome = null;
        problem = null;
        status = -1;
        if (body != null) {
            body.reset();
        }
    }

    /** Keep the body bytes (de-chunked) for {@link #body()}; the engine never does, verify always. */
    public void capture() {
        if (body == null) {
            body = new ByteArrayOutputStream();
        }
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
                    keep(b, off, take);
                    off += take;
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
                    keep(b, off, end - off);
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
            case HEAD -> fail(ErrorClass.CLOSED_EARLY, headLim == 0 ? "the server closed the connection without a response"
                    : "the connection closed inside the response head");
            case TO_EOF -> finish(true);
            default -> {
                problem = "the connection closed inside the body";
                finish(false);
            }
        }
    }

    public boolean ended() {
        return state == State.ENDED;
    }

    /** Null for a 200 with exactly the expected body, else the error class; meaningful once {@link #ended}. */
    public ErrorClass outcome() {
        return outcome;
    }

    /** What was wrong with a response that could not be parsed or was cut short, in words; else null. */
    public String problem() {
        return problem;
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
        return status;
    }

    public long headerBytes() {
        return headerBytes;
    }

    public long bodyBytes() {
        return bodyBytes;
    }

    public Framing framing() {
        return framing;
    }

    /** The status line as text (verify's messages); empty before the head is complete. */
    public String statusLine() {
        return headerBytes > 0 ? ResponseHead.statusLine(head, (int) headerBytes) : "";
    }

    /** The header fields as {name, value}, in order (verify's checks). */
    public List<String[]> fields() {
        return headerBytes > 0 ? ResponseHead.fields(head, (int) headerBytes) : List.of();
    }

    /** The body as delivered, de-chunked, after {@link #capture}. */
    public byte[] body() {
        return body == null ? new byte[0] : body.toByteArray();
    }

    private void keep(byte[] b, int off, int len) {
        bodyBytes += len;
        if (body != null) {
            body.write(b, off, len);
        }
    }

    /** Copies head bytes and looks for the empty line; returns the offset in {@code b} of the first byte not consumed. */
    private int feedHead(byte[] b, int off, int end) {
        if (headLim == head.length && head.length < MAX_HEAD_BYTES) {
            head = java.util.Arrays.copyOf(head, Math.min(MAX_HEAD_BYTES, head.length * 4));
        }
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
        if (headLim == MAX_HEAD_BYTES) {
            fail(ErrorClass.PROTOCOL, "response head longer than " + MAX_HEAD_BYTES + " bytes");
            return end;
        }
        return off + n;
    }

    private void startBody(int headEnd) {
        headerBytes = headEnd;
        String wrong = parsed.parse(head, headEnd);
        if (wrong != null) {
            fail(ErrorClass.PROTOCOL, wrong);
            return;
        }
        status = parsed.status;
        if (headRequest || parsed.bodiless()) {
            finish(true);
        } else if (parsed.chunked) {
            framing = Framing.CHUNKED;
            startChunk();
        } else if (parsed.contentLength >= 0) {
            framing = Framing.CONTENT_LENGTH;
            remaining = parsed.contentLength;
            state = State.LENGTH;
            if (remaining == 0) {
                finish(true);
            }
        } else {
            framing = Framing.CLOSE;
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
                        fail(ErrorClass.PROTOCOL, "chunk size too large");
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
                    fail(ErrorClass.PROTOCOL, "chunk not followed by CRLF");
                }
            }
            case CHUNK_LF -> {
                if (c == '\n') {
                    startChunk();
                } else {
                    fail(ErrorClass.PROTOCOL, "chunk not followed by CRLF");
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
            fail(ErrorClass.PROTOCOL, "bad chunk size line");
        } else if (chunkSize == 0) {
            trailerLength = 0;
            state = State.TRAILER;
        } else {
            remaining = chunkSize;
            state = State.CHUNK_DATA;
        }
    }

    /** The response ended: its verdict. */
    private void finish(boolean complete) {
        state = State.ENDED;
        reusable = complete && !parsed.close;
        if (parsed.status != 200) {
            outcome = ErrorClass.STATUS;
        } else if (headRequest) {
            outcome = null;
        } else if (!complete || bodyBytes < expectedBody) {
            outcome = ErrorClass.SHORT_BODY;
        } else {
            outcome = bodyBytes > expectedBody ? ErrorClass.LONG_BODY : null;
        }
    }

    private void fail(ErrorClass error, String why) {
        state = State.ENDED;
        reusable = false;
        outcome = error;
        problem = why;
    }
}
