package org.spice.bench.net;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.EOFException;
import java.io.IOException;
import java.net.BindException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import javax.net.ssl.SSLHandshakeException;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The error classes of the operating system's socket errors. */
@Tag("unit")
class ErrorClassTest {

    @Test
    void socketErrorsMapToTheirClass() {
        assertEquals(ErrorClass.CONNECT_REFUSED, ErrorClass.of(new ConnectException("Connection refused")));
        assertEquals(ErrorClass.ADDRESS_EXHAUSTED, ErrorClass.of(new NoRouteToHostException("Cannot assign requested address")));
        assertEquals(ErrorClass.ADDRESS_EXHAUSTED, ErrorClass.of(new BindException("Address already in use")));
        assertEquals(ErrorClass.TIMEOUT, ErrorClass.of(new SocketTimeoutException("Read timed out")));
        assertEquals(ErrorClass.TIMEOUT, ErrorClass.of(new ConnectException("Connection timed out")));
        assertEquals(ErrorClass.RESET, ErrorClass.of(new SocketException("Connection reset")));
        assertEquals(ErrorClass.RESET, ErrorClass.of(new SocketException("Broken pipe")));
        assertEquals(ErrorClass.TLS, ErrorClass.of(new SSLHandshakeException("PKIX path building failed")));
        assertEquals(ErrorClass.CLOSED_EARLY, ErrorClass.of(new EOFException()));
        assertEquals(ErrorClass.IO, ErrorClass.of(new IOException("something else")));
    }
}
