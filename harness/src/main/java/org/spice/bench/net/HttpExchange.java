package org.spice.bench.net;

import java.io.Closeable;
import java.io.IOException;
import java.net.Socket;
import java.security.GeneralSecurityException;

import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * One client's side of the exchanges: it opens connections, sends a request, reads the response to its
 * last byte and says whether the request counts. One instance per client thread, never shared, so the
 * buffers are reused without locking.
 *
 * <p>The client loop calls {@link #prepare} (not timed), {@link #perform} (timed: from just before
 * connect to the last byte) and {@link #finish} (not timed: waiting for the server's close).
 */
public final class HttpExchange implements Closeable {

    private final Endpoint primary;
    private final TlsConfig tls;
    private final int timeoutMillis;
    private final boolean keepAlive;
    private final ResponseReader reader = new ResponseReader();

    /** Open connections: the current one (without keep-alive), or the persistent ones, one per endpoint. */
    private Socket current;
    private Socket primaryConnection;
    private Socket otherConnection;
    private SSLSocketFactory nextFactory;

    private long serverKeptOpen;
    private long reconnects;

    /**
     * @param primary the base URL's endpoint; a mix's requests go there or to one other (the TLS endpoint),
     *                so a client keeps at most two persistent connections
     * @param tls     the TLS settings (null if the run has no TLS request)
     */
    public HttpExchange(Endpoint primary, TlsConfig tls, int timeoutMillis, boolean keepAlive) {
        this.primary = primary;
        this.tls = tls;
        this.timeoutMillis = timeoutMillis;
        this.keepAlive = keepAlive;
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
            return outcome;
        } catch (IOException e) {
            closeQuietly(current);
            current = null;
            if (keepAlive) {
                drop(request);
            }
            return ErrorClass.of(e);
        } catch (GeneralSecurityException e) {
            return ErrorClass.TLS;
        }
    }

    /**
     * After the clock stops. Without keep-alive, reads until the server closes (it must, for HTTP/1.0):
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
        } catch (java.net.SocketTimeoutException e) {
            serverKeptOpen++;
        } catch (IOException e) {
            // The response was already complete; a reset while waiting for the close does not undo it.
        }
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
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(timeoutMillis);
            socket.connect(endpoint.address(), timeoutMillis);
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
