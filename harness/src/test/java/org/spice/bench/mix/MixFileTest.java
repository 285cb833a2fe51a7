package org.spice.bench.mix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.spice.page.Probe;

/** The mix file format: good files parse, each bad line is named with its number, draws follow the weights. */
@Tag("unit")
class MixFileTest {

    private static final String ECOMMERCE = """
            # the e-commerce mix of the white paper
            75   /spice/static/spice.html
            17   /spice/servlet          # dynamic, plain

            6    /spice/static/spice.html   tls
            2\t/spice/servlet\tTLS
            1.5  /other.html  bytes=512
            """;

    @Test
    void parsesEntriesCommentsTlsAndSizes() {
        Mix mix = MixFile.parse("ecommerce", "ecommerce.mix", ECOMMERCE);
        assertEquals(5, mix.entries().size());
        assertEquals(75, mix.entries().get(0).weight());
        assertEquals("/spice/servlet", mix.entries().get(1).path());
        assertFalse(mix.entries().get(1).tls());
        assertTrue(mix.entries().get(3).tls());
        assertEquals(-1, mix.entries().get(0).bytes());
        assertEquals(512, mix.entries().get(4).bytes());
        assertTrue(mix.hasTls());
        assertTrue(mix.hasPlain());
    }

    @Test
    void drawsFollowTheWeightsAndTheSeed() {
        Mix mix = MixFile.parse("m", "m", "3 /a\n1 /b\n");
        int[] counts = new int[2];
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < 40_000; i++) {
            counts[mix.draw(random)]++;
        }
        assertEquals(0.75, counts[0] / 40_000.0, 0.01);
        SplittableRandom one = new SplittableRandom(7);
        SplittableRandom two = new SplittableRandom(7);
        for (int i = 0; i < 100; i++) {
            assertEquals(mix.draw(one), mix.draw(two));
        }
    }

    @Test
    void jspProbeSpreadsOverItsHundredPages() {
        Mix jsp = Mix.of(Probe.JSP);
        assertEquals(100, jsp.entries().size());
        int[] counts = new int[100];
        SplittableRandom random = new SplittableRandom(1);
        for (int i = 0; i < 100_000; i++) {
            counts[jsp.draw(random)]++;
        }
        for (int count : counts) {
            assertTrue(count > 800 && count < 1200, "uneven: " + count);
        }
        assertEquals(1, Mix.of(Probe.STATIC).entries().size());
    }

    @Test
    void badLinesAreNamedWithTheirNumber() {
        assertBad("1 /a\n0 /b\n", "m.mix line 2: weight 0 must be above 0");
        assertBad("# c\n\n-3 /b\n", "m.mix line 3: weight -3 must be above 0");
        assertBad("x /a\n", "m.mix line 1: weight \"x\" is not a number");
        assertBad("1 /a\n1 a.html\n", "m.mix line 2: path \"a.html\" must start with /");
        assertBad("1 /a ssl\n", "m.mix line 1: unknown or repeated word \"ssl\"");
        assertBad("1 /a bytes=-4\n", "m.mix line 1: \"bytes=-4\": bytes= takes a whole number");
        assertBad("1\n", "m.mix line 1: expected \"weight path [tls] [bytes=N]\"");
        assertBad("# nothing\n\n", "m.mix: no entries");
    }

    private static void assertBad(String text, String expectedStart) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> MixFile.parse("m", "m.mix", text));
        assertTrue(e.getMessage().startsWith(expectedStart), e.getMessage());
    }

    @Test
    void theSampleMixFileParses() throws IOException {
        assertEquals(4, MixFile.read(Path.of("mixes/ecommerce.mix")).entries().size());
    }
}
