package org.spice.verify;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.http2.ErrorCode;
import org.eclipse.jetty.http2.api.Session;
import org.eclipse.jetty.http2.api.Stream;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.frames.HeadersFrame;
import org.eclipse.jetty.http2.frames.ResetFrame;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.spice.bench.net.Endpoint;
import org.spice.bench.net.Http2Connect;
import org.spice.bench.net.TlsConfig;
import org.spice.page.Probe;

/**
 * The conformance check over HTTP/2, through Jetty's HTTP/2 client: h2 (TLS, the protocol chosen by ALPN) for an
 * https:// base, h2c with prior knowledge for an http:// one. Every URL of a probe is asked for with GET, HEAD and a
 * GET with a query, all as streams of one connection; each answer must come over HTTP/2 (not a fallback to
 * HTTP/1.1), carry none of HTTP/1's connection headers (RFC 9113 8.2.2) and otherwise pass what {@link Verifier}
 * checks: status 200, the one Content-Type, no cookie, no body for HEAD, the canonical page byte for byte.
 */
public final class Http2Verifier implements AutoCloseable {

    /** One request per URL, and what it checks. */
    enum Reply {
        GET("GET", ""), HEAD("HEAD", ""), GET_QUERY("GET", "?spice=1&t=2");

        final String method;
        final String query;

        Reply(String method, String query) {
            this.method = method;
            this.query = query;
        }

        @Override
        public String toString() {
            return method + " over HTTP/2" + (query.isEmpty() ? "" : " with a query string");
        }
    }

    /** Headers that belong to an HTTP/1 connection and make an HTTP/2 message malformed. */
    private static final List<String> CONNECTION_HEADERS =
            List.of("Connection", "Keep-Alive", "Proxy-Connection", "Transfer-Encoding", "Upgrade");

    /** A stream's answer as its frames brought it: the response's head and the bytes of its DATA frames. */
    private record Answer(MetaData.Response head, byte[] body) {
    }

    private final Endpoint base;
    private final Verifier pages;
    private final int timeoutMillis;
    private final HTTP2Client client;
    private final SslContextFactory.Client ssl;
    private Session session;

    /**
     * @param pages the HTTP/1 verifier of the same base, whose page and date rules the bodies are held to
     * @param tls   the certificate to trust for an https:// base, else null
     */
    public Http2Verifier(Endpoint base, Verifier pages, TlsConfig tls, int timeoutMillis) throws Exception {
        this.base = base;
        this.pages = pages;
        this.timeoutMillis = timeoutMillis;
        ClientConnector connector = new ClientConnector();
        if (base.tls()) {
            ssl = new SslContextFactory.Client();
            ssl.setSslContext(tls.context());
            connector.setSslContextFactory(ssl);
        } else {
            ssl = null;
        }
        client = new HTTP2Client(connector);
        client.setConnectTimeout(timeoutMillis);
        client.start();
    }

    /** Checks every URL of {@code probe} with every reply, as streams of one connection. */
    public Verifier.ProbeReport verify(Probe probe) {
        List<Verifier.Failure> failures = new ArrayList<>();
        int requests = 0;
        for (String path : probe.paths()) {
            for (Reply reply : Reply.values()) {
                requests++;
                String url = base.prefix() + path;
                List<String> problems;
                try {
                    problems = check(probe, reply, exchange(reply.method, url + reply.query));
                } catch (IOException | TimeoutException | ExecutionException e) {
                    problems = List.of(describe(e));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    problems = List.of("interrupted");
                }
                for (String problem : problems) {
                    failures.add(new Verifier.Failure(url, reply.toString(), problem));
                }
            }
        }
        return new Verifier.ProbeReport(probe, probe.paths().size(), requests, failures);
    }

    /** One request as a stream of the connection (opened again if the server closed it), its answer to END_STREAM. */
    private Answer exchange(String method, String pathQuery)
            throws IOException, InterruptedException, ExecutionException, TimeoutException {
        if (session == null || session.isClosed()) {
            session = connect();
        }
        HttpURI uri = RawH2.uri(base, pathQuery);
        HttpFields fields = HttpFields.build().put(HttpHeader.USER_AGENT, "spice-verify");
        CompletableFuture<Answer> answer = new CompletableFuture<>();
        session.newStream(new HeadersFrame(new MetaData.Request(method, uri, HttpVersion.HTTP_2, fields), null, true),
                new Reader(answer));
        return answer.get(timeoutMillis, TimeUnit.MILLISECONDS);
    }

    /**
     * A connection whose server has answered the preface with its SETTINGS: an HTTP/1 server answers the preface
     * with an HTTP/1 error, which is said here, once, instead of as a frame error of every request.
     */
    private Session connect() throws IOException, InterruptedException, ExecutionException, TimeoutException {
        String question = base.tls() ? "does it offer h2 by ALPN?"
                : "does it take h2c with prior knowledge on this port?";
        try {
            return Http2Connect.ready(client, ssl, base, timeoutMillis).get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Http2Connect.NoSettings none) {
                throw new IOException("no HTTP/2 here: the server did not answer the connection preface with its"
                        + " SETTINGS (" + none.getMessage() + "): " + question, e);
            }
            throw new IOException("no HTTP/2 connection: " + describe(e) + ": " + question, e);
        }
    }

    /** Reads one stream's frames: the response's HEADERS, its DATA to END_STREAM, or the reset that ends it. */
    private static final class Reader implements Stream.Listener {
        private final CompletableFuture<Answer> answer;
        private final ByteArrayOutputStream body = new ByteArrayOutputStream();
        private MetaData.Response head;

        Reader(CompletableFuture<Answer> answer) {
            this.answer = answer;
        }

        @Override
        public void onHeaders(Stream stream, HeadersFrame frame) {
            if (frame.getMetaData() instanceof MetaData.Response response && response.getStatus() >= 200) {
                head = response;
            }
            next(stream, frame.isEndStream());
        }

        @Override
        public void onDataAvailable(Stream stream) {
            Stream.Data data = stream.readData();
            if (data == null) {
                stream.demand();
                return;
            }
            ByteBuffer bytes = data.frame().getByteBuffer();
            byte[] copy = new byte[bytes.remaining()];
            bytes.get(copy);
            body.writeBytes(copy);
            boolean end = data.frame().isEndStream();
            data.release();
            next(stream, end);
        }

        private void next(Stream stream, boolean end) {
            if (!end) {
                stream.demand();
            } else if (head == null) {
                answer.completeExceptionally(new IOException("the stream ended without a final response"));
            } else {
                answer.complete(new Answer(head, body.toByteArray()));
            }
        }

        /**
         * The stream was reset before its END_STREAM was read: Jetty's client (12.1) resets a stream itself, telling no
         * listener, when the DATA frames of a response fall short of its Content-Length, and it holds a HEAD
         * response's empty DATA frame with END_STREAM to that length too, though RFC 9113 8.1.1 allows it (Jetty's
         * own FastCGI proxy answers HEAD so). With a head read, the answer is what came: a HEAD's empty body, or a
         * GET's short one, which the checks then name.
         */
        @Override
        public void onClosed(Stream stream) {
            if (!stream.isReset()) {
                return; // closed by its END_STREAM, whose DATA may still be unread: next() answers
            }
            if (head != null) {
                answer.complete(new Answer(head, body.toByteArray()));
            } else {
                answer.completeExceptionally(new IOException("the stream was reset before a response"));
            }
        }

        @Override
        public void onReset(Stream stream, ResetFrame frame, Callback callback) {
            answer.completeExceptionally(new IOException("the server reset the stream ("
                    + ErrorCode.toString(frame.getError(), "error " + frame.getError()) + ")"));
            callback.succeeded();
        }

        @Override
        public void onFailure(Stream stream, int error, String reason, Throwable failure, Callback callback) {
            answer.completeExceptionally(new IOException("the stream failed: " + reason, failure));
            callback.succeeded();
        }
    }

    private List<String> check(Probe probe, Reply reply, Answer answer) {
        List<String> problems = new ArrayList<>();
        MetaData.Response response = answer.head();
        if (response.getStatus() != 200) {
            problems.add("status " + response.getStatus() + ", expected 200");
            return problems;
        }
        HttpFields headers = response.getHttpFields();
        for (String name : CONNECTION_HEADERS) {
            if (headers.contains(name)) {
                problems.add("carries " + name + ": " + headers.get(name)
                        + ", an HTTP/1 connection header HTTP/2 forbids");
            }
        }
        Verifier.checkHeaders(headers.get(HttpHeader.CONTENT_TYPE), headers.getValuesList(HttpHeader.SET_COOKIE),
                problems);
        byte[] body = answer.body();
        if (reply == Reply.HEAD) {
            if (body.length > 0) {
                problems.add("HEAD response carries " + body.length + " body bytes in DATA frames, expected none");
            }
            return problems;
        }
        String contentLength = headers.get(HttpHeader.CONTENT_LENGTH);
        if (contentLength != null && !contentLength.trim().equals(Integer.toString(body.length))) {
            problems.add("Content-Length is " + contentLength.trim() + ", and the DATA frames carry " + body.length
                    + " bytes");
        }
        String bodyProblem = pages.compareBody(probe, body);
        if (bodyProblem != null) {
            problems.add(bodyProblem);
        }
        return problems;
    }

    private static String describe(Exception e) {
        Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
        if (cause instanceof TimeoutException) {
            return "no complete response within the timeout";
        }
        return cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
    }

    @Override
    public void close() throws Exception {
        if (session != null) {
            session.close(ErrorCode.NO_ERROR.code, "verified", Callback.NOOP);
        }
        client.stop();
    }
}
