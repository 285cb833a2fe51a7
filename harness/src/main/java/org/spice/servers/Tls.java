package org.spice.servers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

/**
 * The servers' TLS files: a self-signed certificate for localhost and 127.0.0.1, made on this machine the first time a
 * server needs it and never committed (run/ is ignored by git), its key, and for Jetty a PKCS#12 keystore whose password
 * is generated too. The harness trusts exactly this certificate (--trust-cert); nothing disables verification.
 */
final class Tls {

    final Path dir;

    Tls(Path run) {
        this.dir = run.resolve("tls");
    }

    Path cert() {
        return dir.resolve("server.pem");
    }

    Path key() {
        return dir.resolve("server.key");
    }

    Path keystore() {
        return dir.resolve("server.p12");
    }

    Path passwordFile() {
        return dir.resolve("password");
    }

    /** Makes the files where any is missing (openssl); as root, the service user's group may read the key. */
    void ensure(Site site) throws IOException {
        if (!List.of(cert(), key(), keystore(), passwordFile()).stream().allMatch(Tls::nonEmpty)) {
            if (Programs.which("openssl") == null) {
                throw new IOException("openssl is not installed (the servers' HTTPS needs a certificate): apt-get install openssl");
            }
            Files.createDirectories(dir);
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
            Programs.Result made = Programs.output(List.of("sh", "-c", "umask 077"
                    + " && openssl req -x509 -newkey rsa:2048 -nodes -days 825 -subj /CN=localhost"
                    + " -addext subjectAltName=DNS:localhost,IP:127.0.0.1 -keyout \"$0\" -out \"$1\" 2>/dev/null"
                    + " && openssl rand -hex 24 > \"$2\""
                    + " && openssl pkcs12 -export -name spice -in \"$1\" -inkey \"$0\" -passout \"file:$2\" -out \"$3\"",
                    key().toString(), cert().toString(), passwordFile().toString(), keystore().toString()));
            if (!made.ok()) {
                throw new IOException("could not make the TLS certificate in " + dir + ": " + made.output().strip());
            }
            // the certificate is public: the servers' workers and the harness read it; the key stays the owner's
            Files.setPosixFilePermissions(cert(), PosixFilePermissions.fromString("rw-r--r--"));
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x"));
            site.err.println("spice: made a self-signed certificate for localhost and 127.0.0.1: " + cert());
        }
        if (site.user.drops()) {   // the servers run as the service user: its group reads the key
            String group = ServiceUser.groupOf(site.user.name());
            for (Path secret : List.of(key(), keystore(), passwordFile())) {
                Programs.Result given = Programs.output(List.of("chgrp", group, secret.toString()));
                if (!given.ok()) {
                    throw new IOException("could not give " + secret + " to the group " + group + ": " + given.output().strip());
                }
                Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-r-----"));
            }
        }
    }

    private static boolean nonEmpty(Path file) {
        try {
            return Files.size(file) > 0;
        } catch (IOException e) {
            return false;
        }
    }
}
