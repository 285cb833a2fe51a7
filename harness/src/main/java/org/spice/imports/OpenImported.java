package org.spice.imports;

import java.util.List;

import org.spice.bench.model.OpenLoopRun;

/**
 * One tool run open loop (a probe at a rate) as SPICE keeps it, with what the tool cannot tell said in words.
 *
 * @param toolTotal the requests the tool itself reported, for the check against its own summary
 */
public record OpenImported(OpenLoopRun run, List<String> notes, long toolTotal) {
}
