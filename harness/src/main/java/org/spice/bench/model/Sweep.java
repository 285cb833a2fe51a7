package org.spice.bench.model;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.spice.bench.figures.LinearFit;
import org.spice.bench.figures.SpiceFigures;

import com.fasterxml.jackson.core.JsonProcessingException;

/**
 * sweep.json (schema {@value #SCHEMA}): each probe's CPU per request measured at several page sizes, one bench each
 * (the server rebuilt and restarted for every size), and the least-squares line through them: CPU per request =
 * fixed + per-KB × KB, a KB being 1,024 bytes. The points keep their own intervals and the directories of the
 * benches they come from, so every figure can be traced to its results.json.
 */
public record Sweep(String schema, String server, int clients, String method, List<Size> sizes,
        Map<String, Line> probes) {

    public static final String SCHEMA = "spice-sweep/1";
    public static final String FILE = "sweep.json";
    public static final double KB = 1024;

    /** One page size's bench: where its results are. */
    public record Size(int bytes, String results) {
    }

    /** A probe's figure that counts at one size, with its interval (NaN when unknown) and where it was read. */
    public record Point(int bytes, double cpuUsPerReq, double cpuUsPerReqCi, String cpuSource, double rateRps) {
    }

    /** A probe's points and the line through them. */
    public record Line(List<Point> points, int n, double fixedUs, double fixedUsCi, double perKbUs, double perKbUsCi,
            double rSquared) {

        /** The line's CPU per request at {@code kb}. */
        public double at(double kb) {
            return fixedUs + perKbUs * kb;
        }

        public static Line through(List<Point> points) {
            double[] kb = points.stream().mapToDouble(p -> p.bytes() / KB).toArray();
            double[] cpu = points.stream().mapToDouble(Point::cpuUsPerReq).toArray();
            LinearFit fit = LinearFit.of(kb, cpu);
            return new Line(points, fit.n(), fit.intercept(), fit.interceptCi(), fit.slope(), fit.slopeCi(), fit.rSquared());
        }
    }

    public void write(Path dir) throws IOException {
        Files.createDirectories(dir);
        ResultsJson.MAPPER.writeValue(dir.resolve(FILE).toFile(), this);
    }

    /** DIR/sweep.json, or null when there is none; one that is not a sweep is an IOException saying so. */
    public static Sweep readIn(Path dir) throws IOException {
        Path file = dir.resolve(FILE);
        if (!Files.exists(file)) {
            return null;
        }
        try {
            Sweep sweep = ResultsJson.MAPPER.readValue(file.toFile(), Sweep.class);
            if (!SCHEMA.equals(sweep.schema()) || sweep.probes() == null) {
                throw new IOException(file + ": not a SPICE sweep (schema " + SCHEMA + ")");
            }
            return sweep;
        } catch (JsonProcessingException e) {
            throw new IOException(file + " is not JSON: " + e.getOriginalMessage(), e);
        }
    }
}
