package org.spice.fileset;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Writes a fileset into a directory: every file, and {@code fileset.mix} listing them for
 * {@code spice bench --mix} under {@code /spice/fileset/}, where every server serves the directory.
 *
 * <p>The mix file's first line names the kind; it is how a later run recognises a directory it may
 * rewrite. Anything else that is not empty is refused, so a mistyped --out never scribbles over other files.
 */
public final class FilesetWriter {

    public static final String MIX = "fileset.mix";
    public static final String URL_PREFIX = "/spice/fileset/";
    private static final String MARKER = "# SPICE fileset kind=";

    private FilesetWriter() {
    }

    /**
     * Writes {@code set} into {@code dir} and returns the mix file.
     *
     * @throws IllegalArgumentException if {@code dir} is not empty and not a fileset of the same kind
     */
    public static Path write(Path dir, Fileset set) throws IOException {
        List<String> previous = check(dir, set.kind());
        Files.createDirectories(dir);
        Path mix = dir.resolve(MIX);
        // The mix first: a run cut short leaves a directory that the next run recognises and completes.
        Files.writeString(mix, mixText(set), StandardCharsets.US_ASCII);
        Set<String> current = new HashSet<>();
        for (FileSpec file : set.files()) {
            Path path = dir.resolve(file.path());
            Files.createDirectories(path.getParent());
            Files.write(path, HtmlFiller.page(file.bytes()));
            current.add(file.path());
        }
        removeStale(dir, previous, current);
        return mix;
    }

    /** The mix file: a header with the kind and the figures, then "weight path bytes=N" per file. */
    public static String mixText(Fileset set) {
        StringBuilder text = new StringBuilder();
        text.append(MARKER).append(set.kind()).append('\n');   // '\n', not %n: the same bytes on every OS
        text.append("# ").append(set.about()).append('\n');
        text.append(String.format(Locale.ROOT, "# %d files, %d bytes, min %d, max %d, weighted mean response"
                + " %.1f bytes, weights sum to %d\n", set.count(), set.totalBytes(), set.minBytes(),
                set.maxBytes(), set.weightedMean(), set.totalWeight()));
        text.append("# Written by spice fileset; serve this directory at ").append(URL_PREFIX)
                .append(" and use: spice bench --mix fileset.mix\n");
        text.append("# weight  path  bytes=N\n");
        for (FileSpec file : set.files()) {
            text.append(file.weight()).append(' ').append(URL_PREFIX).append(file.path())
                    .append(" bytes=").append(file.bytes()).append('\n');
        }
        return text.toString();
    }

    /**
     * Refuses a directory that holds anything but a fileset of this kind; returns the paths the previous
     * fileset's mix listed (relative), so that files the new one no longer has can be removed.
     */
    static List<String> check(Path dir, String kind) throws IOException {
        if (!Files.exists(dir)) {
            return List.of();
        }
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException(dir + " exists and is not a directory");
        }
        try (Stream<Path> entries = Files.list(dir)) {
            if (entries.findAny().isEmpty()) {
                return List.of();
            }
        }
        Path mix = dir.resolve(MIX);
        String first = "";
        if (Files.isRegularFile(mix)) {
            try (Stream<String> lines = Files.lines(mix, StandardCharsets.ISO_8859_1)) {
                first = lines.findFirst().orElse("");
            }
        }
        if (!first.startsWith(MARKER)) {
            throw new IllegalArgumentException(dir + " is not empty and is not a fileset written by spice fileset"
                    + " (no " + MIX + " starting with \"" + MARKER + "\"); refusing to write into it: give an"
                    + " empty or new directory");
        }
        String found = first.substring(MARKER.length()).strip();
        if (!found.equals(kind)) {
            throw new IllegalArgumentException(dir + " holds a " + found + " fileset, not " + kind
                    + "; refusing to mix them: give an empty or new directory");
        }
        try (Stream<String> lines = Files.lines(mix, StandardCharsets.ISO_8859_1)) {
            return lines.filter(line -> !line.startsWith("#"))
                    .map(line -> line.split(" "))
                    .filter(fields -> fields.length >= 2 && fields[1].startsWith(URL_PREFIX))
                    .map(fields -> fields[1].substring(URL_PREFIX.length()))
                    .toList();
        }
    }

    /** Deletes the previous fileset's files that the new one lacks, and directories that become empty. */
    private static void removeStale(Path dir, List<String> previous, Set<String> current) throws IOException {
        Path root = dir.toAbsolutePath().normalize();
        for (String old : previous) {
            Path path = root.resolve(old).normalize();
            if (current.contains(old) || !path.startsWith(root) || path.equals(root)) {
                continue;   // still in use, or a line that points outside the fileset: never touch it
            }
            Files.deleteIfExists(path);
            Path parent = path.getParent();
            if (!parent.equals(root) && Files.isDirectory(parent)) {
                try (Stream<Path> left = Files.list(parent)) {
                    if (left.findAny().isEmpty()) {
                        Files.delete(parent);
                    }
                }
            }
        }
    }
}
