package org.spice.commands;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import org.spice.bench.jmeter.JMeterEngine;
import org.spice.cli.Cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code jmeter-rmi-properties --out FILE [--keystore KEYSTORE]}: the RMI settings scripts/spice jmeter-server
 * gives its JMeter engine, written by the same code as bench's JMeter clients use, so both ends agree.
 */
@Command(name = "jmeter-rmi-properties", hidden = true, description = "JMeter's RMI settings for a server engine.")
public final class RmiPropertiesCommand extends Cli.Printing implements Callable<Integer> {

    @Option(names = "--out", required = true, paramLabel = "FILE")
    Path out;

    @Option(names = "--keystore", paramLabel = "KEYSTORE", description = "The PKCS#12 keystore (password in KEYSTORE.password);"
            + " without it, RMI runs without TLS.")
    Path keystore;

    @Override
    public Integer call() {
        try {
            String password = keystore == null ? null : Files.readString(Path.of(keystore + ".password")).trim();
            JMeterEngine.writeRmiProperties(out, keystore, password);
            return 0;
        } catch (IOException e) {
            err.println("jmeter-rmi-properties: " + e.getMessage());
            return 1;
        }
    }
}
