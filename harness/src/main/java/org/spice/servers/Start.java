package org.spice.servers;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.spice.bench.model.Server;

/**
 * One start of a server, as its launcher sees it: the instance and its options, its ports, the site, and the programs it
 * starts. Every program joins the instance's cgroup before it runs (a shell joins it, then runs the program), so that
 * what it starts in turn is counted there too, and the harness's own work is not.
 */
final class Start {

    final Site site;
    final Instance instance;
    final Options options;
    final Server.Ports ports;
    final Tls tls;
    private final Path cgroup;

    Start(Site site, Instance instance, Options options, Path cgroup) {
        this.site = site;
        this.instance = instance;
        this.options = options;
        this.ports = instance.server().ports(instance.port());
        this.tls = new Tls(site.run);
        this.cgroup = cgroup;
    }

    Path run() {
        return instance.run();
    }

    int port() {
        return instance.port();
    }

    /** A program to start, built up: its words, environment, folder and log. */
    final class Program {
        private final List<String> words;
        private final Map<String, String> env = new LinkedHashMap<>();
        private boolean onlyGivenEnv;
        private boolean asUser;
        private boolean session;
        private Path dir;
        private Path log;

        private Program(List<String> words) {
            this.words = words;
        }

        /** Run as the service user (as root). */
        Program asServiceUser() {
            this.asUser = true;
            return this;
        }

        /** In a session (and process group) of its own: stopping it ends what it forks. */
        Program ownSession() {
            this.session = true;
            return this;
        }

        Program env(String name, String value) {
            env.put(name, value);
            return this;
        }

        Program env(Map<String, String> more) {
            env.putAll(more);
            return this;
        }

        /** With no environment but a plain PATH and what {@link #env} gives (env -i). */
        Program onlyGivenEnv() {
            this.onlyGivenEnv = true;
            return this;
        }

        Program in(Path folder) {
            this.dir = folder;
            return this;
        }

        /** Its stdout and stderr into {@code file}, which it starts empty. */
        Program log(Path file) {
            this.log = file;
            return this;
        }

        /** Its command line: the service user dropped to, its own session, its words. */
        List<String> command() {
            List<String> command = new ArrayList<>();
            if (asUser) {
                command.addAll(site.user.prefix());
            }
            if (session) {
                command.add("setsid");
            }
            command.addAll(words);
            return command;
        }

        /** The instance's cgroup's process list, or "" where it runs in none. */
        private String procs() {
            return cgroup == null ? "" : cgroup.resolve("cgroup.procs").toString();
        }

        private ProcessBuilder builder(List<String> command) {
            ProcessBuilder builder = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            if (onlyGivenEnv) {
                builder.environment().clear();
                builder.environment().put("PATH", "/usr/sbin:/usr/bin:/sbin:/bin");
            }
            builder.environment().putAll(env);
            if (dir != null) {
                builder.directory(dir.toFile());
            }
            return builder;
        }

        /**
         * Starts it in the background, its PID into {@code pidFile}; the PID. A shell joins the cgroup, starts it and
         * ends, so that it is not this JVM's child: a JVM that ends with a child running waits 0.3 s for the thread that
         * waits on it (HotSpot's wait for threads in native code at exit), on every start.
         */
        long background(Path pidFile) throws IOException {
            Path output = log != null ? log : Path.of("/dev/null");
            if (log != null) {
                Files.createDirectories(log.getParent());
            }
            List<String> command = new ArrayList<>(List.of("/bin/sh", "-c", "procs=$1 log=$2; shift 2; if [ -n \"$procs\" ];"
                    + " then echo $$ > \"$procs\" || exit 1; fi; \"$@\" < /dev/null > \"$log\" 2>&1 & echo $!", "sh", procs(),
                    output.toString()));
            command.addAll(command());
            Process shell = builder(command).redirectErrorStream(true).start();
            String said = new String(shell.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip();
            int status = Programs.waitFor(shell, 10);
            if (status != 0 || !said.matches("[0-9]+")) {
                throw new IOException("could not start " + words.get(0) + ": " + said);
            }
            Files.writeString(pidFile, said + "\n");
            return Long.parseLong(said);
        }

        /**
         * Runs it to its end (a daemon's start, a configuration test), in the cgroup, within the start's wait; its exit
         * status.
         */
        int toEnd() throws IOException {
            List<String> command = new ArrayList<>(List.of("/bin/sh", "-c",
                    "if [ -n \"$0\" ]; then echo $$ > \"$0\" || exit 1; fi; exec \"$@\"", procs()));
            command.addAll(command());
            ProcessBuilder builder = builder(command).redirectErrorStream(true);
            if (log != null) {
                Files.createDirectories(log.getParent());
                builder.redirectOutput(log.toFile());
            } else {
                builder.redirectOutput(ProcessBuilder.Redirect.DISCARD);
            }
            Process process = builder.start();
            int status = Programs.waitFor(process, Site.waitLimitS());
            if (status == -1) {
                process.destroyForcibly();
                throw new IOException(words.get(0) + " did not end within " + Site.waitLimitS() + " s (SPICE_WAIT_S)");
            }
            return status;
        }
    }

    Program program(List<String> words) {
        return new Program(words);
    }

    Program program(String... words) {
        return new Program(List.of(words));
    }
}
