package org.spice.bench.run;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.spice.bench.engine.ClientLimits;
import org.spice.bench.model.Readings;
import org.spice.bench.proc.Scoreboard;
import org.spice.bench.proc.Sockets;

/**
 * Reads, every half second through a flood and its recovery, what could hold the server back: the sockets of its port
 * on each side, its accept queue, httpd's scoreboard. The counters of what the listening sockets turned away are read
 * at each window's edges ({@link #mark}); {@link #over} gathers a window's readings.
 */
final class FloodWatch implements AutoCloseable {

    static final long PERIOD_MILLIS = 500;
    /** How long httpd's status page is waited for: under a flood it queues with everyone else. */
    static final int SCOREBOARD_MILLIS = 300;

    /** One reading: when, the sockets, the scoreboard (null where there is none). */
    private record Sample(long at, Sockets sockets, Scoreboard scoreboard) {
    }

    /** A window's edge: when, and the machine's counters of what was turned away. */
    record Mark(long at, Sockets.Refused refused) {
    }

    private final int port;
    private final InetSocketAddress status;
    private final int cores = Runtime.getRuntime().availableProcessors();
    private final int portRange = (int) ClientLimits.localPortRange();
    private final List<Sample> samples = new ArrayList<>();
    private final Thread thread;

    /**
     * Starts reading at once.
     *
     * @param status where httpd answers its scoreboard, or null for another server
     */
    FloodWatch(int port, InetSocketAddress status) {
        this.port = port;
        this.status = status;
        this.thread = new Thread(this::read, "spice-flood-watch");
        thread.setDaemon(true);
        thread.start();
    }

    /** A window's edge, read as the half-second readings are: a short window has its two edges at least. */
    Mark mark() {
        Mark mark = new Mark(System.nanoTime(), Sockets.Refused.now());
        sample(mark.at());
        return mark;
    }

    private void sample(long at) {
        Sample sample = new Sample(at, Sockets.of(port), status == null ? null : Scoreboard.read(status, SCOREBOARD_MILLIS));
        synchronized (samples) {
            samples.add(sample);
        }
    }

    private void read() {
        while (!Thread.currentThread().isInterrupted()) {
            long at = System.nanoTime();
            sample(at);
            try {
                Thread.sleep(Math.max(1, PERIOD_MILLIS - (System.nanoTime() - at) / 1_000_000));
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** The readings between two marks, with the server's CPU over that window (NaN if not measured). */
    Readings over(Mark from, Mark to, double serverCpuS) {
        List<Sample> inside;
        synchronized (samples) {
            inside = samples.stream().filter(s -> s.at() - from.at() >= 0 && s.at() - to.at() <= 0).toList();
        }
        Map<String, Integer> client = new TreeMap<>();
        Map<String, Integer> server = new TreeMap<>();
        int queue = -1;
        int busy = -1;
        int workers = -1;
        int stopping = -1;
        for (Sample s : inside) {
            s.sockets().client().forEach((state, n) -> client.merge(state, n, Math::max));
            s.sockets().server().forEach((state, n) -> server.merge(state, n, Math::max));
            if (s.sockets().listening()) {
                queue = Math.max(queue, s.sockets().listenQueue());
            }
            if (s.scoreboard() != null) {
                busy = Math.max(busy, s.scoreboard().busy());
                workers = Math.max(workers, s.scoreboard().busy() + s.scoreboard().idle());
                stopping = Math.max(stopping, s.scoreboard().stopping());
            }
        }
        Sockets.Refused refused = to.refused().since(from.refused());
        return new Readings(inside.size(), client, server, queue, refused.listenOverflows(), refused.syncookiesSent(),
                busy, workers, stopping, serverCpuS, cores, portRange);
    }

    @Override
    public void close() throws InterruptedException {
        thread.interrupt();
        thread.join(2_000);
    }
}
