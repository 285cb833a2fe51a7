package org.spice.verify;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLSocket;

import org.spice.bench.net.ResponseParser;
import org.spice.bench.net.TlsConfig;

/**
 * A literal HTTP client for the conformance check: it sends exactly the request text it is given and
 * keeps everything the server sent, including how the body was framed and whether the server closed
 * the connection after it. A library client would hide exactly what verify must see. The response is
 * parsed by the load engine's {@link ResponseParser}, so verify and bench read a response alike.
 */
final class RawHttp {

    /** How long verify waits for the server to close an HTTP/1.0 connection after the body. */
    private static final int CLOSE_WAIT_MILLIS = 2000;

    private RawHttp() {
    }

    /**
     * One request and its response.
     *
     * @param statusCode       the status code
     * @param headers          the header fields in order
     * @param body             the body as delivered (de-chunked)
     * @param framing          how the body was delimited
     * @param trailingBytes    bytes the server sent after the end of the body (0 for a correct server)
     * @param closedAfterBody  true if the server closed the connection after the body
     */
    record Response(int statusCode, String statusLine, List<String[]> headers, byte[] body,
            ResponseParser.Framing framing, long trailingBytes, boolean closedAfterBody) {

        /** All values of a header, case-insensitively. */
        List<String> headerValues(String name) {
            List<String> values = new ArrayList<>();
            for (String[] header : headers) {
                if (header[0].equalsIgnoreCase(name)) {
                    values.add(header[1]);
                }
            }
            return values;
        }

        String header(String name) {
            List<String> values = headerValues(name);
            return values.isEmpty() ? null : values.get(0);
        }
    }

    /**
     * Sends {@code request} to host:port (over TLS when {@code tls} is not null, the host name or address
     * checked against the certificate) and reads one response. Every step, the TLS handshake included,
     * has the timeout.
     *
     * @param noBody      the request was HEAD: the response has a head only
     * @param expectClose check that the server closes the connection after the response (HTTP/1.0)
     */
    static Response exchange(String host, int port, TlsConfig tls, String request, boolean noBody,
            boolean expectClose, int timeoutMillis) throws IOException {
        Socket plain = new Socket();
        plain.connect(new InetSocketAddress(host, port), timeoutMillis);
        plain.setSoTimeout(timeoutMillis);
        try (Socket socket = tls == null ? plain : secure(tls, plain, host, port, timeoutMillis)) {
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            ResponseParser parser = new ResponseParser();
            parser.reset(0, noBody);
            parser.capture();
            byte[] buffer = new byte[8192];
            boolean closed = false;
            while (!parser.ended()) {
                int n = in.read(buffer);
                if (n < 0) {
                    closed = true;
                    parser.eof();
                } else {
                    parser.feed(buffer, 0, n);
                }
            }
            // no valid head, or chunks that break off: nothing to compare (a short Content-Length body is kept)
            if (parser.status() < 0 || parser.problem() != null && parser.framing() == ResponseParser.Framing.CHUNKED) {
                throw new IOException(parser.problem());
            }
            closed |= parser.framing() == ResponseParser.Framing.CLOSE;
            if (expectClose && !closed) {
                socket.setSoTimeout(Math.min(CLOSE_WAIT_MILLIS, timeoutMillis));
                try {
                    for (int n; (n = in.read(buffer)) >= 0; ) {
                        parser.feed(buffer, 0, n);
                    }
                    closed = true;
                } catch (SocketTimeoutException stillOpen) {
                    closed = false;
                }
            }
            return new Response(parser.status(), parser.statusLine(), parser.fields(), parser.body(), parser.framing(),
                    parser.extra(), closed);
        }
    }

    private static Socket secure(TlsConfig tls, Socket plain, String host, int port, int timeoutMillis)
            throws IOException {
        try {
            SSLSocket socket = tls.wrap(plain, host, port);
            socket.setSoTimeout(timeoutMillis);
            socket.startHandshake();
            return socket;
        } catch (IOException e) {
            plain.close();
            throw new IOException("TLS handshake failed: " + e.getMessage(), e);
        }
    }
}
