package org.spice.bench.analysis;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.spice.bench.figures.CpuSources;
import org.spice.bench.figures.SpiceFigures;
import org.spice.bench.model.Arm;
import org.spice.bench.model.CpuFrom;
import org.spice.bench.model.CpuRounds;
import org.spice.bench.model.Protocol;
import org.spice.bench.model.Results;
import org.spice.bench.model.ResultsJson;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * The results of servers measured side by side (DIR/results.json of a side-by-side bench): which servers, where each
 * one's own results are, the rounds as measured ({@code cross_rounds}: every slice with its arm; the earlier starts'
 * with --restarts) and the figures computed from them ({@code cross_ratios}, {@code own_ratios}), which a reader
 * computes again from the rounds ({@link #read}) rather than trusting.
 */
public final class CrossResults {

    public static final String FILE = ResultsJson.FILE;
    /** What this file is, so that a reader does not take it for one server's results. */
    public static final String KIND = "side-by-side";

    /**
     * One server of the run: the name its arms carry (an arm is the name, or "name:protocol"), which server it is
     * (scripts/spice's name), where its CPU was read, and its own results directory.
     */
    @JsonPropertyOrder({"name", "server", "cpu_from", "results"})
    public record Member(String name, String server, CpuFrom cpuFrom, String results) {
    }

    /**
     * What the file holds: its servers, their protocols, every start's rounds (the last one last), and the figures
     * concluded from them, once ({@link #of}), for every reader to draw as they are.
     */
    public record Read(List<Member> servers, List<Protocol> protocols, List<CpuRounds> starts, CrossFigures.All figures) {

        /** The servers, protocols and rounds, with their figures concluded. */
        public static Read of(List<Member> servers, List<Protocol> protocols, List<CpuRounds> starts) {
            return new Read(servers, protocols, starts, CrossFigures.All.of(starts, sources(servers)));
        }

        /** The CPU figure that stands for a probe's cost on an arm: its server's, as the bench read it. */
        @JsonIgnore
        public CpuSources sourceOf() {
            return sources(servers);
        }

        /**
         * Each server's ladder summary, from its own results: in the folder named for it beside the side-by-side file
         * in {@code dir}, else where the bench wrote them; a server whose results are not found is left out.
         */
        @JsonIgnore
        public Map<String, List<SpiceFigures.Summary>> ladders(Path dir) {
            Map<String, List<SpiceFigures.Summary>> ladders = new LinkedHashMap<>();
            for (Member member : servers) {
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

    @JsonPropertyOrder({"kind", "schema", "servers", "protocols", "restarts", "cross_rounds", "earlier_starts",
        "cross_ratios", "own_ratios", "arm_cpu", "checks"})
    record File(String kind, String schema, List<Member> servers, List<String> protocols, int restarts, CpuRounds crossRounds,
            @JsonInclude(JsonInclude.Include.NON_EMPTY) List<CpuRounds> earlierStarts,
            List<CrossFigures.Cross> crossRatios, List<OwnRatios.Own> ownRatios, List<CrossFigures.ArmCpu> armCpu,
            CrossChecks.Checks checks) {
    }

    private CrossResults() {
    }

    /** The CPU source of each arm's probes, from its server's entry (the arm's name up to a ':'). */
    public static CpuSources sources(List<Member> servers) {
        return (arm, probe) -> {
            String name = Arm.parse(arm).server();
            Member member = servers.stream().filter(m -> m.name().equals(name)).findFirst().orElse(null);
            // a file that does not say where its CPU was read: the server's figure, as its slices hold it
            return member == null || member.cpuFrom() == null ? SpiceFigures.CpuSource.SERVER
                    : member.cpuFrom().sourceFor(member.server(), probe);
        };
    }

    /**
     * Writes DIR/results.json: the servers, the protocols each ran under, the rounds of each start of the servers
     * (the last one's as {@code cross_rounds}, the earlier ones' as {@code earlier_starts}) and the figures over them
     * all; returns what it wrote, its figures concluded.
     */
    public static Read write(Path dir, List<Member> servers, List<Protocol> protocols, List<CpuRounds> starts)
            throws IOException {
        Read read = Read.of(servers, protocols, starts);
        CrossFigures.All figures = read.figures();
        Files.createDirectories(dir);
        Path temp = dir.resolve(FILE + ".tmp");
        ResultsJson.MAPPER.writeValue(temp.toFile(), new File(KIND, Results.SCHEMA, servers,
                protocols.stream().map(Protocol::id).toList(), starts.size(), starts.get(starts.size() - 1),
                starts.subList(0, starts.size() - 1), figures.cross(), figures.own(), figures.cpu(), figures.checks()));
        Files.move(temp, dir.resolve(FILE), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return read;
    }

    /** Whether {@code file} holds servers side by side (else one server's results). */
    public static boolean isSideBySide(Path file) throws IOException {
        JsonNode kind = ResultsJson.MAPPER.readTree(file.toFile()).get("kind");
        return kind != null && KIND.equals(kind.asText());
    }

    /** The servers, protocols and rounds of a side-by-side results.json (its figures are computed again from them). */
    public static Read read(Path file) throws IOException {
        JsonNode json = ResultsJson.MAPPER.readTree(file.toFile());
        if (json.get("kind") == null || !KIND.equals(json.get("kind").asText()) || json.get("cross_rounds") == null) {
            throw new IOException(file + " does not hold servers side by side");
        }
        // a side-by-side file from before it said its format is the first; one from a newer SPICE is refused
        String schema = json.path("schema").asText(Results.READS.get(0));
        if (!Results.READS.contains(schema)) {
            throw new IOException(file + " is in the format " + schema + ", which this SPICE does not read (it reads "
                    + String.join(" and ", Results.READS) + "): a newer SPICE wrote it, and that SPICE reads it");
        }
        List<Member> servers = new ArrayList<>();
        for (JsonNode member : json.get("servers")) {
            servers.add(ResultsJson.MAPPER.treeToValue(member, Member.class));
        }
        List<Protocol> protocols = new ArrayList<>();
        for (JsonNode protocol : json.get("protocols")) {
            protocols.add(Protocol.find(protocol.asText()).orElseThrow(() -> new IOException(file
                    + ": unknown protocol " + protocol)));
        }
        List<CpuRounds> starts = new ArrayList<>();
        if (json.get("earlier_starts") != null) {
            for (JsonNode start : json.get("earlier_starts")) {
                starts.add(ResultsJson.MAPPER.treeToValue(start, CpuRounds.class));
            }
        }
        starts.add(ResultsJson.MAPPER.treeToValue(json.get("cross_rounds"), CpuRounds.class));
        return Read.of(servers, protocols, starts);
    }
}
