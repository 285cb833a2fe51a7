import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.spice.bench.engine.EventLoopEngine;
import org.spice.bench.mix.Mix;
import org.spice.bench.model.BenchSettings;
import org.spice.bench.model.CpuSlice;
import org.spice.bench.model.Multiplex;
import org.spice.bench.model.Stop;
import org.spice.bench.net.Endpoint;
import org.spice.bench.proc.ServerCpu;
import org.spice.commands.BenchCommand;
import org.spice.page.Probe;

/**
 * SPICE's open loop over h2c, round by round, with another client's run between rounds: docs/measure/h2c-arrivals.sh
 * runs it. Arguments: BASE_URL SERVER_PID RATE SECONDS ROUNDS PROBE [ARRIVALS]; ARRIVALS is a comma-separated list of
 * bench's --arrivals (even by default), each run in turn in every round; OTHER, if set, is a shell command run after
 * each round's SPICE runs. Each run: SECONDS one-second slices after a 0.5 s lead-in over 30 connections of at most
 * 8 streams, the server's CPU per request from /proc (its process tree). The JVM's own CPU a request, lead-in
 * included, beside it.
 */
public class H2cOpenRounds {
    public static void main(String[] a) throws Exception {
        String url = a[0];
        long pid = Long.parseLong(a[1]);
        int rate = Integer.parseInt(a[2]);
        int seconds = Integer.parseInt(a[3]);
        int rounds = Integer.parseInt(a[4]);
        Probe probe = Probe.standard().stream().filter(p -> p.id().equals(a[5])).findFirst().orElseThrow();
        ServerCpu cpu = new ServerCpu(List.of(pid), true, List.of(), null);
        Mix mix = Mix.of(probe).onHttp2("server:h2c", Endpoint.parse(url));
        Map<String, EventLoopEngine> engines = new LinkedHashMap<>();
        for (String arrivals : (a.length > 6 ? a[6] : "even").split(",")) {
            BenchSettings settings = BenchCommand.settings("--target", url, "--no-verify", "--arrivals", arrivals);
            settings = settings.with(settings.target().with(new Multiplex(30, 8)));
            engines.put(arrivals, new EventLoopEngine(settings, null, new Stop(), cpu, Map.of("server:h2c", cpu)));
        }
        engines.values().iterator().next().warmUp(mix, 8, 6);
        String other = System.getenv("OTHER");
        for (int r = 1; r <= rounds; r++) {
            for (Map.Entry<String, EventLoopEngine> e : engines.entrySet()) {
                long c0 = ProcessHandle.current().info().totalCpuDuration().orElseThrow().toNanos();
                List<CpuSlice> slices = e.getValue().openRound(Collections.nCopies(seconds, mix), rate, 0.5, false)
                        .slices();
                long c1 = ProcessHandle.current().info().totalCpuDuration().orElseThrow().toNanos();
                long n = slices.stream().mapToLong(CpuSlice::requests).sum();
                double s = slices.stream().mapToDouble(CpuSlice::serverCpuS).sum();
                System.out.printf("round %d: SPICE %s: server %.1f us/req (client %.1f us/req), n=%d%n", r, e.getKey(),
                        1e6 * s / n, (c1 - c0) / 1e3 / n, n);
            }
            if (other != null) {
                new ProcessBuilder("bash", "-c", other).inheritIO().start().waitFor();
            }
        }
        System.exit(0);
    }
}
