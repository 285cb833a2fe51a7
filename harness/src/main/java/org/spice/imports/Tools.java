package org.spice.imports;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

import org.spice.bench.samples.ImportException;

/** The load tools whose output {@code spice import} reads. */
public enum Tools {
    AB, H2LOAD, WRK, JMETER, OHA, VEGETA;

    /** The name on the command line and in results: ab, h2load, wrk, jmeter. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    public Imported read(List<Path> files, Claim claim, long expectedBytes) throws ImportException {
        for (Path file : files) {
            if (!Files.isReadable(file)) {
                throw new ImportException(file + ": cannot read it");
            }
        }
        return switch (this) {
            case AB -> AbImport.read(files, claim, expectedBytes);
            case H2LOAD -> H2loadImport.read(files, claim, expectedBytes);
            case WRK -> WrkImport.read(files, claim, expectedBytes);
            case JMETER -> JtlImport.read(files, claim, expectedBytes);
            case OHA -> OhaImport.read(files, claim, expectedBytes);
            case VEGETA -> throw new ImportException("vegeta runs open loop: its results are read by readOpen");
        };
    }

    /** Whether the tool can run open loop, a request due on a schedule (vegeta always; oha with -q). */
    public boolean runsOpenLoop() {
        return this == VEGETA || this == OHA;
    }

    /** The tool's run open loop at {@code rate} (null: the rate its output shows), as SPICE keeps one. */
    public OpenImported readOpen(List<Path> files, Claim claim, Double rate, long expectedBytes) throws ImportException {
        for (Path file : files) {
            if (!Files.isReadable(file)) {
                throw new ImportException(file + ": cannot read it");
            }
        }
        return switch (this) {
            case VEGETA -> VegetaImport.read(files, claim, rate, expectedBytes);
            case OHA -> OhaImport.readOpen(files, claim, rate, expectedBytes);
            default -> throw new ImportException(id() + " runs a closed loop only");
        };
    }

    /**
     * A tool's two files told apart by their first bytes: its text summary and its per-request log, in
     * that order; anything else is refused, naming the file.
     */
    static SummaryAndLog summaryAndLog(List<Path> files, String tool, Predicate<String> isSummary,
            Predicate<String> isLog, String logName) throws ImportException {
        Path[] found = new Path[2];
        for (Path file : files) {
            String head = head(file);
            int which = isSummary.test(head) ? 0 : isLog.test(head) ? 1 : -1;
            if (which < 0) {
                throw new ImportException(file + ":1: neither " + tool + "'s text output nor its " + logName);
            }
            found[which] = file;
        }
        if (found[0] == null || found[1] == null) {
            throw new ImportException(tool + ": give both files: " + tool + "'s text output and its " + logName);
        }
        return new SummaryAndLog(found[0], found[1], read(found[0]));
    }

    /** A tool's two files: its text summary ({@code text} what it says) and its per-request log. */
    record SummaryAndLog(Path summary, Path log, String text) {
    }

    /** The one file of a tool whose output is a single file. */
    static Path single(List<Path> files, String tool, String what) throws ImportException {
        if (files.size() != 1) {
            throw new ImportException(tool + ": give one file, " + what);
        }
        return files.get(0);
    }

    /** The first 4 KiB of a file, to tell which of a tool's files it is. */
    static String head(Path file) throws ImportException {
        try (var in = Files.newInputStream(file)) {
            return new String(in.readNBytes(4096), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ImportException(file + ": cannot read it (" + e.getMessage() + ")");
        }
    }

    static String read(Path file) throws ImportException {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ImportException(file + ": cannot read it (" + e.getMessage() + ")");
        }
    }
}
