package org.spice.page;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Tag("page")
@Tag("unit")
class CanonicalPageTest {

    private static final Pattern TAG = Pattern.compile("<(/?)([a-zA-Z][a-zA-Z0-9]*)[^>]*>");
    private static final Set<String> VOID_ELEMENTS = Set.of("meta");

    @ParameterizedTest
    @ValueSource(ints = {6250, 1000, 20000})
    void hasExactlyTheRequestedSizeInAscii(int bytes) {
        CanonicalPage page = CanonicalPage.of(bytes);
        byte[] body = page.fixedBytes();
        assertEquals(bytes, body.length);
        assertEquals(bytes, page.render("2026-11-22").getBytes(StandardCharsets.US_ASCII).length);
        for (byte b : body) {
            assertTrue(b == '\n' || (b >= 0x20 && b < 0x7f), "only printable ASCII and newlines, got " + b);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {6250, 1000, 20000})
    void hasOneDateSlotInsideTheTimeElement(int bytes) {
        CanonicalPage page = CanonicalPage.of(bytes);
        String dated = page.render("2026-11-22");
        assertEquals(1, count(dated, "2026-11-22"));
        assertEquals(1, count(page.fixed(), CanonicalPage.FIXED_SLOT));
        assertEquals("2026-11-22", dated.substring(page.slotOffset(), page.slotOffset() + CanonicalPage.SLOT_LENGTH));
        assertTrue(dated.startsWith("<time>", page.slotOffset() - "<time>".length()));
        assertTrue(dated.startsWith("</time>", page.slotOffset() + CanonicalPage.SLOT_LENGTH));
    }

    @ParameterizedTest
    @ValueSource(ints = {6250, 1000, 20000})
    void isWellFormedHtml(int bytes) {
        String html = CanonicalPage.of(bytes).fixed();
        assertTrue(html.startsWith("<!DOCTYPE html>\n<html lang=\"en\">"));
        assertTrue(html.endsWith("</html>\n"));
        Deque<String> open = new ArrayDeque<>();
        Matcher tag = TAG.matcher(html);
        while (tag.find()) {
            String name = tag.group(2).toLowerCase();
            if (tag.group(1).isEmpty()) {
                if (!VOID_ELEMENTS.contains(name)) {
                    open.push(name);
                }
            } else {
                assertEquals(name, open.pop(), "closing tag matches the open one");
            }
        }
        assertTrue(open.isEmpty(), "every element is closed: " + open);
        assertEquals(1, count(html, "<html"));
        assertEquals(1, count(html, "<body>"));
    }

    @Test
    void fillerHoldsNoTemplateSyntax() {
        String html = CanonicalPage.of(20000).fixed();
        for (String syntax : new String[] {"${", "#{", "<%", "<!--", "\\", "?", "&", "\t", "\r"}) {
            assertFalse(html.contains(syntax), "the page must not contain " + syntax);
        }
    }

    @Test
    void isDeterministic() {
        assertEquals(CanonicalPage.of(6250).fixed(), CanonicalPage.of(6250).fixed());
    }

    @Test
    void rejectsASizeBelowItsMarkup() {
        int minimum = CanonicalPage.minimumBytes();
        assertEquals(minimum, CanonicalPage.of(minimum).fixedBytes().length);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CanonicalPage.of(minimum - 1));
        assertTrue(e.getMessage().contains("too small"), e.getMessage());
    }

    @Test
    void rejectsASlotOfTheWrongWidth() {
        assertThrows(IllegalArgumentException.class, () -> CanonicalPage.of(6250).render("2026-1-2"));
    }

    @Test
    void builtSizeComesFromTheBuild() {
        assertEquals(Integer.getInteger("spice.bytes", CanonicalPage.DEFAULT_BYTES), CanonicalPage.builtBytes());
    }

    private static int count(String haystack, String needle) {
        int n = 0;
        for (int i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + 1)) {
            n++;
        }
        return n;
    }
}
