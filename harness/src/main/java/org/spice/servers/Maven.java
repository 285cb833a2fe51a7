package org.spice.servers;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** The distributions SPICE takes from Maven Central (Tomcat's, Jetty's), fetched through Maven at pom.xml's versions. */
final class Maven {

    private Maven() {
    }

    /** Unpacks {@code artifact} (group:artifact:version:type) into {@code destination}, once; Maven's output to {@code out}. */
    static void unpack(Site site, String artifact, Path destination, PrintStream out) throws IOException {
        if (Programs.which("mvn") == null) {
            throw new IOException("mvn is not installed: apt-get install maven");
        }
        Files.createDirectories(destination);
        int status = Programs.said(List.of("mvn", "-B", "-q", "org.apache.maven.plugins:maven-dependency-plugin:"
                + site.pomProperty("maven-dependency-plugin.version") + ":unpack", "-Dartifact=" + artifact,
                "-DoutputDirectory=" + destination, "-Dmdep.overWriteReleases=false"), Map.of(),
                destination, out);   // run outside the checkout: its pom.xml would make the goal run once per module
        if (status != 0) {
            throw new IOException("could not fetch " + artifact + " with Maven (its output is above)");
        }
    }
}
