package org.spice.bench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.spice.bench.figures.SpiceFigures;
import org.spice.bench.model.CpuRounds;
import org.spice.bench.model.Protocol;

/** One start's cross ratios carry the between-start spread measured for their pair of servers. */
class BetweenStartsTest {

    private static final List<CrossResults.Member> TOMCAT_JETTY = List.of(
            new CrossResults.Member("tomcat", "tomcat", null, null), new CrossResults.Member("jetty", "jetty", null, null));

    @Test
    void theSpreadIsAddedToTheRoundsIntervalInLogUnits() {
        CrossFigures.Cross c = find(CrossFigures.of(CrossFiguresTest.rounds(12, 0.2, 0.02), (s, p) -> SpiceFigures.CpuSource.SERVER),
                "servlet");
        CrossFigures.Cross wide = c.widenedBy(0.05);
        double rounds = Math.log(c.ratioCi() / c.ratio() + Math.sqrt(Math.pow(c.ratioCi() / c.ratio(), 2) + 1));
        double both = Math.sqrt(rounds * rounds + 0.098 * 0.098);
        assertEquals(c.ratio() * Math.sinh(both), wide.ratioCi(), 1e-12, "√(h² + (1.96 × 0.05)²)");
        assertEquals(c.ratioCi(), wide.roundsCi(), 1e-15, "the rounds' own interval kept beside it");
        assertEquals(c.ratio(), wide.ratio());
        assertTrue(wide.widened() && !c.widened());
        assertEquals(c.precise(), wide.precise(), "the aim is judged on the rounds'");
        // an interval of 0 becomes ± sinh(1.96 sd): 9.8 % for sd 0.05
        assertEquals(Math.sinh(0.098), c.widenedBy(0.05).ratioCi() / c.ratio(), 0.01);
        assertSame(c, c.widenedBy(Double.NaN), "no spread: unchanged");
    }

    @Test
    void aPairTheTableHasIsWidenedEitherWayRoundAndOthersAreNot() {
        BetweenStarts table = BetweenStarts.of(TOMCAT_JETTY, List.of(Protocol.HTTP10));
        assertEquals(shipped(), table.spread("jetty", "tomcat").logSd(), 1e-12);
        assertEquals(table.spread("tomcat", "jetty"), table.spread("jetty", "tomcat"));
        List<CrossResults.Member> aa = List.of(new CrossResults.Member("tomcat", "tomcat", null, null),
                new CrossResults.Member("tomcat-2", "tomcat", null, null));
        assertNull(BetweenStarts.of(aa, List.of(Protocol.HTTP10)).spread("tomcat", "tomcat-2"), "not measured: A/A");
        BetweenStarts kept = BetweenStarts.of(TOMCAT_JETTY, List.of(Protocol.HTTP10, Protocol.KEEPALIVE));
        assertEquals(shipped(), kept.spread("tomcat:http1.0", "jetty:http1.0").logSd(), 1e-12);
        assertNull(kept.spread("tomcat:keepalive", "jetty:keepalive"), "measured over HTTP/1.0 only");
        assertNull(BetweenStarts.NONE.spread("tomcat", "jetty"));
    }

    @Test
    void theFiguresOfOneStartSayWhatWidenedThem() {
        CpuRounds rounds = CrossFiguresTest.rounds(12, 0.2, 0.02);
        List<CrossResults.Member> ab = List.of(new CrossResults.Member("a", "tomcat", null, null),
                new CrossResults.Member("b", "jetty", null, null));
        CrossFigures.All all = CrossFigures.All.of(List.of(rounds), (s, p) -> SpiceFigures.CpuSource.SERVER,
                BetweenStarts.of(ab, List.of(Protocol.HTTP10)));
        assertTrue(all.cross().stream().allMatch(CrossFigures.Cross::widened), all.cross().toString());
        assertEquals(1, all.widenedBy().size());
        assertTrue(all.widenedBy().get(0).startsWith(String.format(java.util.Locale.ROOT, "a / b: log sd %.3f (",
                shipped())), all.widenedBy().get(0));
        CrossFigures.All alone = CrossFigures.All.of(List.of(rounds), (s, p) -> SpiceFigures.CpuSource.SERVER);
        assertTrue(alone.cross().stream().noneMatch(CrossFigures.Cross::widened) && alone.widenedBy().isEmpty());
    }

    @Test
    void aMalformedLineIsNamed() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> BetweenStarts.parse(List.of("# a comment", "", "tomcat\tjetty\tsome\tby hand")));
        assertTrue(e.getMessage().contains("line 3"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> BetweenStarts.parse(List.of("tomcat\tjetty\t0.05")));
        assertThrows(IllegalStateException.class, () -> BetweenStarts.parse(List.of("tomcat\tjetty\t-0.05\tx")));
        assertEquals(List.of(new BetweenStarts.Spread("nginx", "apache", 0.02, "x")),
                BetweenStarts.parse(List.of("nginx\tapache\t0.02\tx")));
    }

    @Test
    void theShippedTableReads() {
        assertTrue(!BetweenStarts.table().isEmpty());
    }

    /** The shipped table's Tomcat / Jetty spread. */
    private static double shipped() {
        return BetweenStarts.table().stream().filter(t -> t.a().equals("tomcat") && t.b().equals("jetty"))
                .findFirst().orElseThrow().logSd();
    }

    private static CrossFigures.Cross find(List<CrossFigures.Cross> all, String probe) {
        return all.stream().filter(c -> c.probe().equals(probe)).findFirst().orElseThrow();
    }
}
