package org.spice.bench.net;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.security.GeneralSecurityException;
import javax.net.ssl.SSLEngine;

/**
 * One client's side of its exchanges, on a non-blocking channel driven by one event-loop thread (so no
 * locks): connect, TLS handshake for a {@code tls} request, send, read to the end of the response, and
 * for HTTP/1.0 on to the server's close. The rules every request is judged by: latency to the server's
 * close for HTTP/1.0 (as WebBench and ab read it); one retry when a kept connection turns out closed;
 * bytes after the body make a long body; a per-request timeout over the whole exchange, close included.
 *
 * <p>With keep-alive (a request that asks for it) a client keeps one connection: a request for another endpoint
 * (plain and TLS, or another server side by side), or one without keep-alive, closes it and opens one of its own.
 *
 * <p>{@link #start}, {@link #onReady} and {@link #expire} return true when the exchange has finished;
 * {@link #outcome} then says whether the request counts.
 */
public final class Exchange {

    /** The size of an event loop's read buffer: more than a TLS record's plaintext (16 KiB and a little). */
    public static final int BUFFER_BYTES = 32 * 1024;

    private enum Phase { IDLE, CONNECTING, HANDSHAKING, WRITING, READING, DRAINING }

    private final long timeoutNanos;
    private final Selector selector;
    private final Object attachment;
    private final TlsConfig tls;
    private final ResponseParser parser = new ResponseParser();
    /** The loop's read buffer, shared by its clients: each consumes what it reads before another reads. */
    private final ByteBuffer buffer;

    private SocketChannel channel;
    private SelectionKey key;
    private Endpoint connectedTo;
    private TlsSession session;
    /** The engine for the next TLS connection, made by {@link #prepare} before the clock starts. */
    private SSLEngine nextEngine;
    private Phase phase = Phase.IDLE;
    private Request request;
    private ByteBuffer out;
    /** The exchange runs on a connection kept from an earlier request: a close before any byte earns a retry. */
    private boolean reused;
    private long deadline;
    private ErrorClass outcome;

    private long serverKeptOpen;
    private long reconnects;

    /**
     * @param tls        the TLS settings, null if no request of the run goes over TLS
     * @param attachment what the selector hands back for this client's keys
     * @param buffer     the loop's read buffer, at least {@link #BUFFER_BYTES} long
     */
    public Exchange(TlsConfig tls, int timeoutMillis, Selector selector, Object attachment,
            ByteBuffer buffer) {
        if (buffer.capacity() < BUFFER_BYTES) {
            throw new IllegalArgumentException("the read buffer must hold a whole TLS record");
        }
        this.buffer = buffer;
        this.tls = tls;
        this.timeoutNanos = timeoutMillis * 1_000_000L;
        this.selector = selector;
        this.attachment = attachment;
    }

    /**
     * Work that must not be timed, before {@link #start}: the TLS engine of a new connection.
     *
     * @return null, or TLS if no engine could be made
     */
    public ErrorClass prepare(Request r) {
        if (r.tls() && !(r.keepAlive() && channel != null && connectedTo == r.endpoint())) {
            try {
                nextEngine = tls.engineForNextConnection(r.endpoint());
            } catch (GeneralSecurityException | RuntimeException e) {
                return ErrorClass.TLS;
            }
        }
        return null;
    }

    /** Sends {@code r} at time {@code now}: on the kept connection, else on a new one. */
    public boolean start(Request r, long now) {
        request = r;
        out = ByteBuffer.wrap(r.wire());
        parser.reset(r.expectedBody());
        outcome = null;
        deadline = now + timeoutNanos;
        if (channel != null && (connectedTo != r.endpoint() || !r.keepAlive())) {
            closeChannel();
        }
        reused = r.keepAlive() && channel != null;
        return reused ? send() : open();
    }

    /** The selector found this client's channel ready. */
    public boolean onReady(SelectionKey ready) {
        if (ready != key) {
            return false;   // a key of a connection already closed
        }
        switch (phase) {
            case CONNECTING -> {
                try {
                    if (!channel.finishConnect()) {
                        return false;
                    }
                } catch (IOException e) {
                    return failed(e);
                }
                return connected();
            }
            case HANDSHAKING -> {
                return connected();
            }
            case WRITING -> {
                return send();
            }
            case READING, DRAINING -> {
                return read();
            }
            default -> {
                // a kept connection between requests; the next request will read whatever this is
                key.interestOps(0);
                return false;
            }
        }
    }

    /** Ends the exchange if its deadline has passed at {@code now}. */
    public boolean expire(long now) {
        if (phase == Phase.IDLE || now - deadline <= 0) {
            return false;
        }
        if (phase == Phase.DRAINING) {
            closeChannel();
            serverKeptOpen++;   // the response was complete; the server just never closed
            return done(outcome);
        }
        abandon();
        return done(ErrorClass.TIMEOUT);
    }

    public ErrorClass outcome() {
        return outcome;
    }

    public int status() {
        return parser.status();
    }

    public long headerBytes() {
        return parser.headerBytes();
    }

    public long bodyBytes() {
        return parser.bodyBytes();
    }

    /** HTTP/1.0 responses after which the server did not close within the timeout (it should). */
    public long serverKeptOpen() {
        return serverKeptOpen;
    }

    /** Kept connections found closed by the server and opened again. */
    public long reconnects() {
        return reconnects;
    }

    public void close() {
        closeChannel();
        phase = Phase.IDLE;
    }

    /**
     * Closes at the end of a run: a request still under way is abandoned with a reset. A FIN would leave the
     * server's kernel holding a half-open connection no one waits for; after a flood, thousands of them, completed
     * into the accept queue over a minute of SYN-ACK retries, ahead of the clients that come next.
     */
    public void abandon() {
        if (channel != null && phase != Phase.IDLE && phase != Phase.DRAINING) {
            try {
                channel.setOption(StandardSocketOptions.SO_LINGER, 0);
            } catch (IOException e) {
                // a FIN then, as close() sends
            }
        }
        close();
    }

    private boolean open() {
        Endpoint endpoint = request.endpoint();
        try {
            // The socket's own family: a dual-stack socket for an IPv4 server costs an extra setsockopt per connection.
            channel = SocketChannel.open(endpoint.address().getAddress() instanceof Inet4Address
                    ? StandardProtocolFamily.INET : StandardProtocolFamily.INET6);
            connectedTo = endpoint;
            channel.configureBlocking(false);
            // No TCP_NODELAY: each request is a single write, and Nagle only holds back a segment while
            // earlier data is unacknowledged, which never happens here; it would cost a system call per request.
            // As wrk does, the request goes out when the selector reports the connection writable.
            if (endpoint.tls()) {
                session = new TlsSession(nextEngine);
                nextEngine = null;
            }
            if (channel.connect(endpoint.address())) {
                return connected();
            }
            phase = Phase.CONNECTING;
            interest(SelectionKey.OP_CONNECT);
            return false;
        } catch (IOException e) {
            return failed(e);
        }
    }

    /** TCP is up: the TLS handshake if there is one, then the request. */
    private boolean connected() {
        if (session == null) {
            return send();
        }
        phase = Phase.HANDSHAKING;
        try {
            int wait = session.handshake(channel, buffer);
            if (wait != 0) {
                interest(wait);
                return false;
            }
        } catch (IOException e) {
            return failed(e);
        }
        return send();
    }

    private boolean send() {
        boolean sent;
        try {
            if (session != null) {
                sent = session.write(channel, out);
            } else {
                channel.write(out);
                sent = !out.hasRemaining();
            }
        } catch (IOException e) {
            return failed(e);
        }
        phase = sent ? Phase.READING : Phase.WRITING;
        interest(sent ? SelectionKey.OP_READ : SelectionKey.OP_WRITE);
        return false;
    }

    /**
     * Reads what is there. Another read follows only if the buffer came back full, or the response has
     * just ended on HTTP/1.0: the server's close usually follows its last byte closely, and one read that
     * finds it costs less than another trip through the selector.
     */
    private boolean read() {
        while (true) {
            buffer.clear();
            int n;
            try {
                n = session != null ? session.read(channel, buffer) : channel.read(buffer);
            } catch (IOException e) {
                return failed(e);
            }
            if (n == 0) {
                return false;
            }
            if (n < 0) {
                return atEof();
            }
            boolean wasReading = phase == Phase.READING;
            if (parser.feed(buffer.array(), 0, n) && wasReading && ended()) {
                return true;
            }
            if (session == null && n < buffer.capacity() && !(wasReading && phase == Phase.DRAINING)) {
                return false;
            }
        }
    }

    /** The response has just ended (the parser's verdict is in); true if the exchange is finished too. */
    private boolean ended() {
        ErrorClass verdict = parser.outcome();
        if (request.keepAlive()) {
            if (verdict != null || !parser.reusable() || parser.extra() > 0) {
                closeChannel();
                if (verdict == null && parser.extra() > 0) {
                    verdict = ErrorClass.LONG_BODY;
                }
            }
            return done(verdict);
        }
        if (verdict == null || verdict == ErrorClass.STATUS) {
            // HTTP/1.0: the response ends when the server closes; wait for it, and see what else comes
            outcome = verdict;
            phase = Phase.DRAINING;
            return false;
        }
        closeChannel();
        return done(verdict);
    }

    private boolean atEof() {
        if (phase == Phase.DRAINING) {
            closeChannel();
            return done(outcome == null && parser.extra() > 0 ? ErrorClass.LONG_BODY : outcome);
        }
        parser.eof();
        if (reused && parser.outcome() == ErrorClass.CLOSED_EARLY && parser.gotNothing()) {
            return retry();
        }
        if (!request.keepAlive() && (parser.outcome() == null || parser.outcome() == ErrorClass.STATUS)) {
            closeChannel();   // framed by the close, or closed right at the end: nothing left to wait for
            return done(parser.outcome());
        }
        return ended();
    }

    private boolean failed(IOException e) {
        if (phase == Phase.DRAINING) {
            // the response was already complete; a reset while waiting for the close does not undo it
            closeChannel();
            return done(outcome);
        }
        ErrorClass error = ErrorClass.of(e);
        if (reused && !parser.headComplete() && (error == ErrorClass.RESET || error == ErrorClass.CLOSED_EARLY)) {
            return retry();
        }
        closeChannel();
        return done(error);
    }

    /**
     * The server closed an idle kept connection before answering; any HTTP client retries once on a new
     * one. The deadline and the clock keep running: reconnecting is a cost of the server's policy.
     */
    private boolean retry() {
        closeChannel();
        reconnects++;
        reused = false;
        out = ByteBuffer.wrap(request.wire());
        parser.reset(request.expectedBody());
        if (request.tls() && prepare(request) != null) {
            return done(ErrorClass.TLS);
        }
        return open();
    }

    private boolean done(ErrorClass result) {
        outcome = result;
        phase = Phase.IDLE;
        return true;
    }

    private void interest(int ops) {
        try {
            if (key == null) {
                key = channel.register(selector, ops, attachment);
            } else {
                key.interestOps(ops);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot register a channel with the selector", e);
        }
    }

    private void closeChannel() {
        if (channel != null) {
            if (session != null) {
                session.close(channel);
            }
            // At once: the server's lingering close waits for this FIN. Closing after the selector has
            // deregistered the channel would spare the JDK's SO_LINGER lookup and shutdown(2), but delays
            // the FIN and measured no faster.
            try {
                channel.close();
            } catch (IOException e) {
                // closing is best effort; the connection is gone either way
            }
        }
        channel = null;
        key = null;
        session = null;
        connectedTo = null;
    }
}
