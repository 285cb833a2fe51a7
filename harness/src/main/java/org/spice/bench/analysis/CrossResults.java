package org.spice.bench.analysis;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.spice.bench.figures.CpuSources;
import org.spice.bench.figures.SpiceFigures;
import org.spice.bench.model.Arm;
import org.spice.bench.model.CpuRounds;
import org.spice.bench.model.Protocol;
import org.spice.bench.model.RecordedSettings;
import org.spice.bench.model.Results;
import org.spice.bench.model.ResultsJson;

/**
 * Servers measured side by side in the one results shape ({@link Results} with several {@code arms}): their rounds as
 * measured ({@code cpu_rounds}, every slice with its arm; the earlier starts' with --restarts) and the figures concluded
 * across them once ({@code cross_ratios}, {@code own_ratios}, {@code arm_cpu}, {@code checks}); each server's ladder is
 * in its own results, named by its arm.
 */
public final class CrossResults {

    private CrossResults() {
    }

    /** The CPU source of each arm's probes, from its server's entry (the arm's name up to a ':'). */
    public static CpuSources sources(List<Results.Member> servers) {
        return (arm, probe) -> {
            String name = Arm.parse(arm).server();
            Results.Member member = servers.stream().filter(m -> m.name().equals(name)).findFirst().orElse(null);
            // a file that does not say where its CPU was read: the server's figure, as its slices hold it
            return member == null || member.cpuFrom() == null ? SpiceFigures.CpuSource.SERVER
                    : member.cpuFrom().sourceFor(member.server(), probe);
        };
    }

    /**
     * Writes DIR/results.json, in the one shape: the servers, the protocols each ran under, the rounds of each start of
     * the servers (the last one's as {@code cpu_rounds}, the earlier ones' as {@code earlier_starts}) and the figures
     * concluded over them all; returns what it wrote, its figures concluded.
     */
    public static Results write(Path dir, List<Results.Member> servers, List<Protocol> protocols, List<CpuRounds> starts,
            RecordedSettings settings, long bodyBytes, String startedAt, boolean partial, String partialReason)
            throws IOException {
        return ResultsFiles.write(dir, Results.sideBySide(servers, protocols.stream().map(Protocol::id).toList(), starts,
                settings, bodyBytes, startedAt, OffsetDateTime.now().withNano(0).toString(), partial, partialReason));
    }

    /** As {@link #write(Path, List, List, List, RecordedSettings, long, String, boolean, String)}, no settings recorded. */
    public static Results write(Path dir, List<Results.Member> servers, List<Protocol> protocols, List<CpuRounds> starts)
            throws IOException {
        return write(dir, servers, protocols, starts, RecordedSettings.NONE, 0, null, false, null);
    }

    /**
     * Each server's ladder summary, from its own results: in the folder named for it beside the side-by-side file in
     * {@code dir}, else where the bench wrote them; a server whose results are not found is left out.
     */
    public static Map<String, List<SpiceFigures.Summary>> ladders(Results sideBySide, Path dir) {
        Map<String, List<SpiceFigures.Summary>> ladders = new LinkedHashMap<>();
        for (Results.Member member : sideBySide.arms()) {
            for (Path each : member.results() == null ? List.of(dir.resolve(member.name()))
                    : List.of(dir.resolve(member.name()), Path.of(member.results()))) {
                Path file = each.resolve(ResultsJson.FILE);
                if (Files.isRegularFile(file)) {
                    try {
                        ladders.put(member.name(), ResultsFiles.read(file).summary());
                        break;
                    } catch (IOException e) {
                        // unreadable: the answer goes without that server's peaks
                    }
                }
            }
        }
        return ladders;
    }
}
