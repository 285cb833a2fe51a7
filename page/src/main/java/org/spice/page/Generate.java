package org.spice.page;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Writes the build artefacts that derive from the canonical page; the build runs it, nobody edits its output.
 *
 * <pre>
 * Generate --bytes N static   OUT_FILE            the static baseline file (fixed slot)
 * Generate --bytes N template TEMPLATE OUT_FILE   a probe's template with the page filled in
 * Generate --bytes N jsp-pages TEMPLATE OUT_DIR   the 100 JSP pages from one template
 * Generate --bytes N c-header OUT_FILE            the page as a C string for the CGI program and the C modules
 * Generate --bytes N js-module OUT_FILE           the page as a JavaScript module for nginx's njs probe
 * Generate --bytes N script LANG TEMPLATE OUT_FILE a PHP, Python, Lua or JavaScript probe: the page one literal of LANG
 * </pre>
 *
 * Templates are text files with placeholders: {@code @PAGE_BEFORE_DATE@} and {@code @PAGE_AFTER_DATE@}
 * (the page around the date slot), {@code @PAGE_BYTES@} (its size) and {@code @PAGE_BUFFER_KB@} (a buffer
 * size in KiB that holds the whole page, so the server can send a Content-Length). The template's final
 * newline, which editors add, is not part of the page and is dropped. A script template has
 * {@code @PAGE_LITERAL@} instead (the page with its fixed slot, quoted for the language: php, python, lua or javascript) and
 * {@code @PAGE_CONTENT_TYPE@}.
 */
public final class Generate {

    private Generate() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 4 || !args[0].equals("--bytes")) {
            usage();
            return;
        }
        CanonicalPage page = CanonicalPage.of(Integer.parseInt(args[1]));
        String kind = args[2];
        switch (kind) {
            case "static" -> write(Path.of(args[3]), page.fixed());
            case "c-header" -> write(Path.of(args[3]), cHeader(page));
            case "js-module" -> write(Path.of(args[3]), jsModule(page));
            case "template" -> {
                requireArgs(args, 5);
                write(Path.of(args[4]), fill(readTemplate(Path.of(args[3])), page));
            }
            case "script" -> {
                requireArgs(args, 6);
                write(Path.of(args[5]), script(Language.of(args[3]), readTemplate(Path.of(args[4])), page));
            }
            case "jsp-pages" -> {
                requireArgs(args, 5);
                String jsp = fill(readTemplate(Path.of(args[3])), page);
                for (String name : Probe.jspPageNames()) {
                    write(Path.of(args[4]).resolve(name), jsp);
                }
            }
            default -> usage();
        }
    }

    /** Fills a template's placeholders from the page. */
    public static String fill(String template, CanonicalPage page) {
        Map<String, String> values = Map.of(
                "@PAGE_BEFORE_DATE@", page.beforeSlot(),
                "@PAGE_AFTER_DATE@", page.afterSlot(),
                "@PAGE_BYTES@", Integer.toString(page.bytes()),
                "@PAGE_BUFFER_KB@", Integer.toString(page.bytes() / 1024 + 1));
        String text = template;
        for (Map.Entry<String, String> value : values.entrySet()) {
            text = text.replace(value.getKey(), value.getValue());
        }
        if (text.contains("@PAGE_")) {
            throw new IllegalArgumentException("template has an unknown @PAGE_...@ placeholder");
        }
        return text;
    }

    /** The scripting languages a probe is written in, each with how it quotes the page as one string literal. */
    public enum Language {
        /** A single-quoted string: only the quote and the backslash are escaped, a newline is itself. */
        PHP("'", Map.of('\'', "\\'", '\\', "\\\\")),
        /** A bytes literal, so the WSGI application returns bytes without encoding anything per request. */
        PYTHON("b'", Map.of('\'', "\\'", '\\', "\\\\", '\n', "\\n")),
        /** A double-quoted string (Lua 5.1 to 5.4 and LuaJIT read it alike). */
        LUA("\"", Map.of('"', "\\\"", '\\', "\\\\", '\n', "\\n")),
        /** A double-quoted JavaScript string, which Node.js turns into a Buffer once. */
        JAVASCRIPT("\"", Map.of('"', "\\\"", '\\', "\\\\", '\n', "\\n"));

        private final String open;
        private final Map<Character, String> escapes;

        Language(String open, Map<Character, String> escapes) {
            this.open = open;
            this.escapes = escapes;
        }

        static Language of(String name) {
            for (Language language : values()) {
                if (language.name().equalsIgnoreCase(name)) {
                    return language;
                }
            }
            throw new IllegalArgumentException("script languages: php, python, lua, javascript; not \"" + name + "\"");
        }

        /** {@code text} as one literal of the language; the page is printable ASCII and newlines, nothing else. */
        public String literal(String text) {
            StringBuilder out = new StringBuilder(text.length() + 64).append(open);
            for (char ch : text.toCharArray()) {
                String escaped = escapes.get(ch);
                if (escaped != null) {
                    out.append(escaped);
                } else if (ch >= 0x20 && ch <= 0x7e || ch == '\n') {
                    out.append(ch);
                } else {
                    throw new IllegalStateException("the page holds a character a " + name() + " literal does not escape");
                }
            }
            return out.append(open.substring(open.length() - 1)).toString();
        }
    }

    /** A script template with the page as a literal of {@code language}, its size and its type filled in. */
    public static String script(Language language, String template, CanonicalPage page) {
        String text = template.replace("@PAGE_LITERAL@", language.literal(page.fixed()))
                .replace("@PAGE_CONTENT_TYPE@", CanonicalPage.CONTENT_TYPE)
                .replace("@PAGE_BYTES@", Integer.toString(page.bytes()));
        if (text.contains("@PAGE_")) {
            throw new IllegalArgumentException("script template has an unknown @PAGE_...@ placeholder");
        }
        return text + "\n";
    }

    /** The page as a C header: {@code SPICE_PAGE} (a string literal), {@code SPICE_PAGE_BYTES} and its text form. */
    public static String cHeader(CanonicalPage page) {
        StringBuilder c = new StringBuilder();
        c.append("/* Generated from the canonical page by org.spice.page.Generate: do not edit. */\n");
        c.append("#ifndef SPICE_PAGE_H\n#define SPICE_PAGE_H\n\n");
        c.append("#define SPICE_PAGE_BYTES ").append(page.bytes()).append('\n');
        c.append("#define SPICE_PAGE_BYTES_TEXT \"").append(page.bytes()).append("\"\n");
        c.append("#define SPICE_CONTENT_TYPE \"").append(CanonicalPage.CONTENT_TYPE).append("\"\n\n");
        c.append("/* The page with its fixed date slot, ").append(page.bytes()).append(" bytes. */\n");
        c.append("#define SPICE_PAGE \\\n");
        String text = page.fixed();
        int lineStart = 0;
        for (int i = 0; i <= text.length(); i++) {
            if (i == text.length() || text.charAt(i) == '\n') {
                int end = Math.min(i + 1, text.length());
                if (end > lineStart) {
                    c.append("    \"").append(cEscape(text.substring(lineStart, end))).append("\"");
                    c.append(end < text.length() ? " \\\n" : "\n");
                }
                lineStart = end;
            }
        }
        c.append("\n#endif\n");
        return c.toString();
    }

    /** The page as a JavaScript module: {@code export default {contentType, page}}, the page (fixed slot) one string literal. */
    public static String jsModule(CanonicalPage page) {
        StringBuilder js = new StringBuilder();
        js.append("// Generated from the canonical page by org.spice.page.Generate: do not edit.\n");
        js.append("// The page with its fixed date slot, ").append(page.bytes()).append(" bytes (ASCII: as many characters).\n");
        js.append("export default {\n    contentType: \"").append(CanonicalPage.CONTENT_TYPE).append("\",\n    page: \"");
        for (char ch : page.fixed().toCharArray()) {
            switch (ch) {
                case '\n' -> js.append("\\n");
                case '"' -> js.append("\\\"");
                case '\\' -> js.append("\\\\");
                default -> {
                    if (ch < 0x20 || ch > 0x7e) {
                        throw new IllegalStateException("the page holds a character the JavaScript literal does not escape");
                    }
                    js.append(ch);
                }
            }
        }
        return js.append("\"\n};\n").toString();
    }

    private static String cEscape(String s) {
        StringBuilder out = new StringBuilder(s.length() + 8);
        for (char ch : s.toCharArray()) {
            switch (ch) {
                case '\n' -> out.append("\\n");
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '?' -> out.append("\\?"); // no trigraphs
                default -> out.append(ch);
            }
        }
        return out.toString();
    }

    private static String readTemplate(Path template) throws IOException {
        String text = Files.readString(template, StandardCharsets.US_ASCII);
        return text.endsWith("\n") ? text.substring(0, text.length() - 1) : text;
    }

    private static void write(Path file, String text) throws IOException {
        if (file.getParent() != null) {
            Files.createDirectories(file.getParent());
        }
        Files.write(file, text.getBytes(StandardCharsets.US_ASCII));
    }

    private static void requireArgs(String[] args, int count) {
        if (args.length < count) {
            usage();
        }
    }

    private static void usage() {
        throw new IllegalArgumentException("usage: Generate --bytes N static|c-header|js-module OUT_FILE"
                + " | template TEMPLATE OUT_FILE | jsp-pages TEMPLATE OUT_DIR | script php|python|lua|javascript TEMPLATE OUT_FILE");
    }
}
