package org.spice.bench.engine;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.eclipse.jetty.http2.api.Session;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.spice.bench.model.Multiplex;
import org.spice.bench.model.Target;
import org.spice.bench.net.Endpoint;
import org.spice.bench.net.ErrorClass;
import org.spice.bench.net.Request;
import org.spice.bench.net.TlsConfig;

/**
 * The HTTP/2 arms' transport, Jetty's HTTP/2 client: h2 by ALPN to a TLS endpoint, h2c with prior knowledge to a plain
 * one. Each endpoint gets {@link Multiplex#connections} connections on its first request ({@link H2Lanes}), each
 * carrying at most {@link Multiplex#streams} streams at once. A stream's end (END_STREAM, a reset, a failure, its idle
 * timeout) is handed to the loop that sent it through that loop's {@link Inbox}, so that every count stays on the
 * loop's own thread. Nothing starts until the first request: a run without HTTP/2 arms pays nothing.
 */
final class H2Client implements AutoCloseable {

    /** A request's end: {@code outcome} null for a 200 with the expected body, {@code end} on System.nanoTime. */
    interface Done {
        void ended(ErrorClass outcome, int status, long bodyBytes, long end);
    }

    private final TlsConfig tls;
    private final Multiplex multiplex;
    private final int timeoutMillis;
    private final Map<Endpoint, H2Lanes> lanes = new ConcurrentHashMap<>();
    private HTTP2Client client;
    private SslContextFactory.Client ssl;
    private boolean closed;

    H2Client(TlsConfig tls, Multiplex multiplex, int timeoutMillis) {
        this.tls = tls;
        this.multiplex = multiplex;
        this.timeoutMillis = timeoutMillis;
    }

    /** The HTTP/2 arms' client for one run against {@code target}: it starts on their first request, if any. */
    static H2Client of(TlsConfig tls, Target target) {
        return new H2Client(tls, target.multiplexOrDefault(), target.timeoutMillis());
    }

    /** Sends {@code request} as a stream, now or when one is free; {@code done} runs on {@code inbox} at its end. */
    void send(Request request, Inbox inbox, Done done) {
        H2Lanes to;
        try {
            to = lanes.computeIfAbsent(request.endpoint(), this::lanesTo);
        } catch (IllegalStateException e) {
            long now = System.nanoTime();
            inbox.post(() -> done.ended(ErrorClass.IO, 0, 0, now));
            return;
        }
        to.send(request, inbox, done);
    }

    /**
     * Connects to every HTTP/2 endpoint among {@code requests} now, each lane's connection ready for streams (or failed)
     * within the timeout, so that a round's slices do not carry the client's start or the connections' setup: the slice
     * of an arm's first request would otherwise hold its TCP (and TLS) handshakes and the client's threads starting.
     * A connection that fails here is tried again on the first request, as it would have been.
     */
    void open(Collection<Request> requests) throws InterruptedException {
        List<CompletableFuture<Session>> sessions = new ArrayList<>();
        try {
            for (Request r : requests) {
                if (r.h2() && !lanes.containsKey(r.endpoint())) {
                    sessions.addAll(lanes.computeIfAbsent(r.endpoint(), this::lanesTo).connectAll());
                }
            }
        } catch (IllegalStateException e) {
            return;   // the client did not start: each request fails as it comes, and is counted
        }
        try {
            CompletableFuture.allOf(sessions.toArray(CompletableFuture[]::new)).get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            // the requests themselves will meet what failed, and count it
        }
    }

    /** The connections to {@code endpoint}, the client started if it was not. */
    private H2Lanes lanesTo(Endpoint endpoint) {
        HTTP2Client http2 = started();
        return new H2Lanes(endpoint, http2, endpoint.tls() ? ssl : null, multiplex, timeoutMillis);
    }

    /** The client, started on the first request. */
    private synchronized HTTP2Client started() {
        if (closed) {
            throw new IllegalStateException("closed");
        }
        if (client == null) {
            ClientConnector connector = new ClientConnector();
            // No thread held in reserve: Jetty's selector then parses a connection's frames itself (our listeners never
            // block) instead of handing the selector to a reserved thread for every read, a wake-up a response that
            // cost the client a fifth of its CPU per request on two cores.
            QueuedThreadPool threads = new QueuedThreadPool();
            threads.setName("spice-h2");
            threads.setReservedThreads(0);
            connector.setExecutor(threads);
            if (tls != null) {
                ssl = new SslContextFactory.Client();
                ssl.setSslContext(tls.context());
                connector.setSslContextFactory(ssl);
            }
            HTTP2Client c = new HTTP2Client(connector);
            c.setConnectTimeout(timeoutMillis);
            c.setStreamIdleTimeout(timeoutMillis);
            c.setIdleTimeout(Math.max(30_000L, 3L * timeoutMillis));
            try {
                c.start();
            } catch (Exception e) {
                throw new IllegalStateException("the HTTP/2 client did not start: " + e.getMessage(), e);
            }
            client = c;
        }
        return client;
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (client != null) {
            lanes.values().forEach(H2Lanes::close);
            try {
                client.stop();
            } catch (Exception e) {
                // the run is over either way
            }
        }
    }

    /** The class of a connection's or stream's failure. */
    static ErrorClass outcomeOf(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause()
                : failure;
        if (cause instanceof TimeoutException) {
            return ErrorClass.TIMEOUT;
        }
        if (cause instanceof ClosedChannelException) {
            return ErrorClass.CLOSED_EARLY;
        }
        return cause instanceof IOException io ? ErrorClass.of(io) : ErrorClass.IO;
    }
}
