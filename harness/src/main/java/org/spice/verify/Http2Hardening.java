package org.spice.verify;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http2.ErrorCode;
import org.eclipse.jetty.http2.hpack.HpackException;
import org.spice.bench.net.Endpoint;
import org.spice.bench.net.TlsConfig;
import org.spice.page.Probe;

/**
 * What a server must refuse over HTTP/2 (verify --http2 --bad-input), each on a connection of its own, frame by
 * frame ({@link RawH2}): a stream reset mid-request, an oversized header block, HEADERS on a closed stream, a flood of
 * SETTINGS and PINGs, more concurrent streams than the server allows. Each must end in a refusal (GOAWAY, RST_STREAM,
 * a 4xx, the connection closed) or, for what a server may take (a reset, a flood it answers), in the connection still
 * answering a PING; none may hang it. verify then checks the static probe over HTTP/2 again.
 */
public final class Http2Hardening {

    /** One check: what was sent, whether the server's answer holds, and what it was. */
    public record Outcome(String check, boolean passed, String answer) {
        @Override
        public String toString() {
            return (passed ? "refused or survived" : "NOT REFUSED") + ": " + check + " -> " + answer;
        }
    }

    /** Frames of each kind in the flood. */
    static final int FLOOD = 5_000;
    /** The header block of the oversized request: 64 fields of 16,000 bytes, 1 MB. */
    static final int BIG_FIELDS = 64;
    private static final byte[] PING_LAST = "spicelst".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private final Endpoint base;
    private final TlsConfig tls;
    private final int timeoutMillis;
    private final String path;

    public Http2Hardening(Endpoint base, TlsConfig tls, int timeoutMillis) {
        this.base = base;
        this.tls = tls;
        this.timeoutMillis = timeoutMillis;
        this.path = base.prefix() + Probe.STATIC.paths().get(0);
    }

    /** Every check, in turn. */
    public List<Outcome> run() throws InterruptedException {
        List<Outcome> outcomes = new ArrayList<>();
        outcomes.add(check("a stream reset mid-request (HEADERS without END_STREAM, then RST_STREAM)",
                this::resetMidRequest));
        outcomes.add(check("an oversized header block (" + BIG_FIELDS + " fields of 16,000 bytes over CONTINUATION)",
                this::oversizedHeaders));
        outcomes.add(check("HEADERS on a closed stream (stream 1 again after its response)",
                this::headersOnClosedStream));
        outcomes.add(check("a flood of " + FLOOD + " PINGs and " + FLOOD + " SETTINGS", this::flood));
        outcomes.add(check("more concurrent streams than the server's SETTINGS allow, none of them ending", true,
                this::tooManyStreams));
        return outcomes;
    }

    private interface Check {
        Outcome on(RawH2 connection) throws IOException, InterruptedException, HpackException;
    }

    private Outcome check(String name, Check check) throws InterruptedException {
        return check(name, false, check);
    }

    private Outcome check(String name, boolean windowZero, Check check) throws InterruptedException {
        RawH2 connection;
        try {
            connection = new RawH2(base, tls, timeoutMillis, windowZero);
        } catch (IOException e) {
            return new Outcome(name, false, "no HTTP/2 connection: " + e.getMessage());
        }
        try (connection) {
            Outcome outcome = check.on(connection);
            return new Outcome(name, outcome.passed(), outcome.answer());
        } catch (HpackException e) {
            return new Outcome(name, false, "the request could not be coded here: " + e.getMessage());
        } catch (IOException e) {
            // A server may close before all of a bad request is written: that is a refusal.
            return new Outcome(name, true, (connection.endSeen(1_000) + " the connection closed while sending ("
                    + e.getMessage() + ")").strip());
        }
    }

    private Outcome resetMidRequest(RawH2 h2) throws IOException, InterruptedException, HpackException {
        h2.send(RawH2.HEADERS, RawH2.END_HEADERS, 1, h2.request(path, HttpFields.EMPTY));
        h2.send(RawH2.RST_STREAM, 0, 1, ByteBuffer.allocate(4).putInt(ErrorCode.CANCEL_STREAM_ERROR.code).array());
        return afterPing(h2, false);
    }

    private Outcome oversizedHeaders(RawH2 h2) throws IOException, InterruptedException, HpackException {
        HttpFields.Mutable fields = HttpFields.build();
        String value = "a".repeat(16_000);
        for (int i = 0; i < BIG_FIELDS; i++) {
            fields.add("x-spice-big-" + i, value);
        }
        byte[] block = h2.request(path, fields);
        for (int at = 0; at < block.length; at += 16_384) {
            int end = Math.min(block.length, at + 16_384);
            int flags = end == block.length ? RawH2.END_HEADERS : 0;
            h2.send(at == 0 ? RawH2.HEADERS : RawH2.CONTINUATION, at == 0 ? flags | RawH2.END_STREAM : flags, 1,
                    Arrays.copyOfRange(block, at, end));
        }
        return refusal(h2, 1, "a response to the oversized request");
    }

    private Outcome headersOnClosedStream(RawH2 h2) throws IOException, InterruptedException, HpackException {
        h2.send(RawH2.HEADERS, RawH2.END_HEADERS | RawH2.END_STREAM, 1, h2.request(path, HttpFields.EMPTY));
        for (RawH2.Frame frame = h2.next(timeoutMillis); ; frame = h2.next(timeoutMillis)) {
            if (frame == null || frame == RawH2.Frame.END) {
                return new Outcome("", false, "no complete first response on stream 1");
            }
            int status = frame.type() == RawH2.HEADERS ? h2.status(frame.payload()) : 0;
            if (frame.stream() == 1 && frame.has(RawH2.END_STREAM) || status >= 400) {
                break;
            }
        }
        h2.send(RawH2.HEADERS, RawH2.END_HEADERS | RawH2.END_STREAM, 1, h2.request(path, HttpFields.EMPTY));
        return refusal(h2, 1, "a second response on stream 1");
    }

    private Outcome flood(RawH2 h2) throws IOException, InterruptedException {
        byte[] opaque = new byte[8];
        for (int i = 0; i < FLOOD; i++) {
            ByteBuffer.wrap(opaque).putLong(i);
            h2.send(RawH2.PING, 0, 0, opaque);
            h2.send(RawH2.SETTINGS, 0, 0, new byte[0]);
        }
        return afterPing(h2, true);
    }

    private Outcome tooManyStreams(RawH2 h2) throws IOException, InterruptedException, HpackException {
        int limit = maxConcurrentStreams(h2.serverSettings());
        int streams = (limit < 0 ? 1_000 : limit) + 10;
        for (int i = 0; i < streams; i++) {
            // With no window for DATA, no response ends: every stream stays open as long as the server lets it.
            h2.send(RawH2.HEADERS, RawH2.END_HEADERS | RawH2.END_STREAM, 1 + 2 * i, h2.request(path, HttpFields.EMPTY));
        }
        Outcome outcome = refusal(h2, limit < 0 ? 1 : 2 * limit + 1, "no refusal of the streams past the limit");
        String said = limit < 0 ? "no limit advertised; " : "its limit " + limit + "; ";
        return new Outcome("", outcome.passed(), said + streams + " streams opened: " + outcome.answer());
    }

    private static int maxConcurrentStreams(byte[] settings) {
        ByteBuffer buffer = ByteBuffer.wrap(settings);
        while (buffer.remaining() >= 6) {
            int id = buffer.getShort() & 0xffff;
            int value = buffer.getInt();
            if (id == RawH2.MAX_CONCURRENT_STREAMS) {
                return value;
            }
        }
        return -1;
    }

    /**
     * Sends a PING and reads to its ACK: what the server did meanwhile is the answer. A GOAWAY or the connection's end
     * passes too (a refusal); only silence fails. After a {@code flood}, how many of its PINGs were answered is said.
     */
    private Outcome afterPing(RawH2 h2, boolean flood) throws IOException, InterruptedException {
        h2.send(RawH2.PING, 0, 0, PING_LAST);
        int acks = 0;
        for (RawH2.Frame frame = h2.next(timeoutMillis); ; frame = h2.next(timeoutMillis)) {
            if (frame == null) {
                return new Outcome("", false, "nothing within " + timeoutMillis + " ms: the connection hangs");
            }
            if (frame == RawH2.Frame.END) {
                return new Outcome("", true, "the connection closed"
                        + (flood ? " after " + acks + " PING ACKs" : ""));
            }
            if (frame.type() == RawH2.GOAWAY) {
                return new Outcome("", true, "GOAWAY " + frame.error()
                        + " after " + acks + " PING ACKs");
            }
            if (frame.type() == RawH2.HEADERS) {
                h2.status(frame.payload());
            }
            if (frame.type() == RawH2.PING && frame.has(RawH2.ACK)) {
                if (Arrays.equals(frame.payload(), PING_LAST)) {
                    return new Outcome("", true, "the connection still answers (" + acks + " PING ACKs before)");
                }
                acks++;
            }
        }
    }

    /**
     * Reads until the server refuses: a GOAWAY, an RST_STREAM with an error on {@code stream} (past 1: on it or any
     * later one), a 4xx or 5xx, the connection's end. A 2xx on {@code stream}, or silence past the timeout, is
     * {@code notRefused}.
     */
    private Outcome refusal(RawH2 h2, int stream, String notRefused) throws InterruptedException {
        for (RawH2.Frame frame = h2.next(timeoutMillis); ; frame = h2.next(timeoutMillis)) {
            if (frame == null) {
                return new Outcome("", false, notRefused + " within " + timeoutMillis + " ms");
            }
            if (frame == RawH2.Frame.END) {
                return new Outcome("", true, "the connection closed");
            }
            switch (frame.type()) {
                case RawH2.GOAWAY -> {
                    return new Outcome("", true, "GOAWAY " + frame.error());
                }
                case RawH2.RST_STREAM -> {
                    // From stream on (stream 1: just it): a server may end a stream it has answered with NO_ERROR.
                    boolean ours = frame.stream() == stream || stream > 1 && frame.stream() >= stream;
                    if (ours && frame.errorCode() != ErrorCode.NO_ERROR.code) {
                        return new Outcome("", true, "RST_STREAM " + frame.error()
                                + " on stream " + frame.stream());
                    }
                }
                case RawH2.HEADERS -> {
                    int status = h2.status(frame.payload());
                    if (status >= 400) {
                        return new Outcome("", true, "status " + status + " on stream " + frame.stream());
                    }
                    if (status >= 200 && frame.stream() == stream) {
                        return new Outcome("", false, notRefused + ": status " + status);
                    }
                }
                default -> {
                }
            }
        }
    }
}
