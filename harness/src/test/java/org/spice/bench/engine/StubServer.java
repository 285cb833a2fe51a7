package org.spice.bench.engine;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A stub HTTP server for the open loop's tests, run as a child process so that a test can stop it (SIGSTOP) and
 * continue it: on 127.0.0.1, a listen backlog of 4,096 (a stalled server's connections wait in the kernel, not refused),
 * each connection's request answered after {@code delayMs} with {@code bytes} of body, then closed (HTTP/1.0). Prints
 * its port on stdout.
 */
public final class StubServer {

    private StubServer() {
    }

    public static void main(String[] args) throws IOException {
        long delayMs = Long.parseLong(args[0]);
        int bytes = Integer.parseInt(args[1]);
        byte[] body = new byte[bytes];
        Arrays.fill(body, (byte) 'x');
        byte[] head = ("HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " + bytes
                + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        ExecutorService workers = Executors.newFixedThreadPool(256);
        try (ServerSocket listener = new ServerSocket(0, 4096, InetAddress.getLoopbackAddress())) {
            System.out.println(listener.getLocalPort());
            System.out.flush();
            while (true) {
                Socket socket = listener.accept();
                workers.execute(() -> answer(socket, head, body, delayMs));
            }
        }
    }

    private static void answer(Socket socket, byte[] head, byte[] body, long delayMs) {
        try (socket; InputStream in = socket.getInputStream(); OutputStream out = socket.getOutputStream()) {
            int matched = 0;
            byte[] end = {'\r', '\n', '\r', '\n'};
            while (matched < 4) {
                int b = in.read();
                if (b < 0) {
                    return;
                }
                matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
            }
            if (delayMs > 0) {
                Thread.sleep(delayMs);
            }
            out.write(head);
            out.write(body);
            out.flush();
        } catch (IOException e) {
            // the client went away: nothing to answer
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
