package org.spice.bench.run;

import java.io.IOException;
import java.io.PrintStream;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.List;

import org.spice.bench.model.BenchSettings;
import org.spice.bench.model.CpuFrom;
import org.spice.bench.model.ServerSide;
import org.spice.bench.model.RecordedSettings;
import org.spice.bench.model.SteadyState;
import org.spice.bench.net.Endpoint;
import org.spice.bench.net.TlsConfig;
import org.spice.bench.proc.CpuMeter;
import org.spice.bench.proc.Exporters;
import org.spice.bench.proc.Pinning;
import org.spice.bench.proc.ServerCpu;

/**
 * The run's first phase, before any load: what the options alone could not check (the certificate, the server
 * reachable, its processes on this machine, its exporters answering), where the server's CPU is read and what the
 * results must say about it, the machine's facts and pinning. A problem here ends the run before it writes anything.
 */
final class Preflight {

    /** What the run goes on with: TLS, where the server's CPU is read, the settings recorded, the notes so far. */
    record Ready(TlsConfig tls, ServerCpu serverCpu, RecordedSettings recorded, List<String> notes) {
    }

    /** Why the run cannot start, with its exit status (2: the options; 1: the machine or the server). */
    static final class Refused extends Exception {
        private final int status;

        Refused(int status, String message) {
            super(message);
            this.status = status;
        }

        int status() {
            return status;
        }
    }

    private Preflight() {
    }

    static Ready check(BenchSettings settings, PrintStream err) throws Refused {
        TlsConfig tls;
        try {
            tls = tls(settings);
        } catch (IOException | GeneralSecurityException e) {
            throw new Refused(2, "--trust-cert: " + e.getMessage());
        }
        String down = Endpoint.firstUnreachable(settings.target().endpoints(settings.load().mixes()), settings.target().timeoutMillis());
        if (down != null) {
            throw new Refused(1, "cannot reach " + down + " (start a server first, e.g. scripts/spice serve)");
        }
        for (long pid : settings.server().pids()) {
            if (!CpuMeter.processExists(pid)) {
                throw new Refused(2, "--server-pid: no process " + pid + " on this machine");
            }
        }
        ServerCpu serverCpu;
        try {
            serverCpu = ServerCpu.of(settings.server().pids(), settings.target().http().isLocal(), settings.server().metrics(),
                    settings.server().cgroup());
        } catch (IOException e) {
            throw new Refused(2, "--server-cgroup: " + e.getMessage());
        }
        String unreadable = serverCpu.check();
        if (unreadable != null) {
            throw new Refused(1, "--server-metrics: " + unreadable);
        }
        String pinning = null;
        if (settings.server().pin()) {
            pinning = Pinning.apply(settings.target().http().isLocal(), settings.server().pids());
            err.println(pinning);
        }
        RecordedSettings recorded = settings.recorded(machine(), pinning, Ladder.ORDER, steadyStateRule(settings));
        if (serverCpu.exportedCgroup() != null) {
            recorded = recorded.withServerCgroup(serverCpu.exportedCgroup());
        }
        return new Ready(tls, serverCpu, recorded, cpuNotes(settings, serverCpu));
    }

    /**
     * Where the run reads the server's CPU: where its settings say, but its cgroup where the exporters on its machine
     * serve one (the settings know only that there are exporters; {@link ServerCpu#check} found the cgroup).
     */
    static CpuFrom cpuFrom(ServerSide side, ServerCpu serverCpu) {
        return serverCpu != null && serverCpu.exportedCgroup() != null ? CpuFrom.CGROUP : side.cpuFrom();
    }

    /** What the results must say about where the server's CPU was read. */
    static List<String> cpuNotes(BenchSettings settings, ServerCpu serverCpu) {
        List<String> notes = new ArrayList<>();
        boolean local = settings.target().http().isLocal();
        if (serverCpu.exportedCgroup() != null) {
            notes.add("The server's CPU was read where it runs, from its cgroup there (" + serverCpu.exportedCgroup()
                    + "), served by its exporters " + settings.server().metrics() + " (scripts/spice metrics-agent's"
                    + " cgroup exporter, read at each scrape): every process in it counted once, CGI programs included;"
                    + " mach is node_exporter's busy time less the exporters' own" + (local ? " and less this client's"
                    + " (the server runs on this machine)" : " (the client is not on that machine)"));
        } else if (serverCpu.fromExporters()) {
            notes.add("The server's CPU was read where it runs, from its exporters " + settings.server().metrics() + ": srv is"
                    + " process-exporter's group \"" + Exporters.GROUP + "\" (the server's processes; a CGI program born"
                    + " and reaped between two scrapes is not seen, so for CGI the machine figure counts), mach is"
                    + " node_exporter's busy time less the exporters' own" + (local ? " and less this client's (the server"
                    + " runs on this machine)" : " (the client is not on that machine)"));
        } else if (settings.server().pids().isEmpty() && !local) {
            notes.add("The server is not on this machine (" + settings.target().http() + "): SPICE reads CPU where it runs, and"
                    + " this machine's CPU would be the client's, so there is no server CPU figure: pass --server-metrics"
                    + " (scripts/spice metrics-agent start on the server's machine)");
        }
        if (!settings.server().pids().isEmpty() && !local) {
            notes.add("--server-pid given but the target is not local: the server CPU is of processes "
                    + settings.server().pids() + " on this machine, check that they are the server");
        }
        return notes;
    }

    /** The client machine: its CPUs, the kernel's clock ticks, the JVM and the system. */
    static RecordedSettings.Machine machine() {
        return new RecordedSettings.Machine(Runtime.getRuntime().availableProcessors(), CpuMeter.clockTicks(),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.version"),
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"));
    }

    private static String steadyStateRule(BenchSettings settings) {
        if (settings.timing().warmUpS() <= 0) {
            return "none (--warm-up 0)";
        }
        double minimum = WarmUp.minimumS(settings);
        return "warm each workload in rounds until " + SteadyState.RULE + ", at most " + settings.timing().warmUpS() + " s each"
                + (minimum > 0 ? "; a Java server at least " + minimum + " s in all" : "")
                + (settings.cpuRoundsRun() ? "; at the CPU rounds' load, which then measure" : "");
    }

    private static TlsConfig tls(BenchSettings settings) throws IOException, GeneralSecurityException {
        boolean needed = settings.target().https() != null && settings.load().mixes().stream()
                .anyMatch(mix -> mix.hasTls() || settings.target().http().tls());
        return needed ? TlsConfig.create(settings.target().trustCert(), settings.target().tlsResume()) : null;
    }
}
