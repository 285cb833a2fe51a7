package org.spice.commands.shell;

import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.spice.bench.model.Server;
import org.spice.cli.Cli;
import org.spice.servers.Checkout;
import org.spice.servers.Options;
import org.spice.servers.Servers;

import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code scripts/spice server ACTION NAME|all [options]}: the servers from conf/, their life cycle run by
 * {@link Servers} (each one's own part by its launcher, one class per server). A variant's name is its base's with its
 * start option: {@code apache-prefork} is {@code apache --mpm prefork}.
 */
@Command(name = "server", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"The servers, configured from conf/: install what is missing (installed: say what is), start one"
                + " on 127.0.0.1 (--listen: another address of this machine, for a client elsewhere), stop it by its PID"
                + " file, tell whether it runs, list its PIDs, name its cgroup.",
            "Its run directory is run/NAME-PORT; with root and a writable cgroup hierarchy it runs in a cgroup of its own,"
                + " whose CPU is the server's (bench reads it)."})
public final class ServerCommand extends Cli.Printing implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    /** What the command does to the server. */
    enum Action {
        /** what the server needs (apt for httpd and nginx, Maven for Tomcat and Jetty) */
        install,
        /** whether it is all here: nothing and status 0, or the commands that install what is missing */
        installed,
        /** from conf/ on 127.0.0.1 (or --listen), run directory run/NAME-PORT */
        start,
        /** by its PID files (without --port: every instance of NAME) */
        stop,
        /** whether it runs, and the ports it listens on */
        status,
        /** the PIDs of everything it is made of, comma-separated on one line */
        pids,
        /** the cgroup it runs in (what bench reads its CPU from; empty where none could be made) */
        cgroup
    }

    @Parameters(index = "0", paramLabel = "ACTION", description = "install, installed, start, stop, status, pids or cgroup")
    Action action;

    @Parameters(index = "1", paramLabel = "NAME", converter = Name.class, completionCandidates = Names.class,
            description = "A server (its default port): ${COMPLETION-CANDIDATES}; all: every one but the variants (stop and"
                    + " status: the embedded server too, which has nothing to install).")
    String name;

    @Option(names = "--port", paramLabel = "N", converter = Ports.ServerPort.class,
            description = "Its port (default: the server's own, above); without it, stop and status act on every instance.")
    Integer port;

    @Option(names = "--listen", paramLabel = "ADDR", defaultValue = "${env:SPICE_LISTEN:-127.0.0.1}",
            description = "Start on ADDR instead of 127.0.0.1, for a load client on another machine (0.0.0.0: every"
                    + " address); what runs beside the server stays on 127.0.0.1.")
    String listen;

    @Option(names = "--access-log", description = "Log every request, as a production server does (off by default).")
    boolean accessLog;

    @Option(names = "--mpm", paramLabel = "event|prefork", defaultValue = "${env:SPICE_MPM:-event}",
            description = "httpd's MPM (mod_php runs on prefork only); default ${DEFAULT-VALUE}.")
    String mpm;

    @Option(names = "--threads", paramLabel = "platform|virtual", defaultValue = "${env:SPICE_THREADS:-platform}",
            description = "Tomcat's or Jetty's request threads (virtual: a JDK 21 or later); default ${DEFAULT-VALUE}.")
    String threads;

    @Option(names = "--workers", paramLabel = "N", defaultValue = "${env:SPICE_NGINX_WORKERS:-auto}",
            description = "nginx's worker processes: auto or 1-999; default ${DEFAULT-VALUE}.")
    String workers;

    @Override
    public Integer call() throws IOException {
        Server named = Server.find(name).orElse(null);
        Options options = new Options(listen, accessLog || "on".equals(Options.env("SPICE_ACCESS_LOG", "off")), mpm,
                threads, workers);
        if (named != null) {
            options = options.forServer(named);   // apache-prefork: apache --mpm=prefork
        }
        checkListen();
        String problem = options.problem(named);
        if (problem != null) {
            throw fail(problem);
        }
        if (named == null && port != null) {
            throw fail("--port goes with one server, not all");
        }
        List<Server> servers = named != null ? List.of(named.base()) : Stream.concat(
                action == Action.stop || action == Action.status ? Stream.of(Server.EMBEDDED) : Stream.empty(),
                Server.real().stream()).toList();
        Servers life = new Servers(Checkout.root(), out, err);
        int status = 0;
        for (Server each : servers) {
            int at = port != null ? port : each.defaultPort();
            try {
                switch (action) {
                    case install -> {
                        int installed = life.install(each);
                        if (installed != 0) {
                            return installed;   // as the shell's set -e: the first installer that fails ends it
                        }
                    }
                    case installed -> {
                        List<String> missing = life.missing(each, options);
                        missing.forEach(out::println);
                        status = missing.isEmpty() ? status : 1;
                    }
                    case start -> life.start(each, at, options);
                    case stop -> {
                        if (port != null) {
                            life.stop(each, port);
                        } else {
                            life.stopAll(each);
                        }
                    }
                    case status -> {
                        if (port != null) {
                            life.status(each, port);
                        } else {
                            life.statusAll(each);
                        }
                    }
                    case pids -> out.println(life.pids(each, at).stream().map(String::valueOf)
                            .collect(Collectors.joining(",")));
                    case cgroup -> {
                        java.nio.file.Path group = life.cgroup(each, at);
                        if (group != null) {
                            out.println(group);
                        }
                    }
                }
            } catch (IOException e) {
                err.println("spice: " + Cli.why(e));
                return 1;
            }
        }
        return status;
    }

    private ParameterException fail(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    private void checkListen() {
        if (!validIpv4(listen)) {
            throw fail("--listen takes an IPv4 address of this machine (127.0.0.1 by default; 0.0.0.0 for every one),"
                    + " not \"" + listen + "\"");
        }
        if (!listen.equals("127.0.0.1") && action != Action.start) {
            throw fail("--listen goes with start");
        }
        if (!here(listen)) {
            throw fail("--listen " + listen + ": no interface of this machine has that address (ip -4 addr lists them)");
        }
    }

    static boolean validIpv4(String address) {
        return address.matches("[0-9]{1,3}(\\.[0-9]{1,3}){3}")
                && Stream.of(address.split("\\.")).allMatch(part -> Integer.parseInt(part) <= 255);
    }

    /** Whether a server here can listen on ADDR: 0.0.0.0, loopback's 127/8, or an address of an interface. */
    static boolean here(String address) {
        if (address.equals("0.0.0.0") || address.startsWith("127.")) {
            return true;
        }
        try {
            return NetworkInterface.getByInetAddress(InetAddress.getByName(address)) != null;
        } catch (SocketException | UnknownHostException e) {
            return false;
        }
    }

    /** A server's name, a variant's, or all. */
    static final class Name implements ITypeConverter<String> {
        @Override
        public String convert(String text) {
            if (text.equals("all") || Server.find(text).isPresent()) {
                return text;
            }
            throw new TypeConversionException("unknown server \"" + text + "\": "
                    + Stream.of(Server.values()).map(Server::id).collect(Collectors.joining(" ")) + " or all");
        }
    }

    /** Every name with its default port, a variant with what it is, for the help. */
    static final class Names implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            List<String> names = new ArrayList<>();
            for (Server server : Server.values()) {
                names.add(server.id() + (server.base() == server ? " (" + server.defaultPort() + ")"
                        : " (" + server.base().id() + " " + server.startOption().orElseThrow() + ")"));
            }
            return names.iterator();
        }
    }
}
