package org.spice.commands.shell;

import java.util.Map;

import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code scripts/spice metrics-agent ACTION [options]} (scripts/lib/metrics.sh runs it). */
@Command(name = "metrics-agent", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"On the server's machine: Debian's node_exporter on ADDR:N (default 127.0.0.1:9100) and"
                + " process-exporter on ADDR:N+1, bound to ADDR only, so that bench --target ... --server-metrics reads"
                + " the server's CPU where it runs; start prints that value.",
            "With --cgroup, --unit or --server, the server's cgroup on ADDR:N+2 too (Java), which is then the server's"
                + " figure, CGI's programs counted as they are locally; with --pid-file (root), a cgroup the agent makes"
                + " for a server that has none."})
public final class MetricsAgentCommand extends ShellCommand {

    enum Action { start, stop, status, install }

    @Parameters(index = "0", paramLabel = "ACTION", description = "start, stop, status or install")
    Action action;

    @Option(names = "--host", paramLabel = "ADDR", defaultValue = "127.0.0.1",
            description = "The address the exporters listen on, and only it; default ${DEFAULT-VALUE}.")
    String host;

    @Option(names = "--port", paramLabel = "N", defaultValue = "9100", converter = Ports.AgentPort.class,
            description = "node_exporter's port; process-exporter's is N+1, the cgroup's N+2; default ${DEFAULT-VALUE}.")
    int port;

    @ArgGroup(exclusive = true)
    Cgroup cgroup;

    /** The server's cgroup, named one way of four. */
    static final class Cgroup {
        @Option(names = "--cgroup", paramLabel = "PATH",
                description = "Also the server's cgroup (its CPU: every process in it, each once, CGI included).")
        String path;

        @Option(names = "--unit", paramLabel = "NAME", description = "The cgroup of the systemd unit NAME (apache2, tomcat10, ...).")
        String unit;

        @Option(names = "--server", paramLabel = "NAME[:PORT]",
                description = "The cgroup of SPICE's own server NAME started here (scripts/spice server start).")
        String server;

        @Option(names = "--pid-file", paramLabel = "FILE",
                description = "A server with no cgroup of its own (httpd started by apachectl without systemd): as root,"
                        + " a cgroup the agent makes, the server (FILE's process and its descendants) moved into it, its"
                        + " children born there from then on; moved back, and the cgroup removed, on stop.")
        String pidFile;

        /** Which of the four names it, as the option is spelled. */
        String kind() {
            return path != null ? "cgroup" : unit != null ? "unit" : server != null ? "server" : "pid-file";
        }

        /** What that option was given. */
        String what() {
            return path != null ? path : unit != null ? unit : server != null ? server : pidFile;
        }
    }

    @Override
    Map<String, Object> assignments() {
        if (!host.matches("[0-9A-Za-z.:-]+")) {
            throw fail("--host takes an address, not \"" + host + "\"");
        }
        if (cgroup != null && action != Action.start) {
            throw fail("--" + cgroup.kind() + " goes with start");
        }
        return vars("action", action.name(), "host", host, "port", port, "cgroup_kind", cgroup == null ? "" : cgroup.kind(),
                "cgroup_what", cgroup == null ? "" : cgroup.what());
    }
}
