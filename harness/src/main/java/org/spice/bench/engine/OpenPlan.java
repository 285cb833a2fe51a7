package org.spice.bench.engine;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.spice.bench.mix.Mix;
import org.spice.bench.model.Arrivals;
import org.spice.bench.model.BenchSettings;
import org.spice.bench.model.OpenRate;
import org.spice.bench.net.Request;

/**
 * What an open loop runs ({@link OpenLoop}): its requests, its rate and length, its bounds, and when each request is
 * due.
 *
 * @param requests      sent in turn (a probe: one)
 * @param schedule      when each request is due, and so the rate
 * @param durationS     the schedule's length: requests due from 0 to this are sent
 * @param maxInFlight   requests under way at most
 * @param queueMax      due requests waiting for a free slot at most; past it they are dropped
 * @param timeoutMillis a request's limit, connect to last byte; a dropped one counts as this
 * @param slicing       how a CPU round's courses follow each other, or null for one course throughout
 */
public record OpenPlan(List<Request> requests, Schedule schedule, double durationS, int maxInFlight, int queueMax,
        int timeoutMillis, Slicing slicing) {

    public OpenPlan {
        requests = List.copyOf(requests);
        if (requests.isEmpty() || schedule == null || !(schedule.rate() > 0) || !(durationS > 0) || maxInFlight < 1
                || queueMax < 0) {
            throw new IllegalArgumentException("an open loop needs requests, a rate, a duration and a slot");
        }
    }

    /** Requests due evenly at {@code rate}, one every 1 / rate s. */
    public OpenPlan(List<Request> requests, double rate, double durationS, int maxInFlight, int queueMax,
            int timeoutMillis, Slicing slicing) {
        this(requests, Schedule.of(Arrivals.EVEN, rate, 0), durationS, maxInFlight, queueMax, timeoutMillis, slicing);
    }

    /** One course of requests for the whole schedule, sent in turn, due evenly. */
    public OpenPlan(List<Request> requests, double rate, double durationS, int maxInFlight, int queueMax,
            int timeoutMillis) {
        this(requests, rate, durationS, maxInFlight, queueMax, timeoutMillis, null);
    }

    /** Requests per second: the schedule's. */
    public double rate() {
        return schedule.rate();
    }

    /** The request that goes out for a due time {@code sinceT0} into the schedule, the {@code sent}-th sent. */
    Request request(long sinceT0, long sent) {
        List<Request> course = slicing == null ? requests : slicing.courseAt(sinceT0);
        return course.get((int) (sent % course.size()));
    }

    /** The slice a request due {@code sinceT0} into the schedule counts in; -1 for none. */
    int slice(long sinceT0) {
        return slicing == null ? -1 : slicing.index(sinceT0);
    }

    /** The requests the schedule holds. */
    public long scheduled() {
        return (long) Math.floor(rate() * durationS);
    }

    /** Request k's due time from {@code t0}, nanoseconds. */
    long due(long t0, long k) {
        return t0 + schedule.offset(k);
    }

    /**
     * A CPU round's schedule, one rate throughout and the course changing under it: for the first {@code leadNanos}
     * the first slice's requests go out, counted in none; then slice i's for {@code sliceNanos} each, a request
     * counting in the slice its due time falls in (what a slow server makes late stays its slice's); after the last
     * slice its requests go on, counted in none, to the schedule's end, so that the last slice's requests end under
     * the load they were sent in, as every other slice's do.
     */
    public record Slicing(List<List<Request>> courses, long leadNanos, long sliceNanos) {

        public Slicing {
            courses = courses.stream().map(List::copyOf).toList();
        }

        /** The slice of a due time {@code sinceT0} into the schedule: 0 to n - 1, or -1 in the lead-in and the tail. */
        int index(long sinceT0) {
            long into = sinceT0 - leadNanos;
            long i = into < 0 ? -1 : into / sliceNanos;
            return i >= courses.size() ? -1 : (int) i;
        }

        List<Request> courseAt(long sinceT0) {
            long into = sinceT0 - leadNanos;
            return courses.get(into < 0 ? 0 : (int) Math.min(courses.size() - 1, into / sliceNanos));
        }
    }

    /**
     * {@code mix} (a probe: one request) at the settings' rate for their duration, at most their in-flight requests
     * under way, ten times that waiting.
     */
    public static OpenPlan of(Mix mix, BenchSettings settings) {
        OpenRate open = settings.open();
        return of(mix, settings, open.rps(), open.maxInFlight());
    }

    /** {@code mix} at {@code rate} for the settings' duration, at most {@code maxInFlight} under way. */
    public static OpenPlan of(Mix mix, BenchSettings settings, double rate, int maxInFlight) {
        return of(mix, settings, rate, maxInFlight, settings.timing().durationS());
    }

    /** {@code mix} at {@code rate} for {@code durationS}, at most {@code maxInFlight} under way. */
    public static OpenPlan of(Mix mix, BenchSettings settings, double rate, int maxInFlight, double durationS) {
        return new OpenPlan(List.of(EventLoopEngine.requests(mix, settings)), schedule(settings, rate), durationS,
                maxInFlight, 10 * maxInFlight, settings.target().timeoutMillis(), null);
    }

    /**
     * The settings' arrivals at {@code rate}; random ones are drawn from the seed and the schedule's place among this
     * process's schedules, so that each round draws afresh and the same command draws the same.
     */
    static Schedule schedule(BenchSettings settings, double rate) {
        return Schedule.of(settings.runner().arrivals(), rate, settings.runner().seed() * 1_000_003L
                + SCHEDULES.getAndIncrement());
    }

    private static final AtomicLong SCHEDULES = new AtomicLong();
}
