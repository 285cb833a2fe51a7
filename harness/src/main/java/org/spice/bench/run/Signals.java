package org.spice.bench.run;

import java.io.PrintStream;
import java.util.function.IntConsumer;

import org.spice.bench.model.Stop;

import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * SIGINT and SIGTERM, while a run is under way (a bench, a lesson), ask it to stop: the first says why on stderr and
 * sets the exit status a shell would report; the run reads its {@link Stop} and finishes with what it has.
 */
public final class Signals implements AutoCloseable {

    /** Exit statuses of a run ended by SIGINT and SIGTERM, as a shell would report them. */
    public static final int INTERRUPTED = 130;
    public static final int TERMINATED = 143;

    private final SignalHandler previousInt;
    private final SignalHandler previousTerm;
    private volatile int status;

    private Signals(Stop stop, PrintStream err, String command, String then, IntConsumer onStop) {
        previousInt = Signal.handle(new Signal("INT"), s -> on(stop, err, command, "interrupted (Ctrl-C)", then,
                INTERRUPTED, onStop));
        previousTerm = Signal.handle(new Signal("TERM"), s -> on(stop, err, command, "stopped by SIGTERM", then,
                TERMINATED, onStop));
    }

    /** A bench's: the mix under way ends, the results are finished. */
    static Signals watch(Stop stop, PrintStream err) {
        return new Signals(stop, err, "bench", "finishing the results", status -> { });
    }

    /**
     * {@code spice COMMAND}'s: the first signal prints "spice COMMAND: WHY; THEN", and {@code onStop} gets the exit
     * status it asks for (a lesson passes SIGTERM on to the step under way).
     */
    public static Signals watch(Stop stop, PrintStream err, String command, String then, IntConsumer onStop) {
        return new Signals(stop, err, command, then, onStop);
    }

    private void on(Stop stop, PrintStream err, String command, String why, String then, int exit, IntConsumer onStop) {
        if (stop.request(why)) {
            status = exit;
            err.println("spice " + command + ": " + why + "; " + then);
            onStop.accept(exit);
        }
    }

    /** The exit status the signal received asks for, or 0. */
    public int status() {
        return status;
    }

    @Override
    public void close() {
        Signal.handle(new Signal("INT"), previousInt);
        Signal.handle(new Signal("TERM"), previousTerm);
    }
}
