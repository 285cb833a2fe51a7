package org.spice.bench.run;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.spice.bench.model.BenchSettings;
import org.spice.bench.model.Failure;
import org.spice.bench.model.Stop;
import org.spice.bench.proc.ServerCpu;
import org.spice.commands.BenchCommand;

/**
 * A short bench of the static file and the servlet whose phases run on {@link FakeEngine}: its settings, one server
 * ready as its preflight would leave it (no TLS, its CPU read from no process), and its run. The ladder checks the
 * server is reachable before each step, so a socket of this JVM listens where the settings point (nothing is served on
 * it); what the phases say is kept ({@link #said}).
 */
final class FakeBench implements AutoCloseable {

    private final Path dir;
    private final ServerSocket listening;
    private final ByteArrayOutputStream said = new ByteArrayOutputStream();
    final PrintStream err = new PrintStream(said, true, StandardCharsets.UTF_8);

    FakeBench(Path dir) throws IOException {
        this.dir = dir;
        this.listening = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    }

    /** The bench's settings, with {@code more} options after its own. */
    BenchSettings settings(String... more) {
        List<String> args = new ArrayList<>(List.of("--target", "http://127.0.0.1:" + listening.getLocalPort(),
                "--probes", "static,servlet", "--clients", "2", "--duration", "1", "--pause", "0", "--warm-up", "3",
                "--cpu-time", "6", "--out", dir.toString()));
        args.addAll(List.of(more));
        return BenchCommand.settings(args.toArray(String[]::new));
    }

    /** One server of {@code settings} on {@code engine}, ready, its recorder open. */
    Phases.Member member(BenchSettings settings, FakeEngine engine) throws Exception {
        Preflight.Ready ready = new Preflight.Ready(null, new ServerCpu(List.of(), true, List.of(), null),
                settings.recorded(Preflight.machine(), null, Ladder.ORDER, "test"), List.of());
        return new Phases.Member(settings, ready, Recorder.open(settings, ready, err), engine);
    }

    /** Every phase of {@code m}, its own after the rounds only where {@code own}: null, or why the run was cut. */
    Failure run(Phases.Member m, boolean own) {
        Stop stop = new Stop();
        return Phases.run(List.of(m), warmUpS -> BenchRun.roundsAlone(m, warmUpS, stop, err), own, stop, err);
    }

    /** What the phases printed. */
    String said() {
        return said.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws IOException {
        listening.close();
    }
}
