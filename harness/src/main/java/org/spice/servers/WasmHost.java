package org.spice.servers;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The WebAssembly probes' host beside httpd and nginx (wasm/): spice-wasm, on wazero, serving cgi-c/spice.c built for
 * wasm32-wasi as a command (spice.wasm, an instance per request) and as a reactor (spice-kept.wasm, kept instances) over
 * FastCGI on RUN/wasm.sock. What it needs installed (Debian's clang, lld and wasi-libc; Go 1.25 or later, which Debian
 * 12 does not package), built where the build came before them, started as the service user.
 */
final class WasmHost {

    /** Debian's C compiler for wasm32-wasi, its linker, its C library and its compiler runtime. */
    static final List<String> PACKAGES = List.of("clang-14", "lld-14", "wasi-libc", "libclang-rt-14-dev-wasm32");
    private static final List<String> FILES = List.of("spice-wasm", "spice.wasm", "spice-kept.wasm");
    private static final Pattern GO_VERSION = Pattern.compile("go1\\.(2[5-9]|[3-9][0-9])(\\..*)?");

    private WasmHost() {
    }

    /**
     * A Go of 1.25 or later (wazero 1.12's): /usr/local/go's first, since Debian 12's own (/usr/bin/go) is 1.19; null
     * where there is none. wasm/Makefile chooses the same way.
     */
    static Path go() {
        List<Path> candidates = new ArrayList<>(List.of(Path.of("/usr/local/go/bin/go")));
        Path onPath = Programs.which("go");
        if (onPath != null) {
            candidates.add(onPath);
        }
        for (Path go : candidates) {
            if (Files.isExecutable(go) && GO_VERSION.matcher(Programs.output(List.of(go.toString(), "env", "GOVERSION"))
                    .output().strip()).matches()) {
                return go;
            }
        }
        return null;
    }

    static boolean installed() {
        return go() != null && PACKAGES.stream().allMatch(Programs::packageInstalled);
    }

    /**
     * The packages, with apt where missing (root only); Go, which apt cannot give, said where missing. Called last in a
     * server's install, so that all the rest is installed whatever it says.
     */
    static void install(String server, PrintStream out) throws IOException {
        List<String> missing = PACKAGES.stream().filter(p -> !Programs.packageInstalled(p)).toList();
        if (missing.isEmpty()) {
            out.println(server + ": the wasm probes' packages are installed (" + String.join(" ", PACKAGES) + ")");
        } else {
            Companions.needRoot(server, "the wasm probes need " + String.join(" ", missing) + ", and installing them",
                    missing);
            Programs.aptInstall(missing, out);
            out.println(server + ": installed " + String.join(" ", missing) + " (the wasm probes' compiler)");
        }
        if (go() == null) {
            throw new IOException(server + ": the wasm probes' host is built with Go 1.25 or later, which this machine lacks"
                    + " and Debian 12 does not package: install it from go.dev into /usr/local/go (or put it on PATH)");
        }
    }

    /**
     * spice-wasm on RUN/wasm.sock, as the service user, in a session of its own; its PID in RUN/wasm.pid. Built first
     * where the build had no clang for wasm32-wasi or no Go and they came later.
     */
    static void start(Start start, Path run, String server) throws IOException {
        Site site = start.site;
        Path dir = site.root.resolve("wasm");
        if (!FILES.stream().allMatch(f -> Files.isRegularFile(dir.resolve("target/" + f)))) {
            if (!installed()) {
                throw new IOException("the wasm probes need " + String.join(" ", PACKAGES) + " and Go 1.25 or later:"
                        + " sudo scripts/spice server install " + server);
            }
            Companions.make(site, dir);
            if (!FILES.stream().allMatch(f -> Files.isRegularFile(dir.resolve("target/" + f)))) {
                throw new IOException("the wasm probes were not built in wasm/target (make's output is above)");
            }
        }
        Path socket = Runtimes.Socket.WASM.in(run);
        Path host = site.served(dir.resolve("target/spice-wasm"));
        Path command = site.served(dir.resolve("target/spice.wasm"));
        Path kept = site.served(dir.resolve("target/spice-kept.wasm"));
        // a program on a socket beside the server, as PHP-FPM, uWSGI and Node.js are: it needs no environment
        Runtimes.resident(start, run, "wasm", List.of(socket), Map.of(), List.of(host.toString(), "--listen",
                "unix:" + socket, "--command", command.toString(), "--kept", kept.toString()));
    }
}
