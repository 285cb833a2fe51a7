package org.spice.bench.net;

import java.io.Closeable;
import java.io.IOException;
import java.net.Proxy;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.util.concurrent.atomic.AtomicReference;

import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * One client's side of the exchanges: it opens connections, sends a request, reads the response to its
 * last byte and says whether the request counts. One instance per client thread, never shared, so the
 * buffers are reused without locking.
 *
 * <p>The client loop calls {@link #prepare} (not timed), {@link #perform} (timed: from just before
 * connect to the last byte) and {@link #finish} (waiting for the server's close, timed too without
 * keep-alive: see ClientLoop).
 */
public final class HttpExchange implements Closeable {

    private final Endpoint primary;
    private final TlsConfig tls;
    private final boolean keepAlive;
    private final ResponseReader reader = new ResponseReader();

    /** Open connections: the current one (without keep-alive), or the persistent ones, one per endpoint. */
    private Socket current;
    private Socket primaryConnection;
    private Socket otherConnection;
    private SSLSocketFactory nextFactory;

    private long serverKeptOpen;
    private long reconnects;

    /** The socket whose exchange is under way and when it must be done; the Watchdog closes it after that. */
    private final AtomicReference<Armed> armed = new AtomicReference<>();
    private final long timeoutNanos;
    private Armed lastArmed;

    private static final class Armed {
        final Socket socket;
        final long deadline;
        volatile boolean expired;

        Armed(Socket socket, long deadline) {
            this.socket = socket;
            this.deadline = deadline;
        }
    }

    /**
     * @param primary the base URL's endpoint; a mix's requests go there or to one other (the TLS endpoint),
     *                so a client keeps at most two persistent connections
     * @param tls     the TLS settings (null if the run has no TLS request)
     */
    public HttpExchange(Endpoint primary, TlsConfig tls, int timeoutMillis, boolean keepAlive) {
        this.primary = primary;
        this.tls = tls;
        this.timeoutNanos = timeoutMillis * 1_000_000L;
        this.keepAlive = keepAlive;
        Watchdog.watch(this);
    }

    /** Called by the Watchdog: closes the armed socket if its deadline has passed. */
    void expireIfLate(long now) {
        Armed a = armed.get();
        if (a != null && now - a.deadline > 0 && armed.compareAndSet(a, null)) {
            a.expired = true;
            closeQuietly(a.socket);
        }
    }

    /** Starts the clock of the per-request timeout on {@code socket} (the whole exchange, close included). */
    private void arm(Socket socket) {
        lastArmed = new Armed(socket, System.nanoTime() + timeoutNanos);
        armed.set(lastArmed);
    }

    private void disarm() {
        armed.set(null);
    }

    /** True if the Watchdog closed the socket of the exchange under way: its failure is a timeout. */
    private boolean timedOut() {
        return lastArmed != null && lastArmed.expired;
    }

    /** Work that must not be timed: a TLS socket factory for a full handshake. */
    public void prepare(Request request) throws GeneralSecurityException {
        if (request.tls() && (!keepAlive || kept(request) == null)) {
            nextFactory = tls.factoryForNextConnection();
        }
    }

    /**
     * Connects (unless a persistent connection is open), sends, reads the response to its last byte.
     *
     * @return null if the request counts, else why not
     */
    public ErrorClass perform(Request request) {
        try {
            if (!keepAlive) {
                current = connect(request.endpoint());
                return exchange(current, request);
            }
            Socket connection = kept(request);
            boolean reused = connection != null;
            if (!reused) {
                connection = connect(request.endpoint());
                keep(request, connection);
            } else {
                arm(connection);
            }
            ErrorClass outcome = null;
            boolean retry;
            try {
                outcome = exchange(connection, request);
                retry = reused && outcome == ErrorClass.CLOSED_EARLY && reader.gotNothing();
            } catch (IOException e) {
                ErrorClass failure = ErrorClass.of(e);
                if (!reused || reader.headerBytes() > 0 || failure != ErrorClass.RESET && failure != ErrorClass.CLOSED_EARLY) {
                    throw e;
                }
                retry = true;
            }
            if (retry) {
                // The server closed an idle persistent connection before answering; any HTTP client retries
                // once on a new one. The clock keeps running: reconnecting is a cost of the server's policy.
                drop(request);
                reconnects++;
                if (request.tls()) {
                    nextFactory = tls.factoryForNextConnection();
                }
                connection = connect(request.endpoint());
                keep(request, connection);
                outcome = exchange(connection, request);
            }
            if (outcome != null || !reader.reusable() || reader.buffered() > 0) {
                drop(request);
                if (outcome == null && reader.buffered() > 0) {
                    outcome = ErrorClass.LONG_BODY;
                }
            }
            disarm();
            return outcome;
        } catch (IOException e) {
            disarm();
            closeQuietly(current);
            current = null;
            if (keepAlive) {
                drop(request);
            }
            return timedOut() ? ErrorClass.TIMEOUT : ErrorClass.of(e);
        } catch (GeneralSecurityException e) {
            return ErrorClass.TLS;
        }
    }

    /**
     * Without keep-alive, reads until the server closes (it must, for HTTP/1.0):
     * bytes that arrive after a framed body turn a success into a long body.
     */
    public ErrorClass finish(ErrorClass outcome) {
        if (keepAlive || current == null) {
            return outcome;
        }
        try {
            if (outcome == null || outcome == ErrorClass.STATUS) {
                long extra = reader.drainToEof();
                if (extra > 0 && outcome == null) {
                    outcome = ErrorClass.LONG_BODY;
                }
            }
        } catch (IOException e) {
            if (timedOut()) {
                serverKeptOpen++;
            }
            // Otherwise the response was already complete; a reset while waiting for the close does not undo it.
        }
        disarm();
        closeQuietly(current);
        current = null;
        return outcome;
    }

    public int status() {
        return reader.status();
    }

    public long headerBytes() {
        return reader.headerBytes();
    }

    public long bodyBytes() {
        return reader.bodyBytes();
    }

    /** HTTP/1.0 responses after which the server did not close within the timeout (it should). */
    public long serverKeptOpen() {
        return serverKeptOpen;
    }

    /** Persistent connections found closed by the server and opened again. */
    public long reconnects() {
        return reconnects;
    }

    @Override
    public void close() {
        Watchdog.unwatch(this);
        disarm();
        closeQuietly(current);
        closeQuietly(primaryConnection);
        closeQuietly(otherConnection);
        current = null;
        primaryConnection = null;
        otherConnection = null;
    }

    private ErrorClass exchange(Socket socket, Request request) throws IOException {
        reader.attach(socket.getInputStream());
        socket.getOutputStream().write(request.wire());
        return reader.read(request.expectedBody());
    }

    private Socket connect(Endpoint endpoint) throws IOException {
        // NO_PROXY: a plain Socket asks the default ProxySelector about SOCKS on every connect, URI parsing
        // included; a load generator on loopback never goes through a proxy.
        Socket socket = new Socket(Proxy.NO_PROXY);
        arm(socket);
        try {
            socket.setTcpNoDelay(true);
            socket.connect(endpoint.address());
            if (!endpoint.tls()) {
                return socket;
            }
            SSLSocket secured = TlsConfig.wrap(nextFactory, socket, endpoint);
            secured.startHandshake();
            return secured;
        } catch (IOException | RuntimeException e) {
            closeQuietly(socket);
            throw e;
        }
    }

    private Socket kept(Request request) {
        return request.endpoint() == primary ? primaryConnection : otherConnection;
    }

    private void keep(Request request, Socket connection) {
        if (request.endpoint() == primary) {
            primaryConnection = connection;
        } else {
            otherConnection = connection;
        }
    }

    private void drop(Request request) {
        closeQuietly(kept(request));
        keep(request, null);
    }

    private static void closeQuietly(Socket socket) {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException e) {
                // closing is best effort; the socket is gone either way
            }
        }
    }
}
