package org.spice.verify;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.http2.ErrorCode;
import org.eclipse.jetty.http2.hpack.HpackDecoder;
import org.eclipse.jetty.http2.hpack.HpackEncoder;
import org.eclipse.jetty.http2.hpack.HpackException;
import org.spice.bench.net.Endpoint;
import org.spice.bench.net.TlsConfig;

/**
 * One HTTP/2 connection at the frame level, for what a server must refuse ({@link Http2Hardening}): frames go out as
 * written, whatever the protocol says of them; the server's are read by a thread of their own into a queue, so that a
 * flood the server answers cannot block both sides' writes. Header blocks are coded by Jetty's HPACK.
 */
final class RawH2 implements AutoCloseable {

    static final int DATA = 0x0;
    static final int HEADERS = 0x1;
    static final int RST_STREAM = 0x3;
    static final int SETTINGS = 0x4;
    static final int PING = 0x6;
    static final int GOAWAY = 0x7;
    static final int CONTINUATION = 0x9;
    static final int END_STREAM = 0x1;
    static final int ACK = 0x1;
    static final int END_HEADERS = 0x4;
    /** SETTINGS_MAX_CONCURRENT_STREAMS. */
    static final int MAX_CONCURRENT_STREAMS = 0x3;
    /** SETTINGS_INITIAL_WINDOW_SIZE. */
    static final int INITIAL_WINDOW_SIZE = 0x4;

    private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    /** A frame as it came; {@link #END} marks the connection's end. */
    record Frame(int type, int flags, int stream, byte[] payload) {
        static final Frame END = new Frame(-1, 0, 0, new byte[0]);

        boolean has(int flag) {
            return (flags & flag) != 0;
        }

        /** A GOAWAY's or RST_STREAM's error code. */
        int errorCode() {
            ByteBuffer buffer = ByteBuffer.wrap(payload);
            return type == GOAWAY ? buffer.getInt(4) : buffer.getInt(0);
        }

        /** Its error code's name, or the code in hex where it is none of HTTP/2's (httpd sent nghttp2's -904). */
        String error() {
            return ErrorCode.toString(errorCode(), String.format("error 0x%08x", errorCode()));
        }
    }

    private final Endpoint base;
    private final Socket socket;
    private final OutputStream out;
    private final BlockingQueue<Frame> frames = new LinkedBlockingQueue<>();
    private final HpackEncoder encoder = new HpackEncoder();
    private final HpackDecoder decoder = new HpackDecoder(1 << 20, System::nanoTime);
    private final byte[] serverSettings;

    /**
     * Connects (TLS with ALPN h2 for an https:// base), sends the preface and SETTINGS, starts reading, and waits for
     * the server's SETTINGS: anything else first is no HTTP/2.
     *
     * @param windowZero SETTINGS_INITIAL_WINDOW_SIZE 0: the server can send no DATA, so no response ends and every
     *                   stream stays open
     */
    RawH2(Endpoint base, TlsConfig tls, int timeoutMillis, boolean windowZero) throws IOException {
        this.base = base;
        Socket plain = new Socket();
        plain.connect(base.address(), timeoutMillis);
        if (base.tls()) {
            SSLSocket secure = tls.wrap(plain, base.host(), base.port());
            SSLParameters parameters = secure.getSSLParameters();
            parameters.setApplicationProtocols(new String[] {"h2"});
            secure.setSSLParameters(parameters);
            secure.startHandshake();
            if (!"h2".equals(secure.getApplicationProtocol())) {
                secure.close();
                throw new IOException("the server did not choose h2 by ALPN");
            }
            socket = secure;
        } else {
            socket = plain;
        }
        out = socket.getOutputStream();
        out.write(PREFACE);
        send(SETTINGS, 0, 0, windowZero ? ByteBuffer.allocate(6).putShort((short) INITIAL_WINDOW_SIZE).putInt(0).array()
                : new byte[0]);
        encoder.setMaxHeaderListSize(Integer.MAX_VALUE);
        Thread reader = new Thread(this::readAll, "spice-verify-h2-reader");
        reader.setDaemon(true);
        reader.start();
        Frame first;
        try {
            first = next(timeoutMillis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            first = null;
        }
        if (first == null || first.type() != SETTINGS || first.has(ACK)) {
            socket.close();
            throw new IOException("no HTTP/2 here: the server did not answer the connection preface with its SETTINGS");
        }
        serverSettings = first.payload();
    }

    /** The payload of the server's first SETTINGS frame. */
    byte[] serverSettings() {
        return serverSettings;
    }

    /** Reads frames to the connection's end; the socket stays open for writing until {@link #close}. */
    private void readAll() {
        try {
            InputStream in = socket.getInputStream();
            byte[] head = new byte[9];
            while (in.readNBytes(head, 0, 9) == 9) {
                int length = (head[0] & 0xff) << 16 | (head[1] & 0xff) << 8 | head[2] & 0xff;
                int stream = ByteBuffer.wrap(head, 5, 4).getInt() & 0x7fffffff;
                byte[] payload = in.readNBytes(length);
                if (payload.length < length) {
                    break;
                }
                if (head[3] == SETTINGS && (head[4] & ACK) == 0) {
                    send(SETTINGS, ACK, 0, new byte[0]);
                }
                frames.add(new Frame(head[3], head[4] & 0xff, stream, payload));
            }
        } catch (IOException e) {
            // the connection's end, whichever side ended it
        }
        frames.add(Frame.END);
    }

    /** Writes one frame as given. */
    synchronized void send(int type, int flags, int stream, byte[] payload) throws IOException {
        byte[] frame = new byte[9 + payload.length];
        frame[0] = (byte) (payload.length >>> 16);
        frame[1] = (byte) (payload.length >>> 8);
        frame[2] = (byte) payload.length;
        frame[3] = (byte) type;
        frame[4] = (byte) flags;
        ByteBuffer.wrap(frame, 5, 4).putInt(stream);
        System.arraycopy(payload, 0, frame, 9, payload.length);
        out.write(frame);
    }

    /** The URI of {@code pathQuery} on {@code base}: its scheme and authority are a request's pseudo-headers. */
    static HttpURI uri(Endpoint base, String pathQuery) {
        return HttpURI.build().scheme(base.tls() ? "https" : "http").host(base.host()).port(base.port())
                .pathQuery(pathQuery);
    }

    /** A GET of {@code path} with {@code fields} besides, as one HPACK header block. */
    byte[] request(String path, HttpFields fields) throws HpackException {
        HttpURI uri = uri(base, path);
        ByteBuffer block = ByteBuffer.allocate(4 << 20);
        encoder.encode(block, new MetaData.Request("GET", uri, HttpVersion.HTTP_2, fields));
        block.flip();
        byte[] bytes = new byte[block.remaining()];
        block.get(bytes);
        return bytes;
    }

    /** The status of a response's header block, or -1 where it does not decode (a trailer, a broken block). */
    int status(byte[] block) {
        try {
            MetaData decoded = decoder.decode(ByteBuffer.wrap(block));
            return decoded instanceof MetaData.Response response ? response.getStatus() : -1;
        } catch (HpackException e) {
            return -1;
        }
    }

    /**
     * What the server sent before the connection ended, where a write failed: its GOAWAY, or the close alone.
     */
    String endSeen(long timeoutMillis) throws InterruptedException {
        for (Frame frame = next(timeoutMillis); frame != null && frame != Frame.END; frame = next(timeoutMillis)) {
            if (frame.type() == GOAWAY) {
                return "GOAWAY " + frame.error() + ", then";
            }
        }
        return "";
    }

    /** The next frame the server sent, {@link Frame#END} at the connection's end, null if none came in time. */
    Frame next(long timeoutMillis) throws InterruptedException {
        return frames.poll(timeoutMillis, TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
