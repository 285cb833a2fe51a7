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
 * starts. Every program joins the instance's cgroup before it runs, so that what it starts in turn is counted there
 * too, and the harness's own work is not.
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

        /** Its command line as started: the cgroup joined, the service user dropped to, its own session, the words. */
        List<String> command() {
            List<String> command = new ArrayList<>();
            if (cgroup != null) {   // joins the cgroup, then becomes the program: its PID is the program's
                command.addAll(List.of("/bin/sh", "-c", "echo $$ > \"$0\" && exec \"$@\"",
                        cgroup.resolve("cgroup.procs").toString()));
            }
            if (asUser) {
                command.addAll(site.user.prefix());
            }
            if (session) {
                command.add("setsid");
            }
            command.addAll(words);
            return command;
        }

        private Process spawn() throws IOException {
            ProcessBuilder builder = new ProcessBuilder(command()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            if (onlyGivenEnv) {
                builder.environment().clear();
                builder.environment().put("PATH", "/usr/sbin:/usr/bin:/sbin:/bin");
            }
            builder.environment().putAll(env);
            if (dir != null) {
                builder.directory(dir.toFile());
            }
            if (log != null) {
                Files.createDirectories(log.getParent());
                builder.redirectErrorStream(true).redirectOutput(log.toFile());
            } else {
                builder.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
            }
            return builder.start();
        }

        /** Starts it in the background, its PID into {@code pidFile}; the PID. */
        long background(Path pidFile) throws IOException {
            Process process = spawn();
            Files.writeString(pidFile, process.pid() + "\n");
            return process.pid();
        }

        /** Runs it to its end (a daemon's start, a configuration test), within the start's wait; its exit status. */
        int toEnd() throws IOException {
            Process process = spawn();
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
