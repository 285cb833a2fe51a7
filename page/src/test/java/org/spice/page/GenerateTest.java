package org.spice.page;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("page")
@Tag("unit")
class GenerateTest {

    private static final CanonicalPage PAGE = CanonicalPage.of(1000);

    @Test
    void fillsTheDateSlotPlaceholders() {
        String filled = Generate.fill("@PAGE_BEFORE_DATE@<!--#echo var=\"DATE_LOCAL\" -->@PAGE_AFTER_DATE@", PAGE);
        assertEquals(PAGE.render(CanonicalPage.FIXED_SLOT).replace(CanonicalPage.FIXED_SLOT,
                "<!--#echo var=\"DATE_LOCAL\" -->"), filled);
        assertEquals("1000 1", Generate.fill("@PAGE_BYTES@ @PAGE_BUFFER_KB@", PAGE));
        assertEquals("2048 3", Generate.fill("@PAGE_BYTES@ @PAGE_BUFFER_KB@", CanonicalPage.of(2048)), "strictly larger");
    }

    @Test
    void rejectsAnUnknownPlaceholder() {
        assertThrows(IllegalArgumentException.class, () -> Generate.fill("@PAGE_TYPO@", PAGE));
    }

    @Test
    void writesTheStaticFileAndOneJspPerPageName(@TempDir Path dir) throws Exception {
        Path template = Files.writeString(dir.resolve("t.jsp.in"), "@PAGE_BEFORE_DATE@X@PAGE_AFTER_DATE@\n");
        Generate.main(new String[] {"--bytes", "1000", "static", dir.resolve("spice.html").toString()});
        Generate.main(new String[] {"--bytes", "1000", "jsp-pages", template.toString(), dir.resolve("jsp").toString()});
        assertArrayEquals(PAGE.fixedBytes(), Files.readAllBytes(dir.resolve("spice.html")));
        try (var pages = Files.list(dir.resolve("jsp"))) {
            assertEquals(Probe.JSP_PAGES, pages.count());
        }
        String page99 = Files.readString(dir.resolve("jsp/spice99.jsp"), StandardCharsets.US_ASCII);
        assertEquals(PAGE.beforeSlot() + "X" + PAGE.afterSlot(), page99, "the template's final newline is dropped");
    }

    @Test
    void cHeaderDeclaresTheSizeAndEscapesTheText() {
        String header = Generate.cHeader(PAGE);
        assertTrue(header.contains("#define SPICE_PAGE_BYTES 1000\n"));
        assertTrue(header.contains("#define SPICE_PAGE_BYTES_TEXT \"1000\"\n"));
        assertTrue(header.contains("\"<html lang=\\\"en\\\">\\n\" \\\n"));
    }

    @Test
    void jsModuleExportsExactlyThePage() {
        String module = Generate.jsModule(PAGE);
        assertTrue(module.contains("    contentType: \"" + CanonicalPage.CONTENT_TYPE + "\",\n"));
        int start = module.indexOf("    page: \"") + "    page: \"".length();
        int end = module.lastIndexOf("\"\n};\n");
        String literal = module.substring(start, end);
        StringBuilder decoded = new StringBuilder();
        for (int i = 0; i < literal.length(); i++) {
            char ch = literal.charAt(i);
            if (ch == '\\') {
                char next = literal.charAt(++i);
                decoded.append(next == 'n' ? '\n' : next);
            } else {
                assertTrue(ch != '"' && ch != '\n', "unescaped quote or newline at " + i);
                decoded.append(ch);
            }
        }
        assertEquals(PAGE.fixed(), decoded.toString());
    }

    @Test
    void eachScriptLanguageQuotesThePageAsOneLiteralThatReadsBackExactly() {
        CanonicalPage tricky = CanonicalPage.of(1000);
        for (Generate.Language language : Generate.Language.values()) {
            String literal = language.literal("a'b\"c\\d\ne");
            assertEquals("a'b\"c\\d\ne", unquote(language, literal), language.name());
            assertEquals(tricky.fixed(), unquote(language, language.literal(tricky.fixed())), language.name());
        }
        assertEquals("'it\\'s'", Generate.Language.PHP.literal("it's"));
        assertEquals("b'a\\nb'", Generate.Language.PYTHON.literal("a\nb"));
        assertEquals("\"say \\\"hi\\\"\"", Generate.Language.LUA.literal("say \"hi\""));
        assertThrows(IllegalStateException.class, () -> Generate.Language.LUA.literal("tab\there"));
    }

    @Test
    void aScriptTemplateGetsThePageItsTypeAndItsSize() {
        String script = Generate.script(Generate.Language.PHP, "echo @PAGE_LITERAL@; // @PAGE_CONTENT_TYPE@ @PAGE_BYTES@", PAGE);
        assertTrue(script.startsWith("echo '<!DOCTYPE") || script.startsWith("echo '<"), script.substring(0, 20));
        assertTrue(script.endsWith("; // " + CanonicalPage.CONTENT_TYPE + " 1000\n"));
        assertThrows(IllegalArgumentException.class, () -> Generate.script(Generate.Language.LUA, "@PAGE_TYPO@", PAGE));
    }

    /** Reads a literal back by the language's own rules for the escapes it uses. */
    private static String unquote(Generate.Language language, String literal) {
        String body = switch (language) {
            case PHP -> literal.substring(1, literal.length() - 1);
            case PYTHON -> literal.substring(2, literal.length() - 1);
            case LUA, JAVASCRIPT -> literal.substring(1, literal.length() - 1);
        };
        char quote = language == Generate.Language.LUA || language == Generate.Language.JAVASCRIPT ? '"' : '\'';
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < body.length(); i++) {
            char ch = body.charAt(i);
            if (ch == quote) {
                throw new AssertionError("an unescaped quote ends the literal early at " + i);
            }
            if (ch != '\\') {
                out.append(ch);
                continue;
            }
            char next = body.charAt(++i);
            switch (next) {
                case 'n' -> {
                    if (language == Generate.Language.PHP) {
                        out.append("\\n");   // a single-quoted PHP string keeps \n as two characters
                    } else {
                        out.append('\n');
                    }
                }
                case '\\', '\'', '"' -> out.append(next);
                default -> out.append('\\').append(next);
            }
        }
        return out.toString();
    }
}
