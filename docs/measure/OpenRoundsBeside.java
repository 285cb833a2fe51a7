import java.util.ArrayList;
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
 * SPICE's open loop at one rate, round by round, with another client's run after each of SPICE's on the same server:
 * docs/measure/h2c-arrivals.sh and h1-at-one-rate.sh run it. Arguments: PROTOCOL RATE SECONDS ROUNDS PROBE ARRIVALS
 * SERVER...; PROTOCOL is h2c (30 connections of at most 8 streams) or keepalive (HTTP/1.1, a pool of kept
 * connections); ARRIVALS a comma-separated list of bench's --arrivals, each run in turn; each SERVER is NAME,URL,PID.
 * Every round runs every server in turn. OTHER, if set, is a shell command run after a server's SPICE runs, with
 * {url} and {pid} in it replaced by that server's. Each run: SECONDS one-second slices after a 0.5 s lead-in, the
 * server's CPU per request from /proc (its process tree). The JVM's own CPU a request, lead-in included, beside it.
 */
public class OpenRoundsBeside {

    record Target(String name, String url, String pid, Mix mix, Map<String, EventLoopEngine> engines) {
    }

    public static void main(String[] a) throws Exception {
        boolean h2c = a[0].equals("h2c");
        int rate = Integer.parseInt(a[1]);
        int seconds = Integer.parseInt(a[2]);
        int rounds = Integer.parseInt(a[3]);
        Probe probe = Probe.standard().stream().filter(p -> p.id().equals(a[4])).findFirst().orElseThrow();
        List<Target> targets = new ArrayList<>();
        for (int i = 6; i < a.length; i++) {
            String[] spec = a[i].split(",");
            ServerCpu cpu = new ServerCpu(List.of(Long.parseLong(spec[2])), true, List.of(), null);
            Mix mix = h2c ? Mix.of(probe).onHttp2("server:h2c", Endpoint.parse(spec[1])) : Mix.of(probe);
            Map<String, EventLoopEngine> engines = new LinkedHashMap<>();
            for (String arrivals : a[5].split(",")) {
                List<String> args = new ArrayList<>(List.of("--target", spec[1], "--no-verify", "--arrivals", arrivals));
                if (!h2c) {
                    args.add("--keepalive");
                }
                BenchSettings settings = BenchCommand.settings(args.toArray(String[]::new));
                if (h2c) {
                    settings = settings.with(settings.target().with(new Multiplex(30, 8)));
                }
                engines.put(arrivals, new EventLoopEngine(settings, null, new Stop(), cpu, Map.of("server:h2c", cpu)));
            }
            targets.add(new Target(spec[0], spec[1], spec[2], mix, engines));
        }
        for (Target t : targets) {
            t.engines().values().iterator().next().warmUp(t.mix(), 8, 6);
        }
        String other = System.getenv("OTHER");
        for (int r = 1; r <= rounds; r++) {
            for (Target t : targets) {
                for (Map.Entry<String, EventLoopEngine> e : t.engines().entrySet()) {
                    long c0 = ProcessHandle.current().info().totalCpuDuration().orElseThrow().toNanos();
                    List<CpuSlice> slices = e.getValue().openRound(Collections.nCopies(seconds, t.mix()), rate, 0.5,
                            false).slices();
                    long c1 = ProcessHandle.current().info().totalCpuDuration().orElseThrow().toNanos();
                    long n = slices.stream().mapToLong(CpuSlice::requests).sum();
                    double s = slices.stream().mapToDouble(CpuSlice::serverCpuS).sum();
                    System.out.printf("round %d: %s SPICE %s: server %.1f us/req (client %.1f us/req), n=%d%n", r,
                            t.name(), e.getKey(), 1e6 * s / n, (c1 - c0) / 1e3 / n, n);
                }
                if (other != null) {
                    String command = other.replace("{url}", t.url()).replace("{pid}", t.pid());
                    System.out.printf("round %d: %s ", r, t.name());
                    System.out.flush();
                    new ProcessBuilder("bash", "-c", command).inheritIO().start().waitFor();
                }
            }
        }
        System.exit(0);
    }
}
