package org.spice.imports;

import java.nio.file.Path;

import org.spice.bench.samples.ImportException;
import org.spice.page.Probe;

/**
 * What the user says a tool measured ({@code --probe} or {@code --workload}, {@code --clients}), checked against
 * what the tool's own output states wherever it states it: a mismatch is refused, not written.
 *
 * @param name    the mix's name in the results: the probe's id, or the workload's name as given
 * @param probe   the probe, or null for a workload of the user's own (its path is not checked)
 * @param clients the tool's concurrency
 */
public record Claim(String name, Probe probe, int clients) {

    public static Claim probe(Probe probe, int clients) {
        return new Claim(probe.id(), probe, clients);
    }

    public static Claim workload(String name, int clients) {
        return new Claim(name, null, clients);
    }

    /** Refuses the import when the tool's output states another client count ({@code stated}, null if it states none). */
    void checkClients(Path file, String tool, Integer stated, String where) throws ImportException {
        if (stated != null && stated != clients) {
            throw new ImportException(file + ": " + tool + " ran " + stated + " clients (" + where + "), not --clients "
                    + clients);
        }
    }

    /** Refuses the import when the tool's output names another probe's path ({@code stated}, null if it names none). */
    void checkPath(Path file, String tool, String stated, String where) throws ImportException {
        if (stated == null || probe == null) {
            return;
        }
        Probe measured = Probe.ofPath(stated);
        if (measured != probe) {
            throw new ImportException(file + ": " + tool + " measured " + stated + " (" + where + "), "
                    + (measured != null ? "the " + measured.id() + " probe" : "no probe's path") + ", not --probe "
                    + probe.id() + (measured != null ? "" : " (name a workload of your own with --workload NAME)"));
        }
    }
}
