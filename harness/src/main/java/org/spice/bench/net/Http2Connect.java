package org.spice.bench.net;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.eclipse.jetty.http2.ErrorCode;
import org.eclipse.jetty.http2.api.Session;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.frames.GoAwayFrame;
import org.eclipse.jetty.http2.frames.SettingsFrame;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * An HTTP/2 connection through Jetty's client that is ready for streams: its server has answered the preface with its
 * SETTINGS. An HTTP/1 server answers the preface with an HTTP/1 error, or not at all; that is said once, as
 * {@link NoSettings}, rather than as a frame error of every request. verify's checks and bench's HTTP/2 arms connect
 * so.
 */
public final class Http2Connect {

    /** The connection was made, and the server did not answer the preface with its SETTINGS. */
    public static final class NoSettings extends IOException {
        NoSettings(Throwable cause) {
            super(cause instanceof java.util.concurrent.TimeoutException ? "none within the timeout"
                    : String.valueOf(cause.getMessage()), cause);
        }
    }

    private Http2Connect() {
    }

    /**
     * A connection to {@code endpoint} (over TLS with {@code ssl}, chosen by ALPN; else h2c with prior knowledge),
     * completed once its SETTINGS came within {@code timeoutMillis}; else failed: with the connection's own failure,
     * or {@link NoSettings} where the connection was made (and is then closed).
     */
    public static CompletableFuture<Session> ready(HTTP2Client client, SslContextFactory.Client ssl, Endpoint endpoint,
            long timeoutMillis) {
        CompletableFuture<Session> settings = new CompletableFuture<>();
        Session.Listener listener = new Session.Listener() {
            @Override
            public void onSettings(Session session, SettingsFrame frame) {
                settings.complete(session);
            }

            @Override
            public void onClose(Session session, GoAwayFrame frame, Callback callback) {
                settings.completeExceptionally(new IOException("the server closed the connection"));
                callback.succeeded();
            }

            @Override
            public void onFailure(Session session, Throwable failure, Callback callback) {
                settings.completeExceptionally(failure);
                callback.succeeded();
            }
        };
        CompletableFuture<Session> connected = ssl == null ? client.connect(endpoint.address(), listener)
                : client.connect(ssl, endpoint.address(), listener);
        CompletableFuture<Session> ready = new CompletableFuture<>();
        connected.whenComplete((session, failure) -> {
            if (failure != null) {
                ready.completeExceptionally(failure);
            }
        });
        settings.orTimeout(timeoutMillis, TimeUnit.MILLISECONDS).whenComplete((session, failure) -> {
            if (failure == null) {
                ready.complete(session);
            } else if (connected.isDone() && !connected.isCompletedExceptionally()) {
                connected.join().close(ErrorCode.NO_ERROR.code, "no settings", Callback.NOOP);
                ready.completeExceptionally(new NoSettings(failure));
            } else {
                ready.completeExceptionally(failure);
            }
        });
        return ready;
    }
}
