package org.spice.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.function.Function;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.spice.bench.net.Endpoint;
import org.spice.page.CanonicalPage;
import org.spice.page.Probe;

/** verify against deliberately wrong endpoints: each fault must fail with the message that names it. */
@Tag("page")
@Tag("unit")
class VerifierTest {

    private static final CanonicalPage PAGE = CanonicalPage.of(6250);
    private static final LocalDate TODAY = LocalDate.of(2026, 11, 22);

    private FakeServer server;

    @AfterEach
    void stop() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void conformingEndpointPasses() throws IOException {
        Verifier.ProbeReport report = verify(Probe.STATIC, head -> response(head, "", PAGE.fixed(), 0, false));
        assertTrue(report.passed(), report.failures().toString());
        assertEquals(5, report.requests());
    }

    @Test
    void aProbeThatFailsWithAQueryStringFails() throws IOException {
        // Jetty's FastCGI proxy answered 502 to /spice/fcgi/spice?x=1 until its pattern allowed a query
        Verifier.ProbeReport report = verify(Probe.FASTCGI, head -> head.startsWith("GET /spice/fcgi/spice?")
                ? "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n".getBytes(StandardCharsets.US_ASCII)
                : response(head, "", PAGE.fixed(), 0, false));
        assertFailure(report, "status 502");
        assertEquals(1, report.failures().size(), report.failures().toString());
        assertTrue(report.failures().get(0).reply().contains("query"), report.failures().toString());
    }

    @Test
    void chunkedHttp11AndADatedSlotPass() throws IOException {
        String dated = PAGE.render(TODAY.toString());
        Verifier.ProbeReport report = verify(Probe.SHTML,
                head -> head.contains("HTTP/1.1") && head.startsWith("GET") ? chunked(dated) : response(head, "", dated, 0, false));
        assertTrue(report.passed(), report.failures().toString());
    }

    @Test
    void shortBodyFailsWithSizeAndOffset() throws IOException {
        String shortPage = PAGE.fixed().substring(0, 6249);
        Verifier.ProbeReport report = verify(Probe.SERVLET, head -> response(head, "", shortPage, 0, false));
        assertFailure(report, "body is 6249 bytes, expected 6250; first differing byte at offset 6249");
        assertFailure(report, "Content-Length is 6249, expected 6250");
    }

    @Test
    void extraByteAfterTheBodyFails() throws IOException {
        Verifier.ProbeReport report = verify(Probe.CGI, head -> response(head, "", PAGE.fixed(), 1, false));
        assertFailure(report, "1 bytes after the 6250-byte body, before the connection closed");
    }

    @Test
    void setCookieFails() throws IOException {
        Verifier.ProbeReport report = verify(Probe.MODULE,
                head -> response(head, "Set-Cookie: JSESSIONID=ABC\r\n", PAGE.fixed(), 0, false));
        assertFailure(report, "sets a cookie");
    }

    @Test
    void changedByteIsLocated() throws IOException {
        StringBuilder wrong = new StringBuilder(PAGE.fixed());
        wrong.setCharAt(3000, wrong.charAt(3000) == 'x' ? 'y' : 'x');
        Verifier.ProbeReport report = verify(Probe.STATIC, head -> response(head, "", wrong.toString(), 0, false));
        assertFailure(report, "first differing byte at offset 3000");
    }

    @Test
    void wrongDateAndMissingDateFail() throws IOException {
        Verifier.ProbeReport stale = verify(Probe.JSP, head -> response(head, "", PAGE.render("2026-11-19"), 0, false));
        assertFailure(stale, "date slot holds 2026-11-19, expected today's date 2026-11-22");
        assertEquals(100, stale.urls());
        stop();
        Verifier.ProbeReport fixed = verify(Probe.SHTML, head -> response(head, "", PAGE.fixed(), 0, false));
        assertFailure(fixed, "date slot holds \"yyyy-mm-dd\"");
    }

    @Test
    void keepAliveOnHttp10Fails() throws IOException {
        Verifier.ProbeReport report = verify(Probe.STATIC, head -> response(head, "", PAGE.fixed(), 0, true));
        assertFailure(report, "HTTP/1.0 without keep-alive: the connection stayed open after the body");
    }

    @Test
    void bodyOnHeadFails() throws IOException {
        Verifier.ProbeReport report = verify(Probe.STATIC, head -> response("GET", "", PAGE.fixed(), 0, false));
        assertFailure(report, "HEAD response carries 6250 body bytes, expected none");
    }

    @Test
    void wrongStatusAndTypeFail() throws IOException {
        Verifier.ProbeReport notFound = verify(Probe.SERVLET,
                head -> "HTTP/1.0 404 Not Found\r\nContent-Length: 0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        assertFailure(notFound, "status 404");
        stop();
        Verifier.ProbeReport plain = verify(Probe.SERVLET, head -> response(head, "", PAGE.fixed(), 0, false, "text/plain"));
        assertFailure(plain, "Content-Type is \"text/plain\", expected text/html;charset=US-ASCII");
    }

    private Verifier.ProbeReport verify(Probe probe, Function<String, byte[]> responder) throws IOException {
        server = new FakeServer(responder);
        Verifier verifier = new Verifier(Endpoint.parse("http://127.0.0.1:" + server.port()), PAGE, TODAY, 500);
        return verifier.verify(probe);
    }

    private static void assertFailure(Verifier.ProbeReport report, String expected) {
        assertTrue(report.failures().stream().anyMatch(f -> f.message().contains(expected)),
                "expected a failure containing \"" + expected + "\", got " + report.failures());
    }

    private static byte[] response(String request, String extraHeaders, String body, int extraBytes, boolean keepOpen) {
        return response(request, extraHeaders, body, extraBytes, keepOpen, "text/html; charset=us-ascii");
    }

    /**
     * A response whose Content-Length is the body's, with no body for a HEAD request; {@code extraBytes}
     * more bytes follow the body; keepOpen holds the connection open after it.
     */
    private static byte[] response(String request, String extraHeaders, String body, int extraBytes, boolean keepOpen,
            String type) {
        String head = "HTTP/1.1 200 OK\r\nContent-Type: " + type + "\r\nContent-Length: " + body.length() + "\r\n"
                + extraHeaders + (keepOpen ? "X-Keep-Open: yes\r\n" : "") + "\r\n";
        String sent = request.startsWith("HEAD") ? "" : body + "z".repeat(extraBytes);
        return (head + sent).getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] chunked(String body) {
        String head = "HTTP/1.1 200 OK\r\nContent-Type: text/html;charset=US-ASCII\r\nTransfer-Encoding: chunked\r\n\r\n";
        String first = body.substring(0, 1000);
        String rest = body.substring(1000);
        String chunks = Integer.toHexString(first.length()) + "\r\n" + first + "\r\n"
                + Integer.toHexString(rest.length()) + ";ext=1\r\n" + rest + "\r\n0\r\n\r\n";
        return (head + chunks).getBytes(StandardCharsets.US_ASCII);
    }

    /** Answers each connection with the responder's bytes, then closes it (unless the response asks to stay open). */
    private static final class FakeServer implements AutoCloseable {
        private final ServerSocket socket;
        private final Thread thread;

        FakeServer(Function<String, byte[]> responder) throws IOException {
            socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            thread = new Thread(() -> {
                while (!socket.isClosed()) {
                    try {
                        Socket client = socket.accept();
                        Thread connection = new Thread(() -> answer(client, responder));
                        connection.setDaemon(true);
                        connection.start();
                    } catch (IOException e) {
                        // closed: the test is over
                    }
                }
            });
            thread.setDaemon(true);
            thread.start();
        }

        private static void answer(Socket client, Function<String, byte[]> responder) {
            try (client) {
                byte[] answer = responder.apply(readHead(client.getInputStream()));
                OutputStream out = client.getOutputStream();
                out.write(answer);
                out.flush();
                if (new String(answer, StandardCharsets.US_ASCII).contains("X-Keep-Open")) {
                    Thread.sleep(800);
                }
            } catch (IOException | InterruptedException e) {
                // the client went away
            }
        }

        int port() {
            return socket.getLocalPort();
        }

        private static String readHead(InputStream in) throws IOException {
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            for (int b; (b = in.read()) >= 0; ) {
                head.write(b);
                if (head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
                    break;
                }
            }
            return head.toString(StandardCharsets.US_ASCII);
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
