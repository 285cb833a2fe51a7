package org.spice.servers;

import java.nio.file.Path;

/** Where the checkout is: the one this harness was built in, or the one the spice.root property names. */
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
}
