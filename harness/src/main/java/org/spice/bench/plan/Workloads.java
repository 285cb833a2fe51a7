package org.spice.bench.plan;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.spice.bench.mix.Mix;
import org.spice.bench.mix.MixFile;
import org.spice.fileset.Fileset;
import org.spice.fileset.FilesetWriter;
import org.spice.page.Probe;

/**
 * The white paper's workloads by name ({@code --workload}): the static fileset of a kind, or the e-commerce
 * mix over it. The fileset is written once into run/fileset (every server serves it at /spice/fileset/); it is
 * deterministic, so one of the same kind is reused and one of another kind replaced.
 */
public final class Workloads {

    static final Pattern NAME = Pattern.compile("(static-fileset)(?::(webbench|webstone|specweb99))?|(ecommerce)(?::(servlet|cgi))?");

    private Workloads() {
    }

    /** Null for null; an IllegalArgumentException for a name that is not a workload. */
    public static Matcher parse(String name) {
        if (name == null) {
            return null;
        }
        Matcher m = NAME.matcher(name);
        if (!m.matches()) {
            throw new IllegalArgumentException("static-fileset[:webbench|webstone|specweb99] or ecommerce[:servlet|cgi],"
                    + " not \"" + name + "\"");
        }
        return m;
    }

    /**
     * The probes a named workload measures beside its mixes when none are named: static and the e-commerce mix's
     * dynamic probe; null for the fileset (the server's probes) or no workload.
     */
    public static List<Probe> probes(String name) {
        Matcher m = parse(name);
        return m == null || m.group(3) == null ? null : List.of(Probe.STATIC, dynamic(m));
    }

    /** True when the named workload sends requests over TLS (the e-commerce mix). */
    public static boolean tls(String name) {
        Matcher m = parse(name);
        return m != null && m.group(3) != null;
    }

    /** The mixes the named workload adds to the probes, its fileset written into {@code filesetDir} first if need be. */
    static List<Mix> load(String name, Path filesetDir) throws IOException {
        Matcher m = parse(name);
        if (m.group(1) != null) {
            return List.of(fileset(filesetDir, m.group(2) != null ? m.group(2) : "webbench"));
        }
        Mix fileset = fileset(filesetDir, "webbench");
        return List.of(fileset, Mix.ecommerce(fileset, dynamic(m)));
    }

    private static Probe dynamic(Matcher ecommerce) {
        return ecommerce.group(4) != null ? Probe.byId(ecommerce.group(4)) : Probe.SERVLET;
    }

    private static Mix fileset(Path dir, String kind) throws IOException {
        Path mix = dir.resolve(FilesetWriter.MIX);
        if (!written(mix, kind)) {
            deleteTree(dir);
            try {
                FilesetWriter.write(dir, Fileset.of(kind));
            } catch (IllegalArgumentException e) {
                throw new IOException("could not write the " + kind + " fileset in " + dir + ": " + e.getMessage());
            }
        }
        return MixFile.read(mix);
    }

    private static boolean written(Path mix, String kind) throws IOException {
        if (!Files.isReadable(mix)) {
            return false;
        }
        try (var lines = Files.lines(mix, StandardCharsets.UTF_8)) {
            return lines.findFirst().map(first -> first.matches(".*kind=" + kind + "\\b.*")).orElse(false);
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
