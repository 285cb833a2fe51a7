package org.spice.cgiservlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.LocalDate;

import jakarta.servlet.http.HttpServlet;

import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.Wrapper;
import org.apache.catalina.servlets.CGIServlet;
import org.apache.catalina.startup.Tomcat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.net.Endpoint;
import org.spice.page.CanonicalPage;
import org.spice.page.Probe;
import org.spice.tomcat.fixture.LoopbackTomcat;
import org.spice.verify.Verifier;

/**
 * The CGI probe program served by a real embedded Tomcat twice: through Tomcat's own CGIServlet, which
 * sleeps 500 ms whenever the program has not exited yet when its output ends, and through SpiceCGIServlet,
 * which waits for the exit. Both must answer the canonical page; only the stock one may take half a second.
 * If the stock servlet stops sleeping, Tomcat fixed its loop and SpiceCGIServlet can go.
 */
@Tag("page")
class SpiceCGIServletTest {

    private static final int REQUESTS = 60;
    /** How long the lingering program outlives its output: well under the stock servlet's 500 ms sleep. */
    private static final String LINGER_SECONDS = "0.1";
    private static final Path PROGRAM = Path.of(System.getProperty("spice.cgi.program", "../cgi-c/target/spice"));

    @TempDir
    static Path base;

    private static LoopbackTomcat tomcat;
    private static int port;

    @BeforeAll
    static void start() throws LifecycleException, IOException {
        Path docBase = Files.createDirectories(base.resolve("webapp/WEB-INF/cgi"));
        Path program = docBase.resolve("spice");
        Files.copy(PROGRAM, program, StandardCopyOption.REPLACE_EXISTING);
        Files.setPosixFilePermissions(program, PosixFilePermissions.fromString("rwxr-xr-x"));
        // The probe, then its output closed and the process still alive for a moment: what the stock
        // servlet meets by chance (the probe not reaped yet when its output ends), here every time.
        Path lingering = docBase.resolve("lingering");
        Files.writeString(lingering, "#!/bin/sh\n" + program.toAbsolutePath() + "\nexec >&-\n/bin/sleep "
                + LINGER_SECONDS + "\n");
        Files.setPosixFilePermissions(lingering, PosixFilePermissions.fromString("rwxr-xr-x"));
        tomcat = new LoopbackTomcat(base);
        addCgiContext("/stock/spice", new CGIServlet());
        addCgiContext("/fixed/spice", new SpiceCGIServlet());
        port = tomcat.start().port();
    }

    /** The probe's settings from spice.war's web.xml. */
    private static void addCgiContext(String path, HttpServlet cgiServlet) {
        Context context = tomcat.tomcat().addContext(path, base.resolve("webapp").toString());
        context.setPrivileged(true);
        Wrapper wrapper = Tomcat.addServlet(context, "cgi", cgiServlet);
        wrapper.addInitParameter("cgiPathPrefix", "WEB-INF/cgi");
        wrapper.addInitParameter("executable", "");
        wrapper.addInitParameter("cgiMethods", "GET");
        wrapper.addInitParameter("enableCmdLineArguments", "false");
        wrapper.addInitParameter("passShellEnvironment", "false");
        context.addServletMappingDecoded("/cgi-bin/*", "cgi");
    }

    @AfterAll
    static void stop() throws LifecycleException {
        tomcat.close();
    }

    @Test
    void bothServletsAnswerTheCanonicalPage() {
        for (String prefix : new String[] {"/stock", "/fixed"}) {
            Verifier.ProbeReport report = new Verifier(Endpoint.parse("http://127.0.0.1:" + port + prefix),
                    CanonicalPage.built(), LocalDate.now(), 10_000).verify(Probe.CGI);
            assertTrue(report.passed(), prefix + ": " + report.failures());
        }
    }

    @Test
    void onlyTheStockServletSleepsHalfASecond() throws IOException {
        // Not a speed test: the stock servlet's Thread.sleep(500) is a fact of its code, and a canary for it.
        // A program that exits 100 ms after its output ends makes it sleep on every request (the probe
        // itself makes it sleep only when it is not reaped in time, one request in four here, fewer on a
        // faster machine); SpiceCGIServlet waits the 100 ms and no more.
        long stock = sleeps("/stock/spice/cgi-bin/lingering", 3);
        assertEquals(3, stock, "Tomcat's CGIServlet slept in only " + stock + " of 3 requests to a program that"
                + " outlives its output: if it no longer sleeps, SpiceCGIServlet and the cgi-stock probe can go");
        long lingering = sleeps("/fixed/spice/cgi-bin/lingering", 3);
        assertTrue(lingering <= 1, "SpiceCGIServlet took 450 ms or more in " + lingering + " of 3 requests");
        long fixed = sleeps("/fixed/spice/cgi-bin/spice", REQUESTS);
        assertTrue(fixed <= 1, "SpiceCGIServlet took 450 ms or more in " + fixed + " of " + REQUESTS + " requests");
    }

    @Test
    void aGetWithABodyIsAnsweredNotAnError() throws IOException {
        // Tomcat's servlet throws a NullPointerException (500) here: it feeds a request body only for POST.
        String head = exchange("GET /fixed/spice/cgi-bin/spice HTTP/1.0\r\nContent-Length: 5\r\n\r\nhello");
        assertTrue(head.startsWith("HTTP/1.1 200"), head);
    }

    /** How many of {@code requests} requests, one after another, took 450 ms or more. */
    private static long sleeps(String path, int requests) throws IOException {
        long slow = 0;
        for (int i = 0; i < requests; i++) {
            long start = System.nanoTime();
            String head = exchange("GET " + path + " HTTP/1.0\r\n\r\n");
            if (System.nanoTime() - start >= 450_000_000L) {
                slow++;
            }
            assertEquals("HTTP/1.1 200", head.substring(0, 12), head);
        }
        return slow;
    }

    /** Sends {@code request} and reads to the server's close; returns the status line. */
    private static String exchange(String request) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] all = in.readAllBytes();
            String text = new String(all, StandardCharsets.ISO_8859_1);
            return text.substring(0, Math.max(0, text.indexOf("\r\n")));
        }
    }
}
