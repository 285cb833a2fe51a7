package org.spice.bench.net;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;

/**
 * TLS on one non-blocking connection of the event loop: JSSE's SSLEngine between the channel and the
 * exchange. Records from the network collect in {@code netIn} until whole; records for the network wait in
 * {@code netOut} until the socket takes them. Both buffers stay in fill mode between calls. Delegated
 * tasks (certificate checks) run inline on the loop's thread: a full handshake per connection is exactly
 * the cost the TLS workload measures, and it is the client's.
 */
final class TlsSession {

    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    private final SSLEngine engine;
    private final ByteBuffer netIn;
    private final ByteBuffer netOut;
    private boolean closed;
    private boolean started;

    TlsSession(SSLEngine engine) {
        this.engine = engine;
        int packet = engine.getSession().getPacketBufferSize();
        this.netIn = ByteBuffer.allocate(packet);
        this.netOut = ByteBuffer.allocate(packet);
    }

    /**
     * Advances the handshake as far as the socket allows.
     *
     * @param scratch where application data would go (none is expected before the request)
     * @return 0 once the handshake is complete, else the selector interest it waits for
     */
    int handshake(SocketChannel channel, ByteBuffer scratch) throws IOException {
        if (!started) {
            started = true;
            engine.beginHandshake();
        }
        while (true) {
            if (!flush(channel)) {
                return SelectionKey.OP_WRITE;
            }
            switch (engine.getHandshakeStatus()) {
                case NEED_TASK -> runTasks();
                case NEED_WRAP -> wrap(EMPTY);
                case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
                    scratch.clear();
                    int n = unwrap(channel, scratch);
                    if (n < 0) {
                        throw new EOFException("the server closed the connection during the TLS handshake");
                    }
                    if (n == 0 && engine.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NEED_UNWRAP
                            && netIn.position() == 0) {
                        return SelectionKey.OP_READ;
                    }
                }
                default -> {
                    return 0;   // FINISHED or NOT_HANDSHAKING
                }
            }
        }
    }

    /** Encrypts all of {@code data} and sends what the socket takes; false if records are still waiting to go. */
    boolean write(SocketChannel channel, ByteBuffer data) throws IOException {
        while (data.hasRemaining()) {
            wrap(data);
        }
        return flush(channel);
    }

    /** Sends records still waiting; true when none is left. */
    boolean flush(SocketChannel channel) throws IOException {
        if (netOut.position() == 0) {
            return true;
        }
        netOut.flip();
        try {
            channel.write(netOut);
            return !netOut.hasRemaining();
        } finally {
            netOut.compact();
        }
    }

    /**
     * Decrypts into {@code app} (cleared by the caller, longer than a record's plaintext).
     *
     * @return the bytes of application data now in {@code app}; 0 if more must arrive first; -1 once the
     *         server has closed (close_notify, or the TCP close) and nothing is left
     */
    int read(SocketChannel channel, ByteBuffer app) throws IOException {
        return unwrap(channel, app);
    }

    /** Says close_notify as far as the socket takes it at once; the caller then closes the channel. */
    void close(SocketChannel channel) {
        try {
            engine.closeOutbound();
            wrap(EMPTY);
            flush(channel);
        } catch (IOException e) {
            // best effort: the connection is being closed either way
        }
    }

    private int unwrap(SocketChannel channel, ByteBuffer app) throws IOException {
        while (true) {
            if (netIn.position() > 0 && !closed) {
                netIn.flip();
                SSLEngineResult result;
                try {
                    result = engine.unwrap(netIn, app);
                } finally {
                    netIn.compact();
                }
                if (result.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NEED_TASK) {
                    runTasks();
                }
                switch (result.getStatus()) {
                    case OK -> {
                        if (app.position() > 0 || engine.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NEED_WRAP) {
                            return app.position();
                        }
                        if (result.bytesConsumed() > 0) {
                            continue;   // a record without data (a session ticket, a key update): look at the next
                        }
                    }
                    case CLOSED -> {
                        closed = true;
                        return app.position() > 0 ? app.position() : -1;
                    }
                    case BUFFER_OVERFLOW -> {
                        if (app.position() > 0) {
                            return app.position();
                        }
                        throw new SSLException("the application buffer is smaller than a TLS record");
                    }
                    case BUFFER_UNDERFLOW -> { }   // a record is not complete yet: read more below
                }
            }
            if (closed) {
                return -1;
            }
            int n = channel.read(netIn);
            if (n < 0) {
                closed = true;
                return app.position() > 0 ? app.position() : -1;
            }
            if (n == 0) {
                return app.position();
            }
        }
    }

    private void wrap(ByteBuffer data) throws IOException {
        SSLEngineResult result = engine.wrap(data, netOut);
        switch (result.getStatus()) {
            case OK -> { }
            case CLOSED -> {
                if (!engine.isOutboundDone() || data.hasRemaining()) {
                    throw new SSLException("the TLS connection is closed");
                }
            }
            default -> throw new SSLException("cannot wrap a TLS record: " + result.getStatus());
        }
        if (result.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NEED_TASK) {
            runTasks();
        }
    }

    private void runTasks() {
        for (Runnable task; (task = engine.getDelegatedTask()) != null; ) {
            task.run();
        }
    }
}
