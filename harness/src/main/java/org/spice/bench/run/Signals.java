package org.spice.bench.run;

import java.io.PrintStream;

import org.spice.bench.model.Stop;

import sun.misc.Signal;
import sun.misc.SignalHandler;

/** SIGINT and SIGTERM, while a run is under way, ask it to stop (and set the exit status a shell would report). */
public final class Signals implements AutoCloseable {

    /** Exit statuses of a run ended by SIGINT and SIGTERM, as a shell would report them. */
    public static final int INTERRUPTED = 130;
    public static final int TERMINATED = 143;

    private final SignalHandler previousInt;
    private final SignalHandler previousTerm;
    private volatile int status;

    private Signals(Stop stop, PrintStream err) {
        previousInt = Signal.handle(new Signal("INT"), s -> on(stop, err, "interrupted (Ctrl-C)", INTERRUPTED));
        previousTerm = Signal.handle(new Signal("TERM"), s -> on(stop, err, "stopped by SIGTERM", TERMINATED));
    }

    static Signals watch(Stop stop, PrintStream err) {
        return new Signals(stop, err);
    }

    private void on(Stop stop, PrintStream err, String why, int exit) {
        if (stop.request(why)) {
            status = exit;
            err.println("spice bench: " + why + "; finishing the results");
        }
    }

    /** The exit status the signal received asks for, or 0. */
    int status() {
        return status;
    }

    @Override
    public void close() {
        Signal.handle(new Signal("INT"), previousInt);
        Signal.handle(new Signal("TERM"), previousTerm);
    }
}
