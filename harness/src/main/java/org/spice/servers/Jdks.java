package org.spice.servers;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The JDKs the Java servers (Tomcat, Jetty) may run on: the java on the PATH, SPICE_JAVA_HOME, those under /usr/lib/jvm. */
public final class Jdks {

    private static final Pattern VERSION = Pattern.compile("(?m)^JAVA_VERSION=\"([0-9]+)");

    private Jdks() {
    }

    /** The feature version of the JDK in {@code home} (21 for 21.0.5), from its release file; 0 where it has none. */
    static int version(Path home) {
        try {
            Matcher version = VERSION.matcher(Files.readString(home.resolve("release")));
            return version.find() ? Integer.parseInt(version.group(1)) : 0;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /**
     * A JDK of version 21 or later (virtual threads): the java on the PATH if it is one, else the newest under
     * /usr/lib/jvm; its home, or null where the machine has none.
     */
    public static Path java21Home() {
        List<Path> javas = new ArrayList<>();
        Path onPath = Programs.which("java");
        if (onPath != null) {
            javas.add(onPath);
        }
        try (DirectoryStream<Path> homes = Files.newDirectoryStream(Path.of("/usr/lib/jvm"))) {
            homes.forEach(home -> javas.add(home.resolve("bin/java")));
        } catch (IOException e) {
            // no /usr/lib/jvm: the PATH's alone
        }
        Path best = null;
        int bestVersion = 0;
        for (Path java : javas) {
            if (!Files.isExecutable(java)) {
                continue;
            }
            Path home;
            try {
                home = java.toRealPath().getParent().getParent();
            } catch (IOException e) {
                continue;
            }
            int version = version(home);
            if (version >= 21 && version > bestVersion) {
                best = home;
                bestVersion = version;
            }
        }
        return best;
    }

    /** Whether a Java server can run on virtual threads here: SPICE_JAVA_HOME a JDK 21 or later, else one on the machine. */
    static boolean virtualThreads() {
        String given = Options.env("SPICE_JAVA_HOME", "");
        return given.isEmpty() ? java21Home() != null : version(Path.of(given)) >= 21;
    }

    /**
     * The JDK a Java server ({@code name}: tomcat or jetty) runs on: SPICE_JAVA_HOME where it is set, else with virtual
     * threads the newest JDK 21 or later, else null (the java on the PATH). Says which on {@code err}. Comparing platform
     * threads with virtual ones is comparing two JDKs unless both run on one: SPICE_JAVA_HOME=(a JDK 21+) for both runs.
     */
    static Path serverJavaHome(String name, String threads, PrintStream err) throws IOException {
        String given = Options.env("SPICE_JAVA_HOME", "");
        boolean virtual = threads.equals("virtual");
        Path home = given.isEmpty() ? null : Path.of(given);
        if (home == null && virtual) {
            home = java21Home();
            if (home == null) {
                throw new IOException(name + ": --threads virtual needs a JDK 21 or later, and this machine has none (java on"
                        + " the PATH is older, nothing newer under /usr/lib/jvm): apt-get install openjdk-21-jdk-headless");
            }
        }
        if (home != null && !Files.isExecutable(home.resolve("bin/java"))) {
            throw new IOException(name + ": SPICE_JAVA_HOME=" + home + " has no bin/java");
        }
        if (virtual && version(home) < 21) {
            throw new IOException(name + ": --threads virtual needs a JDK 21 or later, not " + home);
        }
        err.println(name + ": request threads " + threads + ", on " + (home != null ? home : "the java on the PATH ("
                + Programs.which("java") + ")"));
        return home;
    }
}
