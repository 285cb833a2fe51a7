package org.spice.verify;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * A literal HTTP client for the conformance check: it sends exactly the request text it is given and
 * keeps everything the server sent, including how the body was framed and whether the server closed
 * the connection after it. A library client would hide exactly what verify must see.
 */
final class RawHttp {

    /** How long verify waits for the server to close an HTTP/1.0 connection after the body. */
    private static final int CLOSE_WAIT_MILLIS = 2000;

    private RawHttp() {
    }

    /** How the response delimited its body. */
    enum Framing {
        CONTENT_LENGTH, CHUNKED, CLOSE, NONE
    }

    /**
     * One request and its response.
     *
     * @param statusCode       the status code, or -1 if no status line arrived
     * @param headers          the header fields in order
     * @param body             the body as delivered (de-chunked)
     * @param framing          how the body was delimited
     * @param trailingBytes    bytes the server sent after the end of the body (0 for a correct server)
     * @param closedAfterBody  true if the server closed the connection after the body
     */
    record Response(int statusCode, String statusLine, List<String[]> headers, byte[] body, Framing framing,
            int trailingBytes, boolean closedAfterBody) {

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
     * Sends {@code request} to host:port and reads one response.
     *
     * @param noBody     the request was HEAD: the response has a head only
     * @param expectClose check that the server closes the connection after the response (HTTP/1.0)
     */
    static Response exchange(String host, int port, String request, boolean noBody, boolean expectClose,
            int timeoutMillis) throws IOException {
        return exchange(host, port, null, request, noBody, expectClose, timeoutMillis);
    }

    /** As above, over TLS when {@code tls} is not null (the host name or address is verified against the certificate). */
    static Response exchange(String host, int port, SSLSocketFactory tls, String request, boolean noBody,
            boolean expectClose, int timeoutMillis) throws IOException {
        Socket plain = new Socket();
        plain.connect(new InetSocketAddress(host, port), timeoutMillis);
        try (Socket socket = tls == null ? plain : secure(tls, plain, host, port)) {
            socket.setSoTimeout(timeoutMillis);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();

            List<String> headLines = readHead(in);
            if (headLines.isEmpty()) {
                throw new IOException("the server closed the connection without a response");
            }
            String statusLine = headLines.get(0);
            int statusCode = parseStatus(statusLine);
            List<String[]> headers = new ArrayList<>();
            for (String line : headLines.subList(1, headLines.size())) {
                int colon = line.indexOf(':');
                if (colon <= 0) {
                    throw new IOException("malformed header line \"" + line + "\"");
                }
                headers.add(new String[] {line.substring(0, colon).trim(), line.substring(colon + 1).trim()});
            }
            Response head = new Response(statusCode, statusLine, headers, new byte[0], Framing.NONE, 0, false);

            byte[] body;
            Framing framing;
            String transferEncoding = head.header("Transfer-Encoding");
            String contentLength = head.header("Content-Length");
            if (noBody || statusCode == 204 || statusCode == 304) {
                body = new byte[0];
                framing = Framing.NONE;
            } else if (transferEncoding != null && transferEncoding.toLowerCase(Locale.ROOT).contains("chunked")) {
                body = readChunked(in);
                framing = Framing.CHUNKED;
            } else if (contentLength != null) {
                // A short body is kept as it arrived: verify reports its size rather than failing to read.
                body = in.readNBytes(parseLength(contentLength));
                framing = Framing.CONTENT_LENGTH;
            } else {
                body = in.readAllBytes();
                framing = Framing.CLOSE;
            }

            int trailing = 0;
            boolean closed = framing == Framing.CLOSE;
            if (expectClose && !closed) {
                socket.setSoTimeout(Math.min(CLOSE_WAIT_MILLIS, timeoutMillis));
                try {
                    byte[] buffer = new byte[8192];
                    for (int n; (n = in.read(buffer)) >= 0; ) {
                        trailing += n;
                    }
                    closed = true;
                } catch (SocketTimeoutException stillOpen) {
                    closed = false;
                }
            }
            return new Response(statusCode, statusLine, headers, body, framing, trailing, closed);
        }
    }

    private static Socket secure(SSLSocketFactory factory, Socket plain, String host, int port) throws IOException {
        try {
            SSLSocket socket = (SSLSocket) factory.createSocket(plain, host, port, true);
            SSLParameters parameters = socket.getSSLParameters();
            parameters.setEndpointIdentificationAlgorithm("HTTPS");
            socket.setSSLParameters(parameters);
            socket.setSoTimeout(plain.getSoTimeout());
            socket.startHandshake();
            return socket;
        } catch (IOException e) {
            plain.close();
            throw new IOException("TLS handshake failed: " + e.getMessage(), e);
        }
    }

    private static List<String> readHead(InputStream in) throws IOException {
        List<String> lines = new ArrayList<>();
        ByteArrayOutputStream line = new ByteArrayOutputStream(128);
        int total = 0;
        for (int b; (b = in.read()) >= 0; ) {
            if (++total > 65536) {
                throw new IOException("response head longer than 64 KiB");
            }
            if (b == '\n') {
                String text = line.toString(StandardCharsets.ISO_8859_1);
                if (text.endsWith("\r")) {
                    text = text.substring(0, text.length() - 1);
                }
                if (text.isEmpty()) {
                    return lines;
                }
                lines.add(text);
                line.reset();
            } else {
                line.write(b);
            }
        }
        if (!lines.isEmpty() || line.size() > 0) {
            throw new IOException("the connection closed inside the response head");
        }
        return lines;
    }

    private static int parseStatus(String statusLine) throws IOException {
        String[] parts = statusLine.split(" ", 3);
        if (parts.length < 2 || !parts[0].startsWith("HTTP/")) {
            throw new IOException("not an HTTP status line: \"" + statusLine + "\"");
        }
        try {
            return Integer.parseInt(parts[1]);
        } catch (NumberFormatException e) {
            throw new IOException("not an HTTP status line: \"" + statusLine + "\"");
        }
    }

    private static int parseLength(String value) throws IOException {
        try {
            int length = Integer.parseInt(value.trim());
            if (length < 0) {
                throw new NumberFormatException();
            }
            return length;
        } catch (NumberFormatException e) {
            throw new IOException("bad Content-Length \"" + value + "\"");
        }
    }

    private static byte[] readChunked(InputStream in) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String sizeLine = readLine(in);
            int semicolon = sizeLine.indexOf(';');
            String hex = (semicolon >= 0 ? sizeLine.substring(0, semicolon) : sizeLine).trim();
            int size;
            try {
                size = Integer.parseInt(hex, 16);
            } catch (NumberFormatException e) {
                throw new IOException("bad chunk size line \"" + sizeLine + "\"");
            }
            if (size == 0) {
                while (!readLine(in).isEmpty()) {
                    // trailer fields are not used by any probe
                }
                return body.toByteArray();
            }
            byte[] chunk = in.readNBytes(size);
            body.write(chunk);
            if (chunk.length < size) {
                throw new IOException("the connection closed inside a chunk");
            }
            if (!readLine(in).isEmpty()) {
                throw new IOException("chunk not followed by CRLF");
            }
        }
    }

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream(16);
        for (int b; (b = in.read()) >= 0; ) {
            if (b == '\n') {
                String text = line.toString(StandardCharsets.ISO_8859_1);
                return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
            }
            line.write(b);
        }
        throw new IOException("the connection closed inside the chunked body");
    }
}
