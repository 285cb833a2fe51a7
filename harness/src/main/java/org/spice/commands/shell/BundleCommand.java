package org.spice.commands.shell;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code scripts/spice bundle} (scripts/lib/bundle.sh runs it). */
@Command(name = "bundle", mixinStandardHelpOptions = true, sortOptions = false,
        description = "The deploy bundles: DIR/spice-SERVER-VERSION.tar.gz, each with the probes for that server, its"
                + " configuration for the server's stock layout, install.sh (--dry-run, --prefix, --uninstall) and a README.")
public final class BundleCommand extends ShellCommand {

    /** The servers a bundle is made for (tomcat9: Tomcat 9's javax copy). */
    static final List<String> SERVERS = List.of("apache", "nginx", "tomcat", "tomcat9", "jetty");

    @Parameters(arity = "1..*", paramLabel = "SERVER", completionCandidates = Servers.class,
            description = "${COMPLETION-CANDIDATES} or all.")
    List<String> servers;

    @Option(names = "--out", paramLabel = "DIR", description = "Default dist/ in the checkout.")
    String out;

    @Override
    Map<String, Object> assignments() {
        LinkedHashSet<String> names = new LinkedHashSet<>();
        for (String server : servers) {
            if (server.equals("all")) {
                names.addAll(SERVERS);
            } else if (SERVERS.contains(server)) {
                names.add(server);
            } else {
                throw fail("unknown server \"" + server + "\": " + String.join(" ", SERVERS) + " or all");
            }
        }
        return vars("names", new ArrayList<>(names), "out", out);
    }

    static final class Servers extends ArrayList<String> {
        Servers() {
            super(SERVERS);
        }
    }
}
