package org.spice.bench.proc;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * httpd's scoreboard as its mod_status tells it ({@code /server-status?auto}, which conf/apache/httpd.conf answers to
 * this machine only): how many of its workers are busy, how many processes it runs, how many are stopping. A flood
 * that leaves every worker busy, or processes stopping that hold their slots, shows here and nowhere else.
 *
 * @param busy      workers serving a request (the status request itself among them)
 * @param idle      workers waiting for one
 * @param processes child processes
 * @param stopping  processes stopping (event MPM: still holding slots for the connections they keep)
 * @param closing   connections the event MPM is closing asynchronously; -1 under prefork
 */
public record Scoreboard(int busy, int idle, int processes, int stopping, int closing) {

    /** The scoreboard of the httpd at {@code address}, or null if it did not answer within {@code timeoutMillis}. */
    public static Scoreboard read(InetSocketAddress address, int timeoutMillis) {
        try (Socket socket = new Socket()) {
            socket.connect(address, timeoutMillis);
            socket.setSoTimeout(timeoutMillis);
            socket.getOutputStream().write(("GET /server-status?auto HTTP/1.0\r\nHost: " + address.getHostString()
                    + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            InputStream in = socket.getInputStream();
            String answer = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            return answer.startsWith("HTTP/1.1 200") ? parse(answer.lines().toList()) : null;
        } catch (IOException e) {
            return null;   // no answer in time: the flood holds it too, and the other readings say so
        }
    }

    /** From the lines of the answer; null if it has no BusyWorkers line (not httpd's status). */
    static Scoreboard parse(List<String> lines) {
        int busy = field(lines, "BusyWorkers");
        return busy < 0 ? null : new Scoreboard(busy, field(lines, "IdleWorkers"), field(lines, "Processes"),
                field(lines, "Stopping"), field(lines, "ConnsAsyncClosing"));
    }

    private static int field(List<String> lines, String name) {
        for (String line : lines) {
            if (line.startsWith(name + ": ")) {
                try {
                    return Integer.parseInt(line.substring(name.length() + 2).trim());
                } catch (NumberFormatException e) {
                    return -1;
                }
            }
        }
        return -1;
    }
}
