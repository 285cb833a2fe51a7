package org.spice.harness;

import java.util.Arrays;
import java.util.List;

import org.spice.page.Probe;

/**
 * Entry point of the harness jar; {@code scripts/spice} calls it with a command and its options.
 */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        if (args.length == 0) {
            System.err.println("usage: spice-harness verify|bench|report|compare|fileset [options]  (see scripts/spice help)");
            System.exit(2);
        }
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        int status;
        try {
            status = switch (args[0]) {
                case "verify" -> org.spice.verify.VerifyCommand.run(rest, System.out);
                case "urls" -> printUrls(rest);
                case "bench" -> org.spice.bench.run.BenchCommand.run(rest, System.out, System.err);
                case "report" -> org.spice.bench.report.ReportCommand.run(rest, System.out);
                case "compare" -> org.spice.bench.report.CompareCommand.run(rest, System.out);
                case "cgi-floor" -> org.spice.cgifloor.CgiFloorCommand.run(rest, System.out);
                case "fileset" -> org.spice.fileset.FilesetCommand.run(rest, System.out);
                default -> throw new UsageException("unknown command \"" + args[0]
                        + "\": verify, bench, report, compare, cgi-floor or fileset");
            };
        } catch (UsageException e) {
            System.err.println("spice " + args[0] + ": " + e.getMessage());
            status = 2;
        }
        System.exit(status);
    }

    /** {@code urls BASE_URL [probe ...]}: the probes' URLs on a server, for the scripts' banners. */
    private static int printUrls(String[] args) {
        if (args.length == 0) {
            throw new UsageException("give the server's base URL");
        }
        String probes = args.length > 1 ? String.join(",", Arrays.copyOfRange(args, 1, args.length)) : Probe.ids();
        List<Probe> list;
        try {
            list = Probe.parseList(probes);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        for (Probe probe : list) {
            System.out.printf("  %-8s %s%n", probe.id(), probe.describeUrl(args[0]));
        }
        return 0;
    }
}
