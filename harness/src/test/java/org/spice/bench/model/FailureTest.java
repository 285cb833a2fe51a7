package org.spice.bench.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Which failures stop which phase, and how a kind is written and read back, old results included. */
@Tag("unit")
class FailureTest {

    @Test
    void theServerGoneOrASignalEndsEveryPhaseRefusalsEndOnlyTheLadder() {
        for (Failure.Kind kind : List.of(Failure.Kind.INTERRUPTED, Failure.Kind.SERVER_GONE, Failure.Kind.CLIENT_LIMIT)) {
            assertTrue(kind.endsLadder() && kind.endsFlood(), kind.id());
        }
        assertTrue(Failure.Kind.SERVER_DOWN.endsLadder());
        assertFalse(Failure.Kind.SERVER_DOWN.endsFlood(), "refusing past its capacity is what a flood measures");
        for (Failure.Kind kind : List.of(Failure.Kind.NO_ANSWER, Failure.Kind.ENGINE_BOUND, Failure.Kind.ENGINE_FAILED,
                Failure.Kind.OTHER)) {
            assertFalse(kind.endsLadder() || kind.endsFlood(), kind.id());
        }
    }

    @Test
    void aKindIsWrittenByItsIdAndAnUnknownOneReadsAsOther() throws Exception {
        assertEquals("\"engine-bound\"", ResultsJson.MAPPER.writeValueAsString(Failure.Kind.ENGINE_BOUND));
        assertEquals(Failure.Kind.SERVER_DOWN, ResultsJson.MAPPER.readValue("\"server-down\"", Failure.Kind.class));
        assertEquals(Failure.Kind.OTHER, ResultsJson.MAPPER.readValue("\"a-kind-of-the-future\"", Failure.Kind.class));
    }
}
