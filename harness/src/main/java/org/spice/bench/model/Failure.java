package org.spice.bench.model;

import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * Why a mix, or the run, did not count: a kind the run acts on, and the sentence the report shows. results.json
 * records the kind of each failed run as {@code failure_kind} beside its {@code reason}.
 */
public record Failure(Kind kind, String reason) {

    /** What went wrong, and which phases it ends: the one place that decides whether a failure stops the run. */
    public enum Kind {
        /** A signal (Ctrl-C, SIGTERM) asked the run to stop. */
        INTERRUPTED(true, true),
        /** A process of the server exited. */
        SERVER_GONE(true, true),
        /**
         * The server refused connections and answered none, or stopped accepting them. The ladder stops; a flood goes
         * on, since refusing past its capacity is what a flood measures.
         */
        SERVER_DOWN(true, false),
        /** The window ran but no request succeeded in it. */
        NO_ANSWER(false, false),
        /** The client's event loops, not the server, set the pace (see the engine's rule). */
        ENGINE_BOUND(false, false),
        /** The load engine itself failed (JMeter did not start, wrote no samples). */
        ENGINE_FAILED(false, false),
        /** This client ran out of a resource of its own (memory, descriptors). */
        CLIENT_LIMIT(true, true),
        /** Read from results that predate kinds, or imported from another tool. */
        OTHER(false, false);

        private final boolean endsLadder;
        private final boolean endsFlood;

        Kind(boolean endsLadder, boolean endsFlood) {
            this.endsLadder = endsLadder;
            this.endsFlood = endsFlood;
        }

        /** Whether the ladder stops at a mix that failed so: the rest would measure nothing. */
        public boolean endsLadder() {
            return endsLadder;
        }

        /** Whether the overload profile's flood stops at a step that failed so. */
        public boolean endsFlood() {
            return endsFlood;
        }

        @JsonValue
        public String id() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        /** The kind named {@code id} in results.json; OTHER for one this version does not know. */
        @JsonCreator
        public static Kind of(String id) {
            for (Kind kind : values()) {
                if (kind.id().equals(id)) {
                    return kind;
                }
            }
            return OTHER;
        }
    }

    public Failure {
        if (kind == null || reason == null) {
            throw new IllegalArgumentException("a failure has a kind and a reason");
        }
    }

    public static Failure of(Kind kind, String reason) {
        return new Failure(kind, reason);
    }
}
