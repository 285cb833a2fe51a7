package org.spice.fileset;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;

import org.spice.harness.UsageException;

/**
 * {@code spice fileset --kind webbench|webstone|specweb99 --out DIR [--connections N]}: writes a static
 * fileset and its mix file into DIR and prints its figures. Serve DIR at {@code /spice/fileset/} on every
 * server, then {@code spice bench --mix DIR/fileset.mix}.
 */
public final class FilesetCommand {

    static final String KINDS = "webbench, webstone or specweb99";

    private FilesetCommand() {
    }

    public static int run(String[] args, PrintStream out) {
        String kind = null;
        String dir = null;
        Integer connections = null;
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            if (!option.equals("--kind") && !option.equals("--out") && !option.equals("--connections")) {
                throw new UsageException("unknown option \"" + option + "\" (--kind, --out, --connections)");
            }
            if (i + 1 >= args.length) {
                throw new UsageException(option + " needs a value");
            }
            String value = args[++i];
            switch (option) {
                case "--kind" -> kind = value;
                case "--out" -> dir = value;
                default -> connections = parseConnections(value);
            }
        }
        if (kind == null) {
            throw new UsageException("--kind is missing: " + KINDS);
        }
        if (dir == null || dir.isBlank()) {
            throw new UsageException("--out is missing: the directory to write the fileset into");
        }
        if (connections != null && !kind.equals("specweb99")) {
            throw new UsageException("--connections applies to --kind specweb99 only");
        }
        Fileset set = generate(kind, connections == null ? SpecWeb99.DEFAULT_CONNECTIONS : connections);
        Path mix;
        try {
            mix = FilesetWriter.write(Path.of(dir), set);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--out " + e.getMessage());
        } catch (IOException e) {
            out.println("cannot write the fileset into " + dir + ": " + e);
            return 1;
        }
        out.print(summary(set, mix));
        return 0;
    }

    /** The fileset of a kind; an unknown kind is a usage error naming --kind. */
    public static Fileset generate(String kind, int connections) {
        return switch (kind) {
            case "webbench" -> WebBench.generate();
            case "webstone" -> WebStone.generate();
            case "specweb99" -> SpecWeb99.generate(connections);
            default -> throw new UsageException("--kind \"" + kind + "\" is not known: " + KINDS);
        };
    }

    static String summary(Fileset set, Path mix) {
        Path root = mix.toAbsolutePath().getParent();
        return String.format(Locale.ROOT, """
                fileset %s: %d files in %s
                  total %d bytes (%.1f MiB), min %d, max %d bytes
                  weighted mean response %.1f bytes (%.1f %% of requests to files under 6,250 bytes)
                  mix: %s (weights sum to %d)
                  serve %s at %s on every server, then: spice bench --mix %s
                """, set.kind(), set.count(), root, set.totalBytes(), set.totalBytes() / 1048576.0,
                set.minBytes(), set.maxBytes(), set.weightedMean(), 100 * set.shareBelow(6_250), mix.toAbsolutePath(),
                set.totalWeight(), root, FilesetWriter.URL_PREFIX, mix.toAbsolutePath());
    }

    private static int parseConnections(String value) {
        try {
            int n = Integer.parseInt(value);
            if (n >= 1 && n <= 1_000_000) {
                return n;
            }
        } catch (NumberFormatException e) {
            // falls through to the usage error
        }
        throw new UsageException("--connections \"" + value + "\": give a whole number from 1 to 1000000");
    }
}
