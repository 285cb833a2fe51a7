package org.spice.bench.run;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.spice.bench.figures.Counts;
import org.spice.bench.mix.Mix;
import org.spice.bench.model.BenchSettings;
import org.spice.bench.model.Failure;
import org.spice.bench.model.LoadEngine;
import org.spice.bench.model.RunRecord;
import org.spice.bench.model.Stop;
import org.spice.bench.net.Endpoint;

/**
 * The ladder phase: every workload at every client count, repeat after repeat, in an order that favours none, with
 * the pause between mixes; each mix handed to the recorder as it ends. A failure whose kind ends the ladder (the
 * server gone or down, a signal) stops it; any other failed mix is kept and the ladder goes on.
 */
public final class Ladder {

    /** How the ladder's steps are ordered, as results.json records it. */
    static final String ORDER = "interleaved: every workload at a client count, then the next count; each repeat"
            + " a round of its own, the workloads' order rotated by one per round";

    /**
     * The ramp-up of the first mix at a client count above every count the server has run so far (the warm-up's and
     * the CPU rounds' included), seconds: a server grows its pools to a new load over a second or two, and that is not
     * the cost of the mix measured then. Jetty's first window at 64 clients after rounds at 8 cost 95 µs per request
     * (the rounds' level) against 68-80 in its next two repeats, two seconds of it at 91 before falling to 67.
     */
    public static final double NEW_LOAD_RAMP_UP_S = 3;

    private final BenchSettings settings;
    private final LoadEngine engine;
    private final Stop stop;
    private final Recorder recorder;

    Ladder(BenchSettings settings, LoadEngine engine, Stop stop, Recorder recorder) {
        this.settings = settings;
        this.engine = engine;
        this.stop = stop;
        this.recorder = recorder;
    }

    /** One mix of the ladder: a workload at a client count, in a repeat. */
    record Step(int repeat, int clients, Mix mix) {
    }

    /** Runs every mix; returns null if the ladder completed, else why it was cut short. */
    Failure run() throws InterruptedException, IOException {
        List<Step> steps = order(settings);
        int highest = settings.timing().warmUpS() > 0 ? WarmUp.clients(settings) : Integer.MAX_VALUE;   // none: as asked
        for (int index = 0; index < steps.size(); index++) {
            Step step = steps.get(index);
            if (index > 0) {
                stop.rest(settings.timing().pauseS());
            }
            if (stop.requested()) {
                return stop.failure();
            }
            String down = Endpoint.firstUnreachable(settings.target().endpoints(List.of(step.mix())), settings.target().timeoutMillis());
            if (down != null) {
                return Failure.of(Failure.Kind.SERVER_DOWN, "the server stopped answering before " + step.mix().name()
                        + " at " + Counts.clients(step.clients()) + ": " + down);
            }
            RunRecord record;
            if (step.clients() > highest && engine instanceof LoadEngine.Windowed windowed) {
                record = windowed.run(step.mix(), step.clients(), step.repeat(),
                        Math.max(settings.timing().rampUpS(), NEW_LOAD_RAMP_UP_S), settings.timing().durationS(), settings.timing().rampDownS());
            } else {
                record = engine.run(step.mix(), step.clients(), step.repeat());
            }
            highest = Math.max(highest, step.clients());
            recorder.measured(String.format(Locale.ROOT, "[%d/%d]", index + 1, steps.size()), record);
            if (record.failed() && record.failureKind().endsLadder()) {
                return record.failure();
            }
        }
        return null;
    }

    /**
     * The ladder in an order that cannot favour a workload: round by round (repeat), client count by client count,
     * every workload at that count, the first workload of round r being the r-th, so that drift over the run hits
     * them all alike and no workload always goes first.
     */
    static List<Step> order(BenchSettings settings) {
        List<Step> steps = new ArrayList<>();
        List<Mix> mixes = settings.load().mixes();
        for (int repeat = 1; repeat <= settings.load().repeat(); repeat++) {
            for (int clients : settings.load().clients()) {
                for (int i = 0; i < mixes.size(); i++) {
                    steps.add(new Step(repeat, clients, mixes.get((i + repeat - 1) % mixes.size())));
                }
            }
        }
        return steps;
    }
}
