package org.spice.commands.shell;

import java.util.concurrent.Callable;

import org.spice.cli.Cli;
import org.spice.servers.ServerTable;

import picocli.CommandLine.Command;

/** {@code spice servers}: the server table for scripts/spice, a line per server ({@link ServerTable}). */
@Command(name = "servers", hidden = true, description = "The server table, a line per server: NAME DEFAULT_PORT"
        + " HTTPS_OFFSET BACKEND_OFFSET FASTCGI_OFFSET PROBES BENCH_PROBES BASE START_OPTION H2C_OFFSET"
        + " (for scripts/spice).")
public final class ServersCommand extends Cli.Printing implements Callable<Integer> {

    @Override
    public Integer call() {
        out.print(ServerTable.text());
        return 0;
    }
}
