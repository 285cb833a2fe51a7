package org.spice.servers;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** Where the checkout is, and its run/: the one this harness was built in, or the one the spice.root property names. */
public final class Checkout {

    private Checkout() {
    }

    /**
     * The checkout this harness was built in (harness/target/spice-harness.jar or harness/target/classes), or the one
     * the spice.root property names (scripts/spice runs a bench from a copy of the jar).
     */
    public static Path root() {
        String given = System.getProperty("spice.root");
        if (given != null) {
            return Path.of(given).toAbsolutePath().normalize();
        }
        try {
            Path code = Path.of(Checkout.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return code.getParent().getParent().getParent();
        } catch (java.net.URISyntaxException | RuntimeException e) {
            return Path.of(".");
        }
    }

    private static Path real(Path path) {
        try {
            return path.toRealPath();
        } catch (IOException e) {
            return path.toAbsolutePath().normalize();
        }
    }

    /**
     * run/ of the checkout at {@code root}: the servers' run directories, the TLS files, the fileset. The checkout's own,
     * or where the service user cannot reach the checkout, a folder it can (common.sh's spice_run_dir decides, and may
     * move run/ there the first time: one rule for the shell's commands and the harness). scripts/spice hands it to the
     * harness (the spice.run property, with spice.root); a harness started otherwise asks the shell once.
     */
    static Path run(Path root) throws IOException {
        String given = System.getProperty("spice.run");
        if (given != null && !given.isEmpty() && real(root).equals(real(root()))) {
            return Path.of(given);
        }
        Programs.Result asked = Programs.output(List.of("bash", "-c", "source \"$0/scripts/lib/common.sh\" && echo \"$SPICE_RUN\"",
                root.toString()));
        String[] lines = asked.output().strip().split("\n");
        String last = lines[lines.length - 1].strip();
        if (!asked.ok() || !last.startsWith("/")) {
            throw new IOException("scripts/lib/common.sh named no run directory for " + root + ": " + asked.output().strip());
        }
        return Path.of(last);
    }
}
