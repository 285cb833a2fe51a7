package org.spice.commands;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.spice.bench.mix.Mix;
import org.spice.bench.mix.MixEntry;
import org.spice.bench.mix.MixFile;
import org.spice.cli.Cli;
import org.spice.commands.FilesetCommand;
import org.spice.fileset.Fileset;
import org.spice.fileset.FilesetWriter;
import org.spice.fileset.SpecWeb99;
import org.spice.fileset.WebBench;
import org.spice.fileset.WebStone;

/**
 * {@code spice fileset} end to end: the files on disk agree with the mix file the bench reads, a second
 * generation is byte for byte the first, and bad options or a foreign directory are refused by name.
 */
@Tag("unit")
class FilesetCommandTest {

    @TempDir
    Path tmp;

    @ParameterizedTest
    @CsvSource({
            "webbench,  '',                6000, 1000000000, 'weighted mean response 6250.1 bytes'",
            "webstone,  '',                1000, 1000,       'weighted mean response 19773.0 bytes'",
            "specweb99, '--connections 1',  900, 25000000,   'weighted mean response 14726.9 bytes'"})
    void writesFilesThatAgreeWithTheMixAndAreTheSameEveryTime(String kind, String extra, int count,
            long weightSum, String meanLine) throws IOException {
        Path dir = tmp.resolve(kind);
        String summary = run(kind, extra, dir);
        assertTrue(summary.contains("fileset " + kind + ": " + count + " files"), summary);
        assertTrue(summary.contains(meanLine), summary);

        Fileset expected = Fileset.of(kind, extra.isEmpty() ? 10 : 1);
        Mix mix = MixFile.read(dir.resolve(FilesetWriter.MIX));
        assertEquals(count, mix.entries().size());
        double weights = 0;
        double weightedBytes = 0;
        for (MixEntry entry : mix.entries()) {
            assertTrue(entry.path().startsWith("/spice/fileset/"), entry.path());
            assertFalse(entry.tls());
            Path file = dir.resolve(entry.path().substring("/spice/fileset/".length()));
            assertEquals(entry.bytes(), Files.size(file), entry.path());
            weights += entry.weight();
            weightedBytes += entry.weight() * entry.bytes();
        }
        assertEquals(weightSum, weights, 0.0);
        assertEquals(expected.weightedMean(), weightedBytes / weights, 1e-6);
        assertEquals(count + 1, regularFiles(dir).size(), "the files and fileset.mix, nothing else");

        String first = digest(dir, true);
        run(kind, extra, dir);   // a second generation into the same directory is allowed and identical
        assertEquals(first, digest(dir, false));
    }

    @Test
    void mixFilesArePinned() {
        // The mix lists every size and weight; pinning its digest catches any drift across JVMs or edits.
        assertAll(() -> assertEquals("e38f828c77888ed780a47c32c345a49894224e2bdb1f6dd757165134fb28c7f0", sha256(FilesetWriter.mixText(WebBench.generate()))),
                () -> assertEquals("ef753af60fa90db7ebed69c10727ebb69902c31728528d8d4c96c48d843dca2f", sha256(FilesetWriter.mixText(WebStone.generate()))),
                () -> assertEquals("4f554a3d3569544a94e8d4de71d89397180fa933c4cd1659de87f3f3a2c8884f", sha256(FilesetWriter.mixText(SpecWeb99.generate(10)))));
    }

    @Test
    void refusesADirectoryThatIsNotAFilesetOfTheSameKind() throws IOException {
        Path other = Files.createDirectories(tmp.resolve("other"));
        Files.writeString(other.resolve("index.html"), "mine");
        String e = refused("--kind", "webstone", "--out", other.toString());
        assertTrue(e.startsWith("fileset: --out ") && e.contains("is not empty and is not a fileset"), e);
        assertEquals(List.of(other.resolve("index.html")), regularFiles(other), "nothing written");

        Path bench = Files.createDirectories(tmp.resolve("bench"));
        Files.writeString(bench.resolve(FilesetWriter.MIX), "# SPICE fileset kind=webbench\n1 /spice/fileset/a.html\n");
        e = refused("--kind", "webstone", "--out", bench.toString());
        assertTrue(e.contains("holds a webbench fileset, not webstone"), e);

        Path file = Files.writeString(tmp.resolve("plain"), "x");
        e = refused("--kind", "webstone", "--out", file.toString());
        assertTrue(e.contains("is not a directory"), e);
    }

    @Test
    void rewritingRemovesFilesTheNewFilesetNoLongerHas() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("ws"));
        Path stale = Files.createDirectories(dir.resolve("gone")).resolve("old.html");
        Files.writeString(stale, "old");
        Path outside = Files.writeString(tmp.resolve("keep.html"), "keep");
        Files.writeString(dir.resolve(FilesetWriter.MIX), "# SPICE fileset kind=webstone\n"
                + "1 /spice/fileset/gone/old.html bytes=3\n1 /spice/fileset/../keep.html bytes=4\n");
        run("webstone", "", dir);
        assertFalse(Files.exists(stale));
        assertFalse(Files.exists(dir.resolve("gone")));
        assertTrue(Files.exists(outside), "a line pointing outside the fileset is never followed");
    }

    @Test
    void badOptionsNameTheOption() {
        assertMessage("--kind \"nope\" is not known", "--kind", "nope", "--out", tmp.resolve("a").toString());
        assertMessage("Missing required option: '--kind=KIND'", "--out", tmp.resolve("a").toString());
        assertMessage("Missing required option: '--out=DIR'", "--kind", "webbench");
        assertMessage("Missing required parameter for option '--out'", "--kind", "webbench", "--out");
        assertMessage("--connections applies to --kind specweb99 only", "--kind", "webbench", "--out", "x",
                "--connections", "5");
        assertMessage("--connections \"0\"", "--kind", "specweb99", "--out", "x", "--connections", "0");
        assertMessage("Unknown options: '--size'", "--kind", "webbench", "--out", "x", "--size", "3");
        assertFalse(Files.exists(tmp.resolve("a")));
    }

    private static void assertMessage(String start, String... args) {
        String e = refused(args);
        assertTrue(e.startsWith("fileset: " + start), e);
    }

    /** What the command says on stderr when it refuses {@code args} (exit 2). */
    private static String refused(String... args) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Cli.run(new FilesetCommand(), new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8), args);
        assertEquals(2, status, err.toString(StandardCharsets.UTF_8));
        return err.toString(StandardCharsets.UTF_8);
    }

    private static String run(String kind, String extra, Path dir) {
        List<String> args = new java.util.ArrayList<>(List.of("--kind", kind, "--out", dir.toString()));
        if (!extra.isEmpty()) {
            args.addAll(List.of(extra.split(" ")));
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int status = Cli.run(new FilesetCommand(), new PrintStream(bytes, true, StandardCharsets.UTF_8), System.err,
                args.toArray(String[]::new));
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, out);
        return out;
    }

    private static List<Path> regularFiles(Path dir) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.filter(Files::isRegularFile).sorted().toList();
        }
    }

    /** SHA-256 over every file's relative path and bytes, in path order; optionally checks each page's text. */
    private static String digest(Path dir, boolean checkText) throws IOException {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (Path file : regularFiles(dir)) {
                byte[] content = Files.readAllBytes(file);
                sha.update(dir.relativize(file).toString().getBytes(StandardCharsets.UTF_8));
                sha.update(content);
                if (checkText && file.toString().endsWith(".html")) {
                    String text = new String(content, StandardCharsets.ISO_8859_1);
                    assertTrue(text.startsWith("<!DOCTYPE html>") && text.endsWith("</html>\n"), file.toString());
                    assertFalse(text.contains("<!--#") || text.contains("<%") || text.contains("${"));
                    assertTrue(text.chars().allMatch(c -> c == '\n' || (c >= 0x20 && c < 0x7f)), file.toString());
                }
            }
            return HexFormat.of().formatHex(sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String sha256(String text) throws NoSuchAlgorithmException {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest(text.getBytes(StandardCharsets.US_ASCII)));
    }
}
