package org.spice.cli;

import org.spice.page.CanonicalPage;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Options several commands share, declared once as picocli mixins. */
public final class Options {

    private Options() {
    }

    /** {@code --bytes N}: the page size the probes were built with. */
    public static final class PageBytes {
        @Spec(Spec.Target.MIXEE)
        CommandSpec spec;

        @Option(names = "--bytes", paramLabel = "N", description = "The page size the probes were built with (default: this build's).")
        Integer bytes;

        /** The size given, checked, or this build's. */
        public int value() {
            if (bytes == null) {
                return CanonicalPage.builtBytes();
            }
            if (bytes <= 0) {
                throw new Cli.Checks(spec).fail("--bytes takes a whole number above 0, not " + bytes);
            }
            return bytes;
        }
    }

    /** {@code --timeout MS}: per request (and per TLS handshake). */
    public static final class Timeout {
        @Spec(Spec.Target.MIXEE)
        CommandSpec spec;

        @Option(names = "--timeout", paramLabel = "MS", description = "Per request and per TLS handshake, milliseconds (default 10000).")
        int millis = 10_000;

        /** The timeout given, checked: an hour at most. */
        public int value() {
            if (millis <= 0 || millis > 3_600_000) {
                throw new Cli.Checks(spec).fail("--timeout takes a whole number of milliseconds from 1 to 3600000, not " + millis);
            }
            return millis;
        }
    }
}
