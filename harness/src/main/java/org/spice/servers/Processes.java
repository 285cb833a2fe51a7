package org.spice.servers;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The processes of a server as the kernel sees them: whether one runs, its process group, signals to either, and which
 * process listens on a port.
 */
public final class Processes {

    private static final Pattern SS_PID = Pattern.compile("pid=([0-9]+)");

    private Processes() {
    }

    /**
     * Whether PID is a live process this user may signal, as kill -0 tells: a zombie is not (a process whose parent is
     * gone waits as a zombie until PID 1 reaps it, and some inits reap only every second or two, here 1.5-2 s a
     * process, which a stop would otherwise wait out; {@link ProcessHandle#isAlive()} counts it alive meanwhile), nor,
     * but for root, another user's process (a stale PID file whose number the system gave to someone else since).
     */
    public static boolean running(long pid) {
        Path proc = Path.of("/proc", Long.toString(pid));
        String state = state(proc.resolve("stat"));
        return state != null && !state.startsWith("Z") && mayBeSignalled(proc);
    }

    private static boolean mayBeSignalled(Path proc) {
        try {
            int me = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
            return me == 0 || me == (Integer) Files.getAttribute(proc, "unix:uid");
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** Whether any process of the process group PGID runs (zombies aside, as {@link #running}). */
    static boolean groupRunning(long pgid) {
        try (DirectoryStream<Path> all = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
            for (Path each : all) {
                String state = state(each.resolve("stat"));
                // after the command's ")": state, ppid, pgrp
                if (state != null && !state.startsWith("Z") && state.split(" ")[2].equals(Long.toString(pgid))) {
                    return true;
                }
            }
        } catch (IOException e) {
            return false;
        }
        return false;
    }

    /** The fields of /proc/PID/stat after the command's closing parenthesis, or null for no such process. */
    private static String state(Path stat) {
        try {
            String text = Files.readString(stat, StandardCharsets.ISO_8859_1);
            return text.substring(text.lastIndexOf(')') + 2);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The PID a PID file names (its digits), if it names one. */
    static OptionalLong pidIn(Path pidFile) {
        try {
            String digits = Files.readString(pidFile, StandardCharsets.ISO_8859_1).replaceAll("[^0-9]", "");
            return digits.isEmpty() || digits.length() > 18 ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(digits));
        } catch (IOException e) {
            return OptionalLong.empty();
        }
    }

    /** Sends SIGTERM, or SIGKILL where {@code kill}, to PID; whether it was sent. */
    static boolean signal(long pid, boolean kill) {
        return ProcessHandle.of(pid).map(p -> kill ? p.destroyForcibly() : p.destroy()).orElse(false);
    }

    /**
     * Sends SIGNAL (TERM, KILL) to every process of the process group PGID, by bash's own kill (Java signals no group,
     * and kill(1) is not on every machine); whether the group was there to take it.
     */
    static boolean signalGroup(String signal, long pgid) {
        try {
            Process kill = new ProcessBuilder("bash", "-c", "kill -" + signal + " -- \"-$0\"", Long.toString(pgid))
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Waits up to {@code seconds}, polling every 20 ms, until {@code done} holds; whether it did. (At 0.1 s a poll, the
     * polls of one stop added up to half a second: a server's stop waits on each of its companions.)
     */
    static boolean await(double seconds, java.util.function.BooleanSupplier done) {
        long until = System.nanoTime() + (long) (seconds * 1e9);
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > until) {
                return false;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return done.getAsBoolean();
            }
        }
        return true;
    }

    /** The PIDs that listen on TCP port PORT of any address (ss(8), which names them for root or their owner). */
    static List<Long> listeners(int port) {
        List<Long> pids = new ArrayList<>();
        try {
            Process ss = new ProcessBuilder("ss", "-ltnpH", "sport = :" + port).redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            String out = new String(ss.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            ss.waitFor(10, TimeUnit.SECONDS);
            Matcher pid = SS_PID.matcher(out);
            while (pid.find()) {
                long each = Long.parseLong(pid.group(1));
                if (!pids.contains(each)) {
                    pids.add(each);
                }
            }
        } catch (IOException e) {
            return pids;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return pids;
    }

    /** PID's command line, its arguments joined by spaces; "" where it cannot be read. */
    static String commandLine(long pid) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")), StandardCharsets.UTF_8)
                    .replace('\0', ' ');
        } catch (IOException e) {
            return "";
        }
    }
}
