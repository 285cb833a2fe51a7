package org.spice.verify;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.spice.bench.net.Endpoint;
import org.spice.bench.net.ResponseParser;
import org.spice.bench.net.TlsConfig;
import org.spice.page.CanonicalPage;
import org.spice.page.Probe;

/**
 * The conformance check: every probe of a deployment answers the canonical page, byte for byte, over
 * HTTP/1.0 and HTTP/1.1, for GET and HEAD. Works against any server: the expected page is rendered
 * here from the same code the build uses, so no build output is needed.
 */
public final class Verifier {

    /** One request verify sends to every URL, and the reply it checks. */
    enum Reply {
        GET_10("GET", "HTTP/1.0", ""), GET_11("GET", "HTTP/1.1", ""), HEAD_10("HEAD", "HTTP/1.0", ""),
        HEAD_11("HEAD", "HTTP/1.1", ""),
        /** Load tools add cache-busting queries: every probe must answer the page whatever the query string. */
        GET_QUERY("GET", "HTTP/1.0", "?spice=1&t=2");

        final String method;
        final String version;
        final String query;

        Reply(String method, String version, String query) {
            this.method = method;
            this.version = version;
            this.query = query;
        }

        boolean head() {
            return method.equals("HEAD");
        }

        boolean http10() {
            return version.equals("HTTP/1.0");
        }

        @Override
        public String toString() {
            return method + " " + version + (query.isEmpty() ? "" : " with a query string");
        }
    }

    /** A check that did not hold: where, and exactly what differed. */
    public record Failure(String path, String reply, String message) {
        @Override
        public String toString() {
            return reply + " " + path + ": " + message;
        }
    }

    /** The outcome for one probe. */
    public record ProbeReport(Probe probe, int urls, int requests, List<Failure> failures) {
        public boolean passed() {
            return failures.isEmpty();
        }
    }

    private final Endpoint base;
    private final CanonicalPage page;
    private final LocalDate today;
    private final int timeoutMillis;
    private final TlsConfig tls;

    /**
     * @param base   the server, e.g. {@code http://127.0.0.1:18080}; a path in it prefixes every probe path
     * @param page   the page every probe must return
     * @param today  the date the JSP and SHTML probes must insert (the day before or after is accepted too,
     *               as the server's clock or time zone may already be on the other side of midnight)
     */
    public Verifier(Endpoint base, CanonicalPage page, LocalDate today, int timeoutMillis) {
        this(base, page, today, timeoutMillis, null);
    }

    /** @param tls the TLS settings for an https:// base URL (trusting the server's certificate), else null */
    public Verifier(Endpoint base, CanonicalPage page, LocalDate today, int timeoutMillis, TlsConfig tls) {
        if (base.tls() && tls == null) {
            throw new IllegalArgumentException("an https:// base URL needs the certificate to trust (--trust-cert FILE)");
        }
        this.base = base;
        this.tls = base.tls() ? tls : null;
        this.page = page;
        this.today = today;
        this.timeoutMillis = timeoutMillis;
    }

    public String host() {
        return base.host();
    }

    public int port() {
        return base.port();
    }

    /** The base URL's path, which prefixes every probe path ("" for none). */
    public String prefix() {
        return base.prefix();
    }

    /** Checks every URL of {@code probe} with every reply. */
    public ProbeReport verify(Probe probe) {
        List<Failure> failures = new ArrayList<>();
        List<String> paths = probe.paths();
        int requests = 0;
        for (String path : paths) {
            for (Reply reply : Reply.values()) {
                requests++;
                String url = base.prefix() + path;
                try {
                    RawHttp.Response response = RawHttp.exchange(base.host(), base.port(), tls, request(reply, url), reply.head(),
                            reply.http10() || reply.head(), timeoutMillis);
                    for (String problem : check(probe, reply, response)) {
                        failures.add(new Failure(url, reply.toString(), problem));
                    }
                } catch (IOException e) {
                    failures.add(new Failure(url, reply.toString(), describe(e)));
                }
            }
        }
        return new ProbeReport(probe, paths.size(), requests, failures);
    }

    /**
     * One HTTP/1.0 GET of the probe's first URL, checked as {@link #verify} checks it: null if it is the page byte for
     * byte, else what differed or failed. Cheap enough to ask a server that has just been flooded whether it is back.
     */
    public String exactGet(Probe probe) {
        String url = base.prefix() + probe.paths().get(0);
        try {
            RawHttp.Response response = RawHttp.exchange(base.host(), base.port(), tls, request(Reply.GET_10, url), false,
                    true, timeoutMillis);
            List<String> problems = check(probe, Reply.GET_10, response);
            return problems.isEmpty() ? null : url + ": " + String.join("; ", problems);
        } catch (IOException e) {
            return url + ": " + describe(e);
        }
    }

    private String request(Reply reply, String path) {
        StringBuilder request = new StringBuilder(128);
        request.append(reply.method).append(' ').append(path).append(reply.query).append(' ')
                .append(reply.version).append("\r\n");
        request.append("Host: ").append(base.host()).append(':').append(base.port()).append("\r\n");
        request.append("User-Agent: spice-verify\r\n");
        if (!reply.http10() && reply.head()) {
            // A HEAD response has no body to frame, so ask for the close that marks its end.
            request.append("Connection: close\r\n");
        }
        return request.append("\r\n").toString();
    }

    /** Every way the response differs from what the probe must answer; empty when it conforms. */
    List<String> check(Probe probe, Reply reply, RawHttp.Response response) {
        List<String> problems = new ArrayList<>();
        if (response.statusCode() != 200) {
            problems.add("status " + response.statusCode() + " (\"" + response.statusLine() + "\"), expected 200");
            return problems;
        }
        checkHeaders(response.header("Content-Type"), response.headerValues("Set-Cookie"), problems);
        if (reply.head()) {
            if (response.trailingBytes() > 0) {
                problems.add("HEAD response carries " + response.trailingBytes() + " body bytes, expected none");
            }
            if (!response.closedAfterBody()) {
                problems.add("the connection stayed open after the HEAD response");
            }
            return problems;
        }
        if (reply.http10()) {
            if (response.trailingBytes() > 0) {
                problems.add(response.trailingBytes() + " bytes after the " + response.body().length
                        + "-byte body, before the connection closed");
            }
            if (!response.closedAfterBody()) {
                problems.add("HTTP/1.0 without keep-alive: the connection stayed open after the body");
            }
        } else if (response.framing() == ResponseParser.Framing.CLOSE && response.header("Connection") == null) {
            problems.add("HTTP/1.1 body delimited by closing the connection without Connection: close");
        }
        String contentLength = response.header("Content-Length");
        if (contentLength != null && response.framing() == ResponseParser.Framing.CONTENT_LENGTH
                && !contentLength.trim().equals(Integer.toString(page.bytes()))) {
            problems.add("Content-Length is " + contentLength.trim() + ", expected " + page.bytes());
        }
        String bodyProblem = compareBody(probe, response.body());
        if (bodyProblem != null) {
            problems.add(bodyProblem);
        }
        return problems;
    }

    /** The heads' rules of every probe, over any protocol: the one Content-Type, no cookie. */
    static void checkHeaders(String contentType, List<String> cookies, List<String> problems) {
        if (contentType == null || !normalized(contentType).equals(normalized(CanonicalPage.CONTENT_TYPE))) {
            problems.add("Content-Type is " + (contentType == null ? "missing" : "\"" + contentType + "\"")
                    + ", expected " + CanonicalPage.CONTENT_TYPE + " (one Content-Type on every server)");
        }
        if (!cookies.isEmpty()) {
            problems.add("sets a cookie (" + cookies + "): a probe must not create a session");
        }
    }

    /** A media type as compared: case and blanks do not matter. */
    private static String normalized(String mediaType) {
        return mediaType.replace(" ", "").replace("\"", "").toLowerCase(Locale.ROOT);
    }

    /** Null if {@code body} is the canonical page (with a valid date for a dated probe), else what differs. */
    String compareBody(Probe probe, byte[] body) {
        String slot = CanonicalPage.FIXED_SLOT;
        int slotAt = page.slotOffset();
        if (probe.dated() && body.length >= slotAt + CanonicalPage.SLOT_LENGTH) {
            slot = new String(body, slotAt, CanonicalPage.SLOT_LENGTH, StandardCharsets.ISO_8859_1);
            String dateProblem = checkDate(slot);
            if (dateProblem != null) {
                return dateProblem;
            }
        }
        byte[] expected = page.render(slot).getBytes(StandardCharsets.US_ASCII);
        int differsAt = firstDifference(expected, body);
        if (differsAt < 0) {
            return null;
        }
        StringBuilder message = new StringBuilder();
        if (body.length != expected.length) {
            message.append("body is ").append(body.length).append(" bytes, expected ").append(expected.length).append("; ");
        }
        message.append("first differing byte at offset ").append(differsAt)
                .append(": expected ").append(window(expected, differsAt))
                .append(", got ").append(window(body, differsAt));
        return message.toString();
    }

    private String checkDate(String slot) {
        try {
            LocalDate date = LocalDate.parse(slot);
            if (Math.abs(date.toEpochDay() - today.toEpochDay()) > 1) {
                return "date slot holds " + slot + ", expected today's date " + today;
            }
            return null;
        } catch (DateTimeParseException e) {
            return "date slot holds \"" + escape(slot) + "\", expected today's date " + today + " (yyyy-mm-dd)";
        }
    }

    /** Offset of the first byte where the two differ (the shorter length if one is a prefix of the other), or -1. */
    static int firstDifference(byte[] expected, byte[] actual) {
        int common = Math.min(expected.length, actual.length);
        for (int i = 0; i < common; i++) {
            if (expected[i] != actual[i]) {
                return i;
            }
        }
        return expected.length == actual.length ? -1 : common;
    }

    /** Up to 24 bytes around {@code offset}, quoted and escaped, or "end of body". */
    private static String window(byte[] bytes, int offset) {
        if (offset >= bytes.length) {
            return "end of body";
        }
        int from = Math.max(0, offset - 8);
        int to = Math.min(bytes.length, offset + 16);
        return "\"" + (from > 0 ? "..." : "") + escape(new String(bytes, from, to - from, StandardCharsets.ISO_8859_1))
                + (to < bytes.length ? "..." : "") + "\"";
    }

    private static String escape(String text) {
        StringBuilder out = new StringBuilder();
        for (char c : text.toCharArray()) {
            if (c == '\n') {
                out.append("\\n");
            } else if (c == '\r') {
                out.append("\\r");
            } else if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20 || c >= 0x7f) {
                out.append(String.format("\\x%02x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static String describe(IOException e) {
        String kind = e.getClass().getSimpleName();
        return switch (kind) {
            case "ConnectException" -> "cannot connect: " + e.getMessage();
            case "SocketTimeoutException" -> "no complete response within the timeout";
            default -> e.getMessage() == null ? kind : e.getMessage();
        };
    }
}
