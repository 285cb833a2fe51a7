package org.spice.lesson;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.spice.bench.model.Stop;
import org.spice.bench.plan.HarnessProcess;
import org.spice.bench.run.Signals;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * The plan's steps run one after another, each a harness command (bench, sweep) in a JVM of its own writing under
 * runs/STEP. SIGINT or SIGTERM stops the lesson the way it stops a bench: the step under way is told to stop (its
 * harness finishes its partial results and stops its servers), the lesson waits for it and everything it started,
 * runs nothing more, and writes the page from what was measured, marked partial.
 */
final class LessonRun {

    /** How a step went: done, failed (its exit status), stopped by a signal, or not run. */
    @JsonPropertyOrder({"id", "command", "questions", "status", "exit", "seconds", "dir"})
    record Outcome(String id, String command, List<Integer> questions, String status, int exit, double seconds, String dir) {
        static final String DONE = "done";
        static final String FAILED = "failed";
        static final String STOPPED = "stopped";
        static final String NOT_RUN = "not run";
    }

    /** How long a step's processes get to finish once told to stop. */
    private static final long STOP_WAIT_S = 300;

    private final Path root;
    private final PrintStream err;
    private final Stop stoppedBy = new Stop();
    private volatile int status;
    private volatile Process current;
    private volatile Thread stopping;

    LessonRun(Path root, PrintStream err) {
        this.root = root;
        this.err = err;
    }

    /** Runs {@code plan}'s steps into {@code runs}/STEP; every step's outcome, in order. */
    List<Outcome> run(LessonPlan plan, Path runs) {
        List<Outcome> outcomes = new ArrayList<>();
        try (Signals signals = Signals.watch(stoppedBy, err, "lesson", "finishing the step under way, then the page"
                + " from what was measured", this::stop)) {
            int left = plan.minutes();
            int n = 0;
            for (Step step : plan.steps()) {
                n++;
                Path dir = runs.resolve(step.id());
                List<Integer> questions = plan.answeredBy(step);
                if (stoppedBy.requested()) {
                    outcomes.add(new Outcome(step.id(), step.command(), questions, Outcome.NOT_RUN, 0, 0, dir.toString()));
                    continue;
                }
                err.printf("spice lesson: [%d/%d] question%s %s, about %d min (%d left in the plan): %s%n", n,
                        plan.steps().size(), questions.size() == 1 ? "" : "s", LessonPlan.words(questions),
                        step.minutes(), left, step.command());
                long start = System.nanoTime();
                int exit = runStep(step, dir);
                double seconds = (System.nanoTime() - start) / 1e9;
                String how = stoppedBy.requested() ? Outcome.STOPPED : exit == 0 ? Outcome.DONE : Outcome.FAILED;
                outcomes.add(new Outcome(step.id(), step.command(), questions, how, exit, Math.round(seconds), dir.toString()));
                err.printf("spice lesson: [%d/%d] %s in %.0f s%s%n", n, plan.steps().size(), how, seconds,
                        exit == 0 ? "" : " (exit " + exit + ")");
                left -= step.minutes();
            }
            status = signals.status();
        }
        return outcomes;
    }

    /** Why the lesson stopped early, or null. */
    String stoppedBy() {
        return stoppedBy.why();
    }

    /** The exit status a signal asks for, or 0. */
    int signalStatus() {
        return status;
    }

    private int runStep(Step step, Path dir) {
        // the step's harness in a JVM of its own, no shell between (the lesson's build is the step's)
        List<String> command = HarnessProcess.command(root, null, step.argsOut(dir.toAbsolutePath().toString()));
        ProcessBuilder builder = new ProcessBuilder(command).inheritIO();
        builder.environment().putAll(step.env());
        try {
            current = builder.start();
            if (stoppedBy.requested()) {
                terminate(current);
            }
            int exit = current.waitFor();
            Thread waiter = stopping;
            if (waiter != null) {
                waiter.join();
            }
            return exit;
        } catch (IOException e) {
            err.println("spice lesson: could not run " + step.command() + ": " + e.getMessage());
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        } finally {
            current = null;
        }
    }

    /**
     * A signal ({@link Signals} has said why): the step under way is told to stop. A terminal's Ctrl-C reaches the
     * step's processes itself; SIGTERM is passed on to the step's harness processes (bench and sweep), which finish
     * their partial results and stop their servers.
     */
    private void stop(int exit) {
        status = exit;
        Process step = current;
        if (step != null && exit == Signals.TERMINATED) {
            terminate(step);
        }
    }

    /** SIGTERM to the step's process and every harness JVM under it; then the wait for them all (bounded). */
    private void terminate(Process step) {
        List<ProcessHandle> all = new ArrayList<>(step.descendants().toList());
        all.add(0, step.toHandle());
        for (ProcessHandle each : all) {
            Optional<String> line = each.info().commandLine();
            if (each.pid() == step.pid() || line.map(l -> l.contains("spice-harness")).orElse(false)) {
                each.destroy();
            }
        }
        stopping = new Thread(() -> {
            for (ProcessHandle each : all) {
                try {
                    each.onExit().get(STOP_WAIT_S, TimeUnit.SECONDS);
                } catch (Exception e) {
                    err.println("spice lesson: process " + each.pid() + " still runs after " + STOP_WAIT_S + " s");
                }
            }
        }, "lesson-stop");
        stopping.setDaemon(true);
        stopping.start();
    }
}
