package org.spice.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.EOFException;
import java.io.IOException;
import java.net.BindException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import javax.net.ssl.SSLHandshakeException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.spice.bench.mix.MixFile;
import org.spice.bench.net.ErrorClass;
import org.spice.bench.proc.CpuMeter;

/** The error classes of the operating system's socket errors, and the CPU time of a process tree from /proc. */
class CpuAndErrorClassTest {

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

    @Test
    @EnabledOnOs(OS.LINUX)
    void serverCpuIncludesDescendantsAliveOrReaped() throws Exception {
        // The outer shell forks a busy inner shell, waits for it (its CPU moves to the outer's cutime), then sleeps.
        Process outer = new ProcessBuilder("sh", "-c",
                "sh -c 'i=0; while [ $i -lt 400000 ]; do i=$((i+1)); done'; sleep 5").start();
        try {
            Thread.sleep(1500);
            double seconds = CpuMeter.treeCpuSeconds(outer.pid());
            assertTrue(seconds >= 0.05, "tree CPU " + seconds + " s");
        } finally {
            outer.destroyForcibly();
            outer.waitFor();
        }
        assertTrue(Double.isNaN(CpuMeter.treeCpuSeconds(outer.pid())), "a gone process has no CPU time");
        assertTrue(CpuMeter.processCpuNanos() > 0);
        assertTrue(CpuMeter.clockTicks() > 0);
    }

    @Test
    void theSampleMixFileParses() throws IOException {
        assertEquals(4, MixFile.read(Path.of("mixes/ecommerce.mix")).entries().size());
    }
}
