package org.spice.bench.net;

import java.io.EOFException;
import java.io.IOException;
import java.net.BindException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.util.Locale;
import javax.net.ssl.SSLException;

/**
 * Why a request did not count. Every failed request lands in exactly one class, so the report can say
 * "the server refused connections" apart from "the server sent the wrong bytes".
 */
public enum ErrorClass {
    /** The server's port refused the connection (nothing listening, or the accept queue overflowed with RST). */
    CONNECT_REFUSED,
    /**
     * The client ran out of local ports (EADDRNOTAVAIL) or of file descriptors (EMFILE: the JDK frees a closed
     * channel's descriptor only at its selector's next select, so a flood of clients reconnecting at once can hold
     * two each for a moment): a client limit, not a server fault. The client backs off, which lets the selector free
     * them.
     */
    ADDRESS_EXHAUSTED,
    /** Connect or read took longer than the per-request timeout. */
    TIMEOUT,
    /** The connection was reset (RST) or the pipe broke while writing. */
    RESET,
    /** The server closed the connection before a complete response head. */
    CLOSED_EARLY,
    /** A 200 whose body is shorter than expected (or truncated before its declared end). */
    SHORT_BODY,
    /** A 200 whose body is longer than expected, or bytes after the declared end of the body. */
    LONG_BODY,
    /** Any status other than 200. */
    STATUS,
    /** The TLS handshake failed (untrusted certificate, wrong host name, protocol mismatch). */
    TLS,
    /** A response the client cannot parse (no status line, bad framing, oversized head). */
    PROTOCOL,
    /** Any other I/O error. */
    IO;

    private static final ErrorClass[] VALUES = values();

    /** The name used in results.json and runs.csv: {@code connect_refused}, {@code short_body}, ... */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static ErrorClass byOrdinal(int ordinal) {
        return VALUES[ordinal];
    }

    public static int count() {
        return VALUES.length;
    }

    /**
     * The class of an I/O failure. Java reports most socket errors as plain SocketException with the
     * operating system's text, so the message is what distinguishes a reset from an exhausted port.
     */
    public static ErrorClass of(IOException e) {
        String message = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
        if (e instanceof BindException) {
            return ADDRESS_EXHAUSTED;
        }
        if (e instanceof SocketTimeoutException) {
            return TIMEOUT;
        }
        ErrorClass byText = ofMessage(message);
        if (byText != IO) {
            return byText;
        }
        if (e instanceof ConnectException || e instanceof NoRouteToHostException) {
            return CONNECT_REFUSED;
        }
        if (e instanceof SSLException) {
            // JSSE wraps a peer's close during the handshake in an SSLException; keep that a "closed".
            return message.contains("closed") || e.getCause() instanceof EOFException ? CLOSED_EARLY : TLS;
        }
        if (e instanceof EOFException) {
            return CLOSED_EARLY;
        }
        return IO;
    }

    /**
     * The class of a failure known only by its text (the operating system's, or a load tool's log): an
     * exhausted port, a time-out, a reset, a refusal, else {@link #IO}.
     */
    public static ErrorClass ofMessage(String text) {
        String message = text == null ? "" : text.toLowerCase(Locale.ROOT);
        if (message.contains("cannot assign requested address") || message.contains("address not available")
                || message.contains("too many open files")) {
            return ADDRESS_EXHAUSTED;
        }
        if (message.contains("timed out") || message.contains("timeout")) {
            return TIMEOUT;
        }
        if (message.contains("reset") || message.contains("broken pipe")) {
            return RESET;
        }
        if (message.contains("refused")) {
            return CONNECT_REFUSED;
        }
        return IO;
    }
}
