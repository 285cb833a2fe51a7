package org.spice.bench.net;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;


/**
 * A small HTTP server for the tests, on 127.0.0.1 and a free port: one thread per connection, and a
 * handler that decides per request what to send, including the faults the engine must classify.
 * HTTP/1.1 requests keep the connection open unless the handler closes it.
 */
public final class TestServer implements AutoCloseable {

    /** What the server does with one request. Return false to close the connection afterwards. */
    public interface Handler {
        boolean handle(String head, Socket socket, OutputStream out) throws IOException, InterruptedException;
    }

    private final ServerSocket server;
    private final Handler handler;
    private final AtomicLong connections = new AtomicLong();
    private volatile boolean closed;

    public TestServer(Handler handler) throws IOException {
        this(new ServerSocket(0, 500, InetAddress.getLoopbackAddress()), handler);
    }

    /** On a given listening socket, e.g. a TLS one. */
    public TestServer(ServerSocket server, Handler handler) {
        this.handler = handler;
        this.server = server;
        Thread acceptor = new Thread(this::accept, "test-server-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public int port() {
        return server.getLocalPort();
    }

    public String url() {
        return "http://127.0.0.1:" + port();
    }

    public long connections() {
        return connections.get();
    }

    /** Stops accepting: later connections are refused. */
    @Override
    public void close() throws IOException {
        closed = true;
        server.close();
    }

    private void accept() {
        while (!closed) {
            try {
                Socket socket = server.accept();
                connections.incrementAndGet();
                Thread thread = new Thread(() -> serve(socket), "test-server-conn");
                thread.setDaemon(true);
                thread.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket socket) {
        try (socket) {
            socket.setTcpNoDelay(true);
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            while (true) {
                String head = readHead(in);
                if (head == null) {
                    return;
                }
                boolean keep = handler.handle(head, socket, out) && head.contains("HTTP/1.1");
                out.flush();
                if (!keep || socket.isClosed()) {
                    return;
                }
            }
        } catch (IOException | InterruptedException e) {
            // the client went away or a fault was injected; either way this connection is done
        }
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        int b;
        while ((b = in.read()) >= 0) {
            head.write(b);
            matched = b == "\r\n\r\n".charAt(matched) ? matched + 1 : b == '\r' ? 1 : 0;
            if (matched == 4) {
                return head.toString(StandardCharsets.US_ASCII);
            }
        }
        return null;
    }

    /** The path of a request head. */
    /**
     * A server that commits the fault its path names, for the tests of both engines' exchanges:
     * /ok, /chunked, /close-delimited, /short, /long, /extra (bytes after the declared end), /truncated,
     * /missing (404), /drop (close without a byte), /reset (close with RST), /slow (1.5 s), /open (a complete
     * HTTP/1.0 response, then the connection held 1.5 s), /once (kept by HTTP/1.1's default, then closed).
     */
    public static Handler faults(int size) {
        return (head, socket, out) -> {
            switch (path(head)) {
                case "/ok" -> respond(out, 200, size, size);
                case "/chunked" -> respondChunked(out, size, 1000);
                case "/close-delimited" -> {
                    respondCloseDelimited(out, size);
                    return false;   // the close is what ends the body
                }
                case "/short" -> respond(out, 200, size - 1, size - 1);
                case "/long" -> respond(out, 200, size + 1, size + 1);
                case "/extra" -> respond(out, 200, size, size + 50);
                case "/truncated" -> {
                    respond(out, 200, size, 3000);
                    return false;
                }
                case "/missing" -> respond(out, 404, size, size);
                case "/drop" -> {
                    return false;
                }
                case "/reset" -> {
                    socket.setSoLinger(true, 0);
                    socket.close();
                    return false;
                }
                case "/slow" -> Thread.sleep(1500);
                case "/open" -> {
                    respond(out, 200, size, size);
                    out.flush();
                    Thread.sleep(1500);
                }
                case "/once" -> {
                    respond(out, 200, size, size);
                    return false;
                }
                default -> respond(out, 500, 0, 0);
            }
            return true;
        };
    }

    /** The error class each fault of {@link #faults} must land in, whatever engine meets it. */
    public static final Map<String, ErrorClass> FAULT_CLASSES = faultClasses();

    private static Map<String, ErrorClass> faultClasses() {
        Map<String, ErrorClass> classes = new LinkedHashMap<>();
        classes.put("/short", ErrorClass.SHORT_BODY);
        classes.put("/truncated", ErrorClass.SHORT_BODY);
        classes.put("/long", ErrorClass.LONG_BODY);
        classes.put("/extra", ErrorClass.LONG_BODY);
        classes.put("/missing", ErrorClass.STATUS);
        classes.put("/drop", ErrorClass.CLOSED_EARLY);
        classes.put("/reset", ErrorClass.RESET);
        classes.put("/slow", ErrorClass.TIMEOUT);
        return Collections.unmodifiableMap(classes);
    }

    /** A port of 127.0.0.1 that nothing listens on (it was free a moment ago): connections are refused. */
    public static int unusedPort() throws IOException {
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return free.getLocalPort();
        }
    }

    public static String path(String head) {
        String[] parts = head.split(" ", 3);
        return parts.length > 1 ? parts[1] : "";
    }

    /** A response with Content-Length {@code declared} and {@code sent} body bytes. */
    public static void respond(OutputStream out, int status, int declared, int sent) throws IOException {
        String head = "HTTP/1.1 " + status + " X\r\nContent-Type: text/html\r\nContent-Length: " + declared + "\r\n\r\n";
        out.write(head.getBytes(StandardCharsets.US_ASCII));
        out.write(body(sent));
    }

    /** A chunked response carrying {@code size} body bytes in chunks of at most {@code chunk}. */
    public static void respondChunked(OutputStream out, int size, int chunk) throws IOException {
        out.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        for (int done = 0; done < size; done += chunk) {
            int n = Math.min(chunk, size - done);
            out.write((Integer.toHexString(n) + ";ext=1\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(body(n));
            out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        out.write("0\r\nX-Trailer: 1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
    }

    /** An HTTP/1.0 response without Content-Length: the body ends when the server closes. */
    public static void respondCloseDelimited(OutputStream out, int size) throws IOException {
        out.write("HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        out.write(body(size));
    }

    private static byte[] body(int size) {
        byte[] body = new byte[size];
        Arrays.fill(body, (byte) 'x');
        return body;
    }
}
