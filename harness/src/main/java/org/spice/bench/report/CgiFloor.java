package org.spice.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.spice.bench.model.ResultsJson;

/**
 * What starting the CGI program costs without a server, kept beside a bench result (cgi-floor.json, written
 * by {@code spice cgi-floor RESULTS_DIR}) so the report can split the CGI bar into starting the program and
 * the server's own CGI plumbing.
 *
 * @param program          the program timed (the one the servers run: the dynamically linked probe)
 * @param startCpuUs       CPU per start, fork+exec+wait, microseconds
 */
public record CgiFloor(String program, double startCpuUs) {

    public static final String FILE = "cgi-floor.json";

    /** The floor kept in {@code dir}, or null when none was measured there. */
    static CgiFloor read(Path dir) throws IOException {
        Path file = dir.resolve(FILE);
        if (!Files.exists(file)) {
            return null;
        }
        try {
            return ResultsJson.MAPPER.readValue(file.toFile(), CgiFloor.class);
        } catch (IOException e) {
            throw new IOException(file + ": not a CGI floor (" + e.getMessage() + ")", e);
        }
    }

    public void write(Path dir) throws IOException {
        ResultsJson.MAPPER.writeValue(dir.resolve(FILE).toFile(), this);
    }
}
