package org.spice.bench.plan;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import org.spice.bench.model.Server;

/**
 * The project built at another page size, beside the checkout: the size is fixed at build time (the static file,
 * the JSP and SHTML pages, the C programs' buffers, the Java probes' arrays all come from page/), so a sweep
 * builds a copy of the sources per size with Maven and runs that copy's harness (HarnessProcess). The copy is refreshed file by file
 * (size and modification time kept), so Maven rebuilds only what changed; build output, run state, results and
 * git's files are not copied, and the downloaded server distributions (.cache) are shared through a link.
 */
public final class SizedTree {

    /** Top-level folders that are not sources. */
    private static final Set<String> NOT_SOURCES = Set.of(".git", "run", "results", "dist", ".cache");
    /** Folders that are build output wherever they stand. */
    private static final String BUILD_OUTPUT = "target";

    private final Path source;
    private final Path tree;
    private final int bytes;

    public SizedTree(Path source, Path work, int bytes) {
        this.source = source.toAbsolutePath().normalize();
        this.tree = work.toAbsolutePath().normalize().resolve("spice-" + bytes);
        this.bytes = bytes;
    }

    public Path root() {
        return tree;
    }

    /** Copies what changed in the sources, removes what they no longer have, then builds at this size. */
    public void prepare(Server server, PrintStream err) throws IOException {
        err.println("spice sweep: the probes at " + bytes + " bytes: refreshing " + tree + " and building it");
        refresh();
        List<String> args = new ArrayList<>(List.of("-q", "-Dspice.bytes=" + bytes));
        if (server == Server.EMBEDDED) {
            // The embedded server needs the WAR and the server jar, and bench needs the harness: not the C modules
            // of httpd and nginx, nor the Jetty handler.
            args.addAll(List.of("-pl", "server,harness", "-am"));
        }
        int status = HarnessProcess.build(tree, args, err);
        if (status != 0) {
            throw new IOException("the build at " + bytes + " bytes failed (mvn exit " + status + ", output above)");
        }
    }

    public void refresh() throws IOException {
        Files.createDirectories(tree);
        Files.walkFileTree(source, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                if (!dir.equals(source) && skipped(source.relativize(dir))) {
                    return FileVisitResult.SKIP_SUBTREE;
                }
                Files.createDirectories(tree.resolve(source.relativize(dir).toString()));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                // a link is a file to the walk (it follows none): run/ is one in a checkout only root can enter, and
                // copied it would be its target's folder, which the copy's own run state then fills
                if (skipped(source.relativize(file))) {
                    return FileVisitResult.CONTINUE;
                }
                Path copy = tree.resolve(source.relativize(file).toString());
                if (!same(file, attrs, copy)) {
                    Files.copy(file, copy, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
                }
                return FileVisitResult.CONTINUE;
            }
        });
        removeGone();
        Path cache = source.resolve(".cache");
        Path link = tree.resolve(".cache");
        if (Files.isDirectory(cache) && !Files.exists(link, LinkOption.NOFOLLOW_LINKS)) {
            Files.createSymbolicLink(link, cache);
        }
    }

    /** Files of the copy whose source is gone (a deleted class would still compile into the copy). */
    private void removeGone() throws IOException {
        List<Path> gone = new ArrayList<>();
        try (Stream<Path> files = Files.walk(tree)) {
            files.filter(p -> !p.equals(tree) && !skipped(tree.relativize(p)))
                    .filter(p -> !Files.exists(source.resolve(tree.relativize(p).toString()), LinkOption.NOFOLLOW_LINKS))
                    .forEach(gone::add);
        }
        gone.sort((a, b) -> b.getNameCount() - a.getNameCount());
        for (Path p : gone) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException e) {
                // a folder whose files are skipped (build output inside it) stays: it holds nothing of the sources
                if (!Files.isDirectory(p)) {
                    throw e;
                }
            }
        }
    }

    private static boolean skipped(Path relative) {
        if (relative.getNameCount() > 0 && NOT_SOURCES.contains(relative.getName(0).toString())) {
            return true;
        }
        for (Path part : relative) {
            if (part.toString().equals(BUILD_OUTPUT)) {
                return true;
            }
        }
        return false;
    }

    private static boolean same(Path file, BasicFileAttributes attrs, Path copy) throws IOException {
        if (!Files.exists(copy, LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        BasicFileAttributes there = Files.readAttributes(copy, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        return there.size() == attrs.size() && there.lastModifiedTime().equals(attrs.lastModifiedTime());
    }
}
