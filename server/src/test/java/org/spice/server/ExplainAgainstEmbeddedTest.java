package org.spice.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.model.ResultsJson;
import org.spice.commands.ExplainCommand;
import org.spice.testkit.Bound;
import org.spice.testkit.CommandRun;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * scripts/spice explain against the embedded server as a process of its own, traced by the real strace: a fixed,
 * small count of requests; the CGI probe starts a program per request (execve), the static file none, and both
 * write the page.
 */
class ExplainAgainstEmbeddedTest {

    @TempDir
    Path dir;

    @Test
    void theSystemCallsPerRequestTellACgiProgramFromAStaticFile() throws Exception {
        try (EmbeddedProcess server = EmbeddedProcess.start(dir)) {
            CommandRun ran = CommandRun.of(new ExplainCommand(), "static,cgi", "--target", server.baseUrl(),
                    "--server-pid", Long.toString(server.process.pid()), "--clients", "2", "--requests", "200",
                    "--out", dir.resolve("explain").toString());
            int status = ran.status();
            String printed = ran.console();
            assertEquals(0, status, printed);
            assertTrue(printed.contains("system calls per request"), printed);
            JsonNode json = ResultsJson.MAPPER.readTree(dir.resolve("explain/explain.json").toFile());
            assertEquals(200, json.get("requests_counted").get("static").asLong(), "every traced request had the page");
            JsonNode perRequest = json.get("syscalls_per_request");
            double cgiExec = perRequest.get("cgi").path("execve").asDouble(0);
            double staticExec = perRequest.get("static").path("execve").asDouble(0);
            Bound.atLeast("cgi: execve per traced request", cgiExec, 0.9, "one program a request, counted by strace"
                    + " over 200 requests; 0.9 leaves the traced window's edge (a request whose exec fell outside it)");
            assertEquals(0, staticExec, 0.0, "a static file starts none: " + perRequest.get("static"));
            for (Map.Entry<String, JsonNode> probe : (Iterable<Map.Entry<String, JsonNode>>) perRequest::fields) {
                assertTrue(probe.getValue().size() > 3, probe.getKey() + " made system calls: " + probe.getValue());
            }
        }
    }
}
