package org.spice.commands.shell;

import java.util.List;
import java.util.Map;

import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/** {@code scripts/spice build}: Maven, run by the script itself (the harness is what it builds). */
@Command(name = "build", mixinStandardHelpOptions = true,
        description = {"Build every probe, the WAR, the embedded server and the harness (mvn -B package -DskipTests).",
            "What follows is Maven's: -Dspice.bytes=N builds every page at N bytes (default 6250)."})
public final class BuildCommand extends ShellCommand {

    /** Given to Maven: -Dspice.bytes=N builds every page at N bytes (default 6250). */
    @Unmatched
    List<String> maven;

    @Override
    Map<String, Object> assignments() {
        return vars();
    }
}
