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
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.regex.Pattern;

import org.spice.bench.net.ResponseParser;
import org.spice.page.Probe;

/**
 * The bad-input check: requests a server must refuse (a 4xx, or closing the connection) without
 * breaking, sent to a SPICE deployment. Every exchange is bounded in time; everything goes to the base
 * URL's host only. After it, {@link Verifier} must still find the static probe byte-exact.
 */
public final class Hardening {

    /** What one bad request got, whether that is acceptable, and how long the server took. */
    public record Outcome(String what, String got, boolean passed, long millis) {
        /** Slow enough to say, even when refused (a server that waits for what never comes). */
        public boolean slow() {
            return millis > 1000;
        }

        @Override
        public String toString() {
            return (passed ? "ok    " : "FAIL  ") + what + ": " + got + (slow() ? " (after " + millis + " ms)" : "");
        }
    }

    /** An error page that gives away the server's version or a Java stack trace. */
    private static final Pattern TELLS_TOO_MUCH = Pattern.compile("Apache Tomcat/|Jetty://\\d|Apache/2\\.\\d|\\tat [a-z]+\\.");

    /** Methods a probe must refuse: every one but GET and HEAD, WebDAV's and made-up ones included. */
    static final List<String> METHODS = List.of("POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "PROPFIND",
            "MKCOL", "FOO");

    /**
     * The spellings under which a server might send a script probe's source instead of running it: PHP's source
     * highlighter (.phps), case, a trailing dot, slash or space, a NUL, PATH_INFO, editors' and Windows' leftovers, the
     * file names behind the WSGI, Lua, WebAssembly, Node.js and ASGI probes, and their directories.
     */
    static final Map<Probe, List<String>> SOURCE_SPELLINGS = Map.of(
            Probe.PHP_FPM, phpSpellings("/spice/php-fpm/"),
            Probe.MOD_PHP, phpSpellings("/spice/mod-php/"),
            Probe.WSGI, List.of("/spice/wsgi/spice.wsgi", "/spice/wsgi/spice.py", "/spice/wsgi/", "/spice/wsgi/spice.WSGI",
                    "/spice/wsgi/spice/../spice.wsgi", "/spice/runtimes/wsgi/spice.wsgi"),
            Probe.LUA, List.of("/spice/lua/spice.lua", "/spice/lua/spice_httpd.lua", "/spice/lua/spice_nginx.lua",
                    "/spice/lua/", "/spice/lua/SPICE", "/spice/runtimes/lua/spice_nginx.lua"),
            Probe.WASM, List.of("/spice/wasm/spice.wasm", "/spice/wasm/", "/spice/wasm/SPICE", "/spice/wasm/spice/",
                    "/spice/wasm/spice%00", "/spice/wasm/../wasm-kept/spice-kept.wasm", "/spice/spice.wasm"),
            Probe.WASM_KEPT, List.of("/spice/wasm-kept/spice-kept.wasm", "/spice/wasm-kept/spice.wasm",
                    "/spice/wasm-kept/", "/spice/wasm-kept/spice/", "/spice/wasm-kept/spice%00"),
            Probe.WSGI_HTTP, List.of("/spice/wsgi-http/spice.wsgi", "/spice/wsgi-http/", "/spice/wsgi-http/spice/"),
            Probe.NODE, List.of("/spice/node/spice.mjs", "/spice/node/spice.js", "/spice/node/", "/spice/node/spice/",
                    "/spice/node/SPICE", "/spice/runtimes/node/spice.mjs"),
            Probe.ASGI_UVICORN, asgiSpellings("/spice/asgi-uvicorn/"),
            Probe.ASGI_GRANIAN, asgiSpellings("/spice/asgi-granian/"));

    /** What a script probe's source holds and its page never does (a WebAssembly module begins with a NUL and "asm"). */
    private static final Pattern SOURCE = Pattern.compile("<\\?php|SPICE_PAGE|def application|start_response"
            + "|function handle|local PAGE|ngx\\.print|\\x00asm|createServer");

    private static List<String> asgiSpellings(String dir) {
        return List.of(dir + "spice_asgi.py", dir + "spice.py", dir, dir + "spice/", dir + "SPICE",
                dir + "__pycache__/", "/spice/runtimes/asgi/spice_asgi.py");
    }

    private static List<String> phpSpellings(String dir) {
        return List.of(dir + "spice.phps", dir + "spice.PHP", dir + "SPICE.php", dir + "spice.php.", dir + "spice.php/",
                dir + "spice.php%20", dir + "spice.php%00", dir + "spice.php%00.txt", dir + "spice.php/x.php",
                dir + "spice.php::$DATA", dir + "spice.php~", dir + "spice.php.bak", dir + ".spice.php.swp", dir,
                "/spice/runtimes/php/spice.php");
    }

    private final String host;
    private final int port;
    private final String prefix;
    private final int timeoutMillis;

    public Hardening(String host, int port, String prefix, int timeoutMillis) {
        this.host = host;
        this.port = port;
        this.prefix = prefix;
        this.timeoutMillis = timeoutMillis;
    }

    /** Every check against the given probes (those the server serves). */
    public List<Outcome> run(List<Probe> probes) throws InterruptedException {
        List<Outcome> outcomes = new ArrayList<>();
        String page = prefix + Probe.STATIC.path();
        // The body never sent waits out the server's read timeout (httpd's 10 s, Tomcat's 20 s) while the other checks
        // take a few seconds: on a connection of its own, it runs beside them.
        FutureTask<Outcome> neverSent = new FutureTask<>(() -> bodyNeverSent(page));
        Thread waiting = new Thread(neverSent, "spice-body-never-sent");
        waiting.setDaemon(true);
        waiting.start();
        refused(outcomes, "a request line that is not HTTP", "GARBAGE\r\n\r\n");
        refused(outcomes, "a request line without a target", "GET\r\n\r\n");
        refused(outcomes, "HTTP/0.9 (no version)", "GET " + page + "\r\n\r\n");
        refused(outcomes, "a malformed HTTP version", "GET " + page + " HTTP/1.x\r\nHost: x\r\n\r\n");
        refused(outcomes, "a 64 KiB header", "GET " + page + " HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(65536)
                + "\r\nConnection: close\r\n\r\n");
        refused(outcomes, "a 64 KiB URL", "GET " + page + "?" + "a".repeat(65536) + " HTTP/1.0\r\n\r\n");
        for (String path : List.of("/spice/static/../../../../../../etc/passwd", "/spice/static/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
                "/spice/static/..%2f..%2f..%2f..%2f..%2fetc/passwd", "/spice/static/%252e%252e/%252e%252e/etc/passwd",
                "/spice/static/..\\..\\..\\..\\etc\\passwd", "/spice/static/%2e%2e%5c%2e%2e%5cetc%5cpasswd",
                "/spice/jsp/..;/WEB-INF/web.xml", "/spice/jsp/..;/..;/etc/passwd",
                "/spice/WEB-INF/web.xml", "/spice/META-INF/context.xml", "/spice/WEB-INF/cgi/spice",
                "/spice/web-inf/web.xml", "/spice/jsp/", "/spice/jsp/spice00.jsp/", "/spice/", "/spice/static/",
                "/spice/shtml/", "/spice/cgi-bin/", "/spice/fileset/")) {
            refused(outcomes, "GET " + path, "GET " + prefix + path + " HTTP/1.0\r\n\r\n");
        }
        if (probes.contains(Probe.CGI)) {
            String cgi = prefix + Probe.CGI.path();
            answersThePage(outcomes, "shell metacharacters in the CGI query",
                    "GET " + cgi + "?;id|cat%20/etc/passwd%60id%60$(id) HTTP/1.0\r\n\r\n");
            answersThePage(outcomes, "an httpoxy Proxy header to the CGI probe",
                    "GET " + cgi + " HTTP/1.0\r\nProxy: http://127.0.0.1:1/\r\n\r\n");
        }
        for (Probe probe : probes) {
            for (String path : SOURCE_SPELLINGS.getOrDefault(probe, List.of())) {
                sourceHidden(outcomes, "GET " + path, "GET " + prefix + path + " HTTP/1.0\r\n\r\n");
            }
        }
        for (Probe probe : probes) {
            String path = prefix + probe.path();
            for (String method : METHODS) {
                String body = method.equals("POST") || method.equals("PUT") || method.equals("PATCH")
                        ? "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 3\r\n\r\na=1" : "\r\n";
                refused(outcomes, method + " " + probe.id(), method + " " + path + " HTTP/1.1\r\nHost: x\r\n"
                        + "Connection: close\r\n" + body);
            }
        }
        outcomes.add(outcome(neverSent));
        idleConnections(outcomes, page, 200);
        return outcomes;
    }

    /** Refused: a 4xx, or the connection closed without a response. Never a 2xx, 3xx or 5xx. */
    private void refused(List<Outcome> outcomes, String what, String request) {
        String got;
        boolean ok;
        long start = System.nanoTime();
        try {
            Reply reply = send(request, timeoutMillis);
            got = reply.describe();
            // 505 refuses a version the server does not speak (Jetty's answer to HTTP/0.9)
            ok = reply.status < 0 ? reply.closed : reply.clientError() || reply.status == 505;
            if (reply.text.contains("root:x:0:0") || reply.text.contains("<web-app")) {
                ok = false;
                got += ", and the body holds the file";
            }
            if (reply.text.contains("SPICE probe page")) {
                ok = false;   // served after all (an HTTP/0.9 reply has no status line to refuse with)
                got += ", and the body holds the probe page";
            }
            if (TELLS_TOO_MUCH.matcher(reply.text).find()) {
                ok = false;
                got += ", and the page shows a version or a stack trace";
            }
        } catch (IOException e) {
            got = "connection failed: " + e.getMessage();
            ok = true;   // refusing the connection refuses the request too
        }
        outcomes.add(new Outcome(what, got, ok, millisSince(start)));
    }

    /**
     * A path near a script probe: refused (4xx), or answered with the page (a server may map it to the probe), never
     * the script's source, never a server error.
     */
    private void sourceHidden(List<Outcome> outcomes, String what, String request) {
        long start = System.nanoTime();
        try {
            Reply reply = send(request, timeoutMillis);
            String got = reply.describe();
            boolean ok = reply.status < 0 ? reply.closed
                    : reply.clientError() || reply.status == 200 && reply.text.contains("SPICE probe page");
            if (SOURCE.matcher(reply.text).find()) {
                ok = false;
                got += ", and the body holds the script's source";
            }
            outcomes.add(new Outcome(what + " (no source)", got, ok, millisSince(start)));
        } catch (IOException e) {
            outcomes.add(new Outcome(what + " (no source)", "connection failed: " + e.getMessage(), true, millisSince(start)));
        }
    }

    /** Input the probe must ignore: it answers 200 with exactly the page, or refuses (4xx). */
    private void answersThePage(List<Outcome> outcomes, String what, String request) {
        long start = System.nanoTime();
        try {
            Reply reply = send(request, timeoutMillis);
            boolean ok = reply.clientError()
                    || reply.status == 200 && reply.text.contains("SPICE probe page") && !reply.text.contains("uid=");
            outcomes.add(new Outcome(what, reply.describe(), ok, millisSince(start)));
        } catch (IOException e) {
            outcomes.add(new Outcome(what, "connection failed: " + e.getMessage(), false, millisSince(start)));
        }
    }

    private static final String NEVER_SENT = "a body promised by Content-Length and never sent";

    /** A body promised by Content-Length and never sent: the server answers or closes within a bound. */
    private Outcome bodyNeverSent(String page) {
        int bound = Math.max(timeoutMillis, 25_000);
        long start = System.nanoTime();
        try {
            Reply reply = send("POST " + page + " HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\nabc", bound, true);
            boolean ok = reply.clientError() || reply.status < 0 && reply.closed;
            return new Outcome(NEVER_SENT, reply.describe(), ok, millisSince(start));
        } catch (SocketTimeoutException e) {
            return new Outcome(NEVER_SENT, "no answer and no close within " + bound + " ms", false, millisSince(start));
        } catch (IOException e) {
            return new Outcome(NEVER_SENT, e.getMessage(), true, millisSince(start));
        }
    }

    /** What the check running beside the others found, once it ends (it is bounded in time: {@link #bodyNeverSent}). */
    private static Outcome outcome(FutureTask<Outcome> check) throws InterruptedException {
        try {
            return check.get();
        } catch (ExecutionException e) {
            return new Outcome(NEVER_SENT, "the check failed: " + e.getCause(), false, 0);
        }
    }

    /** Idle connections held open must not stop the server from answering others. */
    private void idleConnections(List<Outcome> outcomes, String page, int count) throws InterruptedException {
        String what = count + " idle connections, then a GET";
        long start = System.nanoTime();
        List<Socket> idle = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                Socket socket = new Socket();
                socket.connect(new InetSocketAddress(host, port), timeoutMillis);
                idle.add(socket);
            }
            Thread.sleep(500);
            Reply reply = send("GET " + page + " HTTP/1.0\r\n\r\n", timeoutMillis);
            outcomes.add(new Outcome(what, reply.describe(), reply.status == 200, millisSince(start)));
        } catch (IOException e) {
            outcomes.add(new Outcome(what, e.getMessage(), false, millisSince(start)));
        } finally {
            for (Socket socket : idle) {
                try {
                    socket.close();
                } catch (IOException e) {
                    // closing is best effort
                }
            }
        }
    }

    private static long millisSince(long start) {
        return (System.nanoTime() - start) / 1_000_000;
    }

    private record Reply(int status, String statusLine, String text, boolean closed) {
        boolean clientError() {
            return status >= 400 && status < 500;
        }

        String describe() {
            return status < 0 ? (closed ? "closed without a response" : "no response") : statusLine;
        }
    }

    private Reply send(String request, int readTimeoutMillis) throws IOException {
        return send(request, readTimeoutMillis, false);
    }

    /**
     * Sends raw bytes and reads what comes back until the close, the read timeout, or 256 KiB; with
     * {@code headOnly}, until the end of the response head (a server may keep the connection to swallow
     * the body it was promised).
     */
    private Reply send(String request, int readTimeoutMillis, boolean headOnly) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), timeoutMillis);
            socket.setSoTimeout(readTimeoutMillis);
            OutputStream out = socket.getOutputStream();
            try {
                out.write(request.getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
            } catch (IOException e) {
                // the server may close on the first bytes of a bad request: read what it said
            }
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[262_144];
            int total = 0;
            boolean closed = false;
            try {
                int n = 0;
                while (total < buffer.length && (n = in.read(buffer, total, buffer.length - total)) >= 0) {
                    total += n;
                    if (headOnly && new String(buffer, 0, total, StandardCharsets.ISO_8859_1).contains("\r\n\r\n")) {
                        break;
                    }
                }
                closed = n < 0;
            } catch (SocketTimeoutException e) {
                if (total == 0) {
                    throw e;
                }
            } catch (IOException e) {
                closed = true;   // a reset: closed
            }
            // The engine's and verify's own reader parses the head: one HTTP response reader in the harness.
            ResponseParser parser = new ResponseParser();
            parser.reset(-1);
            parser.feed(buffer, 0, total);
            String statusLine = parser.statusLine();
            return new Reply(parser.status(), statusLine.isEmpty() ? "(no status line)" : statusLine,
                    new String(buffer, 0, total, StandardCharsets.ISO_8859_1), closed);
        }
    }
}
