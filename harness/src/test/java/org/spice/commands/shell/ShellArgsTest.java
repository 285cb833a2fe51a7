package org.spice.commands.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.spice.cli.Cli;
import org.spice.harness.Main;

import picocli.CommandLine;

/**
 * What scripts/spice evaluates of a shell command's parsed command line: bash reads back every value as parsed, an
 * array as its words, whatever quotes or spaces they hold.
 */
@Tag("process")
class ShellArgsTest {

    /** The command's assignments for {@code args}, as picocli parses them. */
    private static Map<String, Object> parsed(String... args) {
        CommandLine line = Cli.commandLine(new Main(), System.out, System.err);
        List<CommandLine> parsed = line.parseArgs(args).asCommandLineList();
        return ((ShellCommand) parsed.get(parsed.size() - 1).getCommand()).assignments();
    }

    /** {@code assignments} evaluated by bash, then {@code print} run: what it prints. */
    private static String bash(Map<String, Object> assignments, String print) throws IOException, InterruptedException {
        StringBuilder script = new StringBuilder();
        assignments.forEach((name, value) -> script.append(name).append('=').append(ShellCommand.shell(value)).append('\n'));
        Process bash = new ProcessBuilder("bash", "-c", "eval \"$0\"; " + print, script.toString()).start();
        String out = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(bash.waitFor(10, TimeUnit.SECONDS));
        assertEquals(0, bash.exitValue(), new String(bash.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
        return out;
    }

    @Test
    void bashReadsEveryValueBackAsParsed() throws Exception {
        Map<String, Object> odd = ShellCommand.vars("one", "it's a \"word\" $HOME `x`", "many", List.of("a b", "", "c'd"),
                "none", null);
        assertEquals("it's a \"word\" $HOME `x`|3|a b||c'd||\n",
                bash(odd, "printf '%s|%s|' \"$one\" \"${#many[@]}\"; printf '%s|' \"${many[@]}\" \"$none\"; echo"));
    }

    @Test
    void theMetricsAgentsCgroupIsOneOfFour() throws Exception {
        assertEquals("start|server|tomcat:18082|9200\n", bash(parsed("metrics-agent", "start", "--server", "tomcat:18082",
                "--port", "9200"), "echo \"$action|$cgroup_kind|$cgroup_what|$port\""));
        assertEquals("stop||\n", bash(parsed("metrics-agent", "stop"), "echo \"$action|$cgroup_kind|$cgroup_what\""));
    }

    @Test
    void bundlesAllIsEveryServerOnceInTheOrderGiven() throws Exception {
        assertEquals("nginx apache tomcat tomcat9 jetty|\n", bash(parsed("bundle", "nginx", "all"), "echo \"${names[*]}|$out\""));
    }
}
