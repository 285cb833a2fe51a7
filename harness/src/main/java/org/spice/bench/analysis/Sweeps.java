package org.spice.bench.analysis;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.spice.bench.figures.SpiceFigures;
import org.spice.bench.model.Results;
import org.spice.bench.model.ResultsJson;
import org.spice.bench.model.Sweep;

/** A sweep's figures: each probe's figure that counts at every page size, and the line through them. */
public final class Sweeps {

    private Sweeps() {
    }

    /** The sweep of benches at the given sizes, in order: each probe's figure that counts at its peak, and its line. */
    public static Sweep of(String server, int clients, Map<Integer, Path> resultsBySize) throws IOException {
        Map<String, List<Sweep.Point>> byProbe = new LinkedHashMap<>();
        List<Sweep.Size> sizes = new ArrayList<>();
        for (Map.Entry<Integer, Path> size : resultsBySize.entrySet()) {
            Results results = ResultsJson.read(size.getValue());
            sizes.add(new Sweep.Size(size.getKey(), size.getValue().getParent().toString()));
            for (SpiceFigures.Summary s : Summaries.of(results)) {
                byProbe.computeIfAbsent(s.probe(), p -> new ArrayList<>()).add(new Sweep.Point(size.getKey(),
                        s.cpuUs(), s.cpuUsCi(),
                        s.cpuSource() == null ? null : s.cpuSource().id(), s.peakRateRps()));
            }
        }
        Map<String, Sweep.Line> probes = new LinkedHashMap<>();
        byProbe.forEach((probe, points) -> probes.put(probe, Sweep.Line.through(points)));
        return new Sweep(Sweep.SCHEMA, server, clients, "each size its own build and server start, every probe warmed to a"
                + " steady state; the point is the bench's CPU per request at the peak (the figure that counts) with its 95 %"
                + " interval; the line is ordinary least squares over the points, its intervals Student's t on n - 2"
                + " degrees of freedom (none with two sizes); KB = 1,024 bytes", sizes, probes);
    }
}
