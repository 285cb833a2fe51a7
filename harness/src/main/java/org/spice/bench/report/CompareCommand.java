package org.spice.bench.report;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.spice.bench.stats.SpiceFigures;
import org.spice.harness.UsageException;

/**
 * {@code spice compare DIR... [--out DIR]}: one comparison of the servers measured in the given results
 * directories (one bench run each), printed and written as compare.txt and compare.html.
 */
public final class CompareCommand {

    private CompareCommand() {
    }

    public static int run(String[] args, PrintStream out) {
        List<Path> files = new ArrayList<>();
        Path outDir = null;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--out")) {
                if (++i >= args.length) {
                    throw new UsageException("--out needs a directory");
                }
                outDir = Path.of(args[i]);
            } else {
                Path given = Path.of(args[i]);
                files.add(Files.isDirectory(given) ? given.resolve(ResultsJson.FILE) : given);
            }
        }
        if (files.size() < 2) {
            throw new UsageException("give at least two results directories to compare");
        }
        Map<String, List<SpiceFigures.Summary>> summaries = new LinkedHashMap<>();
        long bodyBytes = -1;
        for (Path file : files) {
            Results results;
            try {
                results = ResultsJson.readResults(file);
            } catch (IOException e) {
                out.println(e.getMessage());
                return 1;
            }
            if (bodyBytes >= 0 && results.bodyBytes() != bodyBytes) {
                out.println(file + " was measured with " + results.bodyBytes() + "-byte bodies, the others with "
                        + bodyBytes + ": not comparable");
                return 1;
            }
            bodyBytes = results.bodyBytes();
            String name = results.server() != null ? results.server() : results.target();
            summaries.put(summaries.containsKey(name) ? name + " (" + file.getParent().getFileName() + ")" : name,
                    results.summary());
        }
        Comparison comparison = new Comparison(summaries, bodyBytes);
        String text = CompareReport.text(comparison);
        out.print(text);
        Path dir = outDir != null ? outDir : files.get(0).toAbsolutePath().getParent().getParent();
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("compare.txt"), text, StandardCharsets.UTF_8);
            Files.writeString(dir.resolve("compare.html"), CompareReport.html(comparison,
                    CompareReport.rateChart(comparison), CompareReport.cpuChart(comparison)), StandardCharsets.UTF_8);
        } catch (IOException e) {
            out.println("cannot write the comparison in " + dir + ": " + e.getMessage());
            return 1;
        }
        out.println("comparison: " + dir.toAbsolutePath().resolve("compare.html"));
        return 0;
    }
}
