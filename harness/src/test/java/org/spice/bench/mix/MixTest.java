package org.spice.bench.mix;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.spice.page.Probe;

/** What a mix asks a Java server's JIT to compile: a class per JSP page, one handler for everything else. */
@Tag("unit")
class MixTest {

    @Test
    void eachJspPageIsCodeOfItsOwnAndNothingElseIs() {
        assertEquals(Probe.JSP_PAGES, Mix.of(Probe.JSP).jspPages());
        assertEquals(0, Mix.of(Probe.SERVLET).jspPages());
        assertEquals(0, Mix.of(Probe.STATIC).jspPages());
        Mix mixed = new Mix("m", "file m", List.of(new MixEntry(1, "/spice/jsp/spice00.jsp?x=1", false, -1),
                new MixEntry(1, "/spice/jsp/spice00.jsp", true, -1), new MixEntry(1, "/spice/jsp/spice01.jsp", false, -1),
                new MixEntry(5, "/spice/static/spice.html", false, -1)));
        assertEquals(2, mixed.jspPages(), "a page asked with a query, or over TLS, is still the one page");
    }
}
