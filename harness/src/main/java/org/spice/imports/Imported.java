package org.spice.imports;

import java.util.List;
import org.spice.bench.model.RunRecord;

/**
 * One tool run as a SPICE mix, with what the tool cannot tell said in words.
 *
 * @param toolTotal the number of successful requests the tool itself reported, for the check against
 *                  its own summary (-1 when it reports none)
 * @param protocol  the protocol the tool says it spoke (h2load's "Application protocol"), or null where it says none
 */
public record Imported(RunRecord run, List<String> notes, long toolTotal, String protocol) {

    public Imported(RunRecord run, List<String> notes, long toolTotal) {
        this(run, notes, toolTotal, null);
    }
}
