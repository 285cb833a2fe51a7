package org.spice.bench.run;

import java.io.IOException;
import java.io.PrintStream;
import java.security.GeneralSecurityException;
import java.util.List;

import org.spice.bench.model.BenchSettings;
import org.spice.bench.model.Failure;
import org.spice.bench.model.LoadEngine;
import org.spice.bench.model.Stop;

/**
 * The phases of every bench run ({@link BenchRun}), in order, one server's or several side by side: each server
 * warmed ({@link WarmUp}: idle, then every workload until steady); the CPU rounds, every server at once ({@link
 * PairedRounds}; side by side on one engine, {@link SideBySide}); then each
 * server's own phases: the ladder ({@link Ladder}; with --rate, {@link OpenRates} instead), the cost curve ({@link
 * CostRounds}, --profile cost), the latency profile ({@link LatencyRounds}, --profile latency) and the flood ({@link
 * Flood}, --profile overload). A phase that cuts the run short ends it: what was measured is kept, marked partial.
 */
final class Phases {

    /** One server of the run, ready: its settings, its checks, its recorder, its engine. */
    record Member(BenchSettings settings, Preflight.Ready ready, Recorder recorder, LoadEngine engine) {
    }

    /** How the CPU rounds run, once every server is warm, given how long the warm-up took. */
    interface Rounds {
        Failure run(double warmUpS) throws InterruptedException, IOException, GeneralSecurityException;
    }

    private Phases() {
    }

    /**
     * Every phase of {@code members}, the CPU rounds by {@code rounds}; each server's own phases only where {@code own}
     * (the earlier starts of --restarts measure the rounds alone): null when all of them ran, else why the run was cut.
     */
    static Failure run(List<Member> members, Rounds rounds, boolean own, Stop stop, PrintStream err) {
        try {
            long began = System.nanoTime();
            for (Member m : members) {
                Failure cut = new WarmUp(m.engine(), stop, err).run(m.settings(), m.ready().serverCpu(), m.recorder());
                if (cut != null) {
                    return cut;
                }
            }
            Failure cut = rounds.run(Math.ceil((System.nanoTime() - began) / 1e9));
            for (Member m : own ? members : List.<Member>of()) {
                if (cut != null) {
                    return cut;
                }
                cut = own(m, stop, err);
            }
            return cut;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Failure.of(Failure.Kind.INTERRUPTED, "interrupted");
        } catch (IOException e) {
            return Failure.of(Failure.Kind.OTHER, "cannot write the results: " + e.getMessage());
        } catch (GeneralSecurityException e) {
            return Failure.of(Failure.Kind.OTHER, "cannot trust the servers' certificate for tls: " + e.getMessage());
        } catch (OutOfMemoryError e) {
            return Failure.of(Failure.Kind.CLIENT_LIMIT, "out of memory in the client (" + e.getMessage() + "): give the"
                    + " JVM more heap (JAVA_TOOL_OPTIONS=-Xmx...) or run fewer clients");
        }
    }

    /** One server's phases after the rounds: the ladder or the open loop, then the profiles asked for. */
    private static Failure own(Member m, Stop stop, PrintStream err) throws InterruptedException, IOException {
        BenchSettings settings = m.settings();
        Failure cut = settings.open() != null ? new OpenRates(settings, m.engine(), stop, m.recorder()).run()
                : new Ladder(settings, m.engine(), stop, m.recorder()).run();
        if (cut == null && settings.cost() != null) {
            cut = new CostRounds(settings, m.engine(), stop, err, m.recorder()).run();
        }
        if (cut == null && settings.latency() != null) {
            cut = new LatencyRounds(settings, m.engine(), stop, err, m.recorder()).run();
        }
        if (cut == null && settings.flood() != null && m.engine() instanceof LoadEngine.Windowed windowed) {
            cut = new Flood(settings, windowed, stop, err, m.recorder()).run();
        }
        return cut;
    }
}
