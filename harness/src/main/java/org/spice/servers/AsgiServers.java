package org.spice.servers;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The asgi probes' two ASGI servers beside httpd and nginx: uvicorn and granian, each running the one ASGI application
 * (runtimes/asgi/spice_asgi.py) in two worker processes on a Unix socket of its own, for the front server's HTTP proxy,
 * with the arguments conf/asgi/ gives them (which the deploy bundles' spice-helpers reads too).
 * Neither is packaged by Debian 12: both come from PyPI, at the versions runtimes/asgi/requirements.txt pins, into a
 * virtual environment of Debian's Python 3 in /opt/spice/asgi that every user reads (the service user's workers run it).
 */
final class AsgiServers {

    static final Path VENV = Path.of("/opt/spice/asgi");
    /** The requirements the environment was made from, kept in it: made again when the checkout's differ. */
    private static final Path MADE_FROM = VENV.resolve("spice-requirements.txt");
    private static final String REQUIREMENTS = "runtimes/asgi/requirements.txt";
    private static final String PYTHON = "/usr/bin/python3";

    private AsgiServers() {
    }

    /**
     * Whether the environment holds what the checkout's requirements pin (it was made from the same file), on Debian's
     * Python.
     */
    static boolean installed(Site site) {
        try {
            return Files.isRegularFile(MADE_FROM) && Files.mismatch(MADE_FROM, site.root.resolve(REQUIREMENTS)) == -1
                    && VENV.resolve("bin/python").toRealPath().startsWith("/usr/bin");
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * The environment, made anew (root only) where it is missing or was made from other requirements: Debian's
     * python3-venv with apt where missing, then pip from PyPI.
     */
    static void install(Site site, String server, PrintStream out) throws IOException {
        if (installed(site)) {
            out.println(server + ": the asgi probes' servers are installed (" + VENV + ", from " + REQUIREMENTS + ")");
            return;
        }
        Companions.needRoot(server, "the asgi probes' servers (uvicorn, granian, from PyPI into " + VENV + ") and"
                + " installing them", List.of("python3-venv"));
        if (!Programs.packageInstalled("python3-venv")) {
            Programs.aptInstall(List.of("python3-venv"), out);
        }
        Trees.delete(VENV);
        Path requirements = site.root.resolve(REQUIREMENTS);
        // Debian's Python, which the service user can run (a python3 first on root's PATH may sit in root's home)
        if (Programs.said(List.of(PYTHON, "-m", "venv", VENV.toString()), Map.of(), out) != 0
                || Programs.said(List.of(VENV.resolve("bin/pip").toString(), "install", "-q",
                "--disable-pip-version-check", "--no-cache-dir", "-r", requirements.toString()), Map.of(), out) != 0) {
            Trees.delete(VENV);
            throw new IOException(server + ": making " + VENV + " from " + REQUIREMENTS + " failed (python3 -m venv, pip:"
                    + " their output is above)");
        }
        Files.copy(requirements, MADE_FROM);
        out.println(server + ": installed uvicorn and granian into " + VENV + " (from " + REQUIREMENTS + ")");
    }

    /**
     * uvicorn on RUN/asgi-uvicorn.sock and granian on RUN/asgi-granian.sock, as the service user, each in a session of
     * its own, with the arguments conf/asgi/NAME.args gives; their PIDs in RUN/uvicorn.pid and RUN/granian.pid.
     */
    static void start(Start start, Path run, String server) throws IOException {
        if (!installed(start.site)) {
            throw new IOException("the asgi probes need uvicorn and granian in " + VENV + ", made from " + REQUIREMENTS
                    + ": sudo scripts/spice server install " + server);
        }
        for (Runtimes.Socket asgi : List.of(Runtimes.Socket.UVICORN, Runtimes.Socket.GRANIAN)) {
            String name = asgi.name().toLowerCase(Locale.ROOT);
            Path socket = asgi.in(run);
            List<String> command = new ArrayList<>(List.of(VENV.resolve("bin/python").toString()));
            command.addAll(arguments(start.site.root.resolve("conf/asgi/" + name + ".args"), run.resolve("runtimes/asgi"),
                    socket));
            Runtimes.resident(start, run, name, List.of(socket), Map.of("TZ", "UTC", "PYTHONDONTWRITEBYTECODE", "1"),
                    command);
            // The master makes the socket before its workers import the application: ready is a worker's answer (a
            // worker that dies at its start, restarted and dying again, leaves the socket and answers nothing)
            String path = "/spice/asgi-" + name + "/spice";
            Readiness.await(name + "'s workers (" + path + " on " + socket + ")", run.resolve(name + ".pid"),
                    run.resolve("logs/" + name + ".out"), Readiness.when(() -> Readiness.status(socket, path) == 200),
                    start.site.err);
        }
    }

    /** An .args file's words, one argument each, comment lines left out, its placeholders filled in. */
    static List<String> arguments(Path file, Path appDir, Path socket) throws IOException {
        List<String> words = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            if (line.isBlank() || line.strip().startsWith("#")) {
                continue;
            }
            for (String word : line.strip().split("\\s+")) {
                words.add(word.replace("@APP_DIR@", appDir.toString()).replace("@SOCKET@", socket.toString()));
            }
        }
        return words;
    }
}
