package org.spice.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.spice.bench.model.Failure;
import org.spice.bench.model.Stop;

/** The loop every kind of rounds shares, driven by a kind that runs nothing: what it records, when it stops. */
@Tag("unit")
class RoundsLoopTest {

    /** A kind of rounds whose rounds take no time: precise after {@code preciseAfter} rounds, failing at {@code failAt}. */
    private static final class Fake implements RoundsLoop.Kind {
        final List<String> log = new ArrayList<>();
        final int preciseAfter;
        final int failAt;
        final Stop stopAt;
        int rounds;

        Fake(int preciseAfter, int failAt, Stop stopAt) {
            this.preciseAfter = preciseAfter;
            this.failAt = failAt;
            this.stopAt = stopAt;
        }

        @Override
        public Failure round(int r) {
            rounds = r;
            log.add("round " + r);
            if (r == failAt) {
                return Failure.of(Failure.Kind.NO_ANSWER, "the server went away");
            }
            if (stopAt != null && r == 2) {
                stopAt.request("SIGINT");
            }
            return null;
        }

        @Override
        public String progress() {
            return "progress " + rounds;
        }

        @Override
        public boolean precise() {
            return rounds >= preciseAfter;
        }

        @Override
        public void record(String stoppedBy) {
            log.add("record " + stoppedBy);
        }

        @Override
        public void narrow() {
            log.add("narrow");
        }
    }

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private Failure run(Fake kind, RoundsLoop.Bound bound, Stop stop) throws Exception {
        return RoundsLoop.run(kind, bound, stop, new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void roundsGoOnUntilEveryFigureIsPreciseEachRecordedAndNarrowedInBetween() throws Exception {
        Fake kind = new Fake(3, 0, null);
        assertNull(run(kind, new RoundsLoop.Bound(3600, 1, "every probe", false), new Stop()));
        assertEquals(List.of("round 1", "record in progress", "narrow", "round 2", "record in progress", "narrow",
                "round 3", "record every probe within its precision"), kind.log);
        assertEquals("progress 1\nprogress 2\nprogress 3\n", err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void noRoundStartsThatWouldPassTheBound() throws Exception {
        Fake kind = new Fake(99, 0, null);
        assertNull(run(kind, new RoundsLoop.Bound(0, 1, "every ratio", false), new Stop()));
        assertEquals(List.of("record the time bound (0 s) before every ratio was within its precision"), kind.log);
    }

    @Test
    void aProfileThatNeedsOneRoundRunsItWhateverTheBound() throws Exception {
        Fake kind = new Fake(99, 0, null);
        assertNull(run(kind, new RoundsLoop.Bound(0, 1, "every rate", true), new Stop()));
        assertEquals(List.of("round 1", "record in progress", "narrow",
                "record the time bound (0 s) before every rate was within its precision"), kind.log);
    }

    @Test
    void aRoundThatFailsEndsTheRoundsRecordedAsCutShort() throws Exception {
        Fake kind = new Fake(99, 2, null);
        Failure ends = run(kind, new RoundsLoop.Bound(3600, 1, "every probe", false), new Stop());
        assertEquals("the server went away", ends.reason());
        assertEquals(List.of("round 1", "record in progress", "narrow", "round 2",
                "record cut short: the server went away"), kind.log);
    }

    @Test
    void aSignalDuringARoundEndsTheRoundsWithTheSignalsReason() throws Exception {
        Stop stop = new Stop();
        Fake kind = new Fake(99, 0, stop);
        Failure ends = run(kind, new RoundsLoop.Bound(3600, 1, "every probe", false), stop);
        assertSame(Failure.Kind.INTERRUPTED, ends.kind());
        assertEquals("SIGINT", ends.reason());
        assertEquals("record cut short: SIGINT", kind.log.get(kind.log.size() - 1));
        assertEquals(1, err.toString(StandardCharsets.UTF_8).lines().count(), "no progress line for the cut round");
    }
}
