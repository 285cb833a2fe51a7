package org.spice.commands.shell;

import java.util.Map;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code scripts/spice test}: run by the script itself (scripts/lib/tests.sh), which builds before anything else. */
@Command(name = "test", mixinStandardHelpOptions = true,
        description = "Install what the tests run for real when it can (as root with apt; else it says what is missing),"
                + " then run the test suite: the page's tests at a second page size (1000 bytes), then every test at the"
                + " default, the real servers from conf/ and every deploy bundle on its stock servers (test-bundles) last.")
public final class TestCommand extends ShellCommand {

    @Option(names = "--fast", description = "The unit tests alone (the page's and the harness's): no server, no load, no"
            + " tool to install; a couple of minutes, for before every commit.")
    boolean fast;

    @Override
    Map<String, Object> assignments() {
        return vars("fast", fast ? "yes" : "");
    }
}
