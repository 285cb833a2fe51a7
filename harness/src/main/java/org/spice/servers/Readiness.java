package org.spice.servers;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Waiting for what a start started: a companion until it is ready (its socket, its port, its PID file), a server until
 * it answers; at once giving up where its process exits or its log says it failed, else after SPICE_WAIT_S seconds.
 */
final class Readiness {

    /** Where a start stands: ready, not yet, or failed as its log says. */
    enum State { READY, WAITING, FAILED }

    private Readiness() {
    }

    /**
     * Waits until {@code check} says ready, polling every 0.1 s; an IOException naming {@code name} and its {@code log}
     * (whose last lines go to {@code err}) where its process (in {@code pidFile}, if any) exits first, the check says the
     * start failed, or the wait runs out.
     */
    static void await(String name, Path pidFile, Path log, Supplier<State> check, PrintStream err) throws IOException {
        int limit = Site.waitLimitS();
        long until = System.nanoTime() + limit * 1_000_000_000L;
        while (true) {
            State state = check.get();
            if (state == State.READY) {
                return;
            }
            if (state == State.FAILED || (pidFile != null && !alive(pidFile))) {
                tail(log, 20, err);
                throw new IOException(name + " exited before it was ready: see " + log);
            }
            if (System.nanoTime() > until) {
                tail(log, 20, err);
                throw new IOException(name + " was not ready within " + limit + " s (SPICE_WAIT_S sets the limit): see " + log);
            }
            pause();
        }
    }

    /** {@code ready} as a check: ready or not yet. */
    static Supplier<State> when(java.util.function.BooleanSupplier ready) {
        return () -> ready.getAsBoolean() ? State.READY : State.WAITING;
    }

    /**
     * Waits until {@code address}:{@code port} answers {@code path} with 200; false where the process in {@code pidFile}
     * dies (after a second's grace), {@code failed} says the start failed (a server that lives on with a dead webapp:
     * it is given the PID file's folder), or the wait runs out.
     */
    static boolean answers(String address, int port, String path, Path pidFile, Predicate<Path> failed)
            throws IOException {
        int limit = Site.waitLimitS();
        long start = System.nanoTime();
        long until = start + limit * 1_000_000_000L;
        while (System.nanoTime() < until) {
            if (status(address, port, path) == 200) {
                return true;
            }
            if (System.nanoTime() - start > 1_000_000_000L && !alive(pidFile)) {
                return false;
            }
            if (failed != null && failed.test(pidFile.getParent())) {
                return false;
            }
            pause();
        }
        return false;
    }

    /** The status a local server answers for {@code path} over HTTP/1.0, or -1 where it does not answer. */
    static int status(String address, int port, String path) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(address, port), 1000);
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(request(path, address));
            out.flush();
            return statusIn(new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.ISO_8859_1))
                    .readLine());
        } catch (IOException e) {
            return -1;
        }
    }

    /**
     * As {@link #status(String, int, String)}, of a server on the Unix socket {@code socket}, its status line awaited a
     * second at most: a connection that the listener's backlog holds and no worker takes is never answered.
     */
    static int status(Path socket, String path) {
        try (SocketChannel channel = SocketChannel.open(UnixDomainSocketAddress.of(socket));
                Selector selector = Selector.open()) {
            channel.write(ByteBuffer.wrap(request(path, "localhost")));
            channel.configureBlocking(false);
            channel.register(selector, SelectionKey.OP_READ);
            ByteBuffer head = ByteBuffer.allocate(64);
            long until = System.nanoTime() + 1_000_000_000L;
            while (head.hasRemaining() && !new String(head.array(), 0, head.position(), StandardCharsets.ISO_8859_1)
                    .contains("\n")) {
                long leftMs = (until - System.nanoTime()) / 1_000_000;
                if (leftMs <= 0 || selector.select(leftMs) == 0) {
                    break;
                }
                selector.selectedKeys().clear();
                if (channel.read(head) < 0) {
                    break;
                }
            }
            return statusIn(new String(head.array(), 0, head.position(), StandardCharsets.ISO_8859_1).lines().findFirst()
                    .orElse(null));
        } catch (IOException e) {
            return -1;
        }
    }

    private static byte[] request(String path, String host) {
        return ("GET " + path + " HTTP/1.0\r\nHost: " + host + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    /** The status in an HTTP status line ("HTTP/1.1 200 OK"); -1 where there is none. */
    private static int statusIn(String line) {
        String[] parts = line == null ? new String[0] : line.split(" ");
        return parts.length > 1 && parts[1].matches("[0-9]{3}") ? Integer.parseInt(parts[1]) : -1;
    }

    private static boolean alive(Path pidFile) {
        OptionalLong pid = Processes.pidIn(pidFile);
        return pid.isPresent() && Processes.running(pid.getAsLong());
    }

    /** The last {@code lines} lines of {@code log}, headed by its name, to {@code err}; nothing where it is empty. */
    static void tail(Path log, int lines, PrintStream err) {
        try {
            if (!Files.isRegularFile(log) || Files.size(log) == 0) {
                return;
            }
            List<String> all = Files.readAllLines(log, StandardCharsets.ISO_8859_1);
            err.println("--- last lines of " + log);
            all.subList(Math.max(0, all.size() - lines), all.size()).forEach(err::println);
        } catch (IOException e) {
            err.println("--- " + log + " could not be read: " + e.getMessage());
        }
    }

    private static void pause() throws IOException {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for a start");
        }
    }
}
