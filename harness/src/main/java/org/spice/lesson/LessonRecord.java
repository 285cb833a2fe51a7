package org.spice.lesson;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.spice.bench.model.ResultsJson;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.JsonProcessingException;

/**
 * lesson.json: everything the page shows, each figure with its interval and load, the machine and the command that
 * made it, and how each run went. The page and lesson.md are written from it; {@code lesson --compare} reads it.
 */
@JsonPropertyOrder({"schema", "command", "quick", "started_at", "finished_at", "partial", "partial_reason", "machine",
    "runs", "questions"})
record LessonRecord(String schema, String command, boolean quick, String startedAt, String finishedAt, boolean partial,
        @JsonInclude(JsonInclude.Include.NON_NULL) String partialReason, Machine machine, List<LessonRun.Outcome> runs,
        List<Entry> questions) {

    static final String SCHEMA = "spice-lesson/1";
    static final String FILE = "lesson.json";

    /** Answered, answered from a run that did not finish, skipped (what to install), or no answer (why). */
    static final String ANSWERED = "answered";
    static final String PARTIAL = "partial";
    static final String SKIPPED = "skipped";
    static final String NO_ANSWER = "no answer";

    /** The machine the lesson ran on, as a class tells its machines apart. */
    @JsonPropertyOrder({"host", "cpu", "cores", "memory_gib", "os"})
    record Machine(String host, String cpu, int cores, long memoryGib, String os) {

        static Machine here() {
            String cpu = "unknown";
            try {
                cpu = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                        .map(l -> l.substring(l.indexOf(':') + 1).strip()).findFirst().orElse(cpu);
            } catch (IOException e) {
                // not Linux: the CPU stays unknown
            }
            String host;
            try {
                host = InetAddress.getLocalHost().getHostName();
            } catch (IOException e) {
                host = "unknown";
            }
            long bytes = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                    .getTotalMemorySize();
            return new Machine(host, cpu, Runtime.getRuntime().availableProcessors(), Math.round(bytes / 1073741824.0),
                    System.getProperty("os.name") + " " + System.getProperty("os.version"));
        }
    }

    /** One question on the page: its texts, how it went, the commands that answer it, and its answer. */
    @JsonPropertyOrder({"number", "title", "isolates", "predict", "notice", "needs", "status", "why", "commands",
        "answer", "chart"})
    record Entry(int number, String title, String isolates, String predict, String notice, String needs, String status,
            @JsonInclude(JsonInclude.Include.NON_NULL) String why, List<String> commands,
            @JsonInclude(JsonInclude.Include.NON_NULL) Answer answer,
            @JsonInclude(JsonInclude.Include.NON_NULL) String chart) {

        boolean hasAnswer() {
            return answer != null;
        }
    }

    void write(Path dir) throws IOException {
        ResultsJson.MAPPER.writeValue(dir.resolve(FILE).toFile(), this);
    }

    /** DIR/lesson.json, or DIR itself where it is the file; one that is not a lesson is an IOException saying so. */
    static LessonRecord read(Path path) throws IOException {
        Path file = Files.isDirectory(path) ? path.resolve(FILE) : path;
        if (!Files.exists(file)) {
            throw new IOException(path + " holds no " + FILE + " (a folder scripts/spice lesson wrote)");
        }
        try {
            LessonRecord lesson = ResultsJson.MAPPER.readValue(file.toFile(), LessonRecord.class);
            if (!SCHEMA.equals(lesson.schema())) {
                throw new IOException(file + " is not a SPICE lesson (schema " + SCHEMA + ")");
            }
            return lesson;
        } catch (JsonProcessingException e) {
            throw new IOException(file + " is not a SPICE lesson: " + e.getOriginalMessage()
                    + (e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr() + ")"), e);
        }
    }
}
