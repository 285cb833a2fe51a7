package org.spice.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.plan.SizedTree;
import org.spice.page.CanonicalPage;
import org.spice.testkit.CommandRun;

/**
 * sweep's options are checked before anything is built or started; the copy of the sources it builds at another
 * size holds the sources only, and follows them.
 */
@Tag("page")
@Tag("unit")
class SweepCommandTest {

    @TempDir
    Path dir;

    private String refused(String... args) {
        String[] all = new String[args.length + 2];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = "--work";
        all[args.length + 1] = dir.resolve("work").toString();
        CommandRun ran = CommandRun.of(new SweepCommand(), all);
        assertEquals(2, ran.status(), ran.console());
        assertFalse(Files.exists(dir.resolve("work")), "nothing built for a wrong command line");
        return ran.console();
    }

    @Test
    void wrongOptionsAreRefusedBeforeAnyBuild() {
        assertTrue(refused("--sizes", "6250").contains("at least two different page sizes"));
        assertTrue(refused("--sizes", "6250,6250").contains("at least two different page sizes"));
        assertTrue(refused("--sizes", "1,6250").contains("--sizes takes a whole number from " + CanonicalPage.minimumBytes()));
        assertTrue(refused("--sizes", "6250,2000000").contains("to 1048576"));
        assertTrue(refused("--sizes", "6250,big").contains("--sizes takes a whole number"));
        assertTrue(refused("--server", "nginx", "--probes", "cgi-stock").contains("nginx has no cgi-stock probe"));
        assertTrue(refused("--probes", "statc").contains("--probes"));
        assertTrue(refused("--server", "iis").contains("--server takes"));
        assertTrue(refused("--clients", "0").contains("--clients takes a whole number from 1"));
        assertTrue(refused("--duration", "0").contains("--duration takes a number above 0"));
        assertTrue(refused("--repeat", "0").contains("--repeat takes a whole number above 0"));
    }

    @Test
    void theSizedCopyHoldsTheSourcesAndFollowsThem() throws IOException {
        Path source = dir.resolve("spice");
        Files.createDirectories(source.resolve("page/src"));
        Files.createDirectories(source.resolve("page/target/classes"));
        Files.createDirectories(source.resolve(".git"));
        Files.createDirectories(source.resolve("results/old"));
        Files.createDirectories(source.resolve(".cache/tomcat"));
        Files.writeString(source.resolve("page/src/A.java"), "class A {}");
        Files.writeString(source.resolve("page/target/classes/A.class"), "built");
        Files.writeString(source.resolve(".git/HEAD"), "ref");
        Files.writeString(source.resolve("results/old/results.json"), "{}");
        Files.writeString(source.resolve("pom.xml"), "<project/>");

        SizedTree sized = new SizedTree(source, dir.resolve("work"), 1000);
        sized.refresh();
        Path copy = sized.root();
        assertEquals(dir.resolve("work/spice-1000").toAbsolutePath(), copy);
        assertEquals("class A {}", Files.readString(copy.resolve("page/src/A.java")));
        assertTrue(Files.exists(copy.resolve("pom.xml")));
        assertFalse(Files.exists(copy.resolve("page/target")), "build output is not copied");
        assertFalse(Files.exists(copy.resolve(".git")) || Files.exists(copy.resolve("results")), "nor git's files, nor results");
        assertTrue(Files.isSymbolicLink(copy.resolve(".cache")), "the server distributions are shared");

        // The copy's own build output stays; a source removed is removed; a source changed is copied again.
        Files.createDirectories(copy.resolve("page/target"));
        Files.writeString(copy.resolve("page/target/built-here"), "x");
        Files.delete(source.resolve("pom.xml"));
        Files.writeString(source.resolve("page/src/A.java"), "class A { int changed; }");
        sized.refresh();
        assertFalse(Files.exists(copy.resolve("pom.xml")), "a file gone from the sources is gone from the copy");
        assertEquals("class A { int changed; }", Files.readString(copy.resolve("page/src/A.java")));
        assertTrue(Files.exists(copy.resolve("page/target/built-here")), "the copy's build output is kept");
    }

    /**
     * In a checkout only root can enter, run/ is a link to a folder others can read; the copy's own run/ holds its run
     * state. A second refresh, after the copy's run filled its run/, leaves it be (it failed with the bare path of the
     * copy's run/, a directory not empty, 2026-12-06), and a failure of the file system says its kind.
     */
    @Test
    void aSecondRefreshLeavesTheCopysRunFolderBe() throws IOException {
        Path source = dir.resolve("spice");
        Files.createDirectories(source.resolve("page/src"));
        Files.writeString(source.resolve("page/src/A.java"), "class A {}");
        Path runs = Files.createDirectories(dir.resolve("readable/run"));
        Files.createSymbolicLink(source.resolve("run"), runs);
        SizedTree sized = new SizedTree(source, dir.resolve("work"), 1000);
        sized.refresh();
        Path copy = sized.root();
        assertFalse(Files.exists(copy.resolve("run"), java.nio.file.LinkOption.NOFOLLOW_LINKS), "run state is not copied");
        Files.createDirectories(copy.resolve("run/embedded-18080"));
        Files.writeString(copy.resolve("run/embedded-18080/server.pid"), "1");
        sized.refresh();
        assertTrue(Files.exists(copy.resolve("run/embedded-18080/server.pid")), "the copy's run state is kept");
        assertEquals("class A {}", Files.readString(copy.resolve("page/src/A.java")));
        assertEquals(copy.resolve("run") + " (directory not empty)", org.spice.cli.Cli.why(
                new java.nio.file.DirectoryNotEmptyException(copy.resolve("run").toString())));
    }
}
