package org.spice.commands;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.spice.cli.Cli;
import org.spice.fileset.Fileset;
import org.spice.fileset.FilesetWriter;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code spice fileset --kind webbench|webstone|specweb99 --out DIR [--connections N]}: writes a static
 * fileset and its mix file into DIR and prints its figures. Serve DIR at {@code /spice/fileset/} on every
 * server, then {@code spice bench --mix DIR/fileset.mix}.
 */
@Command(name = "fileset", sortOptions = false, mixinStandardHelpOptions = true,
        description = "Write a deterministic static fileset and its mix file (scripts/spice's default DIR: run/fileset,"
                + " which every server serves at /spice/fileset/).")
public final class FilesetCommand extends Cli.Printing implements Callable<Integer> {


    @Spec
    CommandSpec spec;

    @Option(names = "--kind", required = true, paramLabel = "KIND", description = "webbench, webstone or specweb99.")
    String kind;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "The directory to write the fileset into.")
    Path dir;

    @Option(names = "--connections", paramLabel = "N", description = "SPECweb99 only: the connections the fileset is sized for (1 to 1000000).")
    Integer connections;

    @Override
    public Integer call() {
        Cli.Checks check = new Cli.Checks(spec);
        if (connections != null && !kind.equals("specweb99")) {
            throw check.fail("--connections applies to --kind specweb99 only");
        }
        if (connections != null && (connections < 1 || connections > 1_000_000)) {
            throw check.fail("--connections \"" + connections + "\": give a whole number from 1 to 1000000");
        }
        if (!List.of("webbench", "webstone", "specweb99").contains(kind)) {
            throw check.fail("--kind \"" + kind + "\" is not known: " + Fileset.KINDS);
        }
        Fileset set = connections == null ? Fileset.of(kind) : Fileset.of(kind, connections);
        Path mix;
        try {
            mix = FilesetWriter.write(dir, set);
        } catch (IllegalArgumentException e) {
            throw check.fail("--out " + e.getMessage());
        } catch (IOException e) {
            err.println("spice fileset: cannot write the fileset into " + dir + ": " + e);
            return 1;
        }
        out.print(summary(set, mix));
        return 0;
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
}
