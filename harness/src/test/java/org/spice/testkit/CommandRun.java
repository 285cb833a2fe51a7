package org.spice.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import org.spice.bench.analysis.ResultsFiles;
import org.spice.bench.model.Results;
import org.spice.bench.model.ResultsJson;
import org.spice.cli.Cli;

/**
 * A SPICE command run in this JVM as {@code scripts/spice} runs it, what it printed kept: the tests' one way to run a
 * command and read what it wrote (its results directory, its results.json).
 *
 * @param out     what it printed on stdout
 * @param err     what it printed on stderr
 * @param console both, in the order they were printed, as a terminal shows them
 */
public record CommandRun(int status, String out, String err, String console) {

    /** Runs {@code command} (a picocli command object) with {@code args}. */
    public static CommandRun of(Object command, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        int status = Cli.run(command, new PrintStream(new Both(out, console), true, StandardCharsets.UTF_8),
                new PrintStream(new Both(err, console), true, StandardCharsets.UTF_8), args);
        return new CommandRun(status, text(out), text(err), text(console));
    }

    /** The status and the console, for an assertion's message. */
    @Override
    public String toString() {
        return "exit " + status + "\n" + console;
    }

    /** The one directory under {@code parent} (at any depth) that holds a results.json; fails if there is not exactly one. */
    public static Path resultsDir(Path parent) {
        try {
            List<Path> found = ResultsFiles.all(parent).stream().map(Path::getParent).toList();
            if (found.size() != 1) {
                throw new AssertionError("one results.json under " + parent + ", not " + found);
            }
            return found.get(0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The results of the one run under {@code parent} ({@link #resultsDir}). */
    public static Results results(Path parent) {
        try {
            return ResultsJson.readResults(resultsDir(parent));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String text(ByteArrayOutputStream bytes) {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /** Writes to two streams: a command's own and the console both share. */
    private static final class Both extends OutputStream {
        private final OutputStream own;
        private final OutputStream shared;

        Both(OutputStream own, OutputStream shared) {
            this.own = own;
            this.shared = shared;
        }

        @Override
        public void write(int b) throws IOException {
            own.write(b);
            synchronized (shared) {
                shared.write(b);
            }
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            own.write(b, off, len);
            synchronized (shared) {
                shared.write(b, off, len);
            }
        }
    }
}
