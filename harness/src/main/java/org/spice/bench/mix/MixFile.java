package org.spice.bench.mix;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The plain-text mix format. One request class per line:
 *
 * <pre>
 * # e-commerce mix of the white paper (comments start with #, blank lines are ignored)
 * 75   /spice/static/spice.html
 * 17   /spice/servlet
 * 6    /spice/static/spice.html   tls
 * 2    /spice/servlet             tls
 * 1    /other/page.html           bytes=512
 * </pre>
 *
 * <p>Fields are separated by spaces or tabs: a weight (any number above 0; weights are relative, they need
 * not add up to 100), an absolute path (prefixed by the base URL's path), then optional words: {@code tls}
 * sends that request over TLS, {@code bytes=N} expects a body of N bytes instead of the run's
 * {@code --bytes}. A {@code #} starts a comment anywhere on a line. Errors name the file and line.
 */
public final class MixFile {

    private MixFile() {
    }

    /** Reads a mix file; its name is the file name without extension. */
    public static Mix read(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        String name = file.getFileName().toString().replaceFirst("\\.[^.]*$", "");
        return parse(name, file.toString(), text);
    }

    /** Parses mix text; {@code source} names it in error messages. */
    public static Mix parse(String name, String source, String text) {
        List<MixEntry> entries = new ArrayList<>();
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            int hash = line.indexOf('#');
            if (hash >= 0) {
                line = line.substring(0, hash);
            }
            line = line.strip();
            if (line.isEmpty()) {
                continue;
            }
            try {
                entries.add(parseLine(line));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(source + " line " + (i + 1) + ": " + e.getMessage());
            }
        }
        if (entries.isEmpty()) {
            throw new IllegalArgumentException(source + ": no entries (each line is: weight path [tls] [bytes=N])");
        }
        return new Mix(name, source, entries);
    }

    private static MixEntry parseLine(String line) {
        String[] fields = line.split("[ \t]+");
        if (fields.length < 2) {
            throw new IllegalArgumentException("expected \"weight path [tls] [bytes=N]\", got \"" + line + "\"");
        }
        double weight;
        try {
            weight = Double.parseDouble(fields[0]);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("weight \"" + fields[0] + "\" is not a number");
        }
        if (!(weight > 0) || Double.isInfinite(weight)) {
            throw new IllegalArgumentException("weight " + fields[0] + " must be above 0");
        }
        String path = fields[1];
        if (!path.startsWith("/")) {
            throw new IllegalArgumentException("path \"" + path + "\" must start with /");
        }
        boolean tls = false;
        long bytes = -1;
        for (int f = 2; f < fields.length; f++) {
            String word = fields[f].toLowerCase(Locale.ROOT);
            if (word.equals("tls") && !tls) {
                tls = true;
            } else if (word.startsWith("bytes=") && bytes < 0) {
                try {
                    bytes = Long.parseLong(word.substring(6));
                } catch (NumberFormatException e) {
                    bytes = -2;
                }
                if (bytes < 0) {
                    throw new IllegalArgumentException("\"" + fields[f] + "\": bytes= takes a whole number of 0 or more");
                }
            } else {
                throw new IllegalArgumentException("unknown or repeated word \"" + fields[f] + "\" (allowed: tls, bytes=N)");
            }
        }
        return new MixEntry(weight, path, tls, bytes);
    }
}
