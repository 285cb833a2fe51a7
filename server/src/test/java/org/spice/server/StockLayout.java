package org.spice.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A bundle's install.sh against a server's stock layout (a copy of Debian's /etc, a fresh CATALINA_BASE or
 * JETTY_BASE): --dry-run writes nothing and lists what it would; the install writes, and a second one writes
 * nothing new; a file of someone else's where it would write stops it before it writes anything; --uninstall leaves
 * the layout exactly as it was.
 *
 * @param installer the bundle's install.sh
 * @param stock     the layout it writes into, compared file by file
 * @param args      its options for this layout (--prefix, the ports)
 */
record StockLayout(Path installer, Path stock, List<String> args) {

    /** Every file and link under {@code dir}, each with its content's hash or its link's target, in order. */
    static String treeState(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            return paths.filter(p -> Files.isSymbolicLink(p) || Files.isRegularFile(p)).sorted()
                    .map(p -> dir.relativize(p) + " " + state(p)).collect(Collectors.joining("\n"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String state(Path path) {
        try {
            if (Files.isSymbolicLink(path)) {
                return "-> " + Files.readSymbolicLink(path);
            }
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(path)), 0, 8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Installs, with the checks around it; returns the layout's state before, for {@link #uninstall}. */
    String install() {
        String before = treeState(stock);
        Exec dry = run("--dry-run").ok("install.sh --dry-run");
        assertEquals(before, treeState(stock), "install.sh --dry-run changed " + stock);
        assertTrue(dry.out().contains("would write"), "install.sh --dry-run listed nothing:\n" + dry.out());
        run().ok("install.sh");
        Exec again = run().ok("install.sh, a second time");
        assertFalse(again.out().lines().anyMatch(l -> l.matches(".*: (wrote|updated|linked) .*")),
                "install.sh run twice wrote again:\n" + again.out());
        return before;
    }

    /** Uninstalls: the layout exactly as it was {@code before}. */
    void uninstall(String before) {
        run("--uninstall").ok("install.sh --uninstall");
        assertEquals(before, treeState(stock), "after --uninstall, " + stock + " is not as it was");
    }

    /** A file of someone else's at {@code foreign}, where the bundle would write, stops install.sh before it writes. */
    void refusesForeign(Path foreign) throws IOException {
        Files.createDirectories(foreign.getParent());
        Files.writeString(foreign, "not SPICE's\n");
        String before = treeState(stock);
        Exec refused = run();
        assertNotEquals(0, refused.status(), "install.sh replaced " + foreign + ", which it did not write");
        assertTrue(refused.out().contains("were not written by this installer"), refused.out());
        assertEquals(before, treeState(stock), "install.sh wrote something before refusing");
        Files.delete(foreign);
    }

    private Exec run(String... more) {
        List<String> command = new ArrayList<>(List.of(installer.toString()));
        command.addAll(args);
        command.addAll(List.of(more));
        return Exec.run(null, Map.of(), 300, command);
    }
}
