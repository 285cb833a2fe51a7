package org.spice.servers;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;

/** Files and folders of a run directory: copied in, removed, written from a template, fresh logs. */
final class Trees {

    private Trees() {
    }

    /** {@code from} (a file, or a folder and everything in it) as {@code to}, modes kept; what was there replaced. */
    static void copy(Path from, Path to) throws IOException {
        if (!Files.exists(from)) {
            throw new IOException(from + " is missing" + (from.toString().contains("/target/") ? ": build first (scripts/spice"
                    + " build)" : ""));
        }
        Files.createDirectories(to.toAbsolutePath().getParent());
        try (Stream<Path> all = Files.walk(from)) {
            for (Path each : all.toList()) {
                Path target = to.resolve(from.relativize(each).toString());
                if (Files.isDirectory(each)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(each, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }

    /** {@code from} into the folder {@code dir}, under its own name. */
    static void copyInto(Path from, Path dir) throws IOException {
        copy(from, dir.resolve(from.getFileName().toString()));
    }

    /** Removes {@code tree} and everything in it (links are removed, not followed); nothing where it is not there. */
    static void delete(Path tree) throws IOException {
        if (!Files.exists(tree, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        if (!Files.isDirectory(tree, LinkOption.NOFOLLOW_LINKS)) {
            Files.delete(tree);
            return;
        }
        try (Stream<Path> all = Files.walk(tree)) {
            for (Path each : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(each);
            }
        }
    }

    /**
     * {@code template} written to {@code to} with every @WORD@ of {@code words} replaced; an IOException where a word of
     * SPICE's (@SPICE_...@) is left that none replaced.
     */
    static void fill(Path template, Path to, Map<String, String> words) throws IOException {
        String text = Files.readString(template, StandardCharsets.UTF_8);
        for (Map.Entry<String, String> word : words.entrySet()) {
            text = text.replace("@" + word.getKey() + "@", word.getValue());
        }
        int unknown = text.indexOf("@SPICE_");
        if (unknown >= 0) {
            String word = text.substring(unknown, Math.min(text.length(), text.indexOf('@', unknown + 1) + 1));
            throw new IOException(template + " has a word no launcher fills: " + word);
        }
        Files.writeString(to, text, StandardCharsets.UTF_8);
    }

    /**
     * A fresh RUN/logs for a start, the last start's kept as RUN/logs.previous: what a start reads in its logs to tell
     * that it failed (a BindException, httpd's AH00072) is then this start's, not an earlier one's (httpd and Tomcat
     * append).
     */
    static void freshLogs(Path run) throws IOException {
        Path logs = run.resolve("logs");
        if (Files.isDirectory(logs)) {
            boolean empty;
            try (Stream<Path> entries = Files.list(logs)) {
                empty = entries.findAny().isEmpty();
            }
            if (!empty) {
                Path previous = run.resolve("logs.previous");
                delete(previous);
                Files.move(logs, previous);
            }
        }
        Files.createDirectories(logs);
    }

    /** Whether {@code file}'s text holds a match of {@code pattern} (a start's failure in a log); false where unread. */
    static boolean says(Path file, java.util.regex.Pattern pattern) {
        try {
            return Files.isRegularFile(file) && pattern.matcher(Files.readString(file, StandardCharsets.ISO_8859_1)).find();
        } catch (IOException e) {
            return false;
        }
    }
}
