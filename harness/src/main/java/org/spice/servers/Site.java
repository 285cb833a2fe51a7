package org.spice.servers;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What every launcher reads here: the checkout and what its build made, run/, the service user and the copies it
 * reads where the checkout is out of its reach, the distributions' cache, the versions pinned in pom.xml, the Java
 * servers' JVM options, how long a start waits.
 */
final class Site {

    final Path root;
    final Path run;
    final ServiceUser user;
    final PrintStream err;
    /**
     * Where the service user reads copies of the checkout's files (run/served), or run/ itself where it reads the
     * checkout (no copies); null until a start first asks ({@link #served}).
     */
    private Path servedCopies;

    Site(Path root, Path run, ServiceUser user, PrintStream err) {
        this.root = root;
        this.run = run;
        this.user = user;
        this.err = err;
    }

    Path fileset() {
        return run.resolve("fileset");
    }

    /** The Tomcat and Jetty distributions, unpacked from Maven Central. */
    Path cache() {
        return root.resolve(".cache");
    }

    /** spice.war as the build makes it, relative to the checkout. */
    static final String WAR = "server/target/webapps/spice.war";

    /** A file the build makes, which a start needs: an IOException saying how to make it where it is missing. */
    Path built(String relative) throws IOException {
        Path file = root.resolve(relative);
        if (!Files.exists(file)) {
            throw new IOException(relative + " is missing: build first (scripts/spice build)");
        }
        return file;
    }

    /** The jar {@code dir}/{@code name}-VERSION.jar the build made, VERSION the project's (pom.xml's own). */
    Path builtJar(String dir, String name) throws IOException {
        Matcher version = Pattern.compile("(?m)^  <version>([^<]+)</version>").matcher(Files.readString(root.resolve("pom.xml")));
        if (!version.find()) {
            throw new IOException("pom.xml names no version of its own");
        }
        return built(dir + "/" + name + "-" + version.group(1).strip() + ".jar");
    }

    /**
     * {@code path}, a file or folder of the checkout that a server reads as the service user, where that user reads it:
     * the path itself, or where the checkout is out of its reach a copy in run/served/ (refreshed where the checkout's is
     * newer, every reader's bit set).
     */
    Path served(Path path) throws IOException {
        if (servedCopies == null) {   // asked once: the service user reads the checkout, or copies are needed
            servedCopies = run.equals(root.resolve("run")) || user.reads(root.resolve("scripts/spice")) ? run
                    : run.resolve("served");
        }
        if (servedCopies.equals(run) || !path.startsWith(root)) {
            return path;
        }
        Path copy = servedCopies.resolve(root.relativize(path));
        // the folders above the copy too are made for every reader, whatever this process's umask
        Programs.Result done = Programs.output(List.of("sh", "-c", "umask 022 && mkdir -p \"$(dirname \"$1\")\""
                + " && cp -a -u -T \"$0\" \"$1\" && chmod -R a+rX \"$1\"", path.toString(), copy.toString()));
        if (!done.ok()) {
            throw new IOException("could not copy " + path + " where " + user.name() + " reads it (" + copy + "): "
                    + done.output().strip());
        }
        return copy;
    }

    /** A version pinned in the root pom.xml (tomcat.version): the one place the build and the launchers take it from. */
    String pomProperty(String name) throws IOException {
        Matcher value = Pattern.compile("<" + Pattern.quote(name) + ">([^<]*)</" + Pattern.quote(name) + ">")
                .matcher(Files.readString(root.resolve("pom.xml")));
        if (!value.find()) {
            throw new IOException("pom.xml pins no " + name);
        }
        return value.group(1).strip();
    }

    /** The Java servers' JVM options: conf/java/jvm.options (a line each, # for comments), then the variable's words. */
    List<String> jvmOptions(String variable) throws IOException {
        List<String> options = new ArrayList<>();
        for (String line : Files.readAllLines(root.resolve("conf/java/jvm.options"))) {
            String option = line.replaceAll("#.*", "").strip();
            if (!option.isEmpty()) {
                options.addAll(List.of(option.split("\\s+")));
            }
        }
        String more = Options.env(variable, "").strip();
        if (!more.isEmpty()) {
            options.addAll(List.of(more.split("\\s+")));
        }
        return options;
    }

    /**
     * How long a start waits for a service to be ready, in seconds: SPICE_WAIT_S, else 60 (a JVM server's first start on
     * this 2-core machine is 2-4 s; a machine several times slower, or one busy with the suite's other work, needs room).
     */
    static int waitLimitS() {
        String limit = Options.env("SPICE_WAIT_S", "60");
        return limit.matches("[1-9][0-9]{0,5}") ? Integer.parseInt(limit) : 60;
    }
}
