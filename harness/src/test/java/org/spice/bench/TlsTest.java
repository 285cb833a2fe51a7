package org.spice.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.net.Endpoint;
import org.spice.bench.net.ErrorClass;
import org.spice.bench.net.HttpExchange;
import org.spice.bench.net.Request;
import org.spice.bench.net.TlsConfig;

/**
 * TLS entries: a certificate given with --trust-cert is trusted and the host name is checked; any other
 * certificate fails the handshake. The certificates are made by the JDK's keytool for the test.
 */
class TlsTest {

    private static final int SIZE = 6250;

    @TempDir
    static Path dir;
    private static TestServer server;
    private static Endpoint endpoint;

    @BeforeAll
    static void start() throws Exception {
        keytool("-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=spice",
                "-ext", "san=ip:127.0.0.1", "-validity", "2", "-storetype", "PKCS12", "-keystore", "server.p12",
                "-storepass", "changeit", "-keypass", "changeit");
        keytool("-exportcert", "-rfc", "-alias", "server", "-keystore", "server.p12", "-storepass", "changeit",
                "-file", "server.pem");
        keytool("-genkeypair", "-alias", "other", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=other",
                "-ext", "san=dns:other.example", "-validity", "2", "-storetype", "PKCS12", "-keystore", "other.p12",
                "-storepass", "changeit", "-keypass", "changeit");
        keytool("-exportcert", "-alias", "other", "-keystore", "other.p12", "-storepass", "changeit",
                "-file", "other.der");   // DER this time: both encodings must load

        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(dir.resolve("server.p12"))) {
            store.load(in, "changeit".toCharArray());
        }
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, "changeit".toCharArray());
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys.getKeyManagers(), null, null);
        SSLServerSocket socket = (SSLServerSocket) context.getServerSocketFactory()
                .createServerSocket(0, 50, InetAddress.getLoopbackAddress());
        server = new TestServer(socket, (head, s, out) -> {
            TestServer.respond(out, 200, SIZE, SIZE);
            return true;
        });
        endpoint = Endpoint.parse("https://127.0.0.1:" + server.port());
    }

    @AfterAll
    static void stop() throws IOException {
        server.close();
    }

    @Test
    void trustedCertificateWorksWithAndWithoutResumptionAndKeepAlive() throws Exception {
        for (boolean resume : new boolean[] {false, true}) {
            for (boolean keepAlive : new boolean[] {false, true}) {
                TlsConfig tls = TlsConfig.create(dir.resolve("server.pem"), resume);
                try (HttpExchange exchange = new HttpExchange(endpoint, tls, 3000, keepAlive)) {
                    for (int i = 0; i < 3; i++) {
                        assertNull(once(exchange, keepAlive), "resume=" + resume + " keepAlive=" + keepAlive);
                        assertEquals(SIZE, exchange.bodyBytes());
                    }
                }
            }
        }
    }

    @Test
    void untrustedCertificateFailsTheHandshake() throws Exception {
        TlsConfig tls = TlsConfig.create(dir.resolve("other.der"), false);
        try (HttpExchange exchange = new HttpExchange(endpoint, tls, 3000, false)) {
            assertEquals(ErrorClass.TLS, once(exchange, false));
        }
    }

    @Test
    void hostNameIsChecked() throws Exception {
        // the server's certificate is for 127.0.0.1 only; "localhost" resolves there but is not in it
        Endpoint byName = Endpoint.parse("https://localhost:" + server.port());
        TlsConfig tls = TlsConfig.create(dir.resolve("server.pem"), false);
        try (HttpExchange exchange = new HttpExchange(byName, tls, 3000, false)) {
            Request request = Request.get(byName, "/", false, SIZE);
            exchange.prepare(request);
            assertEquals(ErrorClass.TLS, exchange.finish(exchange.perform(request)));
        }
    }

    private static ErrorClass once(HttpExchange exchange, boolean keepAlive) throws Exception {
        Request request = Request.get(endpoint, "/spice/servlet", keepAlive, SIZE);
        exchange.prepare(request);
        return exchange.finish(exchange.perform(request));
    }

    private static void keytool(String... args) throws Exception {
        String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        List<String> command = new java.util.ArrayList<>(List.of(keytool));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        if (process.waitFor() != 0) {
            throw new IOException("keytool failed: " + output);
        }
    }
}
