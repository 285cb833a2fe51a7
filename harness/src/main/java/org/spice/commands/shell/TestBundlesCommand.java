package org.spice.commands.shell;

import java.util.List;
import java.util.Map;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code scripts/spice test-bundles}: the deploy tests alone, through Maven (scripts/lib/tests.sh). */
@Command(name = "test-bundles", mixinStandardHelpOptions = true,
        description = {"Build the bundles, install each with its install.sh into a stock server laid out in a temporary"
                + " directory (the README's matrix), start it, verify, uninstall; two-hosts (root): the apache and tomcat"
                + " bundles on stock httpd and Tomcat, a metrics agent each, verified and measured side by side from a"
                + " second host (a network namespace); readme (root): README.md's deploy section run as printed.",
            "The suite's deploy tests (server/src/test/java, *IT) alone, through Maven, their benches on every probe."})
public final class TestBundlesCommand extends ShellCommand {

    @Parameters(paramLabel = "CELL", description = "Some cells by name (httpd-2.4, nginx-1.22, tomcat-11, jetty-12.1,"
            + " two-hosts, readme, ...); none: every one.")
    List<String> cells;

    @Override
    Map<String, Object> assignments() {
        return vars();
    }
}
