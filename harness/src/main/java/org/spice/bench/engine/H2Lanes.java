package org.spice.bench.engine;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.http2.ErrorCode;
import org.eclipse.jetty.http2.api.Session;
import org.eclipse.jetty.http2.api.Stream;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.frames.HeadersFrame;
import org.eclipse.jetty.http2.frames.ResetFrame;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Promise;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.spice.bench.model.Multiplex;
import org.spice.bench.net.Endpoint;
import org.spice.bench.net.ErrorClass;
import org.spice.bench.net.Http2Connect;
import org.spice.bench.net.Request;

/**
 * {@link H2Client}'s connections to one endpoint and the requests waiting for a stream on them: {@link
 * Multiplex#connections} connections, each carrying at most {@link Multiplex#streams} streams at once; a request goes
 * on the connection with the fewest under way, or waits, in the order it came, for a stream to end. Each stream is
 * read by a {@link Reader}, whose end goes to the loop that sent the request.
 */
final class H2Lanes {

    /** Whether this thread is already putting waiting requests onto streams ({@link #dispatch}). */
    private static final ThreadLocal<Boolean> DISPATCHING = ThreadLocal.withInitial(() -> false);

    private final Endpoint endpoint;
    private final HTTP2Client http2;
    /** The client's TLS context for an h2 endpoint; null for h2c. */
    private final SslContextFactory.Client ssl;
    private final Multiplex multiplex;
    private final int timeoutMillis;
    private final List<Lane> lanes = new ArrayList<>();
    private final ArrayDeque<Pending> waiting = new ArrayDeque<>();
    /** Each path's request head, made once: a mix sends a few paths many times. */
    private final Map<String, MetaData.Request> heads = new ConcurrentHashMap<>();
    private int turn;

    H2Lanes(Endpoint endpoint, HTTP2Client http2, SslContextFactory.Client ssl, Multiplex multiplex,
            int timeoutMillis) {
        this.endpoint = endpoint;
        this.http2 = http2;
        this.ssl = ssl;
        this.multiplex = multiplex;
        this.timeoutMillis = timeoutMillis;
        for (int i = 0; i < multiplex.connections(); i++) {
            lanes.add(new Lane());
        }
    }

    /** Sends {@code request} as a stream, now or when one is free; {@code done} runs on {@code inbox} at its end. */
    void send(Request request, Inbox inbox, H2Client.Done done) {
        Pending p = new Pending(request, inbox, done);
        synchronized (this) {
            waiting.add(p);
        }
        dispatch();
    }

    /**
     * The waiting requests onto free streams, in the order they came. A stream that fails at once (no connection)
     * ends inside {@link #start} and dispatches again: the thread already dispatching goes on instead, so that a
     * thousand requests failing on a refused connection do not nest a thousand calls deep.
     */
    private void dispatch() {
        if (DISPATCHING.get()) {
            return;
        }
        DISPATCHING.set(true);
        try {
            while (true) {
                Lane lane;
                Pending p;
                synchronized (this) {
                    lane = waiting.isEmpty() ? null : freest();
                    if (lane == null) {
                        return;
                    }
                    lane.active++;
                    p = waiting.poll();
                }
                start(lane, p);
            }
        } finally {
            DISPATCHING.set(false);
        }
    }

    /**
     * The connection with the fewest streams under way, if it has one free; of those with as few, the next in turn
     * after the last one chosen, so that the load spreads over every connection, as h2load's clients share it.
     */
    private Lane freest() {
        int best = -1;
        for (int k = 0; k < lanes.size(); k++) {
            int i = (turn + k) % lanes.size();
            int active = lanes.get(i).active;
            if (active < multiplex.streams() && (best < 0 || active < lanes.get(best).active)) {
                best = i;
            }
        }
        if (best < 0) {
            return null;
        }
        turn = best + 1;
        return lanes.get(best);
    }

    /** {@code p} as a stream of {@code lane}'s connection, once the connection is ready. */
    private void start(Lane lane, Pending p) {
        Reader reader = new Reader(lane, p);
        session(lane).whenComplete((session, failure) -> {
            if (failure != null) {
                reader.finish(H2Client.outcomeOf(failure), false);
                return;
            }
            MetaData.Request head = heads.computeIfAbsent(p.request.path(), this::head);
            session.newStream(new HeadersFrame(head, null, true), Promise.from(s -> { }, e ->
                    reader.finish(H2Client.outcomeOf(e), true)), reader);
        });
    }

    /** A GET of {@code path} on this endpoint, as HTTP/2 request headers. */
    private MetaData.Request head(String path) {
        HttpURI uri = HttpURI.build().scheme(endpoint.tls() ? "https" : "http").host(endpoint.host())
                .port(endpoint.port()).pathQuery(path).asImmutable();
        return new MetaData.Request("GET", uri, HttpVersion.HTTP_2, HttpFields.EMPTY);
    }

    /** Every lane's connection, on its way. */
    List<CompletableFuture<Session>> connectAll() {
        return lanes.stream().map(this::session).toList();
    }

    /** The lane's session: ready, or on its way; a new one where the last was closed or never came. */
    private synchronized CompletableFuture<Session> session(Lane lane) {
        CompletableFuture<Session> s = lane.session;
        if (s == null || s.isCompletedExceptionally() || (s.isDone() && s.join().isClosed())) {
            s = Http2Connect.ready(http2, ssl, endpoint, timeoutMillis);
            lane.session = s;
        }
        return s;
    }

    /**
     * A stream ended: its end goes to its loop, and its stream to the next waiting request. A request the server
     * never took ({@code unanswered}: the stream never went out, was refused, or its connection closed before any
     * answer, as a server closes a connection idle past its keep-alive) goes again once, first in line, as a
     * client's kept HTTP/1 connection is opened again; its latency still counts from when it was due.
     */
    void ended(Lane lane, Pending p, ErrorClass outcome, int status, long body, boolean unanswered) {
        long end = System.nanoTime();
        boolean again = unanswered && !p.again;
        synchronized (this) {
            lane.active--;
            if (again) {
                p.again = true;
                waiting.addFirst(p);
            }
        }
        if (!again) {
            p.inbox.post(() -> p.done.ended(outcome, status, body, end));
        }
        dispatch();
    }

    synchronized void close() {
        for (Lane lane : lanes) {
            if (lane.session != null && lane.session.isDone() && !lane.session.isCompletedExceptionally()) {
                lane.session.join().close(ErrorCode.NO_ERROR.code, "done", Callback.NOOP);
            }
        }
    }

    /** Reads one stream: the status, the DATA frames' bytes to END_STREAM, or what ended it otherwise. */
    private final class Reader implements Stream.Listener {
        private final Lane lane;
        private final Pending p;
        private final AtomicBoolean over = new AtomicBoolean();
        private int status;
        private long body;

        Reader(Lane lane, Pending p) {
            this.lane = lane;
            this.p = p;
        }

        @Override
        public void onHeaders(Stream stream, HeadersFrame frame) {
            if (frame.getMetaData() instanceof MetaData.Response response) {
                status = response.getStatus();
            }
            if (frame.isEndStream()) {
                finish(answered(), false);
            } else {
                stream.demand();
            }
        }

        @Override
        public void onDataAvailable(Stream stream) {
            Stream.Data data = stream.readData();
            if (data == null) {
                stream.demand();
                return;
            }
            body += data.frame().remaining();
            boolean end = data.frame().isEndStream();
            data.release();
            if (end) {
                finish(answered(), false);
            } else {
                stream.demand();
            }
        }

        /** A complete answer's outcome: 200 with the body the request expects, or what differs. */
        private ErrorClass answered() {
            long expected = p.request.expectedBody();
            return status != 200 ? ErrorClass.STATUS : expected >= 0 && body < expected ? ErrorClass.SHORT_BODY
                    : expected >= 0 && body > expected ? ErrorClass.LONG_BODY : null;
        }

        @Override
        public void onReset(Stream stream, ResetFrame frame, Callback callback) {
            finish(ErrorClass.RESET, status == 0 && frame.getError() == ErrorCode.REFUSED_STREAM_ERROR.code);
            callback.succeeded();
        }

        @Override
        public void onIdleTimeout(Stream stream, TimeoutException x, Promise<Boolean> promise) {
            finish(ErrorClass.TIMEOUT, false);
            promise.succeeded(true);
        }

        @Override
        public void onFailure(Stream stream, int error, String reason, Throwable failure, Callback callback) {
            finish(H2Client.outcomeOf(failure), status == 0 && stream.getSession().isClosed());
            callback.succeeded();
        }

        /** Closed by its END_STREAM, its DATA perhaps unread yet (then read above), or reset by the client. */
        @Override
        public void onClosed(Stream stream) {
            if (stream.isReset()) {
                finish(ErrorClass.RESET, false);
            }
        }

        /** The attempt's end, told once: a stream's failure may come by two callbacks. */
        void finish(ErrorClass outcome, boolean unanswered) {
            if (over.compareAndSet(false, true)) {
                ended(lane, p, outcome, status, body, unanswered);
            }
        }
    }

    /** A request waiting for a stream, where its end goes, and whether it was sent again already. */
    private static final class Pending {
        final Request request;
        final Inbox inbox;
        final H2Client.Done done;
        boolean again;

        Pending(Request request, Inbox inbox, H2Client.Done done) {
            this.request = request;
            this.inbox = inbox;
            this.done = done;
        }
    }

    /** One connection: its session once connected, the streams it carries now. */
    private static final class Lane {
        CompletableFuture<Session> session;
        int active;
    }
}
