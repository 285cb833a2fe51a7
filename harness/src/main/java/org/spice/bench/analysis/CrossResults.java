package org.spice.bench.analysis;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

import org.spice.bench.figures.SpiceFigures;
import org.spice.bench.model.CpuRounds;
import org.spice.bench.model.Protocol;
import org.spice.bench.model.ResultsJson;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * The results of servers measured side by side (DIR/results.json of a side-by-side bench): which servers, where each
 * one's own results are, the rounds as measured ({@code cross_rounds}: every slice with its server) and the ratios
 * across servers computed from them ({@code cross_ratios}), written beside the counts and never read back as figures.
 */
public final class CrossResults {

    public static final String FILE = ResultsJson.FILE;
    /** What this file is, so that a reader does not take it for one server's results. */
    public static final String KIND = "side-by-side";

    /** One server of the run, and its own results directory. */
    public record Member(String name, String results) {
    }

    @JsonPropertyOrder({"kind", "servers", "protocols", "restarts", "cross_rounds", "earlier_starts", "cross_ratios"})
    record File(String kind, List<Member> servers, List<String> protocols, int restarts, CpuRounds crossRounds,
            @JsonInclude(JsonInclude.Include.NON_EMPTY) List<CpuRounds> earlierStarts,
            List<CrossFigures.Cross> crossRatios) {
    }

    private CrossResults() {
    }

    /**
     * Writes DIR/results.json: {@code names}' servers with their results directories ({@code dirs}, in the same order,
     * as far as made), the protocols each ran under, the rounds of each start of the servers (the last one's as
     * {@code cross_rounds}, the earlier ones' as {@code earlier_starts}) and the cross ratios over them all.
     */
    public static void write(Path dir, List<String> names, List<Protocol> protocols, List<Path> dirs,
            List<CpuRounds> starts, BiFunction<String, String, SpiceFigures.CpuSource> sourceOf) throws IOException {
        List<Member> servers = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            servers.add(new Member(names.get(i), i < dirs.size() ? dirs.get(i).toAbsolutePath().toString() : null));
        }
        Files.createDirectories(dir);
        Path temp = dir.resolve(FILE + ".tmp");
        ResultsJson.MAPPER.writeValue(temp.toFile(), new File(KIND, servers,
                protocols.stream().map(Protocol::id).toList(), starts.size(), starts.get(starts.size() - 1),
                starts.subList(0, starts.size() - 1), CrossFigures.acrossRestarts(starts, sourceOf)));
        Files.move(temp, dir.resolve(FILE), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
