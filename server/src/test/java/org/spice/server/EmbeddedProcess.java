package org.spice.server;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The embedded server started as a process of its own on a free port of 127.0.0.1, so that its CPU, its kernel
 * counters and its system calls are apart from the test's (the client's); stopped by {@link #close}.
 */
final class EmbeddedProcess implements AutoCloseable {

    final Process process;
    final String host;
    final int port;
    private final Path log;

    private EmbeddedProcess(Process process, String host, int port, Path log) {
        this.process = process;
        this.host = host;
        this.port = port;
        this.log = log;
    }

    static EmbeddedProcess start(Path dir) throws Exception {
        return start(dir, "127.0.0.1");
    }

    /** On {@code host}: 127.0.0.1, or an address of a test host (a network namespace's veth). */
    static EmbeddedProcess start(Path dir, String host) throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path log = dir.resolve("server.log");
        Process process = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), EmbeddedTomcat.class.getName(),
                "--host", host, "--port", Integer.toString(port), "--war", StartedEmbeddedTomcat.WAR.toString(),
                "--base", dir.resolve("tomcat").toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        EmbeddedProcess server = new EmbeddedProcess(process, host, port, log);
        server.awaitListening();
        return server;
    }

    String baseUrl() {
        return "http://" + host + ":" + port;
    }

    private void awaitListening() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            assertTrue(process.isAlive(), "the server ended: " + Files.readString(log));
            try (Socket socket = new Socket(host, port)) {
                return;
            } catch (IOException e) {
                Thread.sleep(200);
            }
        }
        close();
        throw new AssertionError("the server did not listen on " + port + ": " + Files.readString(log));
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
